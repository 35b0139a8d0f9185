"""``kpart plan``, ``kpart pools`` and ``kpart describe``: reassignment plans from the files
operators already have (``kafka-topics.sh --describe`` output or a reassignment JSON).

Outputs are written atomically (temporary file + rename), all or none; bad input prints one
line on stderr and exits with code 2, leaving no output file. ``--out`` holds the
``kafka-reassign-partitions.sh`` plan JSON, or with ``--format parquet|arrow`` the plan as a
table, one row per partition (:meth:`~kpart.placement.plan.Plan.to_arrow`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kpart._files import Content, PathLike, read_text, table_fill, write_texts
from kpart.cli._cluster_inputs import (  # parse_broker_spec: kpart.cli.plan's name too
    CapacityOption,
    LoadsOption,
    PartialOption,
    SizesOption,
    SnapshotOption,
    TopicOption,
    parse_broker_spec,
)
from kpart.cli._options import (
    BINARY_FORMATS,
    UnversionedKafkaVersion,
    check_kafka_version,
    either,
    output_format,
)
from kpart.cli._plan_cluster import check_outputs, refuse_stale_batches
from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from kpart.cluster.plan_request import PlanRequest
    from kpart.placement.balance import BalanceReport
    from kpart.placement.plan import Plan
    from kpart.placement.pools import PoolSpec
    from kpart.placement.reassign import ClusterAssignment
    from kpart.placement.spec import Broker

# Options shared by plan, pools and describe.
_Current = Annotated[Path, typer.Option(
    "--current", help="--describe output, reassignment JSON or ZooKeeper topic node (with "
    "--topic); see docs/formats/current.md.", show_default=False)]
_Brokers = Annotated[str | None, typer.Option(
    "--brokers", help="Cluster brokers as ID[:RACK],... or A-B ranges (default: those in "
    "--current).", show_default=False)]
_K = Annotated[int | None, typer.Option(
    "--max-concurrent-moves-per-broker", help="Batch so no broker has more than K moves.",
    show_default=False)]
_Out = Annotated[Path | None, typer.Option(
    "--out", "-o", help="Write the plan here (reassignment JSON, or see --format).",
    show_default=False)]
_Format = Annotated[str | None, typer.Option(
    "--format", help="Format of --out: json (kafka-reassign-partitions.sh plan, with its "
    "batch files), parquet or arrow (one row per partition: current and target replicas, "
    "batch; docs/replica-placement.md). Left out: from --out's name (.parquet, .arrow), "
    "else json.", show_default=False)]
_PLAN_FORMATS = ("json", *BINARY_FORMATS)
_Rollback = Annotated[Path | None, typer.Option(
    "--rollback-out", help="Write the rollback JSON here.", show_default=False)]
_RollbackAlias = Annotated[Path | None, typer.Option("--rollback", hidden=True,
                                                     show_default=False)]
_DescribeOut = Annotated[Path | None, typer.Option(
    "--describe-out", help="Write --describe view.", show_default=False)]
_Json = Annotated[bool, typer.Option("--json", help="Print a JSON summary.")]



def _read(path: Path, what: str) -> str:
    return read_text(path, what, stdin=what == "--current")


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


@dataclass(frozen=True, slots=True)
class _Request:
    """What ``kpart plan`` / ``kpart pools`` were asked: the input files, the cluster change,
    the planner's options and the outputs (one value for the command's nineteen options)."""

    current_path: Path
    topic: str | None = None
    brokers: str | None = None
    add_brokers: str | None = None
    remove_brokers: str | None = None
    pools_path: Path | None = None
    sizes_path: Path | None = None
    strategy: str = "minimal"
    max_moves: int | None = None
    k: int | None = None
    seed: int | None = None
    leaders: bool = True
    rebalance: bool | None = None
    out: Path | None = None
    rollback: Path | None = None
    describe_out: Path | None = None
    topics_out: Path | None = None
    as_json: bool = False
    fmt: str = "json"
    partial: bool = False
    kafka_version: str | None = None  # the brokers' version: --generate's placer
    cordoned: str | None = None  # brokers whose log dirs are all cordoned (KIP-1066)

    @property
    def inputs(self) -> dict[str, PathLike | None]:
        """``{option: path}`` of the file inputs (never overwritten by an output)."""
        return {"--current": self.current_path, "--pools": self.pools_path,
                "--sizes": self.sizes_path}


@dataclass(frozen=True, slots=True)
class _Inputs:
    """The request's files and broker lists, parsed."""

    current: ClusterAssignment
    before_brokers: tuple[Broker, ...]
    added: list[Broker]
    removed: list[int]
    pools: PoolSpec | None
    sizes: dict[tuple[str, int], int] | None
    configs: dict[str, str]  # each topic's Configs: of a describe dump (for --describe-out)


