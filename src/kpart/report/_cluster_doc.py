"""The multi-topic report document (``summary.json`` with ``"kind": "cluster"``), read and
checked once for the page (:mod:`kpart.report._cluster_report_html`) and the terminal
(:mod:`kpart.report.terminal`): every field either has the type the format gives it or the
reader raises one :class:`~kpart.errors.ConfigError` naming it
(``topics[1].partitions[3].bytes: expected a number, got 'x'``), so neither ever fails with a
``KeyError`` or a ``TypeError``.

The format is the one :mod:`kpart.analysis.cluster_summary` writes (docs/report-html.md): a list
of ``topics`` with their partitions (records, bytes, leader, replicas, rates over time), the
cluster-wide ``brokers`` (Cruise Control's load model, ``com.linkedin.kafka.cruisecontrol.
model.Load``), ``racks``, ``groups`` (a group may read several topics), ``hot_keys``, the
``heatmap`` (partition × time) and ``cluster`` (the sections shared with ``plan.html``).
Required: ``topics`` (each with ``topic``, ``records``, ``bytes``, ``num_partitions`` and
``partitions``, each partition with ``partition``, ``records`` and ``bytes``) and ``brokers``
(each with ``broker``); everything else is optional, ``null`` meaning "not measured".

>>> doc = read_cluster_summary({"kind": "cluster", "records": 3, "bytes": 30, "brokers": [
...     {"broker": 1}], "topics": [{"topic": "t", "records": 3, "bytes": 30,
...     "num_partitions": 1, "partitions": [{"partition": 0, "records": 3, "bytes": 30}]}]})
>>> doc.topics[0].partitions[0].bytes, doc.heatmap is None, doc.timed
(30, True, False)
>>> read_cluster_summary({"kind": "cluster", "topics": [], "brokers": []})
Traceback (most recent call last):
kpart.errors.ConfigError: summary.topics: expected a non-empty list, got []
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kpart.errors import ConfigError
from kpart.producer.partition_count import RECOMMENDED_BY
from kpart.report._doc_fields import (
    check_numbers,
    count,
    integer,
    lst,
    num,
    obj,
    oint,
    onum,
    ostr,
    ratio,
)
from kpart.report._html_parts import require_field

__all__ = ["BrokerDoc", "ClusterDoc", "CountDoc", "GroupDoc", "HeatmapDoc", "MemberDoc",
           "PartitionDoc", "TopicDoc", "advice_words", "read_cluster_summary"]


@dataclass(frozen=True, slots=True)
class PartitionDoc:
    """One partition of a topic: totals, placement, rates (B/s, records/s; ``None`` without a
    timestamp column) and its owner in each group (``(group, member or None)``)."""

    partition: int
    records: float
    bytes: float
    keys: int | None
    leader: int | None
    replicas: tuple[int, ...]
    null_key_records: float | None
    mean_in: float | None
    peak_in: float | None
    p99_in: float | None
    peak_records: float | None
    consumers: tuple[tuple[str, str | None], ...]


@dataclass(frozen=True, slots=True)
class CountDoc:
    """A topic's ``partition_count`` (:class:`kpart.producer.partition_count.PartitionCountResult`):
    ``recommended`` never below ``current`` nor the largest group's members, what set it
    (``recommended_by``: ``load``, ``current``, ``consumers``), the load's own
    ``smallest_fitting`` count (a fact) and ``largest_group`` (``(group, members)``)."""

    current: int
    current_ok: bool
    recommended: int | None
    peak_bytes_per_s: float | None
    peak_records_per_s: float | None
    max_partition_bytes_per_s: float | None
    consumer_records_per_s: float | None
    max_partitions: int | None
    max_over_mean: float | None
    moved_keys_share: float | None
    moved_records_share: float | None
    hot_key: Mapping[str, Any] | None
    reason: str
    recommended_by: str | None = None
    smallest_fitting: int | None = None
    largest_group: tuple[str, int] | None = None


def advice_words(c: CountDoc) -> str | None:
    """What set the advised count, in words, for the terminal and the page (``None`` without
    ``recommended``, or for a document written before ``recommended_by``).

    >>> c = CountDoc(12, True, 12, None, None, None, None, None, None, None, None, None, "",
    ...              recommended_by="current", smallest_fitting=1)
    >>> advice_words(c)
    "keep: Kafka cannot reduce a topic's partition count"
    """
    if c.recommended is None or c.recommended_by is None:
        return None
    if c.recommended_by == "current":
        return "keep: Kafka cannot reduce a topic's partition count"
    if c.recommended_by == "consumers" and c.largest_group is not None:
        group, members = c.largest_group
        return f"{members} members in group {group}"
    floor = max(c.current, c.largest_group[1] if c.largest_group is not None else 0)
    if c.smallest_fitting is not None and c.recommended > c.smallest_fitting:
        return (f"the load: {floor} partitions exceed the limits, {c.recommended} is the "
                f"smallest count from {floor} within them")
    return "the load: the smallest count within the limits"


@dataclass(frozen=True, slots=True)
class TopicDoc:
    """One entry of ``topics``."""

    topic: str
    records: float
    bytes: float
    num_partitions: int
    replication_factor: int | None
    key: str | None
    key_serializer: str | None
    partitioner: str | None
    null_key_strategy: str | None
    input_path: str | None
    timestamp: str | None
    null_key_records: float | None
    distinct_keys: int | None
    span_s: float | None
    partitions: tuple[PartitionDoc, ...]
    records_max_over_mean: float | None
    partition_count: CountDoc | None

    @property
    def timed(self) -> bool:
        """Rates over time were measured (a timestamp column)."""
        return any(p.peak_in is not None for p in self.partitions)


@dataclass(frozen=True, slots=True)
class BrokerDoc:
    """One entry of ``brokers``: loads as leader and replica, Cruise Control's network loads
    (B/s), the bytes-in over time and the capacity (``None``: unknown)."""

    broker: int
    rack: str | None
    leaders: int | None
    replicas: int | None
    leader_records: float | None
    leader_bytes: float | None
    replica_records: float | None
    replica_bytes: float | None
    disk_bytes: float | None
    produce_in: float | None
    replication_in: float | None
    consumer_out: float | None
    replication_out: float | None
    nw_in: float | None
    nw_out: float | None
    peak_in: float | None
    p99_in: float | None
    mean_in: float | None
    capacity_nw_in: float | None
    capacity_nw_out: float | None
    peak_nw_in: float | None = None

    @property
    def peak_vs_capacity(self) -> float | None:
        """The inbound peak that ``capacity_nw_in`` bounds: the peak network in (produce +
        replication, ``peak_nw_in_bytes_per_s``) when the summary has it, else the peak
        bytes in."""
        return self.peak_nw_in if self.peak_nw_in is not None else self.peak_in

    @property
    def capacity_used(self) -> float | None:
        """:attr:`peak_vs_capacity` / ``capacity_nw_in`` (``None`` when either is unknown)."""
        peak = self.peak_vs_capacity
        return None if peak is None or not self.capacity_nw_in else peak / self.capacity_nw_in


@dataclass(frozen=True, slots=True)
class MemberDoc:
    """A member of a group: its ``(topic, partition)`` pairs and their loads."""

    member: str
    rack: str | None
    instance_id: str | None
    partitions: tuple[tuple[str, int], ...]
    records: float
    bytes: float | None
    peak_records: float | None


@dataclass(frozen=True, slots=True)
class GroupDoc:
    """One entry of ``groups``."""

    group: str
    strategy: str | None
    topics: tuple[str, ...]
    members: tuple[MemberDoc, ...]
    max_over_mean: float | None


@dataclass(frozen=True, slots=True)
class HeatmapDoc:
    """``heatmap``: ``z[r][c]`` the bytes/s of row ``labels[r]`` (topic, partition) in column
    ``columns[c]`` (ISO 8601 times, each the max of the windows it covers); ``rows_omitted``
    the partitions left out (only the busiest are kept)."""

    window_s: float | None
    columns: tuple[str, ...]
    labels: tuple[tuple[str, int], ...]
    z: tuple[list[float | None], ...]
    rows_omitted: int = 0


@dataclass(frozen=True, slots=True)
class ClusterDoc:
    """The whole document, checked."""

    records: float | None
    bytes: float | None
    window_s: float | None
    analysed: Mapping[str, Any] | None
    topics: tuple[TopicDoc, ...]
    brokers: tuple[BrokerDoc, ...]
    racks: tuple[Mapping[str, Any], ...]
    groups: tuple[GroupDoc, ...]
    hot_keys: tuple[Mapping[str, Any], ...]
    heatmap: HeatmapDoc | None
    cluster: Mapping[str, Any] | None

    @property
    def timed(self) -> bool:
        """Some topic has rates over time."""
        return any(t.timed for t in self.topics)


def _partition(row: Any, where: str) -> PartitionDoc:
    r = obj(row, where)
    replicas = lst(r, "replicas", where, required=False)
    consumers = r.get("consumers") or {}
    obj(consumers, f"{where}.consumers")
    return PartitionDoc(
        partition=integer(require_field(r, "partition", where), f"{where}.partition"),
        records=num(r, "records", where), bytes=num(r, "bytes", where),
        keys=oint(r, "keys", where), leader=oint(r, "leader", where),
        replicas=tuple(integer(b, f"{where}.replicas[{i}]") for i, b in enumerate(replicas)),
        null_key_records=onum(r, "null_key_records", where),
        mean_in=onum(r, "bytes_in_per_s", where), peak_in=onum(r, "peak_bytes_in_per_s", where),
        p99_in=onum(r, "p99_bytes_in_per_s", where),
        peak_records=onum(r, "peak_records_per_s", where),
        consumers=tuple((str(g), ostr(consumers, g, f"{where}.consumers"))
                        for g in consumers),
    )


def _partition_count(doc: Any, where: str) -> CountDoc | None:
    if doc is None:
        return None
    d = obj(doc, where)
    limits = obj(d.get("limits") or {}, f"{where}.limits")
    ok = require_field(d, "current_ok", where)
    if not isinstance(ok, bool):
        raise ConfigError(f"{where}.current_ok: expected true or false, got {ok!r:.60}")
    hot = d.get("hot_key")
    reason = d.get("reason") or ""
    if not isinstance(reason, str):
        raise ConfigError(f"{where}.reason: expected a string, got {reason!r:.60}")
    return CountDoc(
        current=integer(require_field(d, "current", where), f"{where}.current"), current_ok=ok,
        recommended=oint(d, "recommended", where),
        peak_bytes_per_s=onum(d, "peak_bytes_per_s", where),
        peak_records_per_s=onum(d, "peak_records_per_s", where),
        max_partition_bytes_per_s=onum(limits, "max_partition_bytes_per_s", f"{where}.limits"),
        consumer_records_per_s=onum(limits, "consumer_records_per_s", f"{where}.limits"),
        max_partitions=oint(limits, "max_partitions", f"{where}.limits"),
        max_over_mean=ratio(d.get("skew"), f"{where}.skew"),
        moved_keys_share=onum(d, "moved_keys_share", where),
        moved_records_share=onum(d, "moved_records_share", where),
        hot_key=None if hot is None else obj(hot, f"{where}.hot_key"), reason=reason,
        recommended_by=_recommended_by(d, where),
        smallest_fitting=oint(d, "smallest_fitting", where),
        largest_group=_largest_group(d.get("largest_group"), f"{where}.largest_group"),
    )


def _recommended_by(d: Mapping[str, Any], where: str) -> str | None:
    by = ostr(d, "recommended_by", where)
    if by is not None and by not in RECOMMENDED_BY:
        raise ConfigError(f"{where}.recommended_by: expected one of "
                          f"{', '.join(RECOMMENDED_BY)} or null, got {by!r:.60}")
    return by


def _largest_group(doc: Any, where: str) -> tuple[str, int] | None:
    if doc is None:
        return None
    g = obj(doc, where)
    name = require_field(g, "group", where)
    if not isinstance(name, str):
        raise ConfigError(f"{where}.group: expected a string, got {name!r:.60}")
    return name, integer(require_field(g, "members", where), f"{where}.members")


def _topic(row: Any, where: str) -> TopicDoc:
    t = obj(row, where)
    name = require_field(t, "topic", where)
    if not isinstance(name, str):
        raise ConfigError(f"{where}.topic: expected a string, got {name!r:.60}")
    parts = lst(t, "partitions", where, nonempty=True)
    skew = obj(t.get("skew") or {}, f"{where}.skew")
    source = obj(t.get("input") or {}, f"{where}.input")
    return TopicDoc(
        topic=name, records=num(t, "records", where), bytes=num(t, "bytes", where),
        num_partitions=integer(require_field(t, "num_partitions", where), f"{where}.num_partitions"),
        replication_factor=oint(t, "replication_factor", where),
        key=ostr(t, "key", where), key_serializer=ostr(t, "key_serializer", where),
        partitioner=ostr(t, "partitioner", where),
        null_key_strategy=ostr(t, "null_key_strategy", where),
        input_path=ostr(source, "path", f"{where}.input"),
        timestamp=ostr(t, "timestamp", where),
        null_key_records=onum(t, "null_key_records", where),
        distinct_keys=oint(t, "distinct_keys", where), span_s=onum(t, "span_s", where),
        partitions=tuple(_partition(p, f"{where}.partitions[{i}]") for i, p in enumerate(parts)),
        records_max_over_mean=ratio(skew.get("partition_records"),
                                     f"{where}.skew.partition_records"),
        partition_count=_partition_count(t.get("partition_count"), f"{where}.partition_count"),
    )


_BROKER_NUMS = (
    ("leader_records", "leader_records"), ("leader_bytes", "leader_bytes"),
    ("replica_records", "replica_records"), ("replica_bytes", "replica_bytes"),
    ("disk_bytes", "disk_bytes"), ("produce_in", "produce_bytes_in_per_s"),
    ("replication_in", "replication_bytes_in_per_s"),
    ("consumer_out", "consumer_bytes_out_per_s"),
    ("replication_out", "replication_bytes_out_per_s"), ("nw_in", "nw_in_bytes_per_s"),
    ("nw_out", "nw_out_bytes_per_s"), ("peak_in", "peak_bytes_in_per_s"),
    ("p99_in", "p99_bytes_in_per_s"), ("mean_in", "mean_bytes_in_per_s"),
    ("peak_nw_in", "peak_nw_in_bytes_per_s"),
)


def _broker(row: Any, where: str) -> BrokerDoc:
    b = obj(row, where)
    cap = obj(b.get("capacity") or {}, f"{where}.capacity")
    return BrokerDoc(
        broker=integer(require_field(b, "broker", where), f"{where}.broker"), rack=ostr(b, "rack", where),
        leaders=count(b, "leaders", where), replicas=count(b, "replicas", where),
        **{attr: onum(b, key, where) for attr, key in _BROKER_NUMS},
        capacity_nw_in=_capacity(cap, "in", f"{where}.capacity"),
        capacity_nw_out=_capacity(cap, "out", f"{where}.capacity"),
    )


def _capacity(cap: Mapping[str, Any], way: str, where: str) -> float | None:
    """A network capacity by the plan summary's name (``nw_in_bytes_per_s``) or by
    ``cluster.json``'s (``network_in``; :class:`kpart.cluster.model.Capacity`), B/s."""
    key = f"nw_{way}_bytes_per_s"
    return onum(cap, key if key in cap else f"network_{way}", where)


