"""Assignment formats operators already use: ``kafka-topics.sh --describe`` output (written
as ``TopicCommand.TopicDescription/PartitionDescription.printDescription`` prints it, and
parsed back from any Kafka version's output), ``--replica-assignment`` strings, the
``kafka-reassign-partitions.sh`` JSON and the ZooKeeper topic node.

Current ``--describe`` output (Kafka 3.x/4.x; the topic id is omitted when unknown, as Kafka
omits the zero id)::

    Topic: t\\tTopicId: <id>\\tPartitionCount: 2\\tReplicationFactor: 2\\tConfigs: <k=v,...>
    \\tTopic: t\\tPartition: 0\\tLeader: 0\\tReplicas: 0,1\\tIsr: 0,1[\\tElr: ...\\tLastKnownElr: ...]

>>> text = format_describe({0: (2, 0, 1), 1: (0, 1, 2)}, "topic-test4")
>>> lines = text.splitlines()
>>> lines[0]
'Topic: topic-test4\\tPartitionCount: 2\\tReplicationFactor: 3\\tConfigs: '
>>> lines[1]
'\\tTopic: topic-test4\\tPartition: 0\\tLeader: 2\\tReplicas: 2,0,1\\tIsr: 2,0,1'
>>> parse_describe(text)
{'topic-test4': {0: (2, 0, 1), 1: (0, 1, 2)}}
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np

from kpart._warnings import kpart_warn
from kpart.errors import ConfigError
from kpart.placement.manual import format_replica_assignment, write_zk_topic_node
from kpart.placement.spec import ReplicaAssignment

__all__ = [
    "ANY_LOG_DIR",
    "FORMATS",
    "DescribeColumns",
    "DescribedPartition",
    "format_assignment",
    "format_describe",
    "format_reassignment_json",
    "header_configs",
    "parse_describe",
    "parse_describe_columns",
    "parse_describe_partitions",
    "parse_describe_with_configs",
]

#: Output formats of :func:`format_assignment` (and ``kpart place --format``).
FORMATS = ("describe", "replica-assignment", "json", "zk")

#: The ``log_dirs`` entry of a reassignment JSON that lets the broker choose the directory.
ANY_LOG_DIR = "any"

_KEYS = ("TopicId", "Topic", "PartitionCount", "ReplicationFactor", "Configs", "Partition",
         "Leader", "Replicas", "Isr", "Adding Replicas", "Removing Replicas", "LastKnownElr",
         "Elr", "Offline", "Directories", "MarkedForDeletion")
_KEY_RE = re.compile(r"(?:^|(?<=\s))(" + "|".join(re.escape(k) for k in _KEYS) + r")\s*:")
_ID_LIST_RE = re.compile(r"\d+(?:\s*,\s*\d+)*")


@dataclass(frozen=True, slots=True)
class DescribedPartition:
    """One partition line of ``--describe``: ``leader`` is ``None`` for ``none``/``-1``;
    ``offline``: the ``Offline:`` field (replicas whose broker or log dir is offline, Kafka's
    ``offlineReplicas``); ``adding`` / ``removing``: a reassignment in progress (``Adding
    Replicas:`` / ``Removing Replicas:``; ``replicas`` is then Kafka's union of the old and the
    new replicas); ``elr`` / ``last_known_elr``: KIP-966's ``Elr:`` / ``LastKnownElr:``
    (Kafka 3.7+; empty or ``N/A`` read as none)."""

    topic: str
    partition: int
    leader: int | None
    replicas: tuple[int, ...]
    isr: tuple[int, ...]
    offline: tuple[int, ...] = ()
    adding: tuple[int, ...] = ()
    removing: tuple[int, ...] = ()
    elr: tuple[int, ...] = ()
    last_known_elr: tuple[int, ...] = ()

    @property
    def reassigning(self) -> bool:
        """A reassignment is in progress (some replica is being added or removed)."""
        return bool(self.adding or self.removing)

    def completed(self) -> DescribedPartition:
        """The partition once its reassignment has completed (itself when none is in
        progress): the replicas without the removing ones, all in sync (Kafka completes a
        reassignment when every target replica is in the ISR); the leader stays if it is a
        target replica, else the first target replica (``PartitionChangeBuilder``)."""
        if not self.reassigning:
            return self
        gone = set(self.removing)
        target = tuple(b for b in self.replicas if b not in gone)
        leader = self.leader
        if leader is not None and leader not in target:
            leader = target[0] if target else None
        return DescribedPartition(self.topic, self.partition, leader, target, target,
                                  tuple(b for b in self.offline if b not in gone))


def _ids(replicas: Sequence[int]) -> str:
    return ",".join(str(b) for b in replicas)


def format_describe(
    assignment: Mapping[int, Sequence[int]],
    topic: str,
    *,
    topic_id: str | None = None,
    configs: str = "",
    elr: bool = False,
) -> str:
    """``kafka-topics.sh --describe`` text of a freshly placed topic: a header line, then one
    line per partition in increasing order, leader = first replica, ISR = all replicas.

    ``topic_id``: printed as ``TopicId`` when given; ``configs``: the ``k=v,...`` overrides;
    ``elr``: add ``Elr: N/A`` and ``LastKnownElr: N/A`` (Kafka ≥ 3.7 prints them). The
    header's replication factor is partition 0's (the first partition's), as Kafka's.
    Errors: ``ConfigError`` for an empty assignment or topic name.
    """
    if not assignment:
        raise ConfigError(f"Nothing to describe: topic {topic!r} has no partitions.")
    if not topic:
        raise ConfigError("Invalid topic name '': it must not be empty.")
    parts = sorted(assignment)
    header = f"Topic: {topic}"
    if topic_id:
        header += f"\tTopicId: {topic_id}"
    header += (f"\tPartitionCount: {len(parts)}\tReplicationFactor: "
               f"{len(assignment[parts[0]])}\tConfigs: {configs}")
    lines = [header]
    for p in parts:
        replicas = assignment[p]
        leader = str(replicas[0]) if replicas else "none"
        line = (f"\tTopic: {topic}\tPartition: {p}\tLeader: {leader}\tReplicas: "
                f"{_ids(replicas)}\tIsr: {_ids(replicas)}")
        if elr:
            line += "\tElr: N/A\tLastKnownElr: N/A"
        lines.append(line)
    return "\n".join(lines) + "\n"


_KEY_SET = frozenset(_KEYS)


def _tab_fields(line: str) -> dict[str, str] | None:
    """:func:`_fields` of a tab-separated line whose every field is ``Key: value`` with a known
    key and no other ``:`` (what ``kafka-topics.sh`` prints), without the regex; ``None`` for
    any other line (then the regex decides)."""
    out: dict[str, str] = {}
    pieces = line.split("\t")
    for i, piece in enumerate(pieces):
        key, colon, value = piece.partition(":")
        key = key.strip()
        if not colon:
            if key:
                return None
            continue
        if key not in _KEY_SET:
            return None
        if key == "Configs":  # last field of a header; its value may hold anything
            out[key] = "\t".join([value, *pieces[i + 1:]]).strip()
            return out
        if ":" in value or (key != piece.lstrip()[:len(key)]):
            return None
        out.setdefault(key, value.strip())
    return out


def _fields(line: str) -> dict[str, str]:
    if "\t" in line:
        fast = _tab_fields(line)
        if fast is not None:
            return fast
    matches = list(_KEY_RE.finditer(line))
    out: dict[str, str] = {}
    for i, m in enumerate(matches):
        key = m.group(1)
        if key == "Configs":  # last field of a header; its value may hold anything
            out[key] = line[m.end():].strip()
            break
        end = matches[i + 1].start() if i + 1 < len(matches) else len(line)
        out.setdefault(key, line[m.end():end].strip())
    return out


def _id_list(value: str, what: str, lineno: int) -> tuple[int, ...]:
    if value == "" or value.upper() == "N/A":
        return ()
    if not _ID_LIST_RE.fullmatch(value):
        raise ConfigError(f"line {lineno}: invalid {what} {value!r} in --describe output")
    return tuple(int(x) for x in value.split(","))


#: A partition line exactly as ``kafka-topics.sh`` prints it (tab-separated ``Key: value``,
#: id lists of digits and commas, optional trailing fields without ``:`` in their values) and
#: without state kpart reads from the trailing fields (an empty ``Offline:``, empty or ``N/A``
#: ``Elr:``/``LastKnownElr:`` only; no ``Adding/Removing Replicas``): :func:`_fields` would read the same topic, partition,
#: leader, replicas and ISR from it. Other lines take the slow path.
_CANONICAL = re.compile(
    r"[ \t]*Topic: ?([^\s:]+)\tPartition: ?([0-9]+)\tLeader: ?([0-9]+|none|-1)"
    r"\tReplicas: ?([0-9]+(?:,[0-9]+)*)\tIsr: ?((?:[0-9]+(?:,[0-9]+)*)?)"
    r"(?:\t(?:(?:Elr|LastKnownElr): ?(?:N/A)?|(?:Directories|MarkedForDeletion): ?[^\t:]*"
    r"|Offline: *))*"
    r"[ \t]*")


_State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...],
               tuple[int, ...]]
_NO_STATE: _State = ((), (), (), (), ())


def _partition(lineno: int, topic: str, partition: int, leader: int | None,
               replicas: tuple[int, ...], isr: tuple[int, ...],
               seen: set[tuple[str, int]],
               state: _State = _NO_STATE,
               ) -> DescribedPartition:
    """One partition line's row (``state``: its offline, adding and removing replicas, ELR
    and LastKnownElr):
    ConfigError if listed twice; a warning for a leader outside its replicas."""
    if (topic, partition) in seen:
        raise ConfigError(f"line {lineno}: partition {topic}-{partition} listed twice")
    seen.add((topic, partition))
    if leader is not None and leader not in replicas:
        kpart_warn(f"line {lineno}: the leader {leader} of partition {topic}-{partition} is "
                   f"not one of its replicas {_ids(replicas)}")
    if state is _NO_STATE:  # the fast path's lines
        return DescribedPartition(topic, partition, leader, replicas, isr)
    return DescribedPartition(topic, partition, leader, replicas, isr, *state)


def _state(f: dict[str, str], lineno: int) -> _State:
    """The ``Offline``, ``Adding Replicas``, ``Removing Replicas``, ``Elr`` and
    ``LastKnownElr`` ids of a line's fields."""
    return (_id_list(f.get("Offline", ""), "Offline list", lineno),
            _id_list(f.get("Adding Replicas", ""), "Adding Replicas list", lineno),
            _id_list(f.get("Removing Replicas", ""), "Removing Replicas list", lineno),
            _id_list(f.get("Elr", ""), "Elr list", lineno),
            _id_list(f.get("LastKnownElr", ""), "LastKnownElr list", lineno))


