"""Reassignment plans as values, in ``kafka-reassign-partitions.sh``'s formats (Kafka's
``ReassignPartitionsCommand``, KIP-455).

A cluster assignment is ``{topic: {partition: (broker, ...)}}`` (preferred leader first). A plan
is a tuple of :class:`Move` values, the diff of two assignments. The JSON formats are Kafka's:

* reassignment / rollback: ``{"version":1,"partitions":[{"topic":"foo","partition":1,
  "replicas":[1,2],"log_dirs":["any","any"]}]}``, sorted by topic (``String.compareTo``) and
  partition, compact as ``formatAsReassignmentJson`` writes it;
* topics to move: ``{"topics":[{"topic":"foo"}],"version":1}``.

Parsing applies ``parsePartitionReassignmentData``'s checks with Kafka's messages (empty list,
empty replica list, duplicate partitions, duplicate replicas, log dirs of another length).

>>> cur = {"foo": {0: (1, 2), 1: (2, 3)}}
>>> moves = diff(cur, {"foo": {0: (1, 2), 1: (4, 3)}})
>>> moves
(Move(topic='foo', partition=1, from_replicas=(2, 3), to_replicas=(4, 3)),)
>>> reassignment_json(moves)
'{"version":1,"partitions":[{"topic":"foo","partition":1,"replicas":[4,3],"log_dirs":["any","any"]}]}'
>>> rollback_json(moves)
'{"version":1,"partitions":[{"topic":"foo","partition":1,"replicas":[2,3],"log_dirs":["any","any"]}]}'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kpart._java.strings import java_string_key
from kpart.errors import AdminOperationError, ConfigError, InvalidReplicaAssignmentError
from kpart.placement.spec import Broker
from kpart.versions import KafkaVersion, behaviour

if TYPE_CHECKING:  # pragma: no cover

    from kpart.placement.formats import DescribedPartition
    from kpart.placement.pools import PoolSpec

__all__ = [
    "CURRENT_HEADING",
    "PROPOSED_HEADING",
    "ClusterAssignment",
    "Move",
    "apply_moves",
    "count_replica_moves",
    "describe_text",
    "diff",
    "generate_assignment",
    "generate_transcript_json",
    "parse_reassignment_json",
    "parse_topics_to_move_json",
    "read_current",
    "read_current_configs",
    "reassignment_json",
    "rollback_json",
    "sorted_partitions",
    "topics_to_move_json",
    "validate_assignment",
    "warn_reassigning",
]

#: ``{topic: {partition: (broker, ...)}}``, preferred leader first.
ClusterAssignment = dict[str, dict[int, tuple[int, ...]]]


@dataclass(frozen=True, slots=True)
class Move:
    """One partition's reassignment: ``from_replicas`` → ``to_replicas`` (leader first).

    ``adding``/``removing`` are the brokers gaining/losing a replica (Kafka's
    ``addingReplicas``/``removingReplicas``); ``replica_moves`` = ``len(adding)``; a move with the
    same replica set in another order only changes the preferred leader.
    """

    topic: str
    partition: int
    from_replicas: tuple[int, ...]
    to_replicas: tuple[int, ...]

    @property
    def adding(self) -> tuple[int, ...]:
        old = set(self.from_replicas)
        return tuple(b for b in self.to_replicas if b not in old)

    @property
    def removing(self) -> tuple[int, ...]:
        new = set(self.to_replicas)
        return tuple(b for b in self.from_replicas if b not in new)

    @property
    def replica_moves(self) -> int:
        return len(self.adding)

    @property
    def leader_change(self) -> bool:
        return self.from_replicas[:1] != self.to_replicas[:1]

    @property
    def brokers(self) -> frozenset[int]:
        """Brokers taking part in the data movement (gaining or losing a replica)."""
        return frozenset(self.adding) | frozenset(self.removing)


def _tp(topic: str, partition: int) -> str:
    return f"{topic}-{partition}"


def sorted_partitions(assignment: Mapping[str, Mapping[int, object]]) -> list[tuple[str, int]]:
    """``(topic, partition)`` pairs in Kafka's ``compareTopicPartitions`` order."""
    return [
        (t, p)
        for t in sorted(assignment, key=java_string_key)
        for p in sorted(assignment[t])
    ]