def _member(row: Any, where: str) -> MemberDoc:
    m = obj(row, where)
    name = require_field(m, "member", where)
    parts = []
    for i, p in enumerate(lst(m, "partitions", where, required=False)):
        at = f"{where}.partitions[{i}]"
        tp = obj(p, at)
        topic = require_field(tp, "topic", at)
        if not isinstance(topic, str):
            raise ConfigError(f"{at}.topic: expected a string, got {topic!r:.60}")
        parts.append((topic, integer(require_field(tp, "partition", at), f"{at}.partition")))
    return MemberDoc(
        member=str(name), rack=ostr(m, "rack", where),
        instance_id=ostr(m, "instance_id", where), partitions=tuple(parts),
        records=num(m, "records", where), bytes=onum(m, "bytes", where),
        peak_records=onum(m, "peak_records_per_s", where),
    )


def _group(row: Any, where: str) -> GroupDoc:
    g = obj(row, where)
    topics = [str(t) for t in lst(g, "topics", where, required=False)]
    members = tuple(_member(m, f"{where}.members[{i}]")
                    for i, m in enumerate(lst(g, "members", where)))
    if not topics:  # not given: the topics its members read, in order of appearance
        topics = list(dict.fromkeys(t for m in members for t, _ in m.partitions))
    return GroupDoc(
        group=str(require_field(g, "group", where)), strategy=ostr(g, "strategy", where),
        topics=tuple(topics), members=members,
        max_over_mean=ratio(g.get("skew"), f"{where}.skew"),
    )


