"""Cruise Control's load model: what every replica costs its broker.

As ``com.linkedin.kafka.cruisecontrol.model.Load`` / ``Replica`` compute it (KIP-less; Cruise
Control's ``ClusterModel``):

- every replica holds the partition's ``size_bytes`` on its broker's disk;
- the leader takes the partition's ``bytes_in_per_s`` from producers (network in) and serves
  ``bytes_out_per_s`` to consumers plus ``bytes_in_per_s × (RF − 1)`` to its followers
  (network out);
- each follower takes ``bytes_in_per_s`` for replication (network in).

Unknown loads (``NaN``) count as 0; :attr:`BrokerLoad.unknown` says how many of a broker's
replicas had an unknown size or rate.

>>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
>>> m = ClusterModel.from_partitions(
...     [ClusterBroker(1), ClusterBroker(2), ClusterBroker(3)],
...     [PartitionState("t", 0, (1, 2, 3), leader=1, size_bytes=10.0, bytes_in_per_s=5.0,
...                     bytes_out_per_s=7.0)])
>>> load = broker_load(m)
>>> load.disk_bytes.tolist(), load.network_in.tolist(), load.network_out.tolist()
([10.0, 10.0, 10.0], [5.0, 5.0, 5.0], [17.0, 0.0, 0.0])
>>> load.replicas.tolist(), load.leaders.tolist()
([1, 1, 1], [1, 0, 0])
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kpart.cluster.model import ClusterModel

__all__ = ["BrokerLoad", "broker_load", "leader_network_out", "network_out_ceiling"]


@dataclass(frozen=True, eq=False)
class BrokerLoad:
    """Per broker (arrays in :attr:`ClusterModel.brokers` order, shape ``(B,)``): ``replicas``
    and ``leaders`` (int64 counts), ``disk_bytes`` (bytes), ``network_in`` / ``network_out``
    (bytes/s), and ``unknown`` (int64: replicas whose size or rates are unknown)."""

    replicas: np.ndarray
    leaders: np.ndarray
    disk_bytes: np.ndarray
    network_in: np.ndarray
    network_out: np.ndarray
    unknown: np.ndarray


def leader_network_out(model: ClusterModel, rf: np.ndarray) -> np.ndarray:
    """float64 ``(P,)``, bytes/s: what each partition's leader serves — its consumers' bytes
    out plus its bytes in sent on to each of its ``rf - 1`` followers (``rf``: int ``(P,)``,
    the replicas it has where it is weighed); unknown rates count 0. The one definition the
    optimizer, the verifier and the loads share.

    >>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
    >>> m = ClusterModel.from_partitions([ClusterBroker(i, None) for i in range(3)],
    ...     [PartitionState("t", 0, (0, 1, 2), bytes_in_per_s=2.0, bytes_out_per_s=5.0)])
    >>> leader_network_out(m, np.array([3])).tolist()
    [9.0]
    """
    out: np.ndarray = np.nan_to_num(model.bytes_out_per_s) + np.nan_to_num(
        model.bytes_in_per_s) * np.maximum(rf - 1, 0)
    return out


def broker_load(
    model: ClusterModel, replicas: np.ndarray | None = None, leader: np.ndarray | None = None
) -> BrokerLoad:
    """The load of every broker of ``model``. ``replicas`` (int, shape ``(P, R)``, broker ids
    padded with ``-1``) and ``leader`` (int, shape ``(P,)``, ``-1`` = none) default to the
    model's own; pass a plan's target (with ``leader = replicas[:, 0]``, the preferred leader)
    or a failure's surviving leaders to weigh those instead. Never raises for valid shapes."""
    reps = model.replicas if replicas is None else np.asarray(replicas)
    lead = model.leader if leader is None else np.asarray(leader)
    b = len(model.brokers)
    pos = model.broker_positions(reps)
    held = pos >= 0
    rf = held.sum(axis=1)
    size = np.nan_to_num(model.size_bytes)
    rate_in = np.nan_to_num(model.bytes_in_per_s)
    unknown_row = (np.isnan(model.size_bytes) | np.isnan(model.bytes_in_per_s)
                   | np.isnan(model.bytes_out_per_s))
    rows = np.broadcast_to(np.arange(len(reps))[:, None], reps.shape)[held]
    where = pos[held]
    lead_pos = model.broker_positions(lead)
    led = lead_pos >= 0
    # leader: bytes-in from producers; follower: the same bytes-in, replicated to it
    network_in = np.bincount(where, weights=rate_in[rows], minlength=b)
    network_out = np.bincount(lead_pos[led], minlength=b,
                              weights=leader_network_out(model, rf)[led])
    return BrokerLoad(
        replicas=np.bincount(where, minlength=b),
        leaders=np.bincount(lead_pos[led], minlength=b),
        disk_bytes=np.bincount(where, weights=size[rows], minlength=b),
        network_in=network_in,
        network_out=network_out,
        unknown=np.bincount(where, weights=unknown_row[rows], minlength=b).astype(np.int64),
    )


