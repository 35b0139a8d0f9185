"""``kpart plan`` in load-aware mode: Cruise Control's goals on the cluster weighed by bytes
(Cruise Control's ``GoalOptimizer`` + ``OptimizationVerifier``, offline).

Chosen (:attr:`kpart.cluster.plan_request.PlanRequest.load_aware`) when any of ``--goals``,
``--capacity``, ``--loads``, ``--snapshot`` or ``--verify`` is given. The cluster comes from
``--current`` (+ ``--sizes``, ``--loads``, ``--brokers``) or a ``cluster.json`` (``--snapshot``), capacities from
``--capacity`` (each broker, present or added, its own entry or the default); racks on every
broker after the change or on none (:func:`kpart.placement.planner.check_racks`, as Kafka and
the count-based mode); :func:`kpart.cluster.optimizer.plan_cluster` plans, the verifier
(:func:`kpart.cluster.verifier.verify`) counts every goal's violations before and after, and
with ``--verify`` refuses a plan it does not accept (exit code 2, nothing written); a plan
with an invalid replica set (a broker twice, a replication factor changed, a removed or
unknown broker) is refused even without ``--verify``.
``--failures`` adds every single-broker and single-rack failure of the target
(:func:`kpart.cluster.broker_outage.outage_all`, ranked). Outputs (all or none, atomically):
``--out`` (the reassignment JSON of the changed partitions, or with ``--format parquet|arrow``
one row per partition), ``--rollback-out``, ``--describe-out``, ``--topics-out`` and
``--summary-out`` (:func:`kpart.cluster.plan_summary.plan_summary`, also printed by
``--json``); otherwise a summary table: goals, brokers before → after, moves.
"""

from __future__ import annotations

import glob
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kpart._files import Content, PathLike, table_fill, write_texts
from kpart.cli._options import BINARY_FORMATS
from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from kpart.cluster.goals import Goal
    from kpart.cluster.model import ClusterBroker, ClusterModel
    from kpart.cluster.optimizer import ClusterPlan
    from kpart.cluster.plan_request import PlanRequest
    from kpart.cluster.schedule import Schedule
    from kpart.cluster.verifier import VerifierReport
    from kpart.placement.pools import PoolSpec

def refuse(options: dict[str, object], why: str) -> None:
    """:class:`ConfigError` naming the first option of ``options`` (``{option: value}``)
    that was given (not ``None``), with ``why``."""
    for option, value in options.items():
        if value is not None:
            raise ConfigError(f"{option} {why}")


def _inputs(req: PlanRequest) -> dict[str, PathLike | None]:
    """``{option: path}`` of the file inputs (never overwritten by an output)."""
    from kpart.cli._cluster_inputs import input_paths

    return {**input_paths(current=req.current, sizes=req.sizes, capacity=req.capacity,
                          loads=req.loads, snapshot=req.snapshot), "--pools": req.pools}


def _outputs(req: PlanRequest) -> dict[str, Path | None]:
    """``{option: path}`` of the outputs, ``--out`` first."""
    return {"--out": req.out, "--rollback-out": req.rollback,
            "--describe-out": req.describe_out, "--topics-out": req.topics_out,
            "--summary-out": req.summary_out, "--html-out": req.html}


# -- inputs -----------------------------------------------------------------------------------
def _goals(names: tuple[str, ...] | None) -> tuple[Goal, ...]:
    from kpart.cluster.goals import DEFAULT_GOALS, goals_by_name

    return DEFAULT_GOALS if names is None else goals_by_name(list(names))


def _pools(req: PlanRequest, goals: Sequence[Goal]) -> PoolSpec | None:
    """``--pools`` (kpart's resource pools: Cruise Control's BrokerSetAwareGoal keeps each
    topic on its pool's brokers); BrokerSetAwareGoal among ``--goals`` needs it."""
    from kpart.cluster.goals import BrokerSetAwareGoal

    if req.pools is None:
        if any(isinstance(g, BrokerSetAwareGoal) for g in goals):
            raise ConfigError("--goals: BrokerSetAwareGoal needs --pools (the brokers each "
                              "topic may use)")
        return None
    from kpart._files import read_text
    from kpart.placement.pools import parse_pools

    return parse_pools(read_text(req.pools, "--pools"))


