"""Broker- and rack-failure what-ifs: Kafka's leader election with unclean election off.

What the controller does when brokers stop (KRaft's
``org.apache.kafka.controller.PartitionChangeBuilder.electAnyLeader`` with
``Election.ONLINE``, after ``ReplicationControlManager`` removes the fenced brokers from every
ISR; ZooKeeper mode's ``OfflinePartitionLeaderElectionStrategy``, i.e.
``PartitionLeaderElectionAlgorithms.offlinePartitionLeaderElection``, gives the same leader):

- the ISR after = the ISR without the dead brokers (order kept);
- the current leader stays if it is alive and in that ISR (``isValidNewLeader``);
- otherwise the new leader is the first replica, in replica order (the preferred leader
  first), that is alive and in the ISR; none → the partition is **offline** (no leader:
  ``unclean.leader.election.enable=false``, and KIP-966's eligible leader replicas off);
- a partition with a leader whose live ISR is smaller than the topic's
  ``min.insync.replicas`` is **under min ISR**: producers with ``acks=all`` get
  ``NotEnoughReplicasException``. A topic whose ``min.insync.replicas`` is unknown takes
  ``default_min_isr`` (1, Kafka's default), so only offline partitions block it. The two sets
  are disjoint (an offline partition is not listed as under min ISR).

Loads after a failure are Cruise Control's (:func:`kpart.cluster.broker_load`) on the
surviving replicas and the new leaders: a dead broker carries nothing and its replicas count
nowhere (Kafka does not re-replicate them by itself); an offline partition keeps its disk on
its live replicas but carries no traffic (no leader: nothing produced, nothing replicated).
``bytes_in_per_s`` is a broker's **leader bytes-in** (what producers send it, as Kafka's
``BytesInPerSec`` metric, replication excluded); ``network_in`` adds replication bytes-in.

The state before the failure is the model's (a describe dump's), and no failure makes a
partition healthier than that:

- a partition without a leader stays offline (only a live ISR replica coming back would
  elect one, and a failure brings nothing back);
- a replica the model marks offline (:attr:`ClusterModel.offline`: the dump's ``Offline:``
  field, a broker absent from the cluster) is dead for its partition: never elected, not
  counted in the live ISR, carrying nothing;
- a broker whose every replica is offline and that leads nothing
  (:meth:`ClusterModel.offline_brokers`) is down from the start: not a surviving broker of
  any failure, and not one of :func:`outage_all`'s single-broker failures.

Partitions not touched by the failure keep their state as the model has it (a partition
already offline or under min ISR stays listed).

>>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
>>> m = ClusterModel.from_partitions(
...     [ClusterBroker(1, "a"), ClusterBroker(2, "b"), ClusterBroker(3, "b")],
...     [PartitionState("t", 0, (1, 2, 3), leader=1, isr=(1, 2, 3), bytes_in_per_s=10.0),
...      PartitionState("t", 1, (1, 3), leader=1, isr=(1,), bytes_in_per_s=5.0)])
>>> r = outage(m, [1])
>>> r.leader_after().tolist(), r.offline.tolist(), r.leaders.tolist()
([2, -1], [1], [0, 1, 0])
>>> [x.down for x in outage_all(m)]
[(1,), (2,), (3,), (1,), (2, 3)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from kpart.cluster.coordinator import Coordinator, CoordinatorChange
from kpart.cluster.load import broker_load
from kpart.cluster.model import ClusterBroker, ClusterModel
from kpart.errors import ConfigError

__all__ = ["OutageResult", "apply_target", "coordinator_steps", "outage", "outage_all",
           "outage_coordinators", "rack_brokers", "ranked"]

#: Kafka's default ``min.insync.replicas``.
DEFAULT_MIN_ISR = 1


@dataclass(frozen=True, eq=False)
class OutageResult:
    """The cluster after the brokers ``down`` stop (``rack`` set when they are one rack).

    Row arrays index the model's partitions (int64, sorted): ``offline`` (no leader after),
    ``under_min_isr`` (a leader, live ISR < ``min.insync.replicas``), ``moved`` (the leader
    changes to a live broker, ``moved_to``: int32 broker ids, same length). Broker arrays are
    in :attr:`ClusterModel.brokers` order, shape ``(B,)``, 0 for a dead broker: ``alive``
    (bool), ``leaders`` (int64), ``bytes_in_per_s`` (leader bytes-in, bytes/s),
    ``network_in`` / ``network_out`` (bytes/s), ``disk_bytes`` (bytes). Unknown loads count 0.
    """

    model: ClusterModel = field(repr=False)
    down: tuple[int, ...]
    rack: str | None
    offline: np.ndarray
    under_min_isr: np.ndarray
    moved: np.ndarray
    moved_to: np.ndarray
    alive: np.ndarray
    leaders: np.ndarray
    bytes_in_per_s: np.ndarray
    network_in: np.ndarray
    network_out: np.ndarray
    disk_bytes: np.ndarray

    def leader_after(self) -> np.ndarray:
        """int32, shape ``(P,)``: every partition's leader after (``-1`` = offline)."""
        out = self.model.leader.copy()
        out[self.moved] = self.moved_to
        out[self.offline] = -1
        return out

    def isr_after(self) -> np.ndarray:
        """int32, shape ``(P, I)``: every ISR without the dead brokers (order kept, padded
        with ``-1``): the live ISR. Kafka's own record differs for an offline partition only:
        with eligible leader replicas off, ``PartitionChangeBuilder.build`` never writes an
        empty ISR, so the last member to die stays listed (dead) until it comes back."""
        isr = self.model.isr
        gone = np.array([*self.down, *self.model.offline_brokers()], dtype=np.int32)
        dead = (np.isin(isr, gone) & (isr >= 0)) | self.model.offline_mask(isr)
        kept = np.where(dead, -1, isr)
        order = np.argsort(kept < 0, axis=1, kind="stable")
        return np.take_along_axis(kept, order, axis=1)

    def _stat(self, values: np.ndarray) -> tuple[float, float]:
        live = values[self.alive]
        return (float(live.max()), float(live.mean())) if len(live) else (0.0, 0.0)

    @property
    def max_mean_leaders(self) -> tuple[float, float]:
        """``(max, mean)`` leader count over the surviving brokers."""
        return self._stat(self.leaders)

    @property
    def max_mean_bytes_in(self) -> tuple[float, float]:
        """``(max, mean)`` leader bytes-in (bytes/s) over the surviving brokers."""
        return self._stat(self.bytes_in_per_s)

    def rank_key(self) -> tuple[float, float, tuple[int, ...]]:
        """The order of :func:`ranked`: worst leader bytes-in first, then worst leader
        count, then the down brokers."""
        return (-self.max_mean_bytes_in[0], -self.max_mean_leaders[0], self.down)