#: What a partial dump is refused with (kpart reads a dump as the whole cluster).
_PARTIAL_HINT = ("kpart reads a dump as the whole cluster: give the full kafka-topics.sh "
                 "--describe output, or --partial to read these partitions alone")


def parse_describe_partitions(text: str, *, partial: bool = False) -> list[DescribedPartition]:
    """Every partition line of ``kafka-topics.sh --describe`` output, in input order: the
    partitions of :func:`parse_describe_with_configs` (see it for what is tolerated, the
    errors and ``partial``)."""
    return parse_describe_with_configs(text, partial=partial)[0]


def parse_describe_with_configs(
    text: str, *, partial: bool = False,
) -> tuple[list[DescribedPartition], dict[str, tuple[int, str]]]:
    """Every partition line of ``kafka-topics.sh --describe`` output, in input order.

    Tolerant of what real output looks like: leading tabs or spaces, tabs or runs of spaces
    between fields, ``Key:value`` without a space (Kafka ≤ 2.x headers), header lines,
    several topics, ``Directories``/``MarkedForDeletion`` fields (ignored), and unrelated
    lines (ignored). Read into :class:`DescribedPartition`: the ``Offline`` field, a
    reassignment in progress (``Adding Replicas`` / ``Removing Replicas``) and KIP-966's
    ``Elr`` / ``LastKnownElr``.

    A dump is the whole cluster: a partition line whose topic has no header line (what
    ``--under-replicated-partitions``, ``--unavailable-partitions`` and the other partition
    filters print) and a topic whose partition lines do not cover partitions ``0`` to
    ``PartitionCount - 1`` are refused, unless ``partial`` (then a warning names the topic
    whose lines are fewer than its ``PartitionCount``).

    Errors: ``ConfigError`` naming the line for a partition line without a topic or
    replicas, a malformed id list, a partition listed twice, and a partial dump (see above). Warnings (:class:`~kpart.errors.KpartWarning`; the partitions are still returned
    as written): a leader that is not one of its partition's replicas, and a header whose
    ``PartitionCount`` is smaller than the number of partition lines of its topic.

    Also returns each topic header's ``Configs`` field as written, ``{topic: (line number,
    "k=v,...")}`` (topics whose header has none are left out; values are not parsed here:
    a value may hold commas, e.g. ``cleanup.policy=compact,delete``).

    >>> parts, configs = parse_describe_with_configs(
    ...     "Topic: t\\tPartitionCount: 1\\tReplicationFactor: 1\\tConfigs: min.insync.replicas=2\\n"
    ...     "\\tTopic: t\\tPartition: 0\\tLeader: 1\\tReplicas: 1\\tIsr: 1\\n")
    >>> configs, parts[0].isr
    ({'t': (1, 'min.insync.replicas=2')}, (1,))
    """
    out: list[DescribedPartition] = []
    configs: dict[str, tuple[int, str]] = {}
    seen: set[tuple[str, int]] = set()
    declared: dict[str, tuple[int, int]] = {}  # topic -> (header line, PartitionCount)
    for lineno, line in enumerate(text.splitlines(), start=1):
        m = _CANONICAL.fullmatch(line)
        if m is not None:
            # a partition line as kafka-topics.sh prints it: no key scan needed
            topic, part, leader_text, replica_text, isr_text = m.groups()
            leader = None if leader_text in ("none", "-1") else int(leader_text)
            out.append(_partition(lineno, topic, int(part), leader,
                                  tuple(map(int, replica_text.split(","))),
                                  tuple(map(int, isr_text.split(","))) if isr_text else (), seen))
            continue
        f = _fields(line)
        count = f.get("PartitionCount", "")
        if f.get("Topic") and count.isascii() and count.isdigit():
            declared.setdefault(f["Topic"], (lineno, int(f["PartitionCount"])))
            if f.get("Configs"):
                configs.setdefault(f["Topic"], (lineno, f["Configs"]))
        if "Partition" not in f or "PartitionCount" in f:
            continue  # a header or an unrelated line
        topic = f.get("Topic", "")
        if not topic or "Replicas" not in f:
            raise ConfigError(f"line {lineno}: partition line without topic or replicas: "
                              f"{line.strip()!r}")
        if not (f["Partition"].isascii() and f["Partition"].isdigit()):
            raise ConfigError(f"line {lineno}: invalid partition {f['Partition']!r}")
        partition = int(f["Partition"])
        replicas = _id_list(f["Replicas"], "replica list", lineno)
        if not replicas:
            raise ConfigError(f"line {lineno}: partition {topic}-{partition} has no replicas")
        leader_text = f.get("Leader", "none")
        if leader_text in ("none", "-1", ""):
            leader = None
        elif leader_text.isascii() and leader_text.isdigit():
            leader = int(leader_text)
        else:
            raise ConfigError(f"line {lineno}: invalid leader {leader_text!r}")
        isr = _id_list(f.get("Isr", ""), "ISR", lineno)
        out.append(_partition(lineno, topic, partition, leader, replicas, isr, seen,
                              _state(f, lineno)))
    _check_whole(out, declared, seen, partial)
    return out, configs