def _read_inputs(req: _Request) -> _Inputs:
    """Parse the broker lists, then read ``--current``, ``--pools`` and ``--sizes`` (in that
    order: a bad broker list is refused before the long read)."""
    from kpart.placement import balance, planner, pools, reassign

    cluster = parse_broker_spec(req.brokers, "--brokers") or None  # before the long read
    added = parse_broker_spec(req.add_brokers, "--add-brokers")
    removed = [b.id for b in parse_broker_spec(req.remove_brokers, "--remove-brokers")]
    text = _read(req.current_path, "--current")
    current = reassign.read_current(text, req.topic, partial=req.partial)
    configs = reassign.read_current_configs(text) if req.describe_out is not None else {}
    del text
    spec = pools.parse_pools(_read(req.pools_path, "--pools")) if req.pools_path else None
    sizes = (balance.parse_partition_sizes(_read(req.sizes_path, "--sizes"))
             if req.sizes_path else None)
    return _Inputs(current, planner.cluster_brokers(current, cluster), added, removed, spec,
                   sizes, configs)


def _check_outputs(req: _Request) -> None:
    """Before planning: every output can be written, none is an input, another output or a
    batch file of ``--out``."""
    check_outputs({"--out": req.out, "--rollback-out": req.rollback,
                   "--describe-out": req.describe_out, "--topics-out": req.topics_out},
                  req.inputs, req.k is not None and req.fmt not in BINARY_FORMATS)


def _plan(req: _Request, given: _Inputs) -> Plan:
    """The planner (``minimal``) or AdminUtils per pool (``generate``) on parsed inputs."""
    from kpart.placement import planner
    from kpart.placement.cordon import cordoned_brokers

    if req.strategy == "generate":
        if given.added or given.removed:
            raise ConfigError("--strategy generate takes no --add-brokers/--remove-brokers")
        assert given.pools is not None
        return planner.place_in_pools(
            given.current, given.before_brokers, given.pools, strategy="generate",
            seed=req.seed, max_concurrent_moves_per_broker=req.k, sizes=given.sizes,
            kafka_version=req.kafka_version,
        )
    return planner.plan(
        given.current, given.before_brokers, add_brokers=given.added,
        remove_brokers=given.removed, pools=given.pools, max_moves=req.max_moves,
        max_concurrent_moves_per_broker=req.k, sizes=given.sizes, balance_leaders=req.leaders,
        rebalance=req.rebalance, cordoned=cordoned_brokers(req.cordoned, req.kafka_version),
        kafka_version=req.kafka_version,
    )


def _write_outputs(req: _Request, result: Plan, configs: dict[str, str]) -> None:
    """The plan (and its batches), rollback, ``--describe`` view and topics-to-move files,
    written all or none."""
    from kpart.placement import reassign

    files: dict[PathLike, Content] = {}
    out = req.out
    if out is not None and req.fmt in BINARY_FORMATS:
        files[out] = table_fill(result.to_arrow(), req.fmt)  # the batch column: no batch files
    elif out is not None:
        files[out] = reassign.reassignment_json(result.moves) + "\n"
        if req.k is not None and result.batches:
            for n, batch in enumerate(result.batches, start=1):
                files[out.with_name(f"{out.stem}.batch-{n:03d}{out.suffix or '.json'}")] = (
                    reassign.reassignment_json(batch) + "\n"
                )
        refuse_stale_batches(out, files)
    if req.rollback is not None:
        files[req.rollback] = reassign.rollback_json(result.moves) + "\n"
    if req.describe_out is not None:
        files[req.describe_out] = reassign.describe_text(result.target, configs)
    if req.topics_out is not None:
        files[req.topics_out] = (
            reassign.topics_to_move_json({m.topic for m in result.moves}) + "\n")
    write_texts(files, {req.rollback: "--rollback-out", req.describe_out: "--describe-out",
                        req.topics_out: "--topics-out"}, "--out", inputs=req.inputs)