def rack_brokers(model: ClusterModel, rack: str) -> tuple[int, ...]:
    """Ids of the brokers of ``rack`` (``broker.rack``); :class:`ConfigError` naming the rack
    when no broker has it."""
    ids = tuple(b.id for b in model.brokers if b.rack == rack)
    if not ids:
        racks = sorted({b.rack for b in model.brokers if b.rack is not None})
        raise ConfigError(f"Unknown rack {rack!r}: the cluster has racks {racks!r:.80}.")
    return ids


def _min_isr(model: ClusterModel, default: int) -> np.ndarray:
    per_topic = np.array([default if t.min_insync_replicas is None else t.min_insync_replicas
                          for t in model.topics] or [default], dtype=np.int64)
    return per_topic


def _dead_mask(model: ClusterModel, down: Iterable[int],
               before: Iterable[int] = ()) -> tuple[tuple[int, ...], np.ndarray, np.ndarray]:
    """Sorted ids of ``down``; bool (B + 1,): dead brokers by position (``down`` and the
    brokers down ``before``), the last entry (``-1`` padding indexes it) ``True``; bool
    (B + 1,): the brokers of ``down`` alone (the failure), the last entry ``False``."""
    ids = tuple(sorted({int(b) for b in down}))
    failed = np.zeros(len(model.brokers) + 1, dtype=bool)
    for b in ids:
        failed[model.broker_index(b)] = True
    dead = failed.copy()
    dead[-1] = True
    for b in before:
        dead[model.broker_index(b)] = True
    return ids, dead, failed


