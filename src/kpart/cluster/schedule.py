"""A plan an operator can run: batches of reassignments, their order, and their duration under a
replication throttle (Kafka's ``ReassignPartitionsCommand``, ``kafka-reassign-partitions.sh
--execute --throttle``; KIP-73's ``leader.replication.throttled.rate`` /
``follower.replication.throttled.rate``; the per-broker concurrency of Cruise Control's
``ExecutionTaskPlanner``, ``num.concurrent.partition.movements.per.broker``).

A partition is *reassigned* when its target replica list differs from the model's (order
included). It *copies data* when the target names a broker that holds no replica of it yet:
each such broker (a *replica move*) fetches the whole partition (``size_bytes``) from the
current leader (followers fetch from the leader; ``model.leader``, or the first replica when the
partition has none). Rules:

- **Concurrency** (``max_moves_per_broker`` = K): in one batch no broker takes part in more than
  K partition reassignments that copy data, a broker *taking part* when it gains or loses a
  replica of the partition — the definition of :func:`kpart.placement.plan.batch_moves`
  (Kafka's ``addingReplicas`` / ``removingReplicas``). Cruise Control counts the old leader
  (the sender) and the adding brokers instead; kpart keeps its one definition, and the sender's
  load is what the throttle estimate weighs. K ``None``: everything in one batch.
- **Order**: the fullest brokers are relieved first. A broker's fullness is its disk
  utilisation before the plan (bytes on disk / disk capacity when every broker's capacity is
  known, else bytes on disk); a reassignment's rank is the fullness of the fullest broker it
  removes a replica from (reassignments removing none come after all others), then its bytes,
  largest first, then its row. Batches are filled greedily in that order (first fit: each
  reassignment goes to the earliest batch where every broker it involves has a free slot), so
  the first batch relieves the fullest brokers.
- **No-copy reassignments** (the same replicas in another order — a new preferred leader —, or
  only fewer replicas) use no slot: Kafka completes them at once, with nothing to catch up.
  They form one final batch (as :func:`~kpart.placement.plan.batch_moves` puts leader-only
  moves last), after every replica has arrived where the new order expects it.
- **Throttle** (bytes/s, the integer for ``--throttle``): Kafka caps, per broker, both the
  leader's replication out and the follower's replication in at that rate. A batch lasts
  ``max over brokers of max(bytes it sends, bytes it receives) / throttle``; the batches run one
  after another, so the plan lasts their sum. Unknown sizes count as 0 bytes.

:func:`reassignment_json` / :func:`rollback_json` write ``kafka-reassign-partitions.sh``'s JSON
for a batch (byte for byte what :func:`kpart.placement.reassign.reassignment_json` writes for
the same moves), built with one string operation per partition, not one dict.

>>> from kpart.cluster.model import Capacity, ClusterBroker, ClusterModel, PartitionState
>>> cap = Capacity(disk_bytes=1000.0)
>>> m = ClusterModel.from_partitions([ClusterBroker(i, capacity=cap) for i in range(4)], [
...     PartitionState("t", 0, (0, 1), leader=0, size_bytes=300.0),
...     PartitionState("t", 1, (0, 2), leader=2, size_bytes=200.0),
...     PartitionState("t", 2, (1, 2), leader=1, size_bytes=100.0)])
>>> target = np.array([[3, 1], [0, 3], [2, 1]], dtype=np.int32)
>>> s = schedule_plan(m, target, max_moves_per_broker=1, throttle_bytes_per_s=100)
>>> [(b.rows.tolist(), b.replica_moves, b.bytes, b.seconds, b.brokers) for b in s.batches]
[([0], 1, 300.0, 3.0, (0, 3)), ([1], 1, 200.0, 2.0, (2, 3)), ([2], 0, 0.0, 0.0, (1, 2))]
>>> s.total_seconds, s.to_dict()["batches"][0]["brokers"]
(5.0, [0, 3])
>>> reassignment_json(m, target, s.batches[0].rows)
'{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[3,1],"log_dirs":["any","any"]}]}'

Broker 0 is the fullest (500 of 1000 bytes): moving ``t-0`` off it comes first; ``t-1`` (off
broker 2) must wait, broker 3 having its one slot taken; ``t-2`` only swaps its leader.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from numba import njit

from kpart._java.strings import java_string_key
from kpart.cluster.model import ClusterModel
from kpart.errors import ConfigError

__all__ = ["Batch", "Schedule", "check_schedule_options", "reassignment_json", "rollback_json",
           "schedule_plan"]


@dataclass(frozen=True, eq=False)
class Batch:
    """One batch of reassignments, run together: ``rows`` (int64 model rows, ascending,
    read-only), ``replica_moves`` (replicas that change broker), ``bytes`` (bytes copied: the
    sizes of the moved replicas, unknown = 0), ``seconds`` (estimated duration under the
    throttle, ``None`` without one) and ``brokers`` (ids taking part, ascending: the senders
    — current leaders — and the brokers gaining or losing a replica, plus the old and new
    preferred leaders of partitions whose first replica changes)."""

    rows: np.ndarray
    replica_moves: int
    bytes: float
    seconds: float | None
    brokers: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Schedule:
    """The batches, in the order to run them; ``max_moves_per_broker`` (K, ``None`` = one
    batch), ``throttle_bytes_per_s`` (the ``--throttle`` value, ``None`` = none) and
    ``total_seconds`` (sum of the batches', ``None`` without a throttle)."""

    batches: tuple[Batch, ...]
    max_moves_per_broker: int | None
    throttle_bytes_per_s: int | None
    total_seconds: float | None

    def to_dict(self) -> dict[str, Any]:
        """The ``schedule`` section of the plan summary (``docs/schedule.md``): K, throttle,
        total seconds and per batch (numbered from 1) its partitions, replica moves, bytes,
        seconds and brokers; JSON-ready (Python ints and floats)."""
        return {
            "max_moves_per_broker": self.max_moves_per_broker,
            "throttle_bytes_per_s": self.throttle_bytes_per_s,
            "total_seconds": self.total_seconds,
            "batches": [{"batch": i, "partitions": len(b.rows),
                         "replica_moves": b.replica_moves, "bytes": b.bytes,
                         "seconds": b.seconds, "brokers": list(b.brokers)}
                        for i, b in enumerate(self.batches, 1)],
        }


# -- checks -----------------------------------------------------------------------------------
def _check_shape(model: ClusterModel, target: np.ndarray) -> np.ndarray:
    t = np.asarray(target)
    p = model.num_partitions
    if t.ndim != 2 or len(t) != p or t.shape[1] < 1 or not (
            np.issubdtype(t.dtype, np.integer) or t.size == 0):
        raise ConfigError.about(
            "target", "Invalid {param} of shape {value} and type {dtype}: expected integer "
            "broker ids of shape ({rows}, R), one row per partition of the cluster",
            value=tuple(t.shape), dtype=str(t.dtype), rows=p)
    return t


def _check_target(model: ClusterModel, target: np.ndarray,
                  rows: np.ndarray | None = None) -> np.ndarray:
    """``target`` (its ``rows`` when given) as int32; :class:`ConfigError` naming the first
    bad value (wrong shape, unknown broker, a broker twice, padding before an id)."""
    t = _check_shape(model, target)
    t = t if rows is None else t[rows]
    where = (lambda i: i) if rows is None else (lambda i: int(rows[i]))
    if not len(t):
        return t.astype(np.int32)
    ids = np.array([b.id for b in model.brokers], dtype=np.int64)
    pos = np.searchsorted(ids, t)
    known = (t == -1) | ((t >= 0) & (ids[np.minimum(pos, len(ids) - 1)] == t))
    if not known.all():
        row, col = np.argwhere(~known)[0]
        raise ConfigError(f"Invalid target of partition {model.partition_name(where(int(row)))}: broker "
                          f"{int(t[row, col])} is not in the cluster.")
    held = t >= 0
    gap = ~held[:, 0] | (~held[:, :-1] & held[:, 1:]).any(axis=1)
    s = np.sort(np.where(held, t, -1 - np.arange(t.shape[1])), axis=1)
    bad = gap | (np.diff(s, axis=1) == 0).any(axis=1)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ConfigError(f"Invalid target of partition {model.partition_name(where(row))}: replicas "
                          f"{t[row].tolist()} must be distinct broker ids, padded with -1 at "
                          "the end.")
    return t.astype(np.int32)


def _check_k(k: int | None) -> int | None:
    if k is None:
        return None
    if not isinstance(k, int | np.integer) or isinstance(k, bool) or k < 1:
        raise ConfigError.about("max_moves_per_broker", "Invalid {param} {value!r}: must be an "
                                "integer >= 1", value=k)
    return int(k)


def _check_throttle(rate: float | None) -> int | None:
    if rate is None:
        return None
    ok = isinstance(rate, int | float | np.integer | np.floating) and not isinstance(rate, bool)
    if not ok or not math.isfinite(rate) or rate < 1 or rate >= 2.0**63:
        raise ConfigError.about("throttle_bytes_per_s", "Invalid {param} {value!r}: must be a "
                                "finite number of bytes per second from 1 to 2^63 - 1 (a "
                                "Java long)", value=rate)
    return int(rate)  # whole bytes/s, as --throttle takes them; rounding down never exceeds it


def check_schedule_options(max_moves_per_broker: int | None,
                           throttle_bytes_per_s: float | None) -> tuple[int | None, int | None]:
    """The checks :func:`schedule_plan` makes of its options, to run before a long plan:
    ``(K, whole bytes/s)``, or :class:`ConfigError` about the parameter."""
    return _check_k(max_moves_per_broker), _check_throttle(throttle_bytes_per_s)


# -- the greedy -------------------------------------------------------------------------------
@njit(cache=True)
def _first_fit(inv: np.ndarray, k: int, n_brokers: int) -> np.ndarray:  # pragma: no cover
    """Batch of each row of ``inv`` (broker positions, ``-1`` padded), taken in order: the
    earliest batch where each of its brokers has fewer than ``k`` rows. Full batches are
    skipped per broker through ``nxt`` (a union-find of "next batch with a free slot":
    ``nxt[j * n_brokers + b] == j`` when broker ``b`` has a free slot in batch ``j``, else a batch
    further on to look from; paths halved as walked), so a row costs about its width, however
    many batches its brokers have filled. Scalar loops only: compiles in about a second."""
    m, w = inv.shape
    out = np.empty(m, np.int64)
    rows = 64
    use = np.zeros(rows * n_brokers, np.int32)  # [batch * n_brokers + broker], flat
    nxt = np.empty(rows * n_brokers, np.int64)
    for x in range(rows * n_brokers):
        nxt[x] = x // n_brokers
    for i in range(m):
        j, moved = 0, True
        while moved:  # the first batch free for every broker of the row
            moved = False
            for c in range(w):
                b = inv[i, c]
                if b < 0:
                    continue
                f = j
                while nxt[f * n_brokers + b] != f:
                    g = nxt[f * n_brokers + b]
                    nxt[f * n_brokers + b] = nxt[g * n_brokers + b]
                    f = nxt[f * n_brokers + b]
                if f > j:
                    j, moved = f, True
        out[i] = j
        if j + 1 >= rows:  # keep a free batch after every batch in use
            more = np.zeros(2 * rows * n_brokers, np.int32)
            grown = np.empty(2 * rows * n_brokers, np.int64)
            for x in range(2 * rows * n_brokers):
                if x < rows * n_brokers:
                    more[x] = use[x]
                    grown[x] = nxt[x]
                else:
                    grown[x] = x // n_brokers
            use, nxt, rows = more, grown, 2 * rows
        for c in range(w):
            b = inv[i, c]
            if b >= 0:
                use[j * n_brokers + b] += 1
                if use[j * n_brokers + b] >= k:
                    nxt[j * n_brokers + b] = j + 1
    return out


def _fullness(model: ClusterModel) -> np.ndarray:
    """Per broker position: disk utilisation (or bytes on disk without every capacity), as
    :func:`~kpart.cluster.load.broker_load` weighs disk (every replica holds the size)."""
    pos = model.broker_positions(model.replicas)
    held = pos >= 0
    size = np.broadcast_to(np.nan_to_num(model.size_bytes)[:, None], pos.shape)
    disk = np.bincount(pos[held], weights=size[held], minlength=len(model.brokers))
    caps = [b.capacity.disk_bytes if b.capacity else None for b in model.brokers]
    if all(c is not None for c in caps):
        return cast(np.ndarray, disk / np.array(caps, dtype=np.float64))
    return disk


def _widen(a: np.ndarray, width: int) -> np.ndarray:
    if a.shape[1] >= width:
        return a
    return np.hstack([a, np.full((len(a), width - a.shape[1]), -1, a.dtype)])


def _batches_of(model: ClusterModel, rows: np.ndarray, batch: np.ndarray, nb: int,
                parts: dict[str, np.ndarray], rate: int | None) -> list[Batch]:
    """One :class:`Batch` per batch number ``0..nb-1`` of ``rows`` (numbered by ``batch``)."""
    n_b = len(model.brokers)
    ids = np.array([b.id for b in model.brokers], dtype=np.int64)
    size, n_add = parts["size"], parts["n_add"]
    moves = np.bincount(batch, weights=n_add, minlength=nb)
    copied = np.bincount(batch, weights=size * n_add, minlength=nb)
    seconds: np.ndarray | None = None
    if rate is not None:
        add = parts["add"]
        key_in = (batch[:, None] * n_b + add)[add >= 0]
        w_in = np.broadcast_to(size[:, None], add.shape)[add >= 0]
        copies = n_add > 0
        key_out = (batch * n_b + parts["sender"])[copies]
        keys = np.concatenate([key_in, key_out])
        sums, which = np.zeros(0), np.zeros(0, np.int64)
        if len(keys):
            uniq, inv = np.unique(keys, return_inverse=True)
            direction = np.concatenate([np.zeros(len(key_in), np.int64),
                                        np.ones(len(key_out), np.int64)])
            flow = np.bincount(inv * 2 + direction, minlength=2 * len(uniq),
                               weights=np.concatenate([w_in, (size * n_add)[copies]]))
            sums, which = flow.reshape(-1, 2).max(axis=1), uniq // n_b
        seconds = np.zeros(nb)
        np.maximum.at(seconds, which, sums)
        seconds = seconds / rate
    who = parts["who"]
    key = np.unique((batch[:, None] * n_b + who)[who >= 0])
    cut = np.searchsorted(key // n_b, np.arange(nb + 1))
    order = np.argsort(batch, kind="stable")
    row_cut = np.searchsorted(batch[order], np.arange(nb + 1))
    out = []
    for j in range(nb):
        r = rows[order[row_cut[j]: row_cut[j + 1]]]
        r.flags.writeable = False
        brokers = tuple(int(x) for x in ids[key[cut[j]: cut[j + 1]] % n_b])
        out.append(Batch(r, int(moves[j]), float(copied[j]),
                         None if seconds is None else float(seconds[j]), brokers))
    return out


def _row_parts(model: ClusterModel, target: np.ndarray, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per reassigned row: adding / removing broker positions (``-1`` padded), number added,
    sender position, size, and every broker taking part (positions)."""
    w = max(target.shape[1], model.replicas.shape[1])
    cur = model.broker_positions(_widen(model.replicas[rows], w))
    tgt = model.broker_positions(_widen(target[rows], w))
    add = np.where((tgt[:, :, None] != cur[:, None, :]).all(axis=2), tgt, -1)
    rem = np.where((cur[:, :, None] != tgt[:, None, :]).all(axis=2), cur, -1)
    lead = model.leader[rows]
    sender = model.broker_positions(np.where(lead >= 0, lead, model.replicas[rows, 0]))
    n_add = (add >= 0).sum(axis=1)
    new_lead = cur[:, 0] != tgt[:, 0]
    who = np.hstack([add, rem, np.where(n_add > 0, sender, -1)[:, None],
                     np.where(new_lead, cur[:, 0], -1)[:, None],
                     np.where(new_lead, tgt[:, 0], -1)[:, None]])
    return {"add": add, "rem": rem, "n_add": n_add, "sender": sender,
            "size": np.nan_to_num(model.size_bytes[rows]), "who": who}


def schedule_plan(model: ClusterModel, target: np.ndarray, *,
                  max_moves_per_broker: int | None = None,
                  throttle_bytes_per_s: float | None = None) -> Schedule:
    """Batch, order and time the reassignments turning ``model``'s replicas into ``target``
    (the module docstring gives the rules).

    ``target``: int broker ids of shape ``(P, R)`` (``R`` may differ from the model's), one row
    per model row, the preferred leader first, padded with ``-1`` at the end (as
    :attr:`kpart.cluster.optimizer.ClusterPlan.target`). ``max_moves_per_broker``: K ≥ 1 or
    ``None`` (one batch). ``throttle_bytes_per_s``: the replication throttle (≥ 1, rounded down
    to whole bytes/s) or ``None`` (no durations).

    Errors: :class:`~kpart.errors.ConfigError` naming the value: K < 1, a throttle below 1 or
    not finite, a target of another shape, a target row naming a broker the model lacks or one
    twice. Time: linear in the reassigned rows plus a compiled first-fit loop (half a second
    for 227,000 reassignments on 2.8M replicas).
    """
    k, rate = check_schedule_options(max_moves_per_broker, throttle_bytes_per_s)
    tgt = _check_shape(model, target)
    w = max(tgt.shape[1], model.replicas.shape[1])
    rows = np.flatnonzero((_widen(model.replicas, w) != _widen(tgt, w)).any(axis=1))
    if not len(rows):
        return Schedule((), k, rate, None if rate is None else 0.0)
    _check_target(model, tgt, rows)  # the unchanged rows are the model's, valid
    parts = _row_parts(model, tgt, rows)
    copies = parts["n_add"] > 0
    if k is None:
        batch, nb = np.zeros(len(rows), np.int64), 1
    else:
        fullness = _fullness(model)
        rem = parts["rem"]
        rank = np.where(rem >= 0, fullness[np.maximum(rem, 0)], -np.inf).max(axis=1)
        data = np.flatnonzero(copies)
        order = data[np.lexsort((data, -(parts["size"] * parts["n_add"])[data], -rank[data]))]
        inv = np.hstack([parts["add"], rem])[order].astype(np.int64)
        batch = np.empty(len(rows), np.int64)
        batch[order] = _first_fit(inv, k, len(model.brokers)) if len(order) else 0
        nb = int(batch[order].max()) + 1 if len(order) else 0
        batch[~copies] = nb
        nb += int((~copies).any())
    batches = _batches_of(model, rows, batch, nb, parts, rate)
    total = None if rate is None else float(sum(b.seconds or 0.0 for b in batches))
    return Schedule(tuple(batches), k, rate, total)


# -- kafka-reassign-partitions.sh JSON --------------------------------------------------------
def _check_rows(model: ClusterModel, rows: np.ndarray) -> np.ndarray:
    r = np.asarray(rows)
    if r.ndim != 1 or not (np.issubdtype(r.dtype, np.integer) or r.size == 0):
        raise ConfigError.about("rows", "Invalid {param}: expected a 1-d array of row numbers, "
                                "got shape {value}", value=tuple(r.shape))
    r = r.astype(np.int64)
    p = model.num_partitions
    if len(r) and (r.min() < 0 or r.max() >= p):
        bad = int(r.min()) if r.min() < 0 else int(r.max())
        raise ConfigError.about("rows", "Invalid {param}: row {value} is not in 0..{last}",
                                value=bad, last=p - 1)
    if len(r) > 1 and (np.diff(np.sort(r)) == 0).any():
        raise ConfigError.about("rows", "Invalid {param}: a row is listed twice", value=None)
    return r


def _json(model: ClusterModel, r: np.ndarray, reps: np.ndarray) -> str:
    """The JSON of rows ``r`` with replicas ``reps`` (one row each, ``-1`` padded): one
    ``%``-format per partition, topics escaped once each, in Kafka's order."""
    used = np.flatnonzero(np.bincount(model.topic[r], minlength=len(model.topics)))
    names = [model.topics[t].name for t in used.tolist()]
    rank = np.zeros(len(model.topics), np.int64)
    rank[used[sorted(range(len(names)), key=lambda i: java_string_key(names[i]))]] = np.arange(
        len(names))
    topic, part = model.topic[r], model.partition[r]
    order = np.lexsort((part, rank[topic]))  # Kafka's compareTopicPartitions order
    topic, part, reps = topic[order], part[order], reps[order]
    heads = dict(zip(used.tolist(), (f'{{"topic":{json.dumps(n)},"partition":' for n in names),
                     strict=True))
    width = (reps >= 0).sum(axis=1)
    text = np.empty(len(r), dtype=object)
    for n in np.flatnonzero(np.bincount(width)).tolist():
        sel = np.flatnonzero(width == n)
        tpl = ('%s%d,"replicas":[' + ",".join(["%d"] * n) + '],"log_dirs":['
               + ",".join(['"any"'] * n) + "]}")
        cols = [[heads[t] for t in topic[sel].tolist()], part[sel].tolist(),
                *reps[sel, :n].T.tolist()]
        text[sel] = [tpl % x for x in zip(*cols, strict=True)]
    return '{"version":1,"partitions":[' + ",".join(text.tolist()) + "]}"


def reassignment_json(model: ClusterModel, target: np.ndarray, rows: np.ndarray) -> str:
    """``kafka-reassign-partitions.sh --reassignment-json-file`` text moving ``rows`` (int
    model rows, any order, each once) to their ``target`` replicas (shape as in
    :func:`schedule_plan`; only ``rows`` are read): ``{"version":1,"partitions":[{"topic",
    "partition","replicas","log_dirs"}]}``, sorted as Kafka sorts partitions, exactly as
    :func:`kpart.placement.reassign.reassignment_json` writes it. Time linear in ``len(rows)``
    (one file per batch costs no pass over the whole cluster). Errors:
    :class:`~kpart.errors.ConfigError` for a bad target or a row out of range or repeated."""
    r = _check_rows(model, rows)
    return _json(model, r, _check_target(model, target, r))


def rollback_json(model: ClusterModel, rows: np.ndarray) -> str:
    """The rollback file of ``rows``: their current replicas in ``model`` (what ``--execute``
    prints to save "for rollback"), in :func:`reassignment_json`'s format."""
    r = _check_rows(model, rows)
    return _json(model, r, model.replicas[r])