def validate_assignment(
    assignment: Mapping[str, Mapping[int, Sequence[int]]],
    brokers: Iterable[int] | None = None,
) -> None:
    """Check a cluster assignment: non-empty replica lists, no duplicate broker in a partition,
    one replication factor per topic, and (when ``brokers`` is given) only known brokers.

    Errors: ``InvalidReplicaAssignmentError`` naming the partition and the bad value.

    >>> validate_assignment({"foo": {0: (1, 1)}})
    Traceback (most recent call last):
    ...
    kpart.errors.InvalidReplicaAssignmentError: Partition replica lists may not contain \
duplicate entries: foo-0 contains multiple entries for 1
    """
    known = None if brokers is None else set(brokers)
    for topic in sorted(assignment, key=java_string_key):
        parts = assignment[topic]
        rf = None
        for p in sorted(parts):
            reps = tuple(parts[p])
            if not reps:
                raise InvalidReplicaAssignmentError(
                    f"Partition replica list cannot be empty: {_tp(topic, p)}"
                )
            if len(set(reps)) != len(reps):
                dups = sorted({b for b in reps if reps.count(b) > 1})
                raise InvalidReplicaAssignmentError(
                    "Partition replica lists may not contain duplicate entries: "
                    f"{_tp(topic, p)} contains multiple entries for {','.join(map(str, dups))}"
                )
            if rf is None:
                rf = len(reps)
            elif len(reps) != rf:
                raise InvalidReplicaAssignmentError(
                    f"Uneven replication factor in topic {topic}: partition {p} has "
                    f"{len(reps)} replicas, partition {min(parts)} has {rf}"
                )
            if known is not None and not known.issuperset(reps):
                for b in reps:
                    if b not in known:
                        raise InvalidReplicaAssignmentError(
                            f"Unknown broker id {b} in the replicas of {_tp(topic, p)}"
                        )


def diff(
    current: Mapping[str, Mapping[int, Sequence[int]]],
    target: Mapping[str, Mapping[int, Sequence[int]]],
) -> tuple[Move, ...]:
    """The moves turning ``current`` into ``target``: one :class:`Move` per partition whose
    replica list (or its order) differs, in ``compareTopicPartitions`` order. Partitions
    absent from ``target`` stay as they are. Errors: ``InvalidReplicaAssignmentError`` when
    ``target`` names a partition ``current`` lacks or changes its replication factor."""
    moves: list[Move] = []
    for topic, p in sorted_partitions(target):
        new = tuple(target[topic][p])
        old_parts = current.get(topic)
        if old_parts is None or p not in old_parts:
            raise InvalidReplicaAssignmentError(f"Unknown partition {_tp(topic, p)} in the target")
        old = tuple(old_parts[p])
        if len(old) != len(new):
            raise InvalidReplicaAssignmentError(
                f"Partition {_tp(topic, p)} changes replication factor {len(old)} -> {len(new)}"
            )
        if old != new:
            moves.append(Move(topic, p, old, new))
    return tuple(moves)


def apply_moves(
    current: Mapping[str, Mapping[int, Sequence[int]]], moves: Iterable[Move]
) -> ClusterAssignment:
    """A new assignment: ``current`` with each move's ``to_replicas`` applied."""
    out: ClusterAssignment = {t: {p: tuple(r) for p, r in ps.items()} for t, ps in current.items()}
    for m in moves:
        out[m.topic][m.partition] = m.to_replicas
    return out


def count_replica_moves(
    current: Mapping[str, Mapping[int, Sequence[int]]],
    target: Mapping[str, Mapping[int, Sequence[int]]],
) -> int:
    """Replicas that change broker between ``current`` and ``target`` (Kafka's adding replicas)."""
    n = 0
    for topic, parts in target.items():
        cur = current[topic]
        for p, reps in parts.items():
            old = set(cur[p])
            n += sum(1 for b in reps if b not in old)
    return n


def _partitions_json(rows: Iterable[tuple[str, int, Sequence[int]]]) -> str:
    from kpart.placement.formats import format_reassignment_json

    ordered: dict[str, dict[int, Sequence[int]]] = {}
    for t, p, r in sorted(rows, key=lambda x: (java_string_key(x[0]), x[1])):
        ordered.setdefault(t, {})[p] = r
    return format_reassignment_json(ordered)