def _report(req: _Request, result: Plan, gen_moves: int, b0: BalanceReport, b1: BalanceReport) -> None:
    """The summary: JSON with ``--json``, else a table (kpart's plan beside ``--generate``)."""
    if req.as_json:
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
        typer.echo(json.dumps(summary, indent=2))
        return
    share = f"{result.replica_moves / gen_moves:.1%}" if gen_moves else "-"
    moved_bytes = "-" if result.bytes_to_move is None else f"{result.bytes_to_move:,}"
    violations = ", ".join(f"{n}={c}" for n, c in result.hard_violations) or "0"
    rows = [
        ("replicas moved", f"{result.replica_moves}", f"{gen_moves}"),
        ("kpart / --generate", share, ""),
        ("partitions changed", f"{len(result.moves)}", ""),
        ("leader changes", f"{result.leader_changes}", ""),
        ("bytes to move", moved_bytes, ""),
        ("batches", f"{len(result.batches)}", ""),
        ("max/min replicas per broker", _fmt_ratio(b0.replica_ratio), _fmt_ratio(b1.replica_ratio)),
        ("max/min leaders per broker", _fmt_ratio(b0.leader_ratio), _fmt_ratio(b1.leader_ratio)),
        ("rack-diversity violations", f"{len(b0.rack_violations)}", f"{len(b1.rack_violations)}"),
        ("hard-goal violations", "", violations),
    ]
    if result.max_moves_reached:
        rows.append(("--max-moves reached", "yes", ""))
    command = "pools" if req.strategy == "generate" or req.pools_path else "plan"
    _summary(rows, f"kpart {command}: {b0.partitions} partitions, {b0.replicas} replicas")


def _run(req: _Request) -> None:
    """``kpart plan`` / ``kpart pools``: read, check the outputs, plan (beside what
    ``--generate`` would do), write, report."""
    from kpart.placement import balance, reassign
    from kpart.placement.cordon import cordoned_brokers
    from kpart.versions import behaviour

    behaviour("generate_placer", req.kafka_version)  # a bad --kafka-version: before any read
    cordoned_brokers(req.cordoned, req.kafka_version)
    given = _read_inputs(req)
    _check_outputs(req)
    current = given.current
    from kpart.cli._progress import busy

    with busy(f"planning {sum(len(ps) for ps in current.values()):,} partitions"):
        result = _plan(req, given)
        live = list(result.brokers)
        generated = reassign.generate_assignment(current, live, seed=req.seed, pools=given.pools,
                                                 kafka_version=req.kafka_version)
    gen_moves = reassign.count_replica_moves(current, generated)
    spec = given.pools
    allowed = None if spec is None else {t: spec.allowed(t, [b.id for b in live]) for t in current}
    b0 = balance.balance(current, [*given.before_brokers, *given.added], allowed=allowed)
    b1 = balance.balance(result.target, live, allowed=allowed)
    _write_outputs(req, result, given.configs)
    _report(req, result, gen_moves, b0, b1)


_KafkaVersion = Annotated[str | None, typer.Option(
    "--kafka-version", help="The brokers' Kafka version: --generate's placer (AdminUtils up to "
    "4.0, StripedReplicaPlacer from 4.1.0, KAFKA-18798) [default: 4.3].", show_default=False)]
_Cordoned = Annotated[str | None, typer.Option(
    "--cordoned", help="Brokers whose log dirs are all cordoned (KIP-1066, Kafka 4.3+): they "
    "keep their replicas and take no new one, e.g. 3,5.", show_default=False)]
_CurrentOrSnapshot = Annotated[Path | None, typer.Option(
    "--current", help="--describe output, reassignment JSON or ZooKeeper topic node (with "
    "--topic); see docs/formats/current.md. Required, except with --snapshot.",
    show_default=False)]
_Goals = Annotated[str | None, typer.Option(
    "--goals", help="Load-aware: Cruise Control's goals to meet, in priority order, by name "
    "(NAME,...; default: its default.goals); see docs/cluster-plan.md.", show_default=False)]
_Verify = Annotated[bool, typer.Option(
    "--verify", help="Load-aware: check the plan independently (every hard goal holds, no soft "
    "goal gets worse, valid replica sets); exit 2 and write nothing if not.")]
_Failures = Annotated[bool, typer.Option(
    "--failures", help="Load-aware: add every single-broker and single-rack failure of the "
    "target to the summary, worst first (as kpart outage --all; costs seconds).")]