def _model(req: PlanRequest, added_ids: Sequence[int]) -> tuple[ClusterModel,
                                                                 dict[int, Any]]:
    """The cluster, and the capacities of the added brokers (``{id: Capacity}``, empty
    without ``--capacity``): each broker, present or added, takes its own capacity.json entry,
    else the default (``brokerId`` -1); entries for other brokers are unused, as Cruise
    Control leaves them, so one file serves ``kpart cluster`` and every plan."""
    from kpart.cli._cluster_inputs import (
        model_from_files,
        read_capacity,
        read_snapshot,
        with_capacity,
    )
    from kpart.cluster.capacity import capacities_for

    if (req.current is None) == (req.snapshot is None):
        raise ConfigError("Give the cluster as one of --current (a --describe dump, with "
                          "--sizes) or --snapshot (cluster.json)")
    own = read_capacity(req.capacity) if req.capacity is not None else None
    extra = capacities_for(own, added_ids) if own is not None else {}
    if req.current is not None:
        model = model_from_files(req.current, sizes=req.sizes, capacity=own, loads=req.loads,
                                 brokers=req.brokers, topic=req.topic, partial=req.partial)
        return model, extra
    assert req.snapshot is not None
    refuse({"--sizes": req.sizes, "--loads": req.loads or None, "--brokers": req.brokers,
            "--topic": req.topic, "--partial": req.partial or None}, "goes with --current: a --snapshot (cluster.json) holds "
           "its brokers, racks and loads itself")
    model = read_snapshot(req.snapshot)
    return (with_capacity(model, own) if own is not None else model), extra


def _added(req: PlanRequest) -> list[ClusterBroker]:
    from kpart.cli._cluster_inputs import parse_broker_spec
    from kpart.cluster.model import ClusterBroker

    return [ClusterBroker(b.id, b.rack) for b in parse_broker_spec(req.add_brokers,
                                                                    "--add-brokers")]


def check_outputs(outputs: dict[str, Path | None], inputs: dict[str, PathLike | None],
                  batches: bool) -> None:
    """Before planning (both modes): every output (``{option: path}``, ``--out`` first) can be
    written, none is an input or another output, and with ``batches`` (a JSON ``--out`` with
    ``--max-concurrent-moves-per-broker``) none has the name of a batch file of ``--out``
    (``<stem>.batch-NNN<suffix>``: a batch silently replaced by another file would be run)."""
    import re

    from kpart._files import check_writable

    seen: dict[Path, str] = {}
    out = outputs.get("--out")
    batch = (re.compile(re.escape(out.stem) + r"\.batch-\d{3,}" + re.escape(out.suffix or ".json"))
             if batches and out is not None else None)
    for option, path in outputs.items():
        if path is None:
            continue
        check_writable(path, option, inputs=inputs)
        if seen.setdefault(path.resolve(), option) != option:
            raise ConfigError(f"{option}: cannot write {str(path)!r}: it is also the output "
                              f"of {seen[path.resolve()]}")
        if (batch is not None and option != "--out" and out is not None
                and path.resolve().parent == out.resolve().parent
                and batch.fullmatch(path.name)):
            raise ConfigError(f"{option}: cannot write {str(path)!r}: it is the name of a batch "
                              "file of --out")


def _check_outputs(req: PlanRequest) -> None:
    check_outputs(_outputs(req), _inputs(req),
                  req.max_moves_per_broker is not None and req.fmt not in BINARY_FORMATS)


# -- outputs ----------------------------------------------------------------------------------
def refuse_stale_batches(out: Path, files: dict[PathLike, Content]) -> None:
    """Refuse to leave batch files of an earlier plan beside a new one: a user applying
    ``<stem>.batch-*`` would apply outdated moves, and kpart deletes nothing it did not just
    write. ``ConfigError`` naming the first such file."""
    suffix = out.suffix or ".json"
    written = {Path(p).resolve() for p in files}
    parent = out.parent if str(out.parent) else Path(".")
    try:
        entries = sorted(parent.glob(f"{glob.escape(out.stem)}.batch-[0-9][0-9][0-9]*{suffix}"))
    except OSError:
        return
    for entry in entries:
        if entry.resolve() not in written:
            raise ConfigError(f"--out: {str(entry)!r} is a batch of an earlier plan that this "
                              "plan does not replace; remove it (or choose another --out) first")


def _describe_text(plan: ClusterPlan) -> str:
    from kpart.placement.reassign import describe_text

    m = plan.model
    names = [t.name for t in m.topics]
    target: dict[str, dict[int, tuple[int, ...]]] = {}
    for t, p, reps in zip(m.topic.tolist(), m.partition.tolist(), plan.target.tolist(),
                          strict=True):
        target.setdefault(names[t], {})[p] = tuple(b for b in reps if b >= 0)
    configs = {t.name: t.configs if t.configs is not None else
               f"min.insync.replicas={t.min_insync_replicas}"
               for t in m.topics if t.configs is not None or t.min_insync_replicas is not None}
    return describe_text(target, configs)  # the topics' Configs: kept for kpart outage