def network_out_ceiling(model: ClusterModel, allowed: np.ndarray,
                        before: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """float ``(B,)``, bytes/s: the network out each broker may serve after a plan so that
    the most-utilized broker ends no further above the mean than the hottest broker before
    it (Cruise Control's distribution goals refuse an action that leaves the most-utilized
    broker more unbalanced): the hottest broker's network-out utilization before, over the
    mean utilization of the brokers that held replicas then, at the mean over the
    ``allowed`` brokers, times each broker's network-out capacity when every broker has one
    (adding brokers lowers it, removing brokers raises it). ``before``: ``(replicas,
    leader)`` (default: the model's own). Part of the load model the optimizer and the
    verifier share (:mod:`kpart.cluster.verifier`).

    >>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
    >>> m = ClusterModel.from_partitions([ClusterBroker(i, f"r{i}") for i in range(3)],
    ...     [PartitionState("t", p, (p,), leader=p, bytes_in_per_s=0.0, bytes_out_per_s=out)
    ...      for p, out in enumerate((6.0, 3.0, 3.0))])
    >>> network_out_ceiling(m, np.array([True, True, True])).tolist()
    [6.0, 6.0, 6.0]
    >>> network_out_ceiling(m, np.array([True, True, False])).tolist()  # removing broker 2
    [9.0, 9.0, 9.0]
    >>> m4 = ClusterModel.from_partitions([ClusterBroker(i, f"r{i}") for i in range(4)],
    ...     [PartitionState("t", p, (p,), leader=p, bytes_in_per_s=0.0, bytes_out_per_s=out)
    ...      for p, out in enumerate((6.0, 3.0, 3.0))])
    >>> network_out_ceiling(m4, np.ones(4, dtype=bool)).tolist()  # broker 3 added, empty
    [4.5, 4.5, 4.5, 4.5]
    """
    reps, lead = (model.replicas, model.leader) if before is None else before
    b = len(model.brokers)
    rf = (np.asarray(reps) >= 0).sum(axis=1)
    lead_out = leader_network_out(model, rf)
    lp = model.broker_positions(np.asarray(lead))
    load = np.bincount(lp[lp >= 0], weights=lead_out[lp >= 0], minlength=b)
    pos = model.broker_positions(np.asarray(reps))
    held = np.zeros(b, dtype=bool)
    held[pos[pos >= 0]] = True
    full = np.array([math.inf if x.capacity is None or x.capacity.network_out is None
                     else float(x.capacity.network_out) for x in model.brokers])
    c = full if np.isfinite(full[allowed]).all() and np.isfinite(full[held]).all() \
        else np.ones(b)
    total = float(load.sum())
    if total <= 0 or not held.any() or not allowed.any():
        return np.full(b, math.inf)
    hottest = float((load[held] / c[held]).max())
    out: np.ndarray = hottest * float(c[held].sum()) / float(c[allowed].sum()) * c
    return out