_SummaryOut = Annotated[Path | None, typer.Option(
    "--summary-out", help="Load-aware: write the JSON summary here (what --json prints).",
    show_default=False)]
_Html = Annotated[Path | None, typer.Option(
    "--html-out", help="Load-aware: write plan.html (brokers before/after, goals, batches, "
    "failures; docs/plan-html.md).", show_default=False)]
_Throttle = Annotated[int | None, typer.Option(
    "--throttle", min=1, max=2**63 - 1, help="Load-aware: the replication throttle in bytes/s "
    "(kafka-reassign-partitions.sh --execute --throttle): estimate each batch's duration and "
    "the plan's.", show_default=False)]
_MaxReplicas = Annotated[int | None, typer.Option(
    "--max-replicas-per-broker", min=1, help="Load-aware: Cruise Control's "
    "max.replicas.per.broker (ReplicaCapacityGoal) [default: 10000].", show_default=False)]
_CapacityThreshold = Annotated[float | None, typer.Option(
    "--capacity-threshold", min=0.0, help="Load-aware: Cruise Control's disk/network.inbound/"
    "network.outbound.capacity.threshold: the share of capacity the capacity goals allow "
    "[default: 0.8].", show_default=False)]
_BalanceThreshold = Annotated[float | None, typer.Option(
    "--balance-threshold", min=1.0, help="Load-aware: Cruise Control's replica.count/"
    "leader.replica.count/disk/network.inbound/network.outbound.balance.threshold: every "
    "broker within [mean x (2 - t), mean x t] [default: 1.10].", show_default=False)]


def _plan_options(  # noqa: PLR0913
    current: _CurrentOrSnapshot = None,
    brokers: _Brokers = None,
    add_brokers: str | None = typer.Option(None, "--add-brokers", help="Brokers to add: ID[:RACK],..."),
    remove_brokers: str | None = typer.Option(None, "--remove-brokers", help="Brokers to empty: ID,..."),
    pools_path: Path | None = typer.Option(None, "--pools", help="Pool file, JSON (docs/formats/pools.md)."),  # noqa: B008
    max_moves: int | None = typer.Option(None, "--max-moves", help="Cap on replica moves."),
    k: _K = None,
    sizes: SizesOption = None,
    out: _Out = None,
    rollback: _Rollback = None,
    describe_out: _DescribeOut = None,
    topics_out: Path | None = typer.Option(None, "--topics-out", help="Write topics-to-move JSON."),  # noqa: B008
    seed: int | None = typer.Option(None, "--seed", help="Seed of the --generate comparison.",
                                       min=-(2**63), max=2**63 - 1),
    leaders: bool | None = typer.Option(None, "--leaders/--no-leaders",
                                        help="Balance preferred leaders [default: leaders]."),
    rebalance: bool | None = typer.Option(
        None, "--rebalance/--no-rebalance",
        help="Even out replicas across brokers (default: yes, unless the plan only removes "
        "brokers, which then moves just their replicas).",
    ),
    topic: TopicOption = None,
    as_json: _Json = False,
    rollback_alias: _RollbackAlias = None,
    fmt: _Format = None,
    snapshot: SnapshotOption = None,
    capacity: CapacityOption = None,
    loads: LoadsOption = None,
    goals: _Goals = None,
    verify: _Verify = False,
    failures: _Failures = False,
    summary_out: _SummaryOut = None,
    html: _Html = None,
    throttle: _Throttle = None,
    max_replicas: _MaxReplicas = None,
    capacity_threshold: _CapacityThreshold = None,
    balance_threshold: _BalanceThreshold = None,
    partial: PartialOption = False,
    kafka_version: _KafkaVersion = None,
    cordoned: _Cordoned = None,
) -> None:
    """Plan a minimal-movement reassignment (add/remove brokers, pools, balance).

    Two modes. Count-based (the default): even out replicas and leaders, moving the fewest
    replicas. Load-aware, chosen when any of --goals, --capacity, --loads, --snapshot or
    --verify is given: meet Cruise Control's goals on disk, network and leadership, moving
    the fewest bytes (docs/cluster-plan.md; --pools adds BrokerSetAwareGoal); it refuses
    --max-moves, --seed, --leaders/--no-leaders and --rebalance;
    --max-concurrent-moves-per-broker and --throttle give its schedule (docs/schedule.md).
    """
    from kpart.cluster.plan_request import PlanRequest

    plan_command(PlanRequest.from_options(
        current=current, snapshot=snapshot, topic=topic, brokers=brokers,
        add_brokers=add_brokers, remove_brokers=remove_brokers, pools=pools_path, sizes=sizes,
        capacity=capacity, loads=loads, goals=goals, max_replicas=max_replicas,
        capacity_threshold=capacity_threshold, balance_threshold=balance_threshold,
        verify=verify, failures=failures, max_moves=max_moves, max_moves_per_broker=k,
        seed=seed, leaders=leaders, rebalance=rebalance, throttle=throttle, out=out,
        fmt=output_format(fmt, out, _PLAN_FORMATS, "json"),
        rollback=either(rollback, rollback_alias, "--rollback-out", required=False),
        describe_out=describe_out, topics_out=topics_out, summary_out=summary_out, html=html,
        as_json=as_json, partial=partial, kafka_version=kafka_version, cordoned=cordoned))


