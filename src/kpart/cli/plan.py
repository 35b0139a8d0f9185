"""``kpart plan``, ``kpart pools`` and ``kpart describe``: reassignment plans from the files
operators already have (``kafka-topics.sh --describe`` output or a reassignment JSON).

Outputs are written atomically (temporary file + rename), all or none; bad input prints one
line on stderr and exits with code 2, leaving no output file.
"""

from __future__ import annotations

import glob
import json
import math
from pathlib import Path
from typing import Annotated

import typer

from kpart._files import check_writable, read_text, write_texts
from kpart.cli._options import either
from kpart.errors import ConfigError

# Options shared by plan, pools and describe.
_Current = Annotated[Path, typer.Option(
    "--current", help="--describe output, reassignment JSON or ZooKeeper topic node (with "
    "--topic); see docs/formats/current.md.", show_default=False)]
_Brokers = Annotated[str | None, typer.Option(
    "--brokers", help="Cluster brokers as ID[:RACK],... or A-B ranges (default: those in "
    "--current).", show_default=False)]
_Topic = Annotated[str | None, typer.Option(
    "--topic", help="Topic name of a ZooKeeper topic node given as --current (the node has "
    "none).", show_default=False)]
_K = Annotated[int | None, typer.Option(
    "--max-concurrent-moves-per-broker", help="Batch so no broker has more than K moves.",
    show_default=False)]
_Sizes = Annotated[Path | None, typer.Option(
    "--sizes", help="Partition sizes: kafka-log-dirs.sh JSON (docs/formats/sizes.md).",
    show_default=False)]
_Out = Annotated[Path | None, typer.Option(
    "--out", "-o", help="Write the plan JSON here.", show_default=False)]
_Rollback = Annotated[Path | None, typer.Option(
    "--rollback-out", help="Write the rollback JSON here.", show_default=False)]
_RollbackAlias = Annotated[Path | None, typer.Option("--rollback", hidden=True,
                                                     show_default=False)]
_DescribeOut = Annotated[Path | None, typer.Option(
    "--describe-out", help="Write --describe view.", show_default=False)]
_Json = Annotated[bool, typer.Option("--json", help="Print a JSON summary.")]



def _refuse_stale_batches(out: Path, files: dict[Path, str]) -> None:
    """Refuse to leave batch files of an earlier plan beside a new one: a user applying
    ``<stem>.batch-*`` would apply outdated moves, and kpart deletes nothing it did not just
    write. ``ConfigError`` naming the first such file."""
    suffix = out.suffix or ".json"
    written = {p.resolve() for p in files}
    parent = out.parent if str(out.parent) else Path(".")
    try:
        entries = sorted(parent.glob(f"{glob.escape(out.stem)}.batch-[0-9][0-9][0-9]*{suffix}"))
    except OSError:
        return
    for entry in entries:
        if entry.resolve() not in written:
            raise ConfigError(f"--out: {str(entry)!r} is a batch of an earlier plan that this "
                              "plan does not replace; remove it (or choose another --out) first")

def _read(path: Path, what: str) -> str:
    return read_text(path, what, stdin=what == "--current")


def parse_broker_spec(text: str | None, what: str) -> list:
    """``"0:r1,1:r1,2-5"`` → ``[Broker(0, 'r1'), Broker(1, 'r1'), Broker(2), ...]``."""
    from kpart.placement.spec import Broker

    if text is None:
        return []
    out = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        ident, _, rack = item.partition(":")
        lo, dash, hi = ident.partition("-")
        try:
            ids = range(int(lo), int(hi) + 1) if dash else [int(ident)]
            if dash and int(hi) < int(lo):
                raise ValueError
        except ValueError:
            raise ConfigError(f"Invalid broker {item!r} in {what}: expected ID[:RACK]") from None
        from kpart.limits import check_brokers

        check_brokers(len(out) + len(ids), what)  # before a range like 0-2000000000 expands
        for b in ids:
            out.append(Broker(b, rack or None))
    return out