def _heatmap(doc: Any, where: str) -> HeatmapDoc | None:
    if doc is None:
        return None
    h = obj(doc, where)
    columns = lst(h, "columns", where)
    if not all(isinstance(c, str) for c in columns):
        bad = next(c for c in columns if not isinstance(c, str))
        raise ConfigError(f"{where}.columns: expected ISO 8601 times, got {bad!r:.60}")
    labels, z = [], []
    for i, row in enumerate(lst(h, "rows", where)):
        at = f"{where}.rows[{i}]"
        r = obj(row, at)
        topic = require_field(r, "topic", at)
        values = lst(r, "bytes_per_s", at)
        if len(values) != len(columns):
            raise ConfigError(f"{at}.bytes_per_s: expected {len(columns)} values (one per "
                              f"column), got {len(values)}")
        check_numbers(values, f"{at}.bytes_per_s")
        labels.append((str(topic), integer(require_field(r, "partition", at), f"{at}.partition")))
        z.append(values)
    return HeatmapDoc(window_s=onum(h, "window_s", where), columns=tuple(columns),
                      labels=tuple(labels), z=tuple(z),
                      rows_omitted=oint(h, "rows_omitted", where) or 0)


def _rows(doc: Mapping[str, Any], key: str, field: str) -> tuple[Mapping[str, Any], ...]:
    rows = lst(doc, key, "summary", required=False)
    out = []
    for i, row in enumerate(rows):
        r = obj(row, f"{key}[{i}]")
        require_field(r, field, f"{key}[{i}]")
        out.append(r)
    return tuple(out)


