"""``kpart outage``: what happens to leadership, ``min.insync.replicas`` and broker load when
brokers or a rack go down (:mod:`kpart.cluster.broker_outage`: Kafka's election, unclean election
off, as KRaft's ``PartitionChangeBuilder``).

The cluster comes from a ``kafka-topics.sh --describe`` dump (``--current``, racks from
``--brokers ID:RACK,...``), a ``cluster.json`` (``--snapshot``), either with a reassignment
plan applied (``--plan``: the cluster once the plan has completed). ``--down``/``--down-rack``
run one failure (their union), ``--all`` every single-broker and single-rack failure, ranked
worst first by the highest leader bytes-in of a surviving broker after, then its leader
count. ``--json`` prints the report as JSON, ``--out`` writes it (atomically). Bad input: one
line, exit code 2, nothing written.

Ordered events (:mod:`kpart.cluster.broker_events`, KIP-966 eligible leader replicas): as soon
as ``--up``/``--up-unclean``/``--elr``/``--no-elr`` is given or ``--down`` repeats, every
``--down``/``--up``/``--up-unclean`` occurrence is an event, in the order given on the command
line (``ID,...``: one event per id, in listed order); a single ``--down ID,...`` stays one
simultaneous failure. ELR defaults from ``--kafka-version`` (on for 4.1+) and, from 4.0, the
cluster's finalized ``eligible.leader.replicas.version`` when known (``--features FILE``: a
``kafka-features.sh describe`` output, which also selects ordered events; or a version 3
``cluster.json``'s ``features``). The report shows, per event, the partitions it changed
(leader, ISR, ELR, LastKnownElr) and the offline and under-min-ISR ones; ``--json`` is
``"version": 2`` with every partition per step.

Coordinators (:mod:`kpart.cluster.coordinator`): ``--group``/``--transactional-id``
(repeatable) and ``--groups-file`` follow those keys' coordinators — the leaders of their
``__consumer_offsets``/``__transaction_state`` partitions — through the failure(s) or events,
listing those that move or become unavailable (JSON: a top-level ``coordinators`` with each
key's partition and leader before, and ``coordinators`` per failure or step with
``leader_before``, ``leader`` and ``status``). An input without the internal topic (or the
key's partition of it) is refused: the leader is never guessed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand

from kpart._files import check_writable, read_text, write_texts
from kpart.cli._cluster_inputs import PartialOption, SnapshotOption
from kpart.errors import ConfigError, KpartError

if TYPE_CHECKING:  # pragma: no cover

    from kpart.cluster import ClusterModel
    from kpart.cluster.broker_events import BrokerEvent, ReplicationState
    from kpart.cluster.broker_outage import OutageResult
    from kpart.cluster.coordinator import Coordinator, CoordinatorChange

#: The options whose every occurrence is one ordered event (or several: ``ID,...``).
EVENT_OPTIONS = {"--down": "down", "--up": "up", "--up-unclean": "up_unclean"}

#: What ``--all`` ranks by (also printed in the JSON report as ``ranked_by``).
RANKED_BY = "max bytes_in_per_s (leader bytes-in) of a surviving broker, then max leaders"

_Current = Annotated[Path | None, typer.Option(
    "--current", help="kafka-topics.sh --describe output of the cluster "
    "(docs/formats/current.md).", show_default=False)]
_Plan = Annotated[Path | None, typer.Option(
    "--plan", help="Reassignment JSON applied first: the cluster once the plan has completed "
    "(docs/formats/current.md).", show_default=False)]
_Brokers = Annotated[str | None, typer.Option(
    "--brokers", help="Brokers and racks as ID[:RACK],... or A-B ranges (a --describe dump has "
    "no racks).", show_default=False)]
_Down = Annotated[list[str] | None, typer.Option(
    "--down", help="Brokers that go down: ID,... (once: one failure of them all; repeated, or "
    "with --up/--up-unclean/--elr/--no-elr: ordered events, one per broker).",
    show_default=False)]
_Up = Annotated[list[str] | None, typer.Option(
    "--up", help="An ordered event: a down broker returns after a clean shutdown (ID,...).",
    show_default=False)]
_UpUnclean = Annotated[list[str] | None, typer.Option(
    "--up-unclean", help="An ordered event: a down broker returns after an unclean shutdown "
    "(ID,...).", show_default=False)]
_Elr = Annotated[bool | None, typer.Option(
    "--elr/--no-elr", help="Ordered events with KIP-966 eligible leader replicas on or off "
    "(default: on for --kafka-version 4.1 or later, a cluster created there; off before).",
    show_default=False)]
_Version = Annotated[str | None, typer.Option(
    "--kafka-version", help="The brokers' Kafka version (default 4.3): the elections of "
    "ordered events (docs/versions.md).", show_default=False)]
_Features = Annotated[Path | None, typer.Option(
    "--features", help="kafka-features.sh describe output of the cluster: its finalized "
    "eligible.leader.replicas.version sets the --elr/--no-elr default (a cluster.json of "
    "version 3 records it too; docs/outage.md).", show_default=False)]
_DownRack = Annotated[str | None, typer.Option(
    "--down-rack", help="A rack that goes down (all its brokers).", show_default=False)]
_All = Annotated[bool, typer.Option(
    "--all", help="Every single-broker and single-rack failure, worst first.")]
_MinIsr = Annotated[int, typer.Option(
    "--min-insync-replicas", min=1, help="min.insync.replicas of topics whose value is "
    "unknown (not set by a --describe header's Configs:).")]
_Json = Annotated[bool, typer.Option("--json", help="Print the report as JSON.")]
_Group = Annotated[list[str] | None, typer.Option(
    "--group", help="A group id whose coordinator (its __consumer_offsets partition's leader) "
    "to follow; repeatable (docs/coordinators.md).", show_default=False)]
_TransactionalId = Annotated[list[str] | None, typer.Option(
    "--transactional-id", help="A transactional.id whose coordinator (its "
    "__transaction_state partition's leader) to follow; repeatable.", show_default=False)]
_GroupsFile = Annotated[Path | None, typer.Option(
    "--groups-file", help="Group ids to follow, one per line (blank lines skipped), as "
    "kafka-consumer-groups.sh --list prints them (docs/coordinators.md).", show_default=False)]

_Out = Annotated[Path | None, typer.Option(
    "--out", "-o", help="Write the JSON report here.", show_default=False)]


# -- the cluster ------------------------------------------------------------------------------
def _model_from_describe(text: str, brokers: str | None, partial: bool) -> ClusterModel:
    """The model of a ``--describe`` dump (:func:`kpart.cluster.from_files.cluster_from_files`
    with the state as the dump has it: replicas, leader, ISR, ``Offline:``, a reassignment in
    progress as it is now, ``min.insync.replicas`` from the topic headers; no loads); brokers
    = those named in the dump, or ``--brokers`` (which gives racks; a broker the dump names
    but ``--brokers`` lacks is down from the start). A reassignment JSON or ``--generate``
    transcript is refused: it holds no leader or ISR."""
    from kpart.cli._cluster_inputs import parse_broker_spec
    from kpart.cluster.from_files import cluster_from_files
    from kpart.placement.reassign import CURRENT_HEADING, PROPOSED_HEADING

    if text.lstrip().startswith("{"):
        raise ConfigError("--current: no partition lines (expected kafka-topics.sh --describe "
                          "output; give a cluster.json as --snapshot)")
    if CURRENT_HEADING in text or PROPOSED_HEADING in text:
        raise ConfigError("--current: a kafka-reassign-partitions.sh transcript holds no "
                          "leader or ISR: kpart outage needs the kafka-topics.sh --describe "
                          "output (or a cluster.json as --snapshot)")
    racks = parse_broker_spec(brokers, "--brokers") if brokers else None
    return cluster_from_files(text, brokers=racks, partial=partial, state_now=True)


def _read_snapshot(path: Path) -> tuple[ClusterModel, dict[str, int | str] | None]:
    """The model of a ``cluster.json`` and its finalized feature levels (version 3's
    ``features``; ``None`` when not recorded)."""
    from kpart.cluster.cluster_json import cluster_from_json, features_from_json

    text = read_text(path, "--snapshot")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"--snapshot: not JSON ({e.msg} at line {e.lineno})") from None
    return cluster_from_json(doc), features_from_json(doc)


def _load(current: Path | None, snapshot: Path | None, plan: Path | None,
          brokers: str | None, partial: bool = False) -> ClusterModel:
    return _load_features(current, snapshot, plan, brokers, partial)[0]


def _load_features(current: Path | None, snapshot: Path | None, plan: Path | None,
                   brokers: str | None, partial: bool = False,
                   ) -> tuple[ClusterModel, dict[str, int | str] | None]:
    """The cluster (``--current`` or ``--snapshot``, ``--plan`` applied) and the snapshot's
    finalized feature levels (``None``: a dump, or a snapshot without them)."""
    from kpart.cluster.broker_outage import apply_target
    from kpart.placement.reassign import parse_reassignment_json

    if (current is None) == (snapshot is None):
        raise ConfigError("Give the cluster as one of --current (a --describe dump) or "
                          "--snapshot (cluster.json)")
    features = None
    if current is not None:
        model = _model_from_describe(read_text(current, "--current", stdin=True), brokers,
                                     partial)
    else:
        assert snapshot is not None
        if brokers is not None:
            raise ConfigError("--brokers: a --snapshot names its brokers and racks itself")
        if partial:
            raise ConfigError("--partial goes with --current (a --describe dump)")
        model, features = _read_snapshot(snapshot)
    if plan is not None:
        try:
            target = parse_reassignment_json(read_text(plan, "--plan"))
        except KpartError as e:
            raise ConfigError(f"--plan: {e}") from None
        model = apply_target(model, target)
    return model, features


def _failure(model: ClusterModel, down: str | None,
             down_rack: str | None) -> tuple[tuple[int, ...], str | None]:
    from kpart.cluster.broker_outage import rack_brokers

    ids: set[int] = set()
    known = {b.id for b in model.brokers}
    for item in (s.strip() for s in (down or "").split(",")):
        if not item:
            continue
        if not (item.isascii() and item.isdigit()):
            raise ConfigError(f"--down: invalid broker id {item!r}: expected ID,...")
        if int(item) not in known:
            raise ConfigError(f"--down: unknown broker {int(item)}: the cluster has brokers "
                              f"{_ranges(sorted(known))}")
        ids.add(int(item))
    if down_rack is not None:
        racks = sorted({b.rack for b in model.brokers if b.rack is not None})
        if down_rack not in racks:
            listed = (f"racks {', '.join(racks)}" if racks else
                      "no racks (give them with --brokers ID:RACK,...)")
            raise ConfigError(f"--down-rack: unknown rack {down_rack!r}: the cluster has "
                              f"{listed}")
        label = None if ids else down_rack  # brokers beyond the rack: no rack label
        ids.update(rack_brokers(model, down_rack))
        return tuple(sorted(ids)), label
    if not ids:
        raise ConfigError("--down: no broker given")
    return tuple(sorted(ids)), None


def _ranges(ids: list[int]) -> str:
    """``[0, 1, 2, 5]`` → ``"0-2, 5"``."""
    out: list[str] = []
    start = prev = ids[0]
    for b in [*ids[1:], None]:
        if b is not None and b == prev + 1:
            prev = b
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        if b is not None:
            start = prev = b
    return ", ".join(out)


# -- the report -------------------------------------------------------------------------------
def _rate(x: float, known: bool) -> float | None:
    return float(x) if known else None


def _to_json(r: OutageResult, known: bool) -> dict[str, Any]:
    import numpy as np

    m = r.model
    names = [t.name for t in m.topics]

    def pairs(rows: Any) -> list[list[Any]]:
        return [[names[t], p] for t, p in zip(m.topic[rows].tolist(), m.partition[rows].tolist(),
                                              strict=True)]

    leaders: dict[str, dict[str, int]] = {}
    topics = m.topic[r.moved]  # sorted: rows are sorted by topic
    parts, to = m.partition[r.moved].tolist(), r.moved_to.tolist()
    cuts = [0, *(np.flatnonzero(np.diff(topics)) + 1).tolist(), len(parts)]
    for start, end in zip(cuts[:-1], cuts[1:], strict=True):
        if end > start:
            leaders[names[int(topics[start])]] = dict(zip(map(str, parts[start:end]),
                                                          to[start:end], strict=True))
    sized = not _all_nan(m.size_bytes)
    brokers = [
        {"broker": b.id, "rack": b.rack, "leaders": int(r.leaders[i]),
         "bytes_in_per_s": _rate(r.bytes_in_per_s[i], known),
         "nw_in_bytes_per_s": _rate(r.network_in[i], known),
         "nw_out_bytes_per_s": _rate(r.network_out[i], known),
         "disk_bytes": _rate(r.disk_bytes[i], sized)}
        for i, b in enumerate(m.brokers) if r.alive[i]]
    max_l, mean_l = r.max_mean_leaders
    max_b, mean_b = r.max_mean_bytes_in
    return {"down": list(r.down), "rack": r.rack, "offline_partitions": pairs(r.offline),
            "under_min_isr": pairs(r.under_min_isr), "leaders": leaders, "brokers": brokers,
            "max_leaders": int(max_l), "mean_leaders": mean_l,
            "max_bytes_in_per_s": _rate(max_b, known), "mean_bytes_in_per_s": _rate(mean_b, known)}


def _report(results: list[OutageResult], ranked: bool,
            found: tuple[Coordinator, ...] | None = None,
            changes: list[list[CoordinatorChange]] | None = None) -> str:
    model = results[0].model
    known = not bool(_all_nan(model.bytes_in_per_s))
    outages = [_to_json(r, known) for r in results]
    if changes is not None:
        for doc_r, ch in zip(outages, changes, strict=True):
            doc_r["coordinators"] = [_change_json(c) for c in ch]
    doc: dict[str, Any] = {"format": "kpart-outage", "version": 1,
                           "ranked_by": RANKED_BY if ranked else None}
    if found is not None:
        doc["coordinators"] = [_coordinator_json(c) for c in found]
    doc["outages"] = outages
    return json.dumps(doc, separators=(",", ":")) + "\n"


def _all_nan(values: Any) -> bool:
    import numpy as np

    return bool(np.isnan(values).all())


def _mb(x: float, known: bool) -> str:
    """Bytes/s in MiB/s, as every kpart table (:func:`kpart.report._format.in_unit`)."""
    from kpart.report._format import in_unit

    return in_unit(x, 2**20) if known else "-"


def _label(r: OutageResult) -> str:
    return f"rack {r.rack}" if r.rack is not None else ",".join(str(b) for b in r.down)


def _table_all(results: list[OutageResult], known: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{len(results)} failures, worst first ({RANKED_BY})")
    for col in ("#", "down", "offline", "under min ISR", "leaders moved", "max leaders (x mean)",
                "max bytes-in MiB/s (x mean)"):
        table.add_column(col, justify="right")
    for i, r in enumerate(results, 1):
        ml, al = r.max_mean_leaders
        mb, ab = r.max_mean_bytes_in
        table.add_row(str(i), _label(r), str(len(r.offline)), str(len(r.under_min_isr)),
                      str(len(r.moved)), f"{ml:.0f} ({ml / al if al else 0:.2f})",
                      f"{_mb(mb, known)} ({mb / ab if ab else 0:.2f})" if known else "-")
    Console(width=120).print(table)


def _table_one(before: OutageResult, r: OutageResult, known: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    m = r.model
    console = Console(width=110)
    table = Table(title=f"down: {_label(r)}: {len(r.offline)} partitions offline, "
                        f"{len(r.under_min_isr)} under min.insync.replicas, "
                        f"{len(r.moved)} leaders moved")
    for col in ("broker", "rack", "leaders before", "after", "bytes-in MiB/s before", "after"):
        table.add_column(col, justify="right")
    for i, b in enumerate(m.brokers):
        if not r.alive[i]:
            continue
        table.add_row(str(b.id), b.rack or "-", str(before.leaders[i]), str(r.leaders[i]),
                      _mb(before.bytes_in_per_s[i], known), _mb(r.bytes_in_per_s[i], known))
    console.print(table)
    ml, al = r.max_mean_leaders
    mb, ab = r.max_mean_bytes_in
    line = f"after: max leaders {ml:.0f} (mean {al:.1f})"
    if known:
        line += f", max bytes-in {_mb(mb, known)} MiB/s (mean {_mb(ab, known)})"
    console.print(line)
    for what, rows in (("offline", r.offline), ("under min.insync.replicas", r.under_min_isr)):
        if len(rows):
            shown = ", ".join(f"{m.topics[int(m.topic[x])].name}-{int(m.partition[x])}"
                              for x in rows[:10])
            more = f" (+{len(rows) - 10} more)" if len(rows) > 10 else ""
            console.print(f"{what}: {shown}{more}")


def outage_command(  # noqa: PLR0913
    ctx: typer.Context,
    current: _Current = None,
    snapshot: SnapshotOption = None,
    plan: _Plan = None,
    brokers: _Brokers = None,
    down: _Down = None,
    up: _Up = None,
    up_unclean: _UpUnclean = None,
    elr: _Elr = None,
    kafka_version: _Version = None,
    down_rack: _DownRack = None,
    run_all: _All = False,
    min_isr: _MinIsr = 1,
    as_json: _Json = False,
    out: _Out = None,
    partial: PartialOption = False,
    group: _Group = None,
    transactional_id: _TransactionalId = None,
    groups_file: _GroupsFile = None,
    features: _Features = None,
) -> None:
    """Broker- and rack-failure what-ifs: offline partitions, min.insync.replicas, new
    leaders and broker load after (Kafka's election, unclean election off); ordered events
    (--down B --down C --up B ...) with KIP-966 eligible leader replicas."""
    from kpart.cluster.broker_outage import outage, outage_all, ranked

    keys = _Keys(_group_ids(group, groups_file), tuple(transactional_id or ()))
    if up or up_unclean or elr is not None or len(down or []) > 1 or features is not None:
        given = {"--down": down or [], "--up": up or [], "--up-unclean": up_unclean or []}
        _events_command(ctx.meta.get(_ARGS_KEY, []), given, current, snapshot, plan, brokers,
                        down_rack, run_all, min_isr, as_json, out, partial, elr, kafka_version,
                        keys, features)
        return
    if kafka_version is not None:
        raise ConfigError("--kafka-version goes with ordered events (--down B --up B ..., or "
                          "--elr/--no-elr)")
    down_ids = down[0] if down else None
    if run_all == (down_ids is not None or down_rack is not None):
        raise ConfigError("Give --down/--down-rack (one failure) or --all (every single broker "
                          "and rack)")
    inputs = {"--current": current, "--snapshot": snapshot, "--plan": plan}
    if out is not None:  # before the long work
        check_writable(out, "--out", inputs=inputs)
    model = _load(current, snapshot, plan, brokers, partial)
    found = _coordinators(model, keys, None)
    if run_all:
        results = ranked(outage_all(model, default_min_isr=min_isr))
    else:
        ids, rack = _failure(model, down_ids, down_rack)
        results = [outage(model, ids, rack=rack, default_min_isr=min_isr)]
    changes = _outage_changes(found, model, results)
    text = _report(results, run_all, found, changes) if (as_json or out is not None) else ""
    if out is not None:
        write_texts({out: text}, inputs=inputs)
    if as_json:
        typer.echo(text, nl=False)
        return
    known = not _all_nan(model.bytes_in_per_s)
    if run_all:
        _table_all(results, known)
    else:
        _table_one(outage(model, (), default_min_isr=min_isr), results[0], known)
    if found is not None and changes is not None:
        _print_coordinators(found, changes, [f"down {_label(r)}" for r in results])


# -- coordinators (kpart.cluster.coordinator) -------------------------------------------------
@dataclass(frozen=True)
class _Keys:
    """The group ids and transactional ids whose coordinators to follow."""

    groups: tuple[str, ...]
    transactional_ids: tuple[str, ...]


def _group_ids(group: list[str] | None, groups_file: Path | None) -> tuple[str, ...]:
    """``--group`` values, then ``--groups-file``'s lines (stripped, blank ones skipped)."""
    ids = list(group or ())
    if groups_file is not None:
        lines = [x.strip() for x in read_text(groups_file, "--groups-file").splitlines()]
        if not any(lines):
            raise ConfigError(f"--groups-file {groups_file}: no group id in it")
        ids += [x for x in lines if x]
    return tuple(ids)


def _coordinators(model: ClusterModel, keys: _Keys,
                  version: str | None) -> tuple[Coordinator, ...] | None:
    """The coordinators to follow (``None`` when no key is given); refusals as
    :func:`kpart.cluster.broker_outage.outage_coordinators`."""
    from kpart.cluster.broker_outage import outage_coordinators

    if not keys.groups and not keys.transactional_ids:
        return None
    return outage_coordinators(model, keys.groups, keys.transactional_ids, version)


def _outage_changes(found: tuple[Coordinator, ...] | None, model: ClusterModel,
                    results: list[OutageResult]) -> list[list[CoordinatorChange]] | None:
    from kpart.cluster.coordinator import coordinator_changes

    if found is None:
        return None
    return [coordinator_changes(found, model, r.leader_after()) for r in results]


def _key_json(c: Coordinator) -> dict[str, Any]:
    kind = "group" if c.topic == "__consumer_offsets" else "transactional_id"
    return {"kind": kind, "id": c.key, "topic": c.topic, "partition": c.partition}


def _coordinator_json(c: Coordinator) -> dict[str, Any]:
    return {**_key_json(c), "leader": c.leader}


def _change_json(c: CoordinatorChange) -> dict[str, Any]:
    return {**_key_json(c.coordinator), "leader_before": c.coordinator.leader,
            "leader": c.leader, "status": c.status}


def _print_coordinators(found: tuple[Coordinator, ...], changes: list[list[CoordinatorChange]],
                        labels: list[str]) -> None:
    """One line per coordinator that moves or becomes unavailable, under its failure or
    event; a line saying so when none does."""
    from rich.console import Console
    from rich.markup import escape

    def name(c: Coordinator) -> str:
        kind = "group" if c.topic == "__consumer_offsets" else "transactional id"
        return f"{kind} {c.key!r} ({c.topic}-{c.partition})"

    def leader(x: int | None) -> str:
        return "none" if x is None else str(x)

    console = Console(width=110)
    gone = [name(c) for c in found if c.leader is None]
    console.print(f"coordinators of {len(found)} key{'' if len(found) == 1 else 's'}"
                  + (f" (unavailable before: {escape(', '.join(gone))})" if gone else "") + ":")
    for label, ch in zip(labels, changes, strict=True):
        if not ch:
            console.print(f"  {escape(label)}: no coordinator moves")
        for c in ch:
            console.print(f"  {escape(label)}: {escape(name(c.coordinator))}: leader "
                          f"{leader(c.coordinator.leader)} -> {leader(c.leader)} ({c.status})")


# -- ordered events (kpart.cluster.broker_events) ---------------------------------------------
_ARGS_KEY = "kpart.outage.args"


def _event_tokens(args: list[str]) -> list[tuple[str, str]]:
    """``(option, value)`` for each ``--down``/``--up``/``--up-unclean`` occurrence, in the
    order given (``args``: the arguments :class:`_EventOrderCommand` kept; values taken as
    click takes them: the next argument, or after ``=``; ``--`` ends the options)."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(args):
        token = args[i]
        if token == "--":
            break
        name, eq, value = token.partition("=")
        if name in EVENT_OPTIONS:
            if not eq:
                i += 1
                value = args[i] if i < len(args) else ""
            out.append((name, value))
        i += 1
    return out


def _parse_events(model: ClusterModel, args: list[str],
                  given: dict[str, list[str]]) -> list[BrokerEvent]:
    """The ordered events: each option occurrence in order, ``ID,...`` in listed order.
    Bad ids are errors naming the option and the value."""
    from kpart.cluster.broker_events import BrokerEvent

    tokens = _event_tokens(args)
    # the order read back must be click's values, option by option (else refuse: never guess)
    for opt in EVENT_OPTIONS:
        if [v for o, v in tokens if o == opt] != given[opt]:
            raise ConfigError(f"{opt}: cannot tell the order of the events; give each as "
                              f"{opt} ID")
    known = {b.id for b in model.brokers}
    events = []
    for opt, value in tokens:
        items = [x.strip() for x in value.split(",")]
        if not any(items):
            raise ConfigError(f"{opt}: no broker given")
        for item in items:
            if not (item.isascii() and item.isdigit()):
                raise ConfigError(f"{opt}: invalid broker id {item!r}: expected ID,...")
            if int(item) not in known:
                raise ConfigError(f"{opt} {int(item)}: unknown broker {int(item)}: the cluster "
                                  f"has brokers {_ranges(sorted(known))}")
            events.append(BrokerEvent(EVENT_OPTIONS[opt], int(item)))
    if not events:
        raise ConfigError("--elr/--no-elr go with ordered events: give --down B [--up B ...]")
    return events


def _run_events(state: ReplicationState, events: list[BrokerEvent],
                rules: Any) -> list[ReplicationState]:
    """:func:`~kpart.cluster.broker_events.run_events`, errors naming the option and step."""
    from kpart.cluster.broker_events import apply_event

    out = []
    opt = {v: k for k, v in EVENT_OPTIONS.items()}
    for n, event in enumerate(events, 1):
        if event.kind != "down" and event.broker not in state.fenced:
            raise ConfigError(f"{opt[event.kind]} {event.broker}: broker {event.broker} is not "
                              f"down at event {n} ({event})")
        if event.kind == "down" and event.broker in state.fenced:
            raise ConfigError(f"--down {event.broker}: broker {event.broker} is already down at "
                              f"event {n}")
        state = apply_event(state, event, rules)
        out.append(state)
    return out


def _steps_text(events: list[BrokerEvent], steps: list[ReplicationState], elr: bool,
                version: str, found: tuple[Coordinator, ...] | None,
                changes: list[list[CoordinatorChange]] | None,
                level: int | None = None) -> str:
    """The ``--json`` report of ordered events (``"version": 2``), one line. Every partition
    of every step is written, each registration's JSON made once and shared by the steps and
    partitions that hold the same one (exactly what ``json.dumps`` with compact separators
    writes)."""
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    prefixes: list[str] | None = None
    made: dict[int, str] = {}

    def reg_json(p: Any) -> str:
        got = made.get(id(p))
        if got is None:
            got = made[id(p)] = (
                f'"leader":{"null" if p.leader is None else p.leader},'
                f'"isr":[{",".join(map(str, p.isr))}],"elr":[{",".join(map(str, p.elr))}],'
                f'"last_known_elr":[{",".join(map(str, p.last_known_elr))}],'
                f'"leader_recovery_state":{dumps(p.leader_recovery_state)}}}')
        return got

    head: dict[str, Any] = {"format": "kpart-outage", "version": 2, "elr": elr,
                            "kafka_version": version}
    if level is not None:
        head["elr_feature_level"] = level
    if found is not None:
        head["coordinators"] = [_coordinator_json(c) for c in found]
    parts = [dumps(head)[:-1], ',"steps":[']
    for n, (e, st) in enumerate(zip(events, steps, strict=True)):
        if prefixes is None:
            topic_json = {t: dumps(t) for t in dict.fromkeys(t for t, _ in st.keys)}
            prefixes = [f'{{"topic":{topic_json[t]},"partition":{p},' for t, p in st.keys]
        step = {"event": str(e), "down": sorted(st.fenced),
                "offline_partitions": [[t, p] for t, p in st.offline],
                "under_min_isr": [[t, p] for t, p in st.under_min_isr]}
        parts += ["," if n else "", dumps(step)[:-1], ',"partitions":[',
                  ",".join([a + (made.get(id(p)) or reg_json(p))
                            for a, p in zip(prefixes, st.partitions, strict=True)]), "]"]
        if changes is not None:
            parts += [',"coordinators":', dumps([_change_json(c) for c in changes[n]])]
        parts.append("}")
    parts.append("]}\n")
    return "".join(parts)


def _elr_level(features: dict[str, int | str] | None, version: str,
               elr: bool | None) -> int | None:
    """The finalized ``eligible.leader.replicas.version`` of the cluster (``None``: unknown,
    or a version whose ELR does not follow the feature: before 4.0); a warning when ``--elr`` is asked of a cluster where the feature is not finalized."""
    from kpart._warnings import kpart_warn
    from kpart.cluster.features import ELR_FEATURE, elr_feature_level
    from kpart.versions import behaviour

    try:
        gate = behaviour("eligible_leader_replicas", version)
    except ConfigError:  # a version without ELR: the feature does not matter
        return None
    if gate not in ("feature-gated", "on-for-new-clusters"):  # 3.7-3.9: a controller config
        return None
    level = elr_feature_level(features)
    if level == 0 and elr:
        kpart_warn(f"--elr: the cluster's {ELR_FEATURE} is 0 (ELR off there until it is "
                   f"finalized: kafka-features.sh upgrade --feature {ELR_FEATURE}=1)")
    return level


def _ids(ids: tuple[int, ...]) -> str:
    return ",".join(map(str, ids)) or "-"


def _print_steps(before: ReplicationState, events: list[BrokerEvent],
                 steps: list[ReplicationState], elr: bool, version: str,
                 level: int | None = None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=110)
    feature = "" if level is None else f" (eligible.leader.replicas.version={level})"
    console.print(f"Kafka {version}, eligible leader replicas (KIP-966) "
                  f"{'on' if elr else 'off'}{feature}: {len(events)} events")
    prev = before
    for n, (event, st) in enumerate(zip(events, steps, strict=True), 1):
        changed = [i for i, (a, b) in enumerate(zip(prev.partitions, st.partitions,
                                                     strict=True)) if a != b]
        console.print(f"{n}. {event}: down {_ids(tuple(sorted(st.fenced)))}; "
                      f"{len(st.offline)} offline, {len(st.under_min_isr)} under "
                      f"min.insync.replicas; {len(changed)} partition"
                      f"{'' if len(changed) == 1 else 's'} changed")
        if changed:
            table = Table()
            for col in ("topic", "partition", "leader", "ISR", "ELR", "LastKnownElr"):
                table.add_column(col, justify="left" if col == "topic" else "right")
            for i in changed:
                (t, p), r = st.keys[i], st.partitions[i]
                table.add_row(t, str(p), "none" if r.leader is None else str(r.leader),
                              _ids(r.isr), _ids(r.elr), _ids(r.last_known_elr))
            console.print(table)
        for what, keys in (("offline", st.offline),
                           ("under min.insync.replicas", st.under_min_isr)):
            if keys:
                shown = ", ".join(f"{t}-{p}" for t, p in keys[:10])
                more = f" (+{len(keys) - 10} more)" if len(keys) > 10 else ""
                console.print(f"{what}: {shown}{more}")
        prev = st


def _events_command(  # noqa: PLR0913
    args: list[str], given: dict[str, list[str]], current: Path | None, snapshot: Path | None, plan: Path | None, brokers: str | None,
    down_rack: str | None, run_all: bool, min_isr: int, as_json: bool, out: Path | None,
    partial: bool, elr: bool | None, kafka_version: str | None, keys: _Keys,
    features_file: Path | None = None,
) -> None:
    """``kpart outage`` with ordered events (module docstring)."""
    from kpart.cluster.broker_events import state_from_model
    from kpart.cluster.partition_change import ElectionRules
    from kpart.versions import kafka_version as parse_version

    if run_all or down_rack is not None:
        raise ConfigError(f"{'--all' if run_all else '--down-rack'} goes with one failure, "
                          "not with ordered events (give the brokers as --down B ...)")
    version = str(parse_version(kafka_version))
    rules = ElectionRules.for_version(version, elr)
    inputs = {"--current": current, "--snapshot": snapshot, "--plan": plan,
              "--features": features_file}
    features = None
    if features_file is not None:
        from kpart.cluster.features import parse_features

        features = parse_features(read_text(features_file, "--features"),
                                  f"--features {features_file}")
    if out is not None:
        check_writable(out, "--out", inputs=inputs)
    model, recorded = _load_features(current, snapshot, plan, brokers, partial)
    level = _elr_level(features if features is not None else recorded, version, elr)
    if level is not None:
        rules = ElectionRules.for_version(version, elr, feature_level=level)
    events = _parse_events(model, args, given)
    found = _coordinators(model, keys, version)
    before = state_from_model(model, default_min_isr=min_isr)
    steps = _run_events(before, events, rules)
    changes = None
    if found is not None:
        from kpart.cluster.broker_outage import coordinator_steps
        from kpart.cluster.coordinator import coordinator_rows

        rows = coordinator_rows(found, model).tolist()
        changes = coordinator_steps(found, [[st.partitions[r].leader for r in rows]
                                            for st in steps])
    text = ""
    if as_json or out is not None:
        text = _steps_text(events, steps, rules.elr, version, found, changes, level)
    if out is not None:
        write_texts({out: text}, inputs=inputs)
    if as_json:
        typer.echo(text, nl=False)
        return
    _print_steps(before, events, steps, rules.elr, version, level)
    if found is not None and changes is not None:
        _print_coordinators(found, changes, [f"{n}. {e}" for n, e in enumerate(events, 1)])


class _EventOrderCommand(TyperCommand):
    """``kpart outage`` keeps its raw arguments: the order of ``--down``/``--up``/
    ``--up-unclean`` occurrences is the order of the events (click collects each option's
    values apart)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta[_ARGS_KEY] = list(args)
        return super().parse_args(ctx, args)


def register(app: typer.Typer) -> None:
    """Add ``kpart outage`` to the ``kpart`` app."""
    app.command("outage", cls=_EventOrderCommand)(outage_command)