def _batch_of_rows(num_rows: int, schedule: Schedule) -> np.ndarray:
    """int32 per model row: its batch number (from 1), 0 when the row does not move."""
    import numpy as np

    batch = np.zeros(num_rows, np.int32)
    for n, b in enumerate(schedule.batches, start=1):
        batch[b.rows] = n
    return batch


def output_files(req: PlanRequest, plan: ClusterPlan, summary: dict[str, Any],
                 schedule: Schedule | None = None) -> dict[PathLike, Content]:
    """Every file to write, ``{path: content}``: the one place that decides the outputs.
    With a schedule of several batches (``--max-concurrent-moves-per-broker``), its batch
    files beside a JSON ``--out`` (``<stem>.batch-001.json``, ..., as the count-based mode
    names them; :func:`refuse_stale_batches` guards them) or the ``batch`` column of a
    parquet/arrow ``--out``; ``--html-out`` renders ``summary`` (:mod:`kpart.report.plan_html`)."""
    from kpart.cluster.plan_table import plan_table
    from kpart.cluster.schedule import reassignment_json, rollback_json
    from kpart.placement.reassign import topics_to_move_json

    m = plan.model
    names = [t.name for t in m.topics]
    rows = plan.moved_rows()
    files: dict[PathLike, Content] = {}
    if req.out is not None and req.fmt in BINARY_FORMATS:
        batch = None if schedule is None else _batch_of_rows(m.num_partitions, schedule)
        files[req.out] = table_fill(plan_table(plan, batch), req.fmt)
    elif req.out is not None:
        files[req.out] = reassignment_json(m, plan.target, rows) + "\n"
        if schedule is not None and req.max_moves_per_broker is not None:
            suffix = req.out.suffix or ".json"
            for n, b in enumerate(schedule.batches, start=1):
                name = req.out.with_name(f"{req.out.stem}.batch-{n:03d}{suffix}")
                files[name] = reassignment_json(m, plan.target, b.rows) + "\n"
        refuse_stale_batches(req.out, files)
    if req.rollback is not None:
        files[req.rollback] = rollback_json(m, rows) + "\n"
    if req.describe_out is not None:
        files[req.describe_out] = _describe_text(plan)
    if req.topics_out is not None:
        files[req.topics_out] = topics_to_move_json(
            names[t] for t in set(m.topic[rows].tolist())) + "\n"
    if req.summary_out is not None:
        files[req.summary_out] = summary_json(summary)
    if req.html is not None:
        from kpart.report.plan_html import render_plan

        files[req.html] = render_plan(summary)
    return files


def summary_json(summary: dict[str, Any]) -> str:
    """The summary as JSON text (what ``--json`` prints and ``--summary-out`` writes)."""
    return json.dumps(summary, indent=2, allow_nan=False) + "\n"


# -- the run ----------------------------------------------------------------------------------
def _verify_line(report: VerifierReport) -> str:
    if report.errors:
        return (f"Invalid plan (the verifier refuses its replica set): {report.errors[0]}; "
                "nothing written")
    bad = next(g for g in report.goals if not g.ok)
    kind = "hard goal still violated" if bad.hard else "soft goal got worse"
    return (f"--verify: {bad.name} ({kind}): {bad.before} -> {bad.after} violations; "
            "nothing written")


def _change(req: PlanRequest) -> tuple[list[ClusterBroker], list[int]]:
    """``--add-brokers`` (without capacities yet) and ``--remove-brokers``, parsed."""
    from kpart.cli._cluster_inputs import parse_broker_spec

    added = _added(req)
    ids = [b.id for b in added]
    if len(set(ids)) < len(ids):
        raise ConfigError(f"--add-brokers: broker {next(b for b in ids if ids.count(b) > 1)} "
                          "is listed twice")
    return added, [b.id for b in parse_broker_spec(req.remove_brokers, "--remove-brokers")]


def _check_removed(model: ClusterModel, removed: Sequence[int]) -> None:
    known = {b.id for b in model.brokers}
    for b in removed:
        if b not in known:
            raise ConfigError(f"--remove-brokers: unknown broker {b}: the cluster has brokers "
                              f"{sorted(known)!r:.80}")


def _check_capacities(model: ClusterModel, added: Sequence[ClusterBroker]) -> None:
    """An added broker without a capacity in a cluster whose brokers have one would make every
    utilization goal fall back to raw loads: refused, naming the broker."""
    if any(b.capacity is not None for b in model.brokers):
        for b in added:
            if b.capacity is None:
                raise ConfigError(f"--add-brokers: broker {b.id} has no capacity while the "
                                  "cluster's brokers have one: give --capacity (its default, "
                                  f"brokerId -1, or an entry for broker {b.id})")