def describe_text(assignment: Mapping[str, Mapping[int, Sequence[int]]],
                  configs: Mapping[str, str] | None = None) -> str:
    """The ``kafka-topics.sh --describe`` view of an assignment (leader = first replica,
    ISR = all replicas), topics in ``String.compareTo`` order; ``configs``: each topic's
    ``Configs:`` field (``k=v,...``, e.g. ``min.insync.replicas=2``, as the input dump
    printed it), so that the file read back keeps them.

    >>> describe_text({"t": {0: (1, 2)}}, {"t": "min.insync.replicas=2"}).splitlines()[0]
    'Topic: t\\tPartitionCount: 1\\tReplicationFactor: 2\\tConfigs: min.insync.replicas=2'
    """
    from kpart.placement.formats import format_describe

    given = configs or {}
    return "".join(
        format_describe(assignment[t], t, configs=given.get(t, ""))
        for t in sorted(assignment, key=java_string_key)
    )


def read_current_configs(text: str) -> dict[str, str]:
    """Each topic's ``Configs:`` field of a ``kafka-topics.sh --describe`` dump (``{topic:
    "k=v,..."}``, topics whose header has none left out); ``{}`` for the JSON inputs, which
    carry no configs. A quick scan of the header lines only."""
    if text.lstrip().startswith("{") or generate_transcript_json(text) is not None:
        return {}
    from kpart.placement.formats import header_configs

    return header_configs(text)


def reassignment_json(
    moves_or_assignment: Iterable[Move] | Mapping[str, Mapping[int, Sequence[int]]],
) -> str:
    """Kafka's reassignment JSON of the moves' targets (or of a whole assignment)."""
    if isinstance(moves_or_assignment, Mapping):
        a = moves_or_assignment
        return _partitions_json((t, p, a[t][p]) for t in a for p in a[t])
    return _partitions_json((m.topic, m.partition, m.to_replicas) for m in moves_or_assignment)


def rollback_json(moves: Iterable[Move]) -> str:
    """The rollback JSON: the current assignment of the moved partitions (what
    ``--execute`` prints as "Save this to use as the --reassignment-json-file option during
    rollback")."""
    return _partitions_json((m.topic, m.partition, m.from_replicas) for m in moves)


def topics_to_move_json(topics: Iterable[str]) -> str:
    """``{"topics":[{"topic":"foo"}],"version":1}`` for ``--topics-to-move-json-file``."""
    names = sorted(set(topics), key=java_string_key)
    return json.dumps(
        {"topics": [{"topic": t} for t in names], "version": 1}, separators=(",", ":")
    )


def _load_json(text: str, what: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"Malformed {what} JSON: {e.msg} at line {e.lineno} column {e.colno}") from e


def _version(obj: Mapping[str, object]) -> None:
    version = obj.get("version", 1)
    if version != 1:
        raise ConfigError(f"Not supported version field value {version!r}")


def _field(obj: object, key: str, kind: type | tuple[type, ...], where: str) -> object:
    if not isinstance(obj, dict) or key not in obj:
        raise ConfigError(f"Missing field {key!r} in {where}")
    value = obj[key]
    ok = isinstance(value, kind) and not isinstance(value, bool)
    if not ok:
        raise ConfigError(f"Invalid {key!r} {value!r} in {where}")
    return value


def parse_reassignment_json(text: str) -> ClusterAssignment:
    """Read a reassignment JSON (``--generate``'s current/proposed output, a plan, a rollback).

    Errors: ``ConfigError`` for malformed JSON, an unsupported version or a bad field;
    ``InvalidReplicaAssignmentError`` with Kafka's messages for an empty list, an empty or
    duplicated replica list, a duplicate partition, or log dirs of another length.

    >>> parse_reassignment_json('{"version":1,"partitions":[{"topic":"a","partition":0,'
    ...                         '"replicas":[2,1]}]}')
    {'a': {0: (2, 1)}}
    """
    obj = _load_json(text, "reassignment")
    if not isinstance(obj, dict):
        raise ConfigError(f"Malformed reassignment JSON: expected an object, got {obj!r:.40}")
    _version(obj)
    rows = obj.get("partitions", [])
    if not isinstance(rows, list):
        raise ConfigError(f"Invalid 'partitions' {rows!r:.40} in the reassignment JSON")
    if not rows:
        raise InvalidReplicaAssignmentError("Partition reassignment list cannot be empty")
    out: ClusterAssignment = {}
    seen: list[str] = []
    for i, row in enumerate(rows):
        where = f"partitions[{i}]"
        topic = _field(row, "topic", str, where)
        part = _field(row, "partition", int, where)
        reps = _field(row, "replicas", list, where)
        assert isinstance(topic, str) and isinstance(part, int) and isinstance(reps, list)
        for b in reps:
            if not isinstance(b, int) or isinstance(b, bool) or b < 0:
                raise ConfigError(f"Invalid broker id {b!r} in the replicas of {_tp(topic, part)}")
        if part < 0:
            raise ConfigError(f"Invalid partition {part} of topic {topic}")
        dirs = row.get("log_dirs")
        if dirs is not None and (not isinstance(dirs, list) or len(dirs) != len(reps)):
            raise InvalidReplicaAssignmentError(
                f"Size of replicas list {reps} is different from size of log dirs list "
                f"{dirs} for partition {_tp(topic, part)}"
            )
        if part in out.get(topic, {}):
            seen.append(_tp(topic, part))
        out.setdefault(topic, {})[part] = tuple(reps)
    if seen:
        raise InvalidReplicaAssignmentError(
            f"Partition reassignment contains duplicate topic partitions: {','.join(seen)}"
        )
    for topic in out:
        for p, reps in out[topic].items():
            if not reps:
                raise InvalidReplicaAssignmentError("Partition replica list cannot be empty")
            dups = sorted({b for b in reps if reps.count(b) > 1})
            if dups:
                raise InvalidReplicaAssignmentError(
                    "Partition replica lists may not contain duplicate entries: "
                    f"{_tp(topic, p)} contains multiple entries for {','.join(map(str, dups))}"
                )
    return out