class _Positions:
    """The model's broker ids as positions in :attr:`ClusterModel.brokers` (``-1`` padding),
    computed once: ``rep`` (P, R), ``isr`` (P, I), ``lead`` (P,); ``ids`` maps a position back
    (``ids[-1] = -1``); ``off_rep`` / ``off_isr``: bool, the replicas / ISR members the model
    marks offline for their partition; ``before``: the brokers down from the start."""

    def __init__(self, model: ClusterModel) -> None:
        self.rep = model.broker_positions(model.replicas)
        self.isr = model.broker_positions(model.isr)
        self.lead = model.broker_positions(model.leader)
        self.ids = np.array([*(b.id for b in model.brokers), -1], dtype=np.int32)
        self.off_rep = model.offline_mask(model.replicas)
        self.off_isr = model.offline_mask(model.isr)
        self.before = model.offline_brokers()


@dataclass(frozen=True, eq=False)
class _Elected:
    leader: np.ndarray  # int32 (k,): the leader's position after, -1 = offline
    live_isr: np.ndarray  # int64 (k,): live ISR size
    live_replicas: np.ndarray  # int32 (k, R): replica positions, dead ones -1


def _any(mask: np.ndarray) -> np.ndarray:
    """``mask.any(axis=1)`` for a (k, few) bool array, column by column (numpy's reduce over
    a short last axis is several times slower)."""
    out = mask[:, 0].copy()
    for j in range(1, mask.shape[1]):
        out |= mask[:, j]
    return out


def _count(mask: np.ndarray) -> np.ndarray:
    """``mask.sum(axis=1)`` for a (k, few) bool array (int64), column by column."""
    out = mask[:, 0].astype(np.int64)
    for j in range(1, mask.shape[1]):
        out += mask[:, j]
    return out


def _elect(at: _Positions, rows: np.ndarray | slice, dead: np.ndarray) -> _Elected:
    """Kafka's election (module docstring) on ``rows``, vectorised over (k, R) arrays of
    broker positions; ``dead``: bool (B + 1,), its last entry (padding) ``True``. A replica
    the model marks offline is dead for its partition; a partition without a leader keeps
    none."""
    rp, ip, lp = at.rep[rows], at.isr[rows], at.lead[rows]
    rep_alive = ~dead[rp] & ~at.off_rep[rows]
    live_isr = np.where(dead[ip] | at.off_isr[rows], -2, ip)
    in_isr = np.zeros(rp.shape, dtype=bool)
    keep = np.zeros(len(rp), dtype=bool)
    for j in range(live_isr.shape[1]):
        col = live_isr[:, j]
        in_isr |= rp == col[:, None]
        keep |= lp == col
    keep &= lp >= 0
    # the first eligible replica in replica order: scan the columns from the last
    first = np.full(len(rp), -1, dtype=np.int32)
    for j in range(rp.shape[1] - 1, -1, -1):
        first = np.where(rep_alive[:, j] & in_isr[:, j], rp[:, j], first)
    new = np.where(keep, lp, np.where(lp >= 0, first, -1)).astype(np.int32)
    return _Elected(new, _count(live_isr >= 0), np.where(rep_alive, rp, -1))


