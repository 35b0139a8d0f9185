"""``cluster.json``: kpart's versioned, documented file of a :class:`ClusterModel`.

Other tools can read it; kpart writes it (``kpart snapshot``) and reads it (``--snapshot``)::

    {"format": "kpart-cluster", "version": 1,
     "brokers": [{"id": 1, "rack": "a", "capacity": {"disk_bytes": 1e12, "network_in": 1.25e8,
                                                     "network_out": 1.25e8, "cpu": null}}],
     "topics": [{"name": "t", "configs": {"min.insync.replicas": 2},
                 "partitions": [{"partition": 0, "replicas": [1, 2], "leader": 1,
                                 "isr": [1, 2], "messages": 100, "size_bytes": 2048,
                                 "bytes_in_per_s": null, "bytes_out_per_s": null}]}]}

``rack``, ``capacity`` (and each of its fields), ``configs``, ``leader`` (``null`` = no
leader), ``isr`` and every load may be ``null`` or left out (unknown); units: bytes and
bytes/s, capacity as :class:`~kpart.cluster.model.Capacity` (bytes, bytes/s, CPU percent).
Unknown fields are errors (a misspelling), as is another ``format`` or a ``version`` other than
1. Errors: :class:`~kpart.errors.ConfigError` naming the field, e.g.
``cluster.topics[0].partitions[3].replicas``.

>>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
>>> m = ClusterModel.from_partitions([ClusterBroker(1, "a")],
...                                  [PartitionState("t", 0, (1,), leader=1, isr=(1,))])
>>> doc = cluster_to_json(m)
>>> doc["topics"][0]["partitions"][0]["replicas"], cluster_from_json(doc).num_partitions
([1], 1)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from kpart.cluster.model import (
    LOADS,
    Capacity,
    ClusterBroker,
    ClusterModel,
    PartitionState,
    TopicInfo,
)
from kpart.errors import ConfigError

__all__ = ["FORMAT", "VERSION", "cluster_from_json", "cluster_to_json"]

FORMAT = "kpart-cluster"
VERSION = 1
_CAPACITY = ("disk_bytes", "network_in", "network_out", "cpu")
_PARTITION = ("partition", "replicas", "leader", "isr", *LOADS)


def _fields(doc: object, allowed: tuple[str, ...], where: str) -> Mapping[str, Any]:
    if not isinstance(doc, Mapping):
        raise ConfigError(f"{where}: expected an object.")
    for k in doc:
        if k not in allowed:
            raise ConfigError(f"{where}.{k}: unknown field (expected one of "
                              f"{', '.join(allowed)}).")
    return doc


def _list(doc: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise ConfigError(f"{where}.{key}: expected a list.")
    return value


def _int(value: object, where: str, *, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ConfigError(f"{where}: expected an integer >= {minimum}, got {value!r:.40}.")
    return value


def _ids(value: object, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ConfigError(f"{where}: expected a list of broker ids.")
    return tuple(_int(v, f"{where}[{i}]") for i, v in enumerate(value))


def _amount(value: object, where: str) -> float | None:
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or value < 0 \
            or math.isnan(value):
        raise ConfigError(f"{where}: expected a number >= 0 or null, got {value!r:.40}.")
    return float(value)


def _broker(doc: object, where: str) -> ClusterBroker:
    b = _fields(doc, ("id", "rack", "capacity"), where)
    rack = b.get("rack")
    if rack is not None and not isinstance(rack, str):
        raise ConfigError(f"{where}.rack: expected a string or null.")
    cap_doc = b.get("capacity")
    capacity = None
    if cap_doc is not None:
        c = _fields(cap_doc, _CAPACITY, f"{where}.capacity")
        try:
            capacity = Capacity(**{k: _amount(c.get(k), f"{where}.capacity.{k}")
                                   for k in _CAPACITY})
        except ConfigError as e:
            raise ConfigError(f"{where}.capacity: {e}") from None
    return ClusterBroker(_int(b.get("id"), f"{where}.id"), rack or None, capacity)


def _partition(topic: str, doc: object, where: str) -> PartitionState:
    p = _fields(doc, _PARTITION, where)
    leader = p.get("leader")
    return PartitionState(
        topic, _int(p.get("partition"), f"{where}.partition"),
        _ids(p.get("replicas"), f"{where}.replicas"),
        None if leader is None or leader == -1 else _int(leader, f"{where}.leader"),
        _ids(p.get("isr") or [], f"{where}.isr"),
        **{k: _amount(p.get(k), f"{where}.{k}") for k in LOADS},
    )


def cluster_from_json(doc: object) -> ClusterModel:
    """The :class:`ClusterModel` of a parsed ``cluster.json`` document (see the module
    docstring). Raises :class:`ConfigError` naming the bad field."""
    top = _fields(doc, ("format", "version", "brokers", "topics"), "cluster")
    if top.get("format") != FORMAT:
        raise ConfigError(f"cluster.format: expected {FORMAT!r}, got {top.get('format')!r:.40}.")
    if top.get("version") != VERSION:
        raise ConfigError(f"cluster.version: kpart reads version {VERSION}, got "
                          f"{top.get('version')!r:.20}.")
    brokers = [_broker(b, f"cluster.brokers[{i}]")
               for i, b in enumerate(_list(top, "brokers", "cluster"))]
    topics: list[TopicInfo] = []
    partitions: list[PartitionState] = []
    for i, t_doc in enumerate(_list(top, "topics", "cluster")):
        where = f"cluster.topics[{i}]"
        t = _fields(t_doc, ("name", "configs", "partitions"), where)
        name = t.get("name")
        if not isinstance(name, str) or not name:
            raise ConfigError(f"{where}.name: expected a non-empty string.")
        configs = t.get("configs") or {}
        if not isinstance(configs, Mapping):
            raise ConfigError(f"{where}.configs: expected an object.")
        min_isr = configs.get("min.insync.replicas")
        topics.append(TopicInfo(name, None if min_isr is None else
                                _int(min_isr, f"{where}.configs.min.insync.replicas", minimum=1)))
        partitions.extend(_partition(name, p, f"{where}.partitions[{j}]")
                          for j, p in enumerate(_list(t, "partitions", where)))
    return ClusterModel.from_partitions(brokers, partitions, topics)


def _number(value: float) -> float | int | None:
    if math.isnan(value):
        return None
    return int(value) if value.is_integer() else value


def cluster_to_json(model: ClusterModel) -> dict[str, Any]:
    """``model`` as a ``cluster.json`` document (a dict ready for ``json.dumps``): brokers by
    id, topics in the model's order, partitions by number; unknown values as ``null``."""
    brokers = []
    for b in model.brokers:
        cap = None if b.capacity is None else {k: getattr(b.capacity, k) for k in _CAPACITY}
        brokers.append({"id": b.id, "rack": b.rack, "capacity": cap})
    topics: list[dict[str, Any]] = [
        {"name": t.name, "configs": {"min.insync.replicas": t.min_insync_replicas},
         "partitions": []} for t in model.topics
    ]
    loads = {k: getattr(model, k).tolist() for k in LOADS}
    replicas, isr = model.replicas.tolist(), model.isr.tolist()
    leader, partition = model.leader.tolist(), model.partition.tolist()
    for row, t in enumerate(model.topic.tolist()):
        entry: dict[str, Any] = {
            "partition": partition[row],
            "replicas": [x for x in replicas[row] if x >= 0],
            "leader": None if leader[row] < 0 else leader[row],
            "isr": [x for x in isr[row] if x >= 0],
        }
        entry.update({k: _number(loads[k][row]) for k in LOADS})
        topics[t]["partitions"].append(entry)
    return {"format": FORMAT, "version": VERSION, "brokers": brokers, "topics": topics}
