"""Balance figures of a replica assignment (what Cruise Control's ``ReplicaDistributionGoal``,
``LeaderReplicaDistributionGoal`` and ``RackAwareGoal`` measure).

For any cluster assignment ``{topic: {partition: (broker, ...)}}``: replicas and (preferred)
leaders per broker and per rack, the partitions whose replicas span fewer racks than they could
(``min(replication factor, racks available to the topic)``), and max/min ratios.

>>> from kpart.placement.spec import Broker
>>> r = balance({"foo": {0: (1, 2), 1: (2, 3)}}, [Broker(1, "a"), Broker(2, "a"), Broker(3, "b")])
>>> r.replicas_per_broker
((1, 1), (2, 2), (3, 1))
>>> r.rack_violations
(('foo', 0),)
>>> r.replica_ratio
2.0
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kpart._java.strings import java_string_key
from kpart.errors import ConfigError
from kpart.placement.spec import Broker

__all__ = ["BalanceReport", "balance", "parse_partition_sizes", "partition_size_columns", "ratio",
           "rack_violations"]


def ratio(counts: Iterable[int]) -> float:
    """``max / min`` of the counts: ``1.0`` when empty or all zero, ``inf`` when min is 0."""
    values = list(counts)
    if not values or max(values) == 0:
        return 1.0
    lo = min(values)
    return math.inf if lo == 0 else max(values) / lo


@dataclass(frozen=True, slots=True)
class BalanceReport:
    """Balance figures. Per-broker and per-rack tuples are ``(key, count)`` sorted by key;
    brokers without replicas appear with 0. ``rack_violations`` lists ``(topic, partition)``.
    Ratios are ``max / min`` (``inf`` when some broker has none)."""

    brokers: int
    partitions: int
    replicas: int
    replicas_per_broker: tuple[tuple[int, int], ...]
    leaders_per_broker: tuple[tuple[int, int], ...]
    replicas_per_rack: tuple[tuple[str, int], ...]
    leaders_per_rack: tuple[tuple[str, int], ...]
    rack_violations: tuple[tuple[str, int], ...]
    replica_ratio: float
    leader_ratio: float

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict (``inf`` ratios become ``None``)."""

        def fin(x: float) -> float | None:
            return None if math.isinf(x) else round(x, 6)

        return {
            "brokers": self.brokers,
            "partitions": self.partitions,
            "replicas": self.replicas,
            "replicas_per_broker": {str(b): n for b, n in self.replicas_per_broker},
            "leaders_per_broker": {str(b): n for b, n in self.leaders_per_broker},
            "replicas_per_rack": dict(self.replicas_per_rack),
            "leaders_per_rack": dict(self.leaders_per_rack),
            "rack_violations": [{"topic": t, "partition": p} for t, p in self.rack_violations],
            "replica_ratio": fin(self.replica_ratio),
            "leader_ratio": fin(self.leader_ratio),
        }


def _racks(brokers: Sequence[Broker] | None) -> dict[int, str | None]:
    return {} if brokers is None else {b.id: b.rack for b in brokers}


def rack_violations(
    assignment: Mapping[str, Mapping[int, Sequence[int]]],
    brokers: Sequence[Broker],
    allowed: Mapping[str, Iterable[int]] | None = None,
) -> tuple[tuple[str, int], ...]:
    """Partitions whose replicas span fewer racks than ``min(RF, racks)``, where ``racks``
    counts the racks of the brokers the topic may use (``allowed[topic]``, default: all
    ``brokers``). Brokers without a rack are ignored (no rack known, no violation)."""
    rack = _racks(brokers)
    all_racks = {r for r in rack.values() if r is not None}
    if len(all_racks) < 2:
        return ()
    out: list[tuple[str, int]] = []
    for topic in sorted(assignment, key=java_string_key):
        if allowed is not None and topic in allowed:
            avail = len({rack.get(b) for b in allowed[topic]} - {None})
        else:
            avail = len(all_racks)
        for p in sorted(assignment[topic]):
            reps = assignment[topic][p]
            have = len({rack.get(b) for b in reps} - {None})
            if have < min(len(reps), avail):
                out.append((topic, p))
    return tuple(out)