def plan_command(request: PlanRequest) -> None:
    """``kpart plan`` on a parsed request: the load-aware planner when the request chooses it
    (:attr:`~kpart.cluster.plan_request.PlanRequest.load_aware`), else the count-based one."""
    from kpart.cli import _plan_cluster as lp

    r = request
    if r.load_aware:
        lp.run(r)
        return
    assert r.current is not None  # PlanRequest.from_options: --current in this mode
    _run(_Request(
        r.current, topic=r.topic, brokers=r.brokers, add_brokers=r.add_brokers,
        remove_brokers=r.remove_brokers, pools_path=r.pools, sizes_path=r.sizes,
        max_moves=r.max_moves, k=r.max_moves_per_broker, seed=r.seed,
        leaders=True if r.leaders is None else r.leaders, rebalance=r.rebalance, out=r.out,
        rollback=r.rollback, describe_out=r.describe_out, topics_out=r.topics_out,
        as_json=r.as_json, fmt=r.fmt, partial=r.partial, kafka_version=r.kafka_version,
        cordoned=r.cordoned,
    ))


def pools_command(  # noqa: PLR0913
    current: _Current,
    pools_path: Path = typer.Option(..., "--pools", help="Pool file, JSON (docs/formats/pools.md)."),  # noqa: B008
    brokers: _Brokers = None,
    strategy: str = typer.Option(
        "minimal", "--strategy", help="minimal (planner) or generate (AdminUtils per pool)."
    ),
    k: _K = None,
    sizes: SizesOption = None,
    out: _Out = None,
    rollback: _Rollback = None,
    describe_out: _DescribeOut = None,
    seed: int | None = typer.Option(None, "--seed", help="Seed of AdminUtils' random start.",
                                       min=-(2**63), max=2**63 - 1),
    topic: TopicOption = None,
    as_json: _Json = False,
    rollback_alias: _RollbackAlias = None,
    fmt: _Format = None,
    partial: PartialOption = False,
    kafka_version: _KafkaVersion = None,
) -> None:
    """Move every topic into its resource pool (brokers reserved for some topics), one plan."""
    if strategy not in ("minimal", "generate"):
        raise ConfigError(f"Unknown --strategy {strategy!r}: expected 'minimal' or 'generate'")
    fmt = output_format(fmt, out, _PLAN_FORMATS, "json")
    rollback = either(rollback, rollback_alias, "--rollback-out", required=False)
    _run(_Request(
        current, topic=topic, brokers=brokers, pools_path=pools_path, sizes_path=sizes,
        strategy=strategy, k=k, seed=seed, out=out, rollback=rollback,
        describe_out=describe_out, as_json=as_json, fmt=fmt, partial=partial,
        kafka_version=kafka_version,
    ))


def describe_command(
    current: _Current,
    brokers: _Brokers = None,
    pools_path: Path | None = typer.Option(None, "--pools", help="Pool file, JSON (docs/formats/pools.md)."),  # noqa: B008
    topic: TopicOption = None,
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    partial: PartialOption = False,
    kafka_version: UnversionedKafkaVersion = None,
) -> None:
    """Balance report of a current assignment: replicas/leaders per broker and rack."""
    from kpart.placement import balance as bal
    from kpart.placement import planner, pools, reassign

    check_kafka_version(kafka_version)

    assignment = reassign.read_current(_read(current, "--current"), topic, partial=partial)
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
    app.command("plan")(_plan_options)
    app.command("pools")(pools_command)
    app.command("describe")(describe_command)