def parse_topics_to_move_json(text: str) -> list[str]:
    """Topics of a ``--topics-to-move-json-file``; errors: ``ConfigError`` (malformed JSON,
    bad version, duplicate topics with Kafka's message)."""
    obj = _load_json(text, "topics-to-move")
    if not isinstance(obj, dict):
        raise ConfigError(f"Malformed topics-to-move JSON: expected an object, got {obj!r:.40}")
    _version(obj)
    rows = obj.get("topics", [])
    if not isinstance(rows, list):
        raise ConfigError(f"Invalid 'topics' {rows!r:.40} in the topics-to-move JSON")
    topics = [str(_field(r, "topic", str, f"topics[{i}]")) for i, r in enumerate(rows)]
    dups = sorted({t for t in topics if topics.count(t) > 1}, key=java_string_key)
    if dups:
        raise ConfigError(
            f"List of topics to reassign contains duplicate entries: [{', '.join(dups)}]"
        )
    return topics


#: The heading ``kafka-reassign-partitions.sh --generate`` (and ``--execute``) prints above
#: the current assignment's JSON, and the one above the proposed assignment.
CURRENT_HEADING = "Current partition replica assignment"
PROPOSED_HEADING = "Proposed partition reassignment configuration"


def generate_transcript_json(text: str) -> str | None:
    """The current assignment's JSON of a ``kafka-reassign-partitions.sh --generate`` (or
    ``--execute``) transcript: the first line starting with ``{`` after the
    :data:`CURRENT_HEADING` line; ``None`` when ``text`` is not such a transcript (it has
    neither heading). Errors: ``ConfigError`` for a transcript without the current
    assignment (only the proposed one, or the heading without its JSON).

    >>> generate_transcript_json(CURRENT_HEADING + '\\n{"version":1,"partitions":[]}\\n\\n'
    ...                          + PROPOSED_HEADING + '\\n{"version":1,"partitions":[]}\\n')
    '{"version":1,"partitions":[]}'
    """
    if CURRENT_HEADING not in text and PROPOSED_HEADING not in text:
        return None
    seen = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(CURRENT_HEADING):
            seen = True
        elif stripped.startswith(PROPOSED_HEADING) and seen:
            break
        elif seen and stripped.startswith("{"):
            return stripped
    raise ConfigError(
        "A kafka-reassign-partitions.sh transcript without its current assignment: kpart reads "
        f"the JSON under {CURRENT_HEADING!r} (the --generate output), not the proposed one; "
        "give that block, or the cluster's kafka-topics.sh --describe output")