def _warn_leaderless(plan: ClusterPlan) -> None:
    """One warning line when the plan reassigns partitions that have no leader now: Kafka
    copies a new replica from the leader, so their reassignment waits for one to be elected."""
    from kpart._warnings import kpart_warn

    rows = plan.moved_rows()
    leaderless = rows[plan.model.leader[rows] < 0]
    if len(leaderless):
        first = plan.model.partition_state(int(leaderless[0]))
        kpart_warn(f"{len(leaderless):,} reassigned partition(s) have no leader (first: "
                   f"{first.topic}-{first.partition}): a new replica copies from the leader, so "
                   "their reassignment cannot complete until one is elected")


_T = TypeVar("_T")
_SCHEDULE_FLAGS = {"max_moves_per_broker": "--max-concurrent-moves-per-broker",
                   "throttle_bytes_per_s": "--throttle"}


def _flagged(make: Callable[[], _T]) -> _T:
    """``make()``, with a :class:`ConfigError` about a schedule parameter naming its flag."""
    try:
        return make()
    except ConfigError as e:
        flag = _SCHEDULE_FLAGS.get(str(e.parameter))
        if flag is None:
            raise
        raise ConfigError(e.naming(flag), parameter=None) from None


def run(req: PlanRequest) -> None:
    """The load-aware ``kpart plan`` on a parsed request: check the outputs, read, plan, verify, (failures), write all or
    none, report."""
    from dataclasses import replace

    from kpart.cli._progress import busy
    from kpart.cluster.optimizer import plan_cluster
    from kpart.cluster.plan_summary import plan_summary, target_model
    from kpart.cluster.verifier import verify
    from kpart.placement.planner import check_racks

    goals = _goals(req.goals)
    pools = _pools(req, goals)
    thresholds = req.thresholds.to_thresholds()
    added, removed = _change(req)
    _check_outputs(req)  # before the long work
    if req.max_moves_per_broker is not None or req.throttle is not None:
        from kpart.cluster.schedule import check_schedule_options

        _flagged(lambda: check_schedule_options(req.max_moves_per_broker, req.throttle))
    model, caps = _model(req, [b.id for b in added])
    _check_removed(model, removed)
    added = [replace(b, capacity=caps.get(b.id)) for b in added]
    known = {b.id for b in model.brokers}  # an added broker the cluster has: plan_cluster's
    check_racks(model.brokers, [b for b in added if b.id not in known],
                racks_from="--snapshot" if req.snapshot is not None else "--brokers")
    _check_capacities(model, added)
    with busy(f"planning {model.num_partitions:,} partitions"):
        plan = plan_cluster(model, add_brokers=added, remove_brokers=removed, goals=goals,
                            thresholds=thresholds, pools=pools)
    with busy("verifying the plan"):  # plan.goals: BrokerSetAwareGoal joins with --pools
        report = verify(plan.model, plan.target, plan.goals, removed=plan.removed,
                        thresholds=thresholds, pools=pools)
    if report.errors or (req.verify and not report.ok):  # an invalid replica set: never
        raise ConfigError(_verify_line(report))
    _warn_leaderless(plan)
    schedule = None
    if req.max_moves_per_broker is not None or req.throttle is not None:
        from kpart.cluster.schedule import schedule_plan

        with busy("scheduling the moves"):
            schedule = _flagged(lambda: schedule_plan(
                plan.model, plan.target, max_moves_per_broker=req.max_moves_per_broker,
                throttle_bytes_per_s=req.throttle))
    failures = None
    if req.failures:
        from kpart.cluster.broker_outage import outage_all, ranked

        with busy("failure what-ifs of the target"):
            failures = ranked(outage_all(target_model(plan)))
    summary = plan_summary(plan, added=[b.id for b in added], checks=report.goals,
                           verified=report.ok if req.verify else None, errors=report.errors,
                           failures=failures,
                           schedule=None if schedule is None else schedule.to_dict(),
                           capacity_threshold=thresholds.capacity)
    write_texts(output_files(req, plan, summary, schedule),
                {p: o for o, p in _outputs(req).items() if p is not None}, "--out",
                inputs=_inputs(req))
    if req.as_json:
        import typer

        typer.echo(summary_json(summary), nl=False)
        return
    from kpart.cli._plan_cluster_table import print_summary

    files = None
    if (schedule is not None and req.out is not None and req.max_moves_per_broker is not None
            and req.fmt not in BINARY_FORMATS):
        stem, suffix = req.out.with_suffix(""), req.out.suffix or ".json"
        n = len(schedule.batches)
        files = (f"{stem}.batch-001{suffix}" if n == 1
                 else f"{stem}.batch-001{suffix} to .batch-{n:03d}{suffix}")
    print_summary(summary, verified=req.verify, batch_files=files)