def balance(
    assignment: Mapping[str, Mapping[int, Sequence[int]]],
    brokers: Sequence[Broker] | None = None,
    *,
    allowed: Mapping[str, Iterable[int]] | None = None,
) -> BalanceReport:
    """Balance figures of ``assignment`` over ``brokers`` (default: the brokers it uses, no
    racks). ``allowed`` maps a topic to the brokers it may use (its resource pool), for the
    rack-diversity check. Errors: ``ConfigError`` when a replica sits on a broker missing
    from ``brokers``."""
    rack = _racks(brokers)
    replicas: dict[int, int] = {b: 0 for b in rack}
    leaders: dict[int, int] = {b: 0 for b in rack}
    n_parts = n_reps = 0
    for topic, parts in assignment.items():
        for p, reps in parts.items():
            n_parts += 1
            for i, b in enumerate(reps):
                if brokers is not None and b not in rack:
                    raise ConfigError(f"Unknown broker id {b} in the replicas of {topic}-{p}")
                replicas[b] = replicas.get(b, 0) + 1
                n_reps += 1
                if i == 0:
                    leaders[b] = leaders.get(b, 0) + 1
                else:
                    leaders.setdefault(b, 0)
    rack_reps: dict[str, int] = {}
    rack_leads: dict[str, int] = {}
    for b, n in replicas.items():
        r = rack.get(b)
        if r is not None:
            rack_reps[r] = rack_reps.get(r, 0) + n
            rack_leads[r] = rack_leads.get(r, 0) + leaders[b]
    viol = rack_violations(assignment, brokers, allowed) if brokers is not None else ()
    return BalanceReport(
        brokers=len(replicas),
        partitions=n_parts,
        replicas=n_reps,
        replicas_per_broker=tuple(sorted(replicas.items())),
        leaders_per_broker=tuple(sorted(leaders.items())),
        replicas_per_rack=tuple(sorted(rack_reps.items(), key=lambda kv: java_string_key(kv[0]))),
        leaders_per_rack=tuple(sorted(rack_leads.items(), key=lambda kv: java_string_key(kv[0]))),
        rack_violations=viol,
        replica_ratio=ratio(replicas.values()),
        leader_ratio=ratio(leaders.values()),
    )


def _split_tp(name: str) -> tuple[str, int]:
    topic, sep, part = name.rpartition("-")
    if not sep or not topic or not (part.isascii() and part.isdigit()):
        raise ConfigError(f"Invalid partition name {name!r}: expected <topic>-<partition>")
    return topic, int(part)