def _status(model: ClusterModel, rows: np.ndarray | slice, el: _Elected,
            min_isr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boolean (k,) offline and under-min-ISR of ``rows`` after the election ``el``."""
    offline = el.leader < 0
    under = ~offline & (el.live_isr < min_isr[model.topic[rows]])
    return offline, under


def outage(model: ClusterModel, down: Iterable[int], *, rack: str | None = None,
           default_min_isr: int = DEFAULT_MIN_ISR) -> OutageResult:
    """The cluster after the brokers ``down`` (ids) stop; see the module docstring for the
    rule and :class:`OutageResult` for the fields. ``rack`` only labels the result (use
    :func:`rack_brokers`). ``default_min_isr`` stands for an unknown ``min.insync.replicas``.
    Loads come from :func:`~kpart.cluster.broker_load` on the whole model (the reference
    path; :func:`outage_all` updates only the partitions a failure touches).
    :class:`ConfigError` for a broker the model does not list."""
    at = _Positions(model)
    ids, dead, failed = _dead_mask(model, down, at.before)
    el = _elect(at, slice(None), dead)
    hit = _any(failed[at.rep]) | _any(failed[at.isr])
    # partitions the failure does not touch keep their leader
    leader_pos = np.where(hit, el.leader, at.lead)
    leader = at.ids[leader_pos]
    offline, under = _status(model, slice(None), _Elected(leader_pos, el.live_isr,
                                                          el.live_replicas),
                             _min_isr(model, default_min_isr))
    load = broker_load(model, replicas=at.ids[el.live_replicas], leader=leader)
    pos = el.live_replicas
    silent = (pos >= 0) & offline[:, None]  # live replicas of offline partitions: no traffic
    rate_in = np.nan_to_num(model.bytes_in_per_s)
    b = len(model.brokers)
    network_in = load.network_in - np.bincount(
        pos[silent], weights=np.broadcast_to(rate_in[:, None], pos.shape)[silent], minlength=b)
    led = leader_pos >= 0
    bytes_in = np.bincount(leader_pos[led], weights=rate_in[led], minlength=b)
    changed = np.flatnonzero((leader != model.leader) & led)
    live = ~dead[:-1]
    return OutageResult(
        model, ids, rack, np.flatnonzero(offline), np.flatnonzero(under), changed,
        leader[changed], live, load.leaders.astype(np.int64), _zero(bytes_in, live),
        _zero(network_in, live), _zero(load.network_out, live), _zero(load.disk_bytes, live))


def _zero(values: np.ndarray, live: np.ndarray) -> np.ndarray:
    out = np.where(live, values, 0.0)
    out[out < 0] = 0.0  # rounding of the delta path
    return out


class _Contrib:
    """Per-broker sums of some rows (``leaders, bytes_in, network_in, network_out, disk``)
    with the formulas of :func:`outage`; no-leader rows carry no traffic. Takes broker
    positions."""

    def __init__(self, model: ClusterModel) -> None:
        self.b = len(model.brokers)
        self.size = np.nan_to_num(model.size_bytes)
        self.rate_in = np.nan_to_num(model.bytes_in_per_s)
        self.rate_out = np.nan_to_num(model.bytes_out_per_s)

    def __call__(self, rows: np.ndarray | slice, pos: np.ndarray,
                 lpos: np.ndarray) -> np.ndarray:
        b = self.b
        held = pos >= 0
        rf = _count(held)
        size, rin, rout = self.size[rows], self.rate_in[rows], self.rate_out[rows]
        led = lpos >= 0
        traffic = held & led[:, None]
        out = np.empty((5, b))
        out[0] = np.bincount(lpos[led], minlength=b)
        out[1] = np.bincount(lpos[led], weights=rin[led], minlength=b)
        out[2] = np.bincount(pos[traffic], minlength=b,
                             weights=np.broadcast_to(rin[:, None], pos.shape)[traffic])
        out[3] = np.bincount(lpos[led], minlength=b,
                             weights=(rout + rin * np.maximum(rf - 1, 0))[led])
        out[4] = np.bincount(pos[held], minlength=b,
                             weights=np.broadcast_to(size[:, None], pos.shape)[held])
        return out


def _rows_by_broker(at: _Positions, b: int) -> tuple[np.ndarray, np.ndarray]:
    """CSR of the rows each broker appears in (as a replica or ISR member): ``rows[start[i]:
    start[i + 1]]`` for broker position ``i`` (a row may appear twice)."""
    both = np.concatenate([at.rep, at.isr], axis=1)
    held = both >= 0
    row_of = np.broadcast_to(np.arange(len(both), dtype=np.int64)[:, None], both.shape)[held]
    where = both[held]
    order = np.argsort(where, kind="stable")
    start = np.concatenate([[0], np.cumsum(np.bincount(where, minlength=b))])
    return row_of[order], start


def _touched(by_broker: np.ndarray, start: np.ndarray, failed: np.ndarray,
             n: int) -> np.ndarray:
    """Sorted distinct rows of the failed brokers (int64)."""
    parts = [by_broker[start[i]:start[i + 1]] for i in np.flatnonzero(failed[:-1])]
    rows = np.concatenate([by_broker[:0], *parts])
    if len(rows) * 16 > n:  # many: a mask over all rows beats a sort
        mask = np.zeros(n, dtype=bool)
        mask[rows] = True
        return np.flatnonzero(mask)
    rows.sort()
    return rows[np.concatenate([[True], rows[1:] != rows[:-1]])] if len(rows) else rows


def _failures(model: ClusterModel) -> list[tuple[tuple[int, ...], str | None]]:
    before = set(model.offline_brokers())  # already down: their failure changes nothing
    singles: list[tuple[tuple[int, ...], str | None]] = [((b.id,), None) for b in model.brokers
                                                         if b.id not in before]
    racks = sorted({b.rack for b in model.brokers if b.rack is not None})
    return singles + [(rack_brokers(model, r), r) for r in racks]


def outage_all(model: ClusterModel, *, default_min_isr: int = DEFAULT_MIN_ISR,
               failures: Sequence[tuple[Sequence[int], str | None]] | None = None,
               ) -> list[OutageResult]:
    """:func:`outage` for every single-broker failure (brokers by id), then every single-rack
    failure (racks by name; brokers without a rack form none; brokers down from the start,
    :meth:`ClusterModel.offline_brokers`, fail in no single failure), or for ``failures``
    (``(ids, rack label)`` pairs). Equal to calling :func:`outage` on each (loads up to float
    rounding), but each failure only revisits the partitions it touches: the whole model is
    weighed once, then each failure subtracts its touched rows before and adds them after.
    Rank the results with :func:`ranked`."""
    todo = _failures(model) if failures is None else [(tuple(d), r) for d, r in failures]
    min_isr = _min_isr(model, default_min_isr)
    at = _Positions(model)
    contrib = _Contrib(model)
    base_el = _elect(at, slice(None), _dead_mask(model, (), at.before)[1])
    base_el = _Elected(at.lead, base_el.live_isr, base_el.live_replicas)  # nobody moves
    base_pos = base_el.live_replicas  # replicas neither offline nor down from the start
    base = contrib(slice(None), base_pos, at.lead)
    base_off, base_under = _status(model, slice(None), base_el, min_isr)
    base_off_rows, base_under_rows = np.flatnonzero(base_off), np.flatnonzero(base_under)
    by_broker, start = _rows_by_broker(at, len(model.brokers))
    out = []
    for down, rack in todo:
        ids, dead, failed = _dead_mask(model, down, at.before)
        touched = _touched(by_broker, start, failed, model.num_partitions)
        el = _elect(at, touched, dead)
        offline, under = _status(model, touched, el, min_isr)
        live = ~dead[:-1]
        totals = (base - contrib(touched, base_pos[touched], at.lead[touched])
                  + contrib(touched, el.live_replicas, el.leader))
        changed = (el.leader != at.lead[touched]) & (el.leader >= 0)
        out.append(OutageResult(
            model, ids, rack,
            _merge(base_off_rows, touched, touched[offline]),
            _merge(base_under_rows, touched, touched[under]),
            touched[changed], at.ids[el.leader[changed]], live,
            np.rint(_zero(totals[0], live)).astype(np.int64), _zero(totals[1], live),
            _zero(totals[2], live), _zero(totals[3], live), _zero(totals[4], live)))
    return out


def _merge(base: np.ndarray, touched: np.ndarray, now: np.ndarray) -> np.ndarray:
    """Rows of ``base`` not in ``touched``, plus ``now``; sorted."""
    if len(base):
        base = base[~np.isin(base, touched)]
    return np.sort(np.concatenate([base, now])).astype(np.int64)


def ranked(results: Iterable[OutageResult]) -> list[OutageResult]:
    """``results`` worst first: by the highest leader bytes-in of a surviving broker, then
    the highest leader count, then the down broker ids (:meth:`OutageResult.rank_key`)."""
    return sorted(results, key=OutageResult.rank_key)


def apply_target(model: ClusterModel, target: Mapping[str, Mapping[int, Sequence[int]]],
                 ) -> ClusterModel:
    """``model`` once a reassignment to ``target`` (``{topic: {partition: replicas}}``, e.g.
    :func:`kpart.placement.reassign.parse_reassignment_json`) has completed: the target
    replicas, all in sync (ISR = replicas); the leader stays if it is a target replica, else
    the first target replica (``PartitionChangeBuilder``'s election on the completed
    reassignment). Brokers the model lacks are added without rack or capacity. Loads and
    configs are kept.

    A reassignment completes only when every target replica has caught up from the leader:
    a partition without a leader, or whose target keeps a replica the model marks offline
    (:attr:`ClusterModel.offline`, brokers down from the start included), never completes
    and is kept as it is (one warning names the first). :class:`ConfigError` naming a
    partition the model does not have."""
    names = {t.name: i for i, t in enumerate(model.topics)}
    key = model.topic.astype(np.int64) << 32 | model.partition.astype(np.int64)
    rows, lists = [], []
    for topic, parts in target.items():
        for p, reps in parts.items():
            t = names.get(topic)
            row = -1 if t is None else int(np.searchsorted(key, t << 32 | p))
            if row < 0 or row >= len(key) or key[row] != (t or 0) << 32 | p:
                raise ConfigError(f"Partition {topic}-{p} of the plan is not in the cluster.")
            rows.append(row)
            lists.append(tuple(reps))
    rows, lists = _completing(model, rows, lists)
    width = max([model.replicas.shape[1], *(len(r) for r in lists)])
    replicas = np.full((len(key), width), -1, dtype=np.int32)
    replicas[:, : model.replicas.shape[1]] = model.replicas
    for row, reps in zip(rows, lists, strict=True):
        replicas[row] = -1
        replicas[row, : len(reps)] = reps
    isr = np.full((len(key), max(width, model.isr.shape[1])), -1, dtype=np.int32)
    isr[:, : model.isr.shape[1]] = model.isr
    changed = np.array(rows, dtype=np.int64)
    isr[changed] = -1
    isr[changed, :width] = replicas[changed]
    leader = model.leader.copy()
    stays = (replicas[changed] == leader[changed, None]).any(axis=1) & (leader[changed] >= 0)
    leader[changed] = np.where(stays, leader[changed], replicas[changed, 0])
    known = {b.id for b in model.brokers}
    extra = sorted({b for reps in lists for b in reps} - known)
    return replace(model, brokers=model.brokers + tuple(ClusterBroker(b) for b in extra),
                   replicas=replicas, leader=leader, isr=isr)


def _completing(model: ClusterModel, rows: list[int], lists: list[tuple[int, ...]]
                ) -> tuple[list[int], list[tuple[int, ...]]]:
    """The ``rows`` (and their target ``lists``) whose reassignment can complete: the
    partition has a leader and its target keeps no offline replica; one warning names the
    first that cannot."""
    from kpart._warnings import kpart_warn

    before = set(model.offline_brokers())
    keep_rows, keep_lists, stuck = [], [], []
    for row, reps in zip(rows, lists, strict=True):
        off = {int(b) for b in model.offline[row] if b >= 0} if model.offline is not None \
            else set()
        bad = [b for b in reps if b in off or b in before]
        if model.leader[row] < 0 or bad:
            stuck.append((row, "it has no leader" if model.leader[row] < 0 else
                          f"its target replica {bad[0]} is offline"))
            continue
        keep_rows.append(row)
        keep_lists.append(reps)
    if stuck:
        row, why = stuck[0]
        more = f" (and {len(stuck) - 1} more)" if len(stuck) > 1 else ""
        name = f"{model.topics[int(model.topic[row])].name}-{int(model.partition[row])}"
        kpart_warn(f"--plan: the reassignment of partition {name}{more} cannot complete ({why}):"
                   " kept as it is now")
    return keep_rows, keep_lists


# -- coordinators (kpart.cluster.coordinator) -------------------------------------------------
#: The option naming each internal topic's keys, for the refusal of a cluster without it.
_KEY_OPTION = {"__consumer_offsets": "--group", "__transaction_state": "--transactional-id"}


def outage_coordinators(model: ClusterModel, group_ids: Iterable[str] = (),
                        transactional_ids: Iterable[str] = (),
                        kafka_version: str | None = None) -> tuple[Coordinator, ...]:
    """The coordinators of ``group_ids`` (``__consumer_offsets``) then ``transactional_ids``
    (``__transaction_state``) on ``model``, in the order given, each with its partition's
    leader before any failure (``None``: already offline). The partition count is the
    topic's in the model (Kafka's, once the topic exists).

    Raises :class:`~kpart.errors.ConfigError` naming the key and topic when the model does
    not record the internal topic, or the key's partition of it (a partial dump): the leader
    can only come from the cluster, so kpart never guesses it.

    >>> from kpart.cluster.model import ClusterBroker, PartitionState
    >>> m = ClusterModel.from_partitions(
    ...     [ClusterBroker(1), ClusterBroker(2)],
    ...     [PartitionState("__consumer_offsets", p, (1, 2), leader=1 + p % 2, isr=(1, 2))
    ...      for p in range(3)])
    >>> [(c.key, c.partition, c.leader) for c in outage_coordinators(m, ["orders", "a"])]
    [('orders', 0, 1), ('a', 1, 2)]
    """
    from kpart.cluster.coordinator import (
        GroupKey,
        TransactionKey,
        coordinator_rows,
        find_coordinator,
        internal_topic_partitions,
    )

    keys: list[GroupKey | TransactionKey] = [
        *(GroupKey(g) for g in group_ids), *(TransactionKey(t) for t in transactional_ids)]
    found = []
    for key in keys:
        option = _KEY_OPTION[key.topic]
        if internal_topic_partitions(model, key.topic) is None:
            raise ConfigError(
                f"{option} {key.key}: the cluster has no {key.topic} topic, so its coordinator's "
                f"leader is unknown: include it (kafka-topics.sh --describe --topic {key.topic} "
                "in --current, or a cluster.json from kpart snapshot)")
        found.append(find_coordinator(key, cluster=model, kafka_version=kafka_version))
    rows = coordinator_rows(found, model)
    for c, row in zip(found, rows.tolist(), strict=True):
        if row < 0:
            raise ConfigError(
                f"{_KEY_OPTION[c.topic]} {c.key}: partition {c.partition} of {c.topic} is not in "
                f"the cluster (a partial dump?): include all {c.num_partitions} partitions of "
                f"{c.topic}")
    return tuple(found)


def coordinator_steps(coordinators: Sequence[Coordinator],
                      leaders: Iterable[Sequence[int | None]]) -> list[list[CoordinatorChange]]:
    """Per step, the coordinators whose leader changes at that step: ``leaders`` gives, per
    step, each coordinator's partition leader after it (``None`` = offline, in the order of
    ``coordinators``); each change's ``coordinator.leader`` is the leader before the step
    (the previous step's, or the coordinator's own before the first).

    >>> c = Coordinator("g", "__consumer_offsets", 0, 1, 1)
    >>> [[(x.coordinator.leader, x.leader, x.status) for x in s]
    ...  for s in coordinator_steps([c], [[2], [2], [None]])]
    [[(1, 2, 'moved')], [], [(2, None, 'unavailable')]]
    """
    before = [c.leader for c in coordinators]
    out = []
    for step in leaders:
        after = list(step)
        out.append([CoordinatorChange(replace(c, leader=b), a)
                    for c, b, a in zip(coordinators, before, after, strict=True) if a != b])
        before = after
    return out