def _fmt_ratio(x: float) -> str:
    return "inf" if math.isinf(x) else f"{x:.3f}"


def _summary(rows: list[tuple[str, str, str]], title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    table.add_column("figure")
    table.add_column("before / kpart", justify="right")
    table.add_column("after / --generate", justify="right")
    for row in rows:
        table.add_row(*row)
    Console(width=110).print(table)


def _plan(current, before_brokers, added, removed, spec, max_moves, k, sizes, seed, leaders,
          strategy, rebalance):
    """The planner (``minimal``) or AdminUtils per pool (``generate``) on parsed inputs."""
    from kpart.placement import planner, pools

    if strategy == "generate":
        if added or removed:
            raise ConfigError("--strategy generate takes no --add-brokers/--remove-brokers")
        assert spec is not None
        return pools.place_in_pools(
            current, before_brokers, spec, strategy="generate", seed=seed,
            max_concurrent_moves_per_broker=k, sizes=sizes,
        )
    return planner.plan(
        current, before_brokers, add_brokers=added, remove_brokers=removed, pools=spec,
        max_moves=max_moves, max_concurrent_moves_per_broker=k, sizes=sizes,
        balance_leaders=leaders, rebalance=rebalance,
    )


def _run(
    current_path: Path,
    brokers: str | None,
    add_brokers: str | None,
    remove_brokers: str | None,
    pools_path: Path | None,
    max_moves: int | None,
    k: int | None,
    sizes_path: Path | None,
    out: Path | None,
    rollback: Path | None,
    describe_out: Path | None,
    topics_out: Path | None,
    seed: int | None,
    leaders: bool,
    as_json: bool,
    strategy: str = "minimal",
    *,
    topic: str | None = None,
    rebalance: bool | None = None,
) -> None:
    from kpart.placement import balance as bal
    from kpart.placement import planner, pools, reassign

    current = reassign.read_current(_read(current_path, "--current"), topic)
    cluster = parse_broker_spec(brokers, "--brokers") or None
    added = parse_broker_spec(add_brokers, "--add-brokers")
    removed = [b.id for b in parse_broker_spec(remove_brokers, "--remove-brokers")]
    spec = pools.parse_pools(_read(pools_path, "--pools")) if pools_path else None
    sizes = bal.parse_partition_sizes(_read(sizes_path, "--sizes")) if sizes_path else None
    before_brokers = planner.cluster_brokers(current, cluster)
    seen: dict[Path, str] = {}
    for path, option in ((out, "--out"), (rollback, "--rollback-out"),
                         (describe_out, "--describe-out"), (topics_out, "--topics-out")):
        if path is not None:
            check_writable(path, option, inputs={"--current": current_path, "--pools": pools_path,
                                                 "--sizes": sizes_path})
            if seen.setdefault(path.resolve(), option) != option:
                raise ConfigError(f"{option}: cannot write {str(path)!r}: it is also the output "
                                  f"of {seen[path.resolve()]}")
    from kpart.cli._progress import busy

    with busy(f"planning {sum(len(ps) for ps in current.values()):,} partitions"):
        result = _plan(current, before_brokers, added, removed, spec, max_moves, k, sizes, seed,
                       leaders, strategy, rebalance)
        live = list(result.brokers)
        generated = pools.generate_in_pools(current, live, spec, seed=seed)
    gen_moves = reassign.count_replica_moves(current, generated)
    allowed = None if spec is None else {t: spec.allowed(t, [b.id for b in live]) for t in current}
    b0 = bal.balance(current, list(before_brokers) + added, allowed=allowed)
    b1 = bal.balance(result.target, live, allowed=allowed)
    files: dict[Path, str] = {}
    if out is not None:
        files[out] = reassign.reassignment_json(result.moves) + "\n"
        if k is not None and result.batches:
            for n, batch in enumerate(result.batches, start=1):
                files[out.with_name(f"{out.stem}.batch-{n:03d}{out.suffix or '.json'}")] = (
                    reassign.reassignment_json(batch) + "\n"
                )
        _refuse_stale_batches(out, files)
    if rollback is not None:
        files[rollback] = reassign.rollback_json(result.moves) + "\n"
    if describe_out is not None:
        files[describe_out] = reassign.describe_text(result.target)
    if topics_out is not None:
        files[topics_out] = reassign.topics_to_move_json({m.topic for m in result.moves}) + "\n"
    write_texts(files, {rollback: "--rollback-out", describe_out: "--describe-out",
                        topics_out: "--topics-out"}, "--out",
                inputs={"--current": current_path, "--pools": pools_path, "--sizes": sizes_path})
    summary = {
        "partitions": b0.partitions,
        "replicas": b0.replicas,
        "moved_partitions": len(result.moves),
        "replica_moves": result.replica_moves,
        "generate_replica_moves": gen_moves,
        "leader_changes": result.leader_changes,
        "bytes_to_move": result.bytes_to_move,
        "batches": len(result.batches),
        "max_moves_reached": result.max_moves_reached,
        "hard_goal_violations": dict(result.hard_violations),
        "before": b0.to_dict(),
        "after": b1.to_dict(),
    }
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    share = f"{result.replica_moves / gen_moves:.1%}" if gen_moves else "-"
    rows = [
        ("replicas moved", f"{result.replica_moves}", f"{gen_moves}"),
        ("kpart / --generate", share, ""),
        ("partitions changed", f"{len(result.moves)}", ""),
        ("leader changes", f"{result.leader_changes}", ""),
        ("bytes to move", "-" if result.bytes_to_move is None else f"{result.bytes_to_move:,}", ""),
        ("batches", f"{len(result.batches)}", ""),
        ("max/min replicas per broker", _fmt_ratio(b0.replica_ratio), _fmt_ratio(b1.replica_ratio)),
        ("max/min leaders per broker", _fmt_ratio(b0.leader_ratio), _fmt_ratio(b1.leader_ratio)),
        ("rack-diversity violations", f"{len(b0.rack_violations)}", f"{len(b1.rack_violations)}"),
        ("hard-goal violations", "", ", ".join(f"{n}={c}" for n, c in result.hard_violations) or "0"),
    ]
    if result.max_moves_reached:
        rows.append(("--max-moves reached", "yes", ""))
    _summary(rows, f"kpart {'pools' if strategy == 'generate' or spec else 'plan'}: "
                   f"{b0.partitions} partitions, {b0.replicas} replicas")


def plan_command(
    current: _Current,
    brokers: _Brokers = None,
    add_brokers: str | None = typer.Option(None, "--add-brokers", help="Brokers to add: ID[:RACK],..."),
    remove_brokers: str | None = typer.Option(None, "--remove-brokers", help="Brokers to empty: ID,..."),
    pools_path: Path | None = typer.Option(None, "--pools", help="Pool file, JSON (docs/formats/pools.md)."),  # noqa: B008
    max_moves: int | None = typer.Option(None, "--max-moves", help="Cap on replica moves."),
    k: _K = None,
    sizes: _Sizes = None,
    out: _Out = None,
    rollback: _Rollback = None,
    describe_out: _DescribeOut = None,
    topics_out: Path | None = typer.Option(None, "--topics-out", help="Write topics-to-move JSON."),  # noqa: B008
    seed: int | None = typer.Option(None, "--seed", help="Seed of the --generate comparison.",
                                       min=-(2**63), max=2**63 - 1),
    leaders: bool = typer.Option(True, "--leaders/--no-leaders", help="Balance preferred leaders."),
    rebalance: bool | None = typer.Option(
        None, "--rebalance/--no-rebalance",
        help="Even out replicas across brokers (default: yes, unless the plan only removes "
        "brokers, which then moves just their replicas).",
    ),
    topic: _Topic = None,
    as_json: _Json = False,
    rollback_alias: _RollbackAlias = None,
) -> None:
    """Plan a minimal-movement reassignment (add/remove brokers, pools, balance)."""
    rollback = either(rollback, rollback_alias, "--rollback-out", required=False)
    _run(current, brokers, add_brokers, remove_brokers, pools_path, max_moves, k, sizes, out,
         rollback, describe_out, topics_out, seed, leaders, as_json, topic=topic,
         rebalance=rebalance)


def pools_command(
    current: _Current,
    pools_path: Path = typer.Option(..., "--pools", help="Pool file, JSON (docs/formats/pools.md)."),  # noqa: B008
    brokers: _Brokers = None,
    strategy: str = typer.Option(
        "minimal", "--strategy", help="minimal (planner) or generate (AdminUtils per pool)."
    ),
    k: _K = None,
    sizes: _Sizes = None,
    out: _Out = None,
    rollback: _Rollback = None,
    describe_out: _DescribeOut = None,
    seed: int | None = typer.Option(None, "--seed", help="Seed of AdminUtils' random start.",
                                       min=-(2**63), max=2**63 - 1),
    topic: _Topic = None,
    as_json: _Json = False,
    rollback_alias: _RollbackAlias = None,
) -> None:
    """Move every topic into its resource pool (brokers reserved for some topics), one plan."""
    if strategy not in ("minimal", "generate"):
        raise ConfigError(f"Unknown --strategy {strategy!r}: expected 'minimal' or 'generate'")
    rollback = either(rollback, rollback_alias, "--rollback-out", required=False)
    _run(current, brokers, None, None, pools_path, None, k, sizes, out, rollback, describe_out,
         None, seed, True, as_json, strategy, topic=topic)


def describe_command(
    current: _Current,
    brokers: _Brokers = None,
    pools_path: Path | None = typer.Option(None, "--pools", help="Pool file, JSON (docs/formats/pools.md)."),  # noqa: B008
    topic: _Topic = None,
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Balance report of a current assignment: replicas/leaders per broker and rack."""
    from kpart.placement import balance as bal
    from kpart.placement import planner, pools, reassign

    assignment = reassign.read_current(_read(current, "--current"), topic)
    cluster = planner.cluster_brokers(assignment, parse_broker_spec(brokers, "--brokers") or None)
    allowed = None
    if pools_path is not None:
        spec = pools.parse_pools(_read(pools_path, "--pools"))
        spec.check_brokers(b.id for b in cluster)
        allowed = {t: spec.allowed(t, [b.id for b in cluster]) for t in assignment}
    report = bal.balance(assignment, list(cluster), allowed=allowed)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    leaders = dict(report.leaders_per_broker)
    racks = {b.id: b.rack for b in cluster}
    table = Table(title=f"{report.partitions} partitions, {report.replicas} replicas, "
                        f"{report.brokers} brokers")
    for col in ("broker", "rack", "replicas", "leaders"):
        table.add_column(col, justify="right")
    for b, n in report.replicas_per_broker:
        table.add_row(str(b), racks.get(b) or "-", str(n), str(leaders.get(b, 0)))
    console = Console(width=110)
    console.print(table)
    console.print(
        f"max/min replicas {_fmt_ratio(report.replica_ratio)}, "
        f"leaders {_fmt_ratio(report.leader_ratio)}; "
        f"rack-diversity violations: {len(report.rack_violations)}"
    )
    for rack, n in report.replicas_per_rack:
        console.print(f"rack {rack}: {n} replicas, {dict(report.leaders_per_rack)[rack]} leaders")


def register(app: typer.Typer) -> None:
    """Add ``kpart plan``, ``kpart pools`` and ``kpart describe`` to the ``kpart`` app."""
    app.command("plan")(plan_command)
    app.command("pools")(pools_command)
    app.command("describe")(describe_command)