@dataclass(frozen=True, slots=True)
class DescribeColumns:
    """The partition lines of a describe dump as arrays, in input order
    (:func:`parse_describe_columns`): ``topics`` the topic names in order of first appearance
    among the partition lines; ``topic`` (int32, shape ``(n,)``) an index into it;
    ``partition`` (int64, ``(n,)``); ``leader`` (int32, ``(n,)``, ``-1`` for ``none``);
    ``replicas`` and ``isr`` (int32, ``(n, W)``, padded with ``-1`` as
    :func:`kpart.cluster.model.padded_ids` pads); ``configs``: each topic header's
    ``Configs:`` field, ``{topic: (line number, "k=v,...")}``, as
    :func:`parse_describe_with_configs` returns it."""

    topics: tuple[str, ...]
    topic: np.ndarray
    partition: np.ndarray
    leader: np.ndarray
    replicas: np.ndarray
    isr: np.ndarray
    configs: dict[str, tuple[int, str]]


#: ``_CANONICAL`` for RE2 (pyarrow), on ASCII text: Python's ``\s`` written out
#: (``[\t\n\x0b\x0c\r\x1c-\x1f ]`` on ASCII, where RE2's ``\s`` lacks ``\x0b`` and ``\x1c-\x1f``).
_CANONICAL_RE2 = (
    r"^[ \t]*Topic: ?(?P<topic>[^\t\n\x0b\x0c\r\x1c-\x1f :]+)\tPartition: ?(?P<partition>[0-9]+)"
    r"\tLeader: ?(?P<leader>[0-9]+|none|-1)\tReplicas: ?(?P<replicas>[0-9]+(?:,[0-9]+)*)"
    r"\tIsr: ?(?P<isr>(?:[0-9]+(?:,[0-9]+)*)?)"
    r"(?:\t(?:(?:Elr|LastKnownElr): ?(?:N/A)?|(?:Directories|MarkedForDeletion): ?[^\t:]*"
    r"|Offline: *))*[ \t]*$")