def _size(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ConfigError(f"Invalid size {value!r} for {where}: expected bytes >= 0")
    return value


def _log_dirs_list(obj: object, key: str) -> list[object]:
    """``obj[key]`` of a kafka-log-dirs object: a list (empty when missing); ConfigError for a
    value of another kind (``null``, a number)."""
    value = obj.get(key, []) if isinstance(obj, dict) else []
    if not isinstance(value, list):
        raise ConfigError(f"Malformed kafka-log-dirs JSON: {key!r} must be a list, got {value!r:.40}")
    return value


def _log_dirs_sizes(brokers: list[object]) -> dict[tuple[str, int], int]:
    """``kafka-log-dirs.sh`` brokers → the largest non-future replica size per partition."""
    out: dict[tuple[str, int], int] = {}
    names: dict[str, tuple[str, int]] = {}  # each partition appears once per replica
    for broker in brokers:
        for log_dir in _log_dirs_list(broker, "logDirs"):
            for row in _log_dirs_list(log_dir, "partitions"):
                if not isinstance(row, dict) or row.get("isFuture"):
                    continue
                name = str(row.get("partition"))
                tp = names.get(name)
                if tp is None:
                    tp = names[name] = _split_tp(name)
                size = row.get("size")
                if type(size) is not int or size < 0:
                    size = _size(size, tp[0])
                if size > out.get(tp, 0) or tp not in out:
                    out[tp] = size
    return out


def _sizes_body(text: str) -> str:
    """The JSON of a sizes file: the text, or the first line starting with ``{`` (kafka-log-dirs.sh
    prints two lines before its JSON)."""
    body = text.strip()
    if not body.startswith("{"):
        lines = [ln for ln in text.splitlines() if ln.strip().startswith("{")]
        if not lines:
            raise ConfigError("No JSON found in the partition sizes file")
        body = lines[0]
    return body


_LOG_DIRS_ROW = ("partition", "size")
#: What ``str.strip()`` strips of an ASCII text (``str.isspace``).
_ASCII_SPACE = frozenset(b" \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f")


def _json_body_bytes(text: str) -> memoryview | None:
    """The bytes of :func:`_sizes_body` (a view of one encoded copy: the 220 MB of #1592's
    file are not copied twice more) for an ASCII text whose lines end with ``\\n`` alone and
    whose JSON line holds ``"brokers"``; ``None`` for any other text (then read as before)."""
    if not text.isascii():
        return None
    data = text.encode("ascii")
    if any(c in data for c in (b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e")):
        return None  # other line breaks: splitlines' business
    start, end = 0, len(data)
    while start < end and data[start] in _ASCII_SPACE:
        start += 1
    while end > start and data[end - 1] in _ASCII_SPACE:
        end -= 1
    if data[start:start + 1] != b"{":  # the tool's lines before its JSON: the first line
        start = 0  # whose first character that is not a space is ``{``
        while start < len(data):
            stop = data.find(b"\n", start)
            stop = len(data) if stop < 0 else stop
            first = start
            while first < stop and data[first] in _ASCII_SPACE:
                first += 1
            if data[first:first + 1] == b"{":
                end = stop
                break
            start = stop + 1
        else:
            return None
    if data.find(b'"brokers"', start, end) < 0 or data.find(b"\n", start, end) >= 0:
        return None
    return memoryview(data)[start:end]


def _fast_log_dirs_sizes(text: str) -> tuple[list[str], np.ndarray, np.ndarray] | None:
    """:func:`parse_partition_sizes` of a ``kafka-log-dirs.sh`` JSON read with pyarrow's JSON
    reader and kernels: ``(topics, partitions, bytes)``, one entry per partition (any order),
    or ``None`` when the file is anything else or anything the row reader would refuse, read
    differently or could read differently (a null anywhere in the brokers' structure, a size
    that is not a non-negative integer, a partition name that is not ``<topic>-<digits>``,
    duplicate keys, a JSON over several lines): the row reader takes it then."""
    import pyarrow as pa
    import pyarrow.json as pj

    data: Any = _json_body_bytes(text)
    if data is None:
        try:
            body = _sizes_body(text)
        except ConfigError:
            return None
        if '"brokers"' not in body or "\n" in body:
            return None
        try:
            data = body.encode("utf-8")
        except UnicodeEncodeError:
            return None
    try:
        table = pj.read_json(pa.BufferReader(data), read_options=pj.ReadOptions(
            block_size=len(data) + 1))
    except pa.ArrowException:
        return None
    if table.num_rows != 1 or "brokers" not in table.column_names:
        return None
    try:
        return _log_dirs_columns(table.column("brokers"))
    except pa.ArrowException:  # pyarrow refusing an odd shape (e.g. lists of nulls only)
        return None


def _log_dirs_rows(column: Any) -> Any:
    """The partition rows of a parsed ``brokers`` column, flattened over brokers and log dirs;
    ``None`` unless every level is a non-null list of non-null structs (the row reader refuses
    a ``null`` list, and skips a ``null`` row: left to it)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    def flat(values: Any, field: str) -> Any:
        if not pa.types.is_struct(values.type) or values.null_count \
                or values.type.get_field_index(field) < 0:
            return None
        lists = pc.struct_field(values, field)
        if not pa.types.is_list(lists.type) or lists.null_count:
            return None
        return pc.list_flatten(lists)

    brokers = column.combine_chunks()
    if not pa.types.is_list(brokers.type) or brokers.null_count:
        return None
    dirs = flat(pc.list_flatten(brokers), "logDirs")
    return None if dirs is None else flat(dirs, "partitions")


def _log_dirs_columns(column: Any) -> tuple[list[str], np.ndarray, np.ndarray] | None:
    """The sizes of a parsed ``brokers`` column (see :func:`_fast_log_dirs_sizes`)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    rows = _log_dirs_rows(column)
    if rows is None:
        return None
    if len(rows) == 0:
        return [], np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if not pa.types.is_struct(rows.type) or rows.null_count:
        return None
    fields = {rows.type.field(i).name: i for i in range(rows.type.num_fields)}
    if any(f not in fields for f in _LOG_DIRS_ROW):
        return None
    name, size = pc.struct_field(rows, "partition"), pc.struct_field(rows, "size")
    if not (pa.types.is_string(name.type) and pa.types.is_int64(size.type)) \
            or name.null_count or size.null_count or pc.min(size).as_py() < 0:
        return None
    if "isFuture" in fields:
        future = pc.struct_field(rows, "isFuture")
        if pa.types.is_boolean(future.type):
            keep = pc.invert(pc.fill_null(future, False))
            name, size = pc.filter(name, keep), pc.filter(size, keep)
        elif not pa.types.is_null(future.type):
            return None  # a truthy non-boolean: the row reader skips the row
    largest = pa.table({"name": name, "size": size}).group_by(
        "name", use_threads=False).aggregate([("size", "max")])
    # (a partition number without leading zeros: then distinct names are distinct partitions;
    # "t-01", one partition with "t-1" for the row reader, is declined)
    split = pc.extract_regex(largest.column("name"),
                             r"(?s)^(?P<topic>.+)-(?P<p>0|[1-9][0-9]*)$")
    if split.null_count:
        return None
    try:
        parts = pc.cast(pc.struct_field(split, "p"), pa.int64()).to_numpy(zero_copy_only=False)
    except pa.ArrowException:
        return None
    topics = pc.struct_field(split, "topic").to_pylist()
    sizes = largest.column("size_max").to_numpy()
    return topics, parts, sizes.astype(np.int64)


def partition_size_columns(text: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    """:func:`parse_partition_sizes` as columns ``(topics, partitions, bytes)`` (int64 arrays;
    entries in no particular order): a ``kafka-log-dirs.sh`` JSON is read column-wise with
    pyarrow when it is as the tool writes it (about 3x faster on Cruise Control's #1592
    shape, 2.8 million replicas), else row by row; the same values either way, and the same
    errors (:class:`ConfigError`), plus one for a partition beyond int32 or a size beyond a
    Java long.

    >>> topics, parts, sizes = partition_size_columns(
    ...     '{"version":1,"brokers":[{"broker":0,"logDirs":[{"logDir":"/k","error":null,'
    ...     '"partitions":[{"partition":"t-0","size":7,"offsetLag":0,"isFuture":false}]}]}]}')
    >>> topics, parts.tolist(), sizes.tolist()
    (['t'], [0], [7])
    """
    fast = _fast_log_dirs_sizes(text)
    if fast is not None:
        return fast
    sizes = parse_partition_sizes(text)
    for (t, p), n in sizes.items():
        if p > 2**31 - 1:
            raise ConfigError(f"Invalid partition {t}-{p} in sizes: larger than int32")
        if n > 2**63 - 1:
            raise ConfigError(f"Invalid size {n} for {t}-{p}: larger than a Java long")
    return ([t for t, _ in sizes], np.fromiter((p for _, p in sizes), dtype=np.int64,
                                               count=len(sizes)),
            np.fromiter(sizes.values(), dtype=np.int64, count=len(sizes)))


def parse_partition_sizes(text: str) -> dict[tuple[str, int], int]:
    """Partition sizes in bytes, ``{(topic, partition): bytes}``, from either
    ``kafka-log-dirs.sh --describe`` output (its JSON line; a partition's size is the largest
    of its non-future replicas) or a JSON object ``{"foo-0": bytes}`` /
    ``{"foo": {"0": bytes}}``. Errors: ``ConfigError`` naming the bad value.

    >>> parse_partition_sizes('{"foo-0": 10, "bar": {"1": 5}}')
    {('foo', 0): 10, ('bar', 1): 5}
    """
    body = _sizes_body(text)
    try:
        obj = json.loads(body)
    except json.JSONDecodeError as e:
        raise ConfigError(f"Malformed partition sizes JSON: {e.msg} at column {e.colno}") from e
    if not isinstance(obj, dict):
        raise ConfigError("Malformed partition sizes: expected a JSON object")
    out: dict[tuple[str, int], int] = {}
    if isinstance(obj.get("brokers"), list):
        return _log_dirs_sizes(obj["brokers"])
    for key, value in obj.items():
        if isinstance(value, dict):
            for p, n in value.items():
                if not (str(p).isascii() and str(p).isdigit()):
                    raise ConfigError(f"Invalid partition {p!r} of topic {key!r} in sizes")
                out[(key, int(p))] = _size(n, f"{key}-{p}")
        else:
            out[_split_tp(key)] = _size(value, key)
    return out
