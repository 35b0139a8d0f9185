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

from kpart._warnings import kpart_warn
from kpart.errors import ConfigError
from kpart.placement.manual import format_replica_assignment, write_zk_topic_node
from kpart.placement.spec import ReplicaAssignment

__all__ = [
    "ANY_LOG_DIR",
    "FORMATS",
    "DescribedPartition",
    "format_assignment",
    "format_describe",
    "format_reassignment_json",
    "header_configs",
    "parse_describe",
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