def read_current(text: str, topic: str | None = None, *, partial: bool = False
                 ) -> ClusterAssignment:
    """The current assignment from a reassignment JSON, ``kafka-topics.sh --describe`` output,
    a ``kafka-reassign-partitions.sh --generate`` transcript (its current assignment,
    :func:`generate_transcript_json`), or a ZooKeeper topic node
    (``{"version":1,"partitions":{"0":[0,1],...}}``, seed 001; it holds one topic and not its
    name, so ``topic`` names it, and only it). The format is detected from the text.

    A describe dump must be the whole cluster unless ``partial``
    (:func:`kpart.placement.formats.parse_describe_with_configs`); a partition being
    reassigned (``Adding Replicas`` / ``Removing Replicas``) is taken as it will be once the
    reassignment completes, with one warning naming it (planning on top of an unfinished
    reassignment: its target is the assignment to plan from).

    Errors: ``ConfigError`` / ``InvalidReplicaAssignmentError`` naming the bad value; a
    ZooKeeper node with no partitions, or with an irregularity ZooKeeper accepts (partition
    ids not ``0..n-1``, uneven replica counts, a broker twice), is refused here: plan from a
    regular assignment.

    >>> read_current('{"version":1,"partitions":{"0":[0,1],"1":[1,0]}}', topic="topic-test7")
    {'topic-test7': {0: (0, 1), 1: (1, 0)}}
    """
    transcript = generate_transcript_json(text) if not text.lstrip().startswith("{") else None
    if transcript is not None:
        text = transcript
    if text.lstrip().startswith("{"):
        if _is_zk_node(text):
            from kpart.placement.manual import read_zk_topic_node

            if not topic:
                raise ConfigError.about(
                    "topic", "The current assignment is a ZooKeeper topic node, which does not "
                    "name its topic: pass the topic name ({param} NAME)")
            node = read_zk_topic_node(text)
            if not node.partitions:
                raise ConfigError(f"The ZooKeeper topic node of {topic!r} has no partitions")
            if node.warnings:
                raise InvalidReplicaAssignmentError(
                    f"The ZooKeeper topic node of {topic!r} is irregular: {node.warnings[0]}"
                )
            current = {topic: dict(node.partitions)}
            validate_assignment(current)
            return current
        current = parse_reassignment_json(text)
    else:
        from kpart.placement import formats

        rows = formats.parse_describe_partitions(text, partial=partial)
        warn_reassigning(rows, "taken as it will be once it completes")
        current = {}
        for d in rows:
            current.setdefault(d.topic, {})[d.partition] = d.completed().replicas
        current = {t: dict(sorted(ps.items())) for t, ps in current.items()}
        if not current:
            _no_partitions(text)
    if topic:
        raise ConfigError(
            f"A topic name ({topic!r}) only goes with a ZooKeeper topic node; this input names "
            "its topics itself"
        )
    validate_assignment(current)
    return current


def _no_partitions(text: str) -> None:
    """ConfigError for a text with no partition line; a hint when it holds a JSON line (a
    transcript kpart does not recognise)."""
    if any(line.lstrip().startswith("{") for line in text.splitlines()):
        raise ConfigError(
            "No partitions found in the --describe output, but it holds a JSON line: give a "
            "reassignment JSON alone, or the kafka-reassign-partitions.sh --generate output "
            f"with its {CURRENT_HEADING!r} block")
    raise ConfigError("No partitions found in the --describe output")


def warn_reassigning(rows: Sequence[DescribedPartition], taken: str) -> None:
    """One warning naming the partitions of ``rows`` being reassigned (``Adding Replicas`` /
    ``Removing Replicas``) and how they are ``taken``; nothing when none is."""
    moving = [d for d in rows if d.reassigning]
    if not moving:
        return
    from kpart._warnings import kpart_warn

    d = moving[0]
    more = f" (and {len(moving) - 1} more partitions)" if len(moving) > 1 else ""
    kpart_warn(f"partition {d.topic}-{d.partition} is being reassigned (Adding Replicas: "
               f"{','.join(map(str, d.adding)) or '-'}, Removing Replicas: "
               f"{','.join(map(str, d.removing)) or '-'}){more}: a reassignment in progress, "
               f"{taken}")