#: The ASCII line breaks of ``str.splitlines`` other than ``\n``: a text holding one takes the
#: row reader.
_OTHER_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e")
_INT32_MAX = 2**31 - 1


def _distinct(ids: np.ndarray) -> int:
    """How many distinct values ``ids`` (int64, ``>= 0``) holds."""
    if len(ids) and ids.max() < 1 << 24:
        return int(np.count_nonzero(np.bincount(ids)))
    return len(np.unique(ids))


def _id_matrix(lists: Any) -> np.ndarray | None:
    """A pyarrow array of ``"1,2,3"`` strings (``""`` for none) → the padded int32 matrix of
    :func:`kpart.cluster.model.padded_ids`, or ``None`` where ``padded_ids`` would refuse the
    lists (an id above int32, a list longer than the ids it names)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    split = pc.split_pattern(lists, ",")
    values = pc.list_flatten(split)
    lens = pc.list_value_length(split).to_numpy(zero_copy_only=False).astype(np.int64)
    empty = pc.equal(lists, "").to_numpy(zero_copy_only=False)
    keep = pc.not_equal(values, "")
    values = pc.filter(values, keep)
    lens[empty] = 0
    if len(values) and pc.max(pc.utf8_length(values)).as_py() > 10:
        return None  # beyond int32 for sure (and beyond int64, which the cast would refuse)
    flat = pc.cast(values, pa.int64()).to_numpy(zero_copy_only=False)
    if len(flat) and flat.max() > _INT32_MAX:
        return None
    width = int(lens.max(initial=0)) or 1
    if width > 1 and width > _distinct(flat):
        return None
    out = np.full((len(lens), width), -1, dtype=np.int32)
    rows = np.repeat(np.arange(len(lens)), lens)
    starts = np.cumsum(lens) - lens
    cols = np.arange(len(flat)) - np.repeat(starts, lens)
    out[rows, cols] = flat
    return out


def parse_describe_columns(text: str, *, partial: bool = False) -> DescribeColumns | None:
    """The partition lines of a ``kafka-topics.sh --describe`` dump read straight into arrays,
    or ``None`` when this reader declines the text: then :func:`parse_describe_with_configs`
    reads it (the row reader, with every error and warning). What it takes gives exactly the
    row reader's partitions and configs (a property test checks it): an ASCII text whose
    lines end with ``\\n``, every partition line as ``kafka-topics.sh`` prints it (no
    ``Offline``, ``Elr``, reassignment or ``LastKnownElr`` ids), each topic's header before the
    checks of a whole dump pass (every topic with a header, its ``PartitionCount`` lines
    covering partitions 0 to ``PartitionCount - 1`` once each), leaders among their replicas.
    Anything else — what the row reader refuses, warns about, or reads field by field — is
    declined. ``partial`` is accepted for the same signature (a dump this reader takes is
    whole either way). Built on pyarrow's RE2 kernels: about 1 s for Cruise Control's #1592
    dump (930,000 partition lines), against several for the row reader.

    >>> c = parse_describe_columns("Topic: t\\tPartitionCount: 2\\tReplicationFactor: 2\\t"
    ...     "Configs: \\n\\tTopic: t\\tPartition: 1\\tLeader: 2\\tReplicas: 2,1\\tIsr: 2\\n"
    ...     "\\tTopic: t\\tPartition: 0\\tLeader: 1\\tReplicas: 1,2\\tIsr: 1,2\\n")
    >>> c.topics, c.partition.tolist(), c.replicas.tolist(), c.isr.tolist()
    (('t',), [1, 0], [[2, 1], [1, 2]], [[2, -1], [1, 2]])
    """
    del partial
    if not text.isascii() or any(c in text for c in _OTHER_BREAKS):
        return None
    import pyarrow as pa
    import pyarrow.compute as pc

    lines = pc.list_flatten(pc.split_pattern(pa.array([text], pa.large_string()), "\n"))
    found = pc.extract_regex(lines, _CANONICAL_RE2)
    is_row = pc.is_valid(found).to_numpy(zero_copy_only=False)
    headers = None if not is_row.any() else _headers(lines, np.flatnonzero(~is_row))
    if headers is None:
        return None
    rows = _row_arrays(pc.filter(found, pa.array(is_row)))
    if rows is None or not _whole(rows[0], rows[1], rows[2], headers[0]):
        return None
    topics, topic, partition, leader, replicas, isr = rows
    return DescribeColumns(topics, topic, partition, leader, replicas, isr, headers[1])


def _headers(lines: Any, at: np.ndarray
             ) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, str]]] | None:
    """The topic headers among the lines ``at`` that are not canonical partition lines:
    ``({topic: (line number, PartitionCount)}, {topic: (line number, configs)})``, or ``None``
    for a partition line the row reader reads field by field, or a topic's second header."""
    declared: dict[str, tuple[int, int]] = {}
    configs: dict[str, tuple[int, str]] = {}
    for i in at.tolist():
        line = lines[i].as_py()
        if not line.strip():
            continue
        f = _fields(line)
        count = f.get("PartitionCount", "")
        if f.get("Topic") and count.isascii() and count.isdigit():
            if f["Topic"] in declared:
                return None
            declared[f["Topic"]] = (i + 1, int(count))
            if f.get("Configs"):
                configs[f["Topic"]] = (i + 1, f["Configs"])
        if "Partition" in f and "PartitionCount" not in f:
            return None
    return declared, configs