def read_cluster_summary(summary: Any) -> ClusterDoc:
    """``summary`` (a ``summary.json`` document with ``"kind": "cluster"``) checked and read;
    :class:`~kpart.errors.ConfigError` naming the first malformed field."""
    s = obj(summary, "summary")
    topics = lst(s, "topics", "summary", nonempty=True)
    analysed = s.get("analysed")
    cluster = s.get("cluster")
    hot = _rows(s, "hot_keys", "key")
    for i, h in enumerate(hot):
        for k in ("records", "share"):
            onum(h, k, f"hot_keys[{i}]")
    return ClusterDoc(
        records=onum(s, "records", "summary"), bytes=onum(s, "bytes", "summary"),
        window_s=onum(s, "window_s", "summary"),
        analysed=None if analysed is None else obj(analysed, "analysed"),
        topics=tuple(_topic(t, f"topics[{i}]") for i, t in enumerate(topics)),
        brokers=tuple(_broker(b, f"brokers[{i}]")
                      for i, b in enumerate(lst(s, "brokers", "summary"))),
        racks=_rows(s, "racks", "rack"),
        groups=tuple(_group(g, f"groups[{i}]")
                     for i, g in enumerate(lst(s, "groups", "summary", required=False))),
        hot_keys=hot, heatmap=_heatmap(s.get("heatmap"), "heatmap"),
        cluster=None if cluster is None else _cluster(cluster),
    )


def _cluster(doc: Any) -> Mapping[str, Any]:
    """``cluster``, checked by the readers of ``plan.html``'s sections
    (:func:`kpart.report._cluster_html.cluster_sections`), so the terminal refuses what the
    page refuses (its broker rows first checked as objects: ``parse_brokers`` assumes it)."""
    from kpart.report._cluster_html import cluster_sections

    c = obj(doc, "cluster")
    rows = c.get("brokers")
    if isinstance(rows, list):
        for i, row in enumerate(rows):
            obj(row, f"cluster.brokers[{i}]")
    cluster_sections(c)
    return c