def _is_zk_node(text: str) -> bool:
    """A JSON object whose ``partitions`` is an object (a reassignment JSON has a list)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        return False  # the reassignment parser reports it
    return isinstance(doc, dict) and isinstance(doc.get("partitions"), dict)


def generate_assignment(
    current: Mapping[str, Mapping[int, Sequence[int]]],
    brokers: Sequence[Broker],
    *,
    seed: int | None = None,
    rack_aware: bool = True,
    pools: PoolSpec | None = None,
    only_outside: bool = False,
    kafka_version: str | KafkaVersion | None = None,
) -> ClusterAssignment:
    """What ``kafka-reassign-partitions.sh --generate`` proposes for ``current``'s topics over
    ``brokers`` (``calculateAssignment``): each topic re-placed from scratch with the partition
    count and the replication factor of its first partition, by the placer of
    ``kafka_version`` (default: the newest release, 4.3; rule ``generate_placer`` of
    :mod:`kpart.versions`): ``AdminUtils.assignReplicasToBrokers`` up to 4.0.x, the KRaft
    controller's ``StripedReplicaPlacer`` from 4.1.0 (KAFKA-18798; every broker unfenced, as
    the tool describes them). Kafka draws at random; ``seed`` makes the
    draw reproducible: one ``java.util.Random(seed)`` serves the topics in name order, as
    Kafka's one ``Random`` serves them in its ``HashMap`` order.

    ``pools`` (seed 002's scheme): ``--generate`` per pool, each topic over the brokers of its
    pool among ``brokers`` (in id order); ``only_outside`` skips the topics already entirely
    on the brokers they may use. Errors: those of ``assign_replicas_to_brokers``;
    ``ConfigError`` for a pool with no broker among ``brokers``.

    >>> cur = {"t": {0: (0, 1), 1: (1, 2), 2: (2, 0)}}
    >>> brokers = [Broker(0), Broker(1), Broker(2)]
    >>> generate_assignment(cur, brokers, seed=1, kafka_version="4.0")
    {'t': {0: (0, 2), 1: (1, 0), 2: (2, 1)}}
    >>> generate_assignment(cur, brokers, seed=1, kafka_version="4.1.0")
    {'t': {0: (0, 1), 1: (1, 2), 2: (2, 0)}}
    """
    from kpart._java.random import JavaRandom
    from kpart.placement.admin_utils import assign_replicas_to_brokers

    if behaviour("generate_placer", kafka_version) == "striped":
        return _generate_striped(current, brokers, seed, rack_aware, pools, only_outside,
                                 kafka_version)
    rnd = None if seed is None else JavaRandom(seed)
    out: ClusterAssignment = {}
    for topic in sorted(current, key=java_string_key):
        eligible = list(brokers) if pools is None else _pool_brokers(topic, brokers, pools)
        parts = current[topic]
        allowed = {b.id for b in eligible}
        if only_outside and all(allowed.issuperset(r) for r in parts.values()):
            continue
        rf = len(parts[min(parts)])
        placed = assign_replicas_to_brokers(
            eligible, len(parts), rf, rack_aware=rack_aware, random=rnd
        )
        ids = sorted(parts)
        out[topic] = {ids[k]: tuple(r) for k, r in sorted(placed.items()) if k < len(ids)}
    return out


def _generate_striped(
    current: Mapping[str, Mapping[int, Sequence[int]]], brokers: Sequence[Broker],
    seed: int | None, rack_aware: bool, pools: PoolSpec | None, only_outside: bool,
    kafka_version: str | KafkaVersion | None,
) -> ClusterAssignment:
    """Kafka 4.1+'s ``calculateAssignment``: one ``StripedReplicaPlacer`` for every topic,
    partitions numbered from 0, brokers as ``getBrokerMetadata`` gives them (unfenced;
    without racks under ``--disable-rack-aware``; racks on some brokers only is an error)."""
    from kpart._java.random import JavaRandom
    from kpart.placement.spec import PlacementSpec, StaticCluster
    from kpart.placement.striped_replica_placer import StripedReplicaPlacer

    usable = [Broker(b.id, b.rack if rack_aware else None) for b in brokers]
    rackless = sum(b.rack is None for b in usable)
    if rack_aware and 0 < rackless < len(usable):
        raise AdminOperationError(
            "Not all brokers have rack information. Add --disable-rack-aware in command line "
            "to make replica assignment without rack information.")
    placer = StripedReplicaPlacer(JavaRandom(seed), kafka_version)
    out: ClusterAssignment = {}
    for topic in sorted(current, key=java_string_key):
        eligible = list(usable) if pools is None else _pool_brokers(topic, usable, pools)
        parts = current[topic]
        if only_outside and {b.id for b in eligible}.issuperset(
                b for r in parts.values() for b in r):
            continue
        placed = placer.place(PlacementSpec(len(parts), len(parts[min(parts)])),
                              StaticCluster(tuple(eligible)))
        ids = sorted(parts)
        out[topic] = {ids[k]: tuple(r) for k, r in enumerate(placed.assignments)}
    return out


def _pool_brokers(topic: str, brokers: Sequence[Broker], pools: PoolSpec) -> list[Broker]:
    by_id = {b.id: b for b in brokers}
    allowed = pools.allowed(topic, by_id)
    if not allowed:
        raise ConfigError(f"No broker available for topic {topic!r} in its pool")
    return [by_id[b] for b in sorted(allowed)]