def _row_arrays(rows: Any) -> tuple[Any, ...] | None:
    """``(topics, topic, partition, leader, replicas, isr)`` of the canonical lines' fields,
    or ``None`` where the row reader refuses or warns (ids beyond int32, a leader outside its
    replicas, a partition listed twice)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(pc.struct_field(rows, "topic"))
    topics = tuple(encoded.dictionary.to_pylist())
    topic = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int32)
    part_text, leader_text = pc.struct_field(rows, "partition"), pc.struct_field(rows, "leader")
    if max(pc.max(pc.utf8_length(part_text)).as_py(),
           pc.max(pc.utf8_length(leader_text)).as_py()) > 10:
        return None
    partition = pc.cast(part_text, pa.int64()).to_numpy(zero_copy_only=False)
    none = pc.is_in(leader_text, pa.array(["none", "-1"])).to_numpy(zero_copy_only=False)
    leader64 = pc.cast(pc.if_else(pa.array(none), "0", leader_text), pa.int64()).to_numpy(
        zero_copy_only=False)
    if partition.max() > _INT32_MAX or leader64.max() > _INT32_MAX:
        return None
    replicas = _id_matrix(pc.struct_field(rows, "replicas"))
    isr = _id_matrix(pc.struct_field(rows, "isr"))
    if replicas is None or isr is None:
        return None
    leader = np.where(none, -1, leader64).astype(np.int32)
    if not ((replicas == leader[:, None]).any(axis=1) | none).all():
        return None  # a leader outside its replicas: the row reader warns
    key = np.sort(topic.astype(np.int64) << 32 | partition)
    if (key[1:] == key[:-1]).any():
        return None  # a partition listed twice: the row reader names it
    return topics, topic, partition, leader, replicas, isr


def _whole(topics: tuple[str, ...], topic: np.ndarray, partition: np.ndarray,
           declared: dict[str, tuple[int, int]]) -> bool:
    """The checks of a whole dump (``_check_whole``) pass without a word: every topic of the
    lines (``topics``, indexed by ``topic``) has a header whose ``PartitionCount`` its lines
    cover exactly (partitions are distinct here), and every header with a count has lines."""
    counts = np.bincount(topic, minlength=len(topics))
    for i, t in enumerate(topics):
        head = declared.get(t)
        if head is None or head[1] != counts[i]:
            return False
    top = np.full(len(topics), -1, dtype=np.int64)
    np.maximum.at(top, topic, partition)
    named = set(topics)
    return not ((top >= counts).any()
                or any(c and t not in named for t, (_, c) in declared.items()))


def _check_whole(out: list[DescribedPartition], declared: dict[str, tuple[int, int]],
                 seen: set[tuple[str, int]], partial: bool) -> None:
    """A partial dump refused (or, with ``partial``, a warning); the ``PartitionCount``
    warnings. ``seen``: every ``(topic, partition)`` of ``out``."""
    rows = Counter(d.topic for d in out)
    headless = [t for t in rows if t not in declared]
    if headless and not partial:
        t = headless[0]
        d = next(d for d in out if d.topic == t)
        more = f" (and {len(headless) - 1} more topics)" if len(headless) > 1 else ""
        raise ConfigError(
            f"partition {t}-{d.partition}: topic {t!r} has partition lines but no header line "
            f"(Topic: {t}  PartitionCount: ...){more}: a --under-replicated-partitions or "
            f"--unavailable-partitions dump? {_PARTIAL_HINT}")
    for topic, (lineno, declared_count) in declared.items():
        covered = all(map(seen.__contains__, zip(repeat(topic), range(declared_count))))
        if covered and rows[topic] == declared_count:
            continue
        message = (f"line {lineno}: topic {topic!r} has PartitionCount {declared_count} but "
                   f"{rows[topic]} partition lines")
        if not covered and not partial:
            gap = next(p for p in range(declared_count) if (topic, p) not in seen)
            raise ConfigError(f"{message} (partition {topic}-{gap} is missing): a partial "
                              f"dump? {_PARTIAL_HINT}")
        kpart_warn(message)


def header_configs(text: str) -> dict[str, str]:
    """Each topic header's ``Configs:`` field of ``--describe`` output, ``{topic: "k=v,..."}``
    (the first header of a topic; empty fields left out); only header lines are scanned.

    >>> header_configs("Topic: t\\tPartitionCount: 1\\tReplicationFactor: 1\\tConfigs: a=1,b=2\\n")
    {'t': 'a=1,b=2'}
    """
    out: dict[str, str] = {}
    for line in text.splitlines():
        if "PartitionCount" not in line:
            continue
        f = _fields(line)
        if f.get("Topic") and f.get("Configs"):
            out.setdefault(f["Topic"], f["Configs"])
    return out


def parse_describe(text: str, *, partial: bool = False,
                   completed: bool = False) -> dict[str, ReplicaAssignment]:
    """``kafka-topics.sh --describe`` output → ``{topic: {partition: (broker, ...)}}``
    (topics in order of appearance, partitions sorted). See
    :func:`parse_describe_with_configs` for what is tolerated, the errors and ``partial``.
    ``completed``: a partition being reassigned is taken as it will be once the
    reassignment completes (:meth:`DescribedPartition.completed`), else as it is now (Kafka's
    union of the old and new replicas).

    >>> parse_describe("Topic:t\\tPartitionCount:1\\tReplicationFactor:2\\tConfigs:\\n"
    ...                "    Topic: t  Partition: 0    Leader: 1   Replicas: 1,0 Isr: 1,0")
    {'t': {0: (1, 0)}}
    """
    result: dict[str, dict[int, tuple[int, ...]]] = {}
    for d in parse_describe_partitions(text, partial=partial):
        if completed:
            d = d.completed()
        result.setdefault(d.topic, {})[d.partition] = d.replicas
    return {t: dict(sorted(parts.items())) for t, parts in result.items()}


def format_reassignment_json(assignments: Mapping[str, Mapping[int, Sequence[int]]]) -> str:
    """``kafka-reassign-partitions.sh`` JSON of ``{topic: {partition: replicas}}``:
    ``{"version":1,"partitions":[{"topic","partition","replicas","log_dirs"}]}`` with
    ``log_dirs`` all ``"any"`` (ready for ``--execute``).

    >>> format_reassignment_json({"t": {0: (1, 2)}})
    '{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2],"log_dirs":["any","any"]}]}'
    """
    rows: list[dict[str, Any]] = []
    for topic, parts in assignments.items():
        for p in sorted(parts):
            replicas = [int(b) for b in parts[p]]
            rows.append({"topic": topic, "partition": int(p), "replicas": replicas,
                         "log_dirs": [ANY_LOG_DIR] * len(replicas)})
    return json.dumps({"version": 1, "partitions": rows}, separators=(",", ":"))


def format_assignment(assignment: Mapping[int, Sequence[int]], fmt: str, *,
                      topic: str = "topic", topic_id: str | None = None) -> str:
    """One topic's assignment in one of :data:`FORMATS` (text ends with a newline):
    ``describe`` (:func:`format_describe`), ``replica-assignment``
    (``"0:1,1:0"``), ``json`` (:func:`format_reassignment_json`), ``zk`` (the ZooKeeper
    topic node). Errors: ``ConfigError`` for an unknown format.

    >>> format_assignment({0: (0, 1), 1: (1, 0)}, "zk")
    '{"version":1,"partitions":{"0":[0,1],"1":[1,0]}}\\n'
    """
    if fmt == "describe":
        return format_describe(assignment, topic, topic_id=topic_id)
    if fmt == "replica-assignment":
        return format_replica_assignment(assignment) + "\n"
    if fmt == "json":
        return format_reassignment_json({topic: assignment}) + "\n"
    if fmt == "zk":
        return write_zk_topic_node(assignment) + "\n"
    raise ConfigError(f"Unknown format {fmt!r}: expected one of {', '.join(FORMATS)}.")
