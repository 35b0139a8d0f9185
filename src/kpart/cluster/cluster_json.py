"""``cluster.json``: kpart's versioned, documented file of a :class:`ClusterModel`.

Other tools can read it; kpart writes it (``kpart snapshot``) and reads it (``--snapshot``)::

    {"format": "kpart-cluster", "version": 1,
     "brokers": [{"id": 1, "rack": "a", "capacity": {"disk_bytes": 1e12, "network_in": 1.25e8,
                                                     "network_out": 1.25e8, "cpu": null}}],
     "topics": [{"name": "t", "configs": {"min.insync.replicas": 2},
                 "partitions": [{"partition": 0, "replicas": [1, 2], "leader": 1,
                                 "isr": [1, 2], "messages": 100, "size_bytes": 2048,
                                 "bytes_in_per_s": null, "bytes_out_per_s": null,
                                 "messages_in_per_s": null}]}],
     "groups": [{"group_id": "g", "type": "classic", "state": "STABLE", "assignor": "range",
                 "simple": false, "coordinator": 1,
                 "members": [{"member_id": "c-1-5f0e...", "group_instance_id": null,
                              "client_id": "c-1", "host": "/10.0.0.7", "rack": null,
                              "assignment": [["t", [0]]]}]}]}

``rack``, ``capacity`` (and each of its fields), ``configs``, ``leader`` (``null`` = no
leader), ``isr`` and every load may be ``null`` or left out (unknown); units: bytes and
bytes/s (``messages``: records; ``messages_in_per_s``: records/s), capacity as :class:`~kpart.cluster.model.Capacity` (bytes, bytes/s, CPU percent).
``groups`` (optional; ``null`` or absent = not recorded, ``[]`` = none) holds consumer groups
as Kafka's ``ConsumerGroupDescription`` describes them (:class:`~kpart.cluster.groups.ConsumerGroup`:
``type`` ``"classic"``/``"consumer"``, ``state`` a ``ConsumerGroupState`` name, ``assignor`` the
``partitionAssignor``, ``coordinator`` a broker id; each member's ``assignment`` its partitions
by topic); read them with :func:`groups_from_json`. Version 2 adds each partition's KIP-966
``elr`` and ``last_known_elr`` (broker ids in Kafka's order; empty or absent = none); kpart
writes version 2 only when the model records some. Version 3 adds a top-level ``features``: the
cluster's finalized feature levels (KIP-584; ``{"eligible.leader.replicas.version": 1,
"metadata.version": "4.1-IV1"}``: an integer level, ``metadata.version`` as its release), as
``kafka-features.sh describe`` prints them (:mod:`kpart.cluster.features`; read with
:func:`features_from_json`); kpart writes version 3 only when features are given, and reads
versions 1 to 3. Unknown fields are errors (a misspelling; ``elr`` in a version 1 file,
``features`` before version 3, too), as is another ``format`` or ``version``. Errors: :class:`~kpart.errors.ConfigError` naming the field, e.g.
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
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from kpart._json_fields import json_object
from kpart.cluster._partition_columns import INT32_MAX, Columns, partition_columns
from kpart.cluster.groups import ConsumerGroup, GroupMember
from kpart.cluster.model import (
    LOADS,
    Capacity,
    ClusterBroker,
    ClusterModel,
    PartitionState,
    TopicInfo,
)
from kpart.errors import ConfigError

__all__ = ["FORMAT", "READ_VERSIONS", "VERSION", "cluster_from_json", "cluster_to_json",
           "features_from_json", "groups_from_json", "groups_to_json"]

FORMAT = "kpart-cluster"
VERSION = 3
#: The versions :func:`cluster_from_json` reads (1: before KIP-966's ``elr`` /
#: ``last_known_elr``; 2: before ``features``; :func:`cluster_to_json` still writes 1 when the
#: model records neither, 2 without features).
READ_VERSIONS = (1, 2, 3)
_ELR = ("elr", "last_known_elr")
_CAPACITY = ("disk_bytes", "network_in", "network_out", "cpu")
_PARTITION = ("partition", "replicas", "leader", "isr", *LOADS)
_PARTITION_V2 = (*_PARTITION, *_ELR)
_GROUP = ("group_id", "type", "state", "assignor", "simple", "coordinator", "members")
_MEMBER = ("member_id", "group_instance_id", "client_id", "host", "rack", "assignment")


def _list(doc: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise ConfigError(f"{where}.{key}: expected a list.")
    return value


def _int(value: object, where: str, *, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not \
            minimum <= value <= INT32_MAX:
        raise ConfigError(f"{where}: expected an integer from {minimum} to {INT32_MAX}, got "
                          f"{value!r:.40}.")
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
    b = json_object(doc, ("id", "rack", "capacity"), where)
    rack = b.get("rack")
    if rack is not None and not isinstance(rack, str):
        raise ConfigError(f"{where}.rack: expected a string or null.")
    cap_doc = b.get("capacity")
    capacity = None
    if cap_doc is not None:
        c = json_object(cap_doc, _CAPACITY, f"{where}.capacity")
        try:
            capacity = Capacity(**{k: _amount(c.get(k), f"{where}.capacity.{k}")
                                   for k in _CAPACITY})
        except ConfigError as e:
            raise ConfigError(f"{where}.capacity: {e}") from None
    return ClusterBroker(_int(b.get("id"), f"{where}.id"), rack or None, capacity)


def _partition(topic: str, doc: object, where: str, version: int = 1) -> PartitionState:
    p = json_object(doc, _PARTITION if version == 1 else _PARTITION_V2, where)
    leader = p.get("leader")
    loads: dict[str, Any] = {k: _amount(p.get(k), f"{where}.{k}") for k in LOADS}
    for k in _ELR:
        loads[k] = _ids(p.get(k) or [], f"{where}.{k}")
    return PartitionState(
        topic, _int(p.get("partition"), f"{where}.partition"),
        _ids(p.get("replicas"), f"{where}.replicas"),
        None if leader is None or leader == -1 else _int(leader, f"{where}.leader"),
        _ids(p.get("isr") or [], f"{where}.isr"),
        **loads,
    )


def cluster_from_json(doc: object) -> ClusterModel:
    """The :class:`ClusterModel` of a parsed ``cluster.json`` document (see the module
    docstring). Raises :class:`ConfigError` naming the bad field."""
    version = _version(doc)
    top = json_object(doc, ("format", "version", "brokers", "topics", "groups",
                            *(("features",) if version >= 3 else ())), "cluster")
    features_from_json(top)
    brokers = [_broker(b, f"cluster.brokers[{i}]")
               for i, b in enumerate(_list(top, "brokers", "cluster"))]
    topics: list[TopicInfo] = []
    columns: list[Columns] = []
    for i, t_doc in enumerate(_list(top, "topics", "cluster")):
        where = f"cluster.topics[{i}]"
        t = json_object(t_doc, ("name", "configs", "partitions"), where)
        name = t.get("name")
        if not isinstance(name, str) or not name:
            raise ConfigError(f"{where}.name: expected a non-empty string.")
        configs = t.get("configs") or {}
        if not isinstance(configs, Mapping):
            raise ConfigError(f"{where}.configs: expected an object.")
        min_isr = configs.get("min.insync.replicas")
        topics.append(TopicInfo(name, None if min_isr is None else
                                _int(min_isr, f"{where}.configs.min.insync.replicas", minimum=1)))
        parts = _list(t, "partitions", where)
        found = partition_columns(parts)
        if found is None:  # read entry by entry: names the bad field (and reads the ELR)
            found = _columns_of([_partition(name, p, f"{where}.partitions[{j}]", version)
                                 for j, p in enumerate(parts)])
        columns.append(found)
    groups_from_json(top)
    return _model(brokers, topics, columns)


def _version(doc: object) -> int:
    if not isinstance(doc, Mapping):
        raise ConfigError("cluster: expected an object.")
    top = doc
    if top.get("format") != FORMAT:
        raise ConfigError(f"cluster.format: expected {FORMAT!r}, got {top.get('format')!r:.40}.")
    version = top.get("version")
    if type(version) is not int or version not in READ_VERSIONS:
        raise ConfigError(f"cluster.version: kpart reads versions 1 to {VERSION}, got "
                          f"{version!r:.20}.")
    return version


def features_from_json(doc: object) -> dict[str, int | str] | None:
    """The finalized feature levels of a parsed ``cluster.json`` (version 3's ``features``;
    ``None`` when not recorded). Raises :class:`ConfigError` naming the bad entry.

    >>> features_from_json({"format": "kpart-cluster", "version": 3,
    ...                     "features": {"eligible.leader.replicas.version": 1}})
    {'eligible.leader.replicas.version': 1}
    """
    from kpart.cluster.features import METADATA_VERSION

    version = _version(doc)
    value = doc.get("features") if isinstance(doc, Mapping) else None
    if value is None:
        return None
    if version < 3:
        raise ConfigError(f"cluster.features: not in version {version} (features are version "
                          "3's)")
    if not isinstance(value, Mapping):
        raise ConfigError("cluster.features: expected an object of feature levels.")
    out: dict[str, int | str] = {}
    for name, level in value.items():
        where = f"cluster.features.{name}"
        if name == METADATA_VERSION:
            if not isinstance(level, str) or not level:
                raise ConfigError(f"{where}: expected a release string such as '4.1-IV1'.")
            out[name] = level
        elif not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 32767:
            raise ConfigError(f"{where}: expected a level from 0 to 32767, got {level!r:.40}.")
        else:
            out[name] = level
    return out


def _columns_of(rows: list[PartitionState]) -> Columns:
    """Checked rows of one topic as the columns :func:`partition_columns` gives."""
    model = ClusterModel.from_partitions(
        [ClusterBroker(b) for b in sorted({x for r in rows for x in (*r.replicas, *r.isr,
                                                                     *r.elr, *r.last_known_elr)})],
        rows)
    out = {name: getattr(model, name) for name in ("partition", "replicas", "isr", "leader",
                                                   *LOADS)}
    out.update({k: getattr(model, k) for k in _ELR if getattr(model, k) is not None})
    return out


def _model(brokers: list[ClusterBroker], topics: list[TopicInfo],
           columns: list[Columns]) -> ClusterModel:
    """The model of every topic's columns (rows sorted by topic, then partition; the model
    checks the rest and names the partition)."""
    counts = [len(c["partition"]) for c in columns]
    topic = np.repeat(np.arange(len(topics), dtype=np.int32), counts)

    def stacked(name: str) -> np.ndarray:
        if not columns:
            return np.zeros((0, 1) if name in ("replicas", "isr") else 0)
        if name not in ("replicas", "isr", *_ELR):
            return np.concatenate([c[name] for c in columns])
        width = max(c[name].shape[1] for c in columns if name in c)
        out = np.full((len(topic), width), -1, dtype=np.int32)
        start = 0
        for c, count in zip(columns, counts, strict=True):
            if name in c:
                block = c[name]
                out[start : start + len(block), : block.shape[1]] = block
            start += count
        return out

    names = ("partition", "replicas", "isr", "leader", *LOADS,
             *(k for k in _ELR if any(k in c for c in columns)))
    arrays = {name: stacked(name) for name in names}
    order = np.lexsort((arrays["partition"], topic))
    if len(order) and not (np.diff(order) == 1).all():
        topic = topic[order]
        arrays = {k: v[order] for k, v in arrays.items()}
    return ClusterModel(tuple(brokers), tuple(topics), topic=topic, **arrays)


def _text(doc: Mapping[str, Any], key: str, where: str, *, required: bool = False) -> str | None:
    value = doc.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value):
        raise ConfigError(f"{where}.{key}: expected a {'non-empty ' if required else ''}string"
                          f"{'' if required else ' or null'}.")
    return value


def _assignment(value: object, where: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ConfigError(f"{where}: expected [[topic, [partitions]], ...].")
    out = []
    for i, entry in enumerate(value):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)
                and entry[0] and isinstance(entry[1], list)):
            raise ConfigError(f"{where}[{i}]: expected [topic, [partitions]].")
        out.append((entry[0], tuple(_int(p, f"{where}[{i}][1][{j}]")
                                    for j, p in enumerate(entry[1]))))
    return tuple(out)


def _group(doc: object, where: str) -> ConsumerGroup:
    g = json_object(doc, _GROUP, where)
    members = []
    for i, m_doc in enumerate(_list(g, "members", where)):
        mw = f"{where}.members[{i}]"
        m = json_object(m_doc, _MEMBER, mw)
        members.append(GroupMember(
            str(_text(m, "member_id", mw, required=True)), _text(m, "group_instance_id", mw),
            _text(m, "client_id", mw), _text(m, "host", mw), _text(m, "rack", mw),
            _assignment(m.get("assignment"), f"{mw}.assignment")))
    simple = g.get("simple", False)
    if not isinstance(simple, bool):
        raise ConfigError(f"{where}.simple: expected true or false.")
    coordinator = g.get("coordinator")
    return ConsumerGroup(
        str(_text(g, "group_id", where, required=True)), _text(g, "type", where),
        _text(g, "state", where), _text(g, "assignor", where), simple,
        None if coordinator is None else _int(coordinator, f"{where}.coordinator"),
        tuple(members))


def groups_from_json(doc: object) -> tuple[ConsumerGroup, ...] | None:
    """The consumer groups of a parsed ``cluster.json`` document: ``None`` when it has no
    ``groups`` (or ``null``: not recorded). Raises :class:`ConfigError` naming the bad field,
    e.g. ``cluster.groups[0].members[1].assignment[0]``, or a group listed twice.

    >>> groups_from_json({"groups": [{"group_id": "g", "members": [
    ...     {"member_id": "m", "assignment": [["t", [0, 1]]]}]}]})[0].members[0].assignment
    (('t', (0, 1)),)
    """
    if not isinstance(doc, Mapping):
        raise ConfigError("cluster: expected an object.")
    raw = doc.get("groups")
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise ConfigError("cluster.groups: expected a list or null.")
    groups = tuple(_group(g, f"cluster.groups[{i}]") for i, g in enumerate(raw))
    seen: set[str] = set()
    for i, g in enumerate(groups):
        if g.group_id in seen:
            raise ConfigError(f"cluster.groups[{i}].group_id: group {g.group_id!r} is listed "
                              "twice.")
        seen.add(g.group_id)
    return groups


def groups_to_json(groups: Iterable[ConsumerGroup]) -> list[dict[str, Any]]:
    """``groups`` as the ``groups`` section of ``cluster.json``."""
    return [{"group_id": g.group_id, "type": g.type, "state": g.state, "assignor": g.assignor,
             "simple": g.simple, "coordinator": g.coordinator,
             "members": [{"member_id": m.member_id, "group_instance_id": m.group_instance_id,
                          "client_id": m.client_id, "host": m.host, "rack": m.rack,
                          "assignment": [[t, list(ps)] for t, ps in m.assignment]}
                         for m in g.members]}
            for g in groups]


def _id_lists(ids: np.ndarray) -> list[list[int]]:
    """Rows of broker ids padded with ``-1`` at the end → lists without the padding."""
    rows: list[list[int]] = ids.tolist()
    lengths = (ids >= 0).sum(axis=1).tolist() if ids.ndim == 2 else []
    width = ids.shape[1] if ids.ndim == 2 else 0
    return [r if k == width else r[:k] for r, k in zip(rows, lengths, strict=True)]


def _numbers(values: np.ndarray, *, missing: np.ndarray) -> list[float | int | None]:
    """Float values as JSON numbers: whole numbers as ints (below 2^53, exact), ``missing``
    as ``None``."""
    out = values.astype(object)
    whole = ~missing & (values == np.floor(values)) & (np.abs(values) < 2.0**53)
    out[whole] = values[whole].astype(np.int64).astype(object)
    out[missing] = None
    return out.tolist()  # type: ignore[no-any-return]


def cluster_to_json(model: ClusterModel,
                    groups: Iterable[ConsumerGroup] | None = None,
                    features: Mapping[str, int | str] | None = None) -> dict[str, Any]:
    """``model`` as a ``cluster.json`` document (a dict ready for ``json.dumps``): brokers by
    id, topics in the model's order, partitions by number; unknown values as ``null``; with
    ``groups``, a ``groups`` section (see :func:`groups_to_json`); with ``features`` (finalized
    levels, :func:`kpart.cluster.features.parse_features`), version 3 with ``features``."""
    brokers = []
    for b in model.brokers:
        cap = None if b.capacity is None else {k: getattr(b.capacity, k) for k in _CAPACITY}
        brokers.append({"id": b.id, "rack": b.rack, "capacity": cap})
    topics: list[dict[str, Any]] = [
        {"name": t.name, "configs": {"min.insync.replicas": t.min_insync_replicas},
         "partitions": []} for t in model.topics
    ]
    columns = [model.partition.tolist(), _id_lists(model.replicas),
               _numbers(model.leader.astype(np.float64), missing=model.leader < 0),
               _id_lists(model.isr),
               *(_numbers(getattr(model, k), missing=np.isnan(getattr(model, k)))
                 for k in LOADS)]
    keys: tuple[str, ...] = _PARTITION
    with_elr = model.elr is not None or model.last_known_elr is not None
    if with_elr:
        keys = _PARTITION_V2
        columns += [_id_lists(np.full((len(model.topic), 1), -1) if a is None else a)
                    for a in (model.elr, model.last_known_elr)]
    entries = [dict(zip(keys, values, strict=True))
               for values in zip(*columns, strict=True)]
    ends = np.cumsum(np.bincount(model.topic, minlength=len(topics))).tolist()
    for t, (start, end) in enumerate(zip([0, *ends[:-1]], ends, strict=True)):
        topics[t]["partitions"] = entries[start:end]
    doc: dict[str, Any] = {
        "format": FORMAT, "version": 3 if features is not None else 2 if with_elr else 1,
        "brokers": brokers, "topics": topics}
    if features is not None:
        doc["features"] = dict(features)
        features_from_json(doc)
    if groups is not None:
        doc["groups"] = groups_to_json(groups)
    return doc
