"""Manual replica placement: ``kafka-topics.sh --replica-assignment`` (``TopicCommand
.parseReplicaAssignment``), the controller's checks of a manual assignment
(``ReplicationControlManager.validateManualPartitionAssignment``), the ZooKeeper topic node
``/brokers/topics/<topic>`` (seed 001) and adding partitions
(``AdminZkClient.createNewPartitionsAssignment``).

``"0:1:2,3:4:5"`` means partition 0 on brokers 0, 1, 2 (0 the preferred leader) and
partition 1 on 3, 4, 5: commas between partitions, colons between replicas.

>>> parse_replica_assignment("2:0,0:1,1:2")
{0: (2, 0), 1: (0, 1), 2: (1, 2)}
>>> format_replica_assignment({0: (2, 0), 1: (0, 1)})
'2:0,0:1'
>>> node = read_zk_topic_node('{"version":1,"partitions":{"2":[0,1],"1":[1],"3":[1,0],"0":[0,1]}}')
>>> node.partitions[1], node.warnings
((1,), ('partition 1 has 1 replica(s) while partition 0 has 2',))
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kpart._java.hashing import hashmap_order
from kpart.errors import (
    AdminOperationError,
    ConfigError,
    InvalidPartitionsError,
    InvalidReplicaAssignmentError,
    KpartError,
)
from kpart.limits import check_partitions
from kpart.placement.admin_utils import assign_replicas_to_brokers
from kpart.placement.spec import Broker, ReplicaAssignment
from kpart.versions import KafkaVersion, behaviour

#: The last release line with ZooKeeper mode: :func:`add_partitions`' default version.
_ZK_LAST = "3.9"

__all__ = [
    "ZkTopicNode",
    "add_partitions",
    "format_replica_assignment",
    "parse_replica_assignment",
    "read_zk_topic_node",
    "validate_replica_assignment",
    "write_zk_topic_node",
]

_INT_RE = re.compile(r"[+-]?\d+")
_JAVA_WHITESPACE = "".join(chr(c) for c in range(0x21))  # String.trim(): chars <= ' '


def _error(cls: type[KpartError], message: str, java_class: str | None = None) -> KpartError:
    err = cls(message)
    if java_class is not None:
        err.java_class = java_class  # the class Kafka's own tool throws at this point
    return err


def _java_split(text: str, sep: str) -> list[str]:
    """``String.split(sep)`` for a one-character literal: trailing empty strings dropped."""
    parts = text.split(sep)
    while len(parts) > 1 and parts[-1] == "":
        parts.pop()
    if parts == [""] and text:  # e.g. ",,," splits to nothing in Java
        return []
    return parts


def _parse_int(token: str, context: str) -> int:
    """``Integer.parseInt(token.trim())`` with Java's range; message names the token."""
    t = token.strip(_JAVA_WHITESPACE)
    if _INT_RE.fullmatch(t) and -(2**31) <= int(t) < 2**31:
        return int(t)
    raise _error(InvalidReplicaAssignmentError,
                 f'For input string: "{t}" (broker id in {context})',
                 "java.lang.NumberFormatException")


def parse_replica_assignment(text: str) -> ReplicaAssignment:
    """Parse a ``--replica-assignment`` string as ``TopicCommand.parseReplicaAssignment`` does.

    Returns ``{partition: (broker, ...)}`` with partitions numbered 0, 1, ... in the order
    written. Kafka's rules: entries are trimmed; a partition may not name a broker twice
    (``"Partition replica lists may not contain duplicate entries: 1"``); every partition has
    the replication factor of partition 0 (``"Partition 1 has different replication factor:
    [2, 3]"``). Errors: ``InvalidReplicaAssignmentError`` (its ``java_class`` is the class
    Kafka's tool throws: ``AdminCommandFailedException``, ``AdminOperationException`` or
    ``NumberFormatException``), the message naming the bad value.

    >>> parse_replica_assignment(" 0 : 1 , 1 : 0")
    {0: (0, 1), 1: (1, 0)}
    """
    if not isinstance(text, str):
        raise ConfigError(f"Invalid replica assignment {text!r}: expected a string.")
    context = f'replica assignment "{text}"'
    ret: ReplicaAssignment = {}
    for i, partition in enumerate(_java_split(text, ",")):
        brokers = [_parse_int(tok, context) for tok in _java_split(partition, ":")]
        if not brokers:
            raise _error(InvalidReplicaAssignmentError,
                         f"Partition {i} has no replicas in {context}.")
        seen: set[int] = set()
        dups: list[int] = []
        for b in brokers:
            if b in seen:
                dups.append(b)
            seen.add(b)
        if dups:
            shown = ",".join(str(d) for d in hashmap_order(dups))  # a Java HashSet
            raise _error(InvalidReplicaAssignmentError,
                         f"Partition replica lists may not contain duplicate entries: {shown}",
                         "org.apache.kafka.tools.AdminCommandFailedException")
        ret[i] = tuple(brokers)
        if len(brokers) != len(ret[0]):
            shown = "[" + ", ".join(str(b) for b in brokers) + "]"
            raise _error(InvalidReplicaAssignmentError,
                         f"Partition {i} has different replication factor: {shown}",
                         AdminOperationError.java_class)
    if not ret:
        raise _error(InvalidReplicaAssignmentError, f"Empty {context}.")
    return ret


def validate_replica_assignment(
    assignment: Mapping[int, Sequence[int]],
    *,
    brokers: Iterable[Broker | int] | None = None,
    replication_factor: int | None = None,
) -> None:
    """Check a manual assignment as the KRaft controller does on ``CreateTopics``
    (``ReplicationControlManager.validateManualPartitionAssignment``), partition by partition:
    a non-empty replica list, every broker registered (when ``brokers`` is given), no broker
    twice, the same number of replicas as the partitions before (or ``replication_factor``
    when given); then partition ids ``0 .. n-1``.

    Errors: ``InvalidReplicaAssignmentError`` with Kafka's messages, e.g. ``"The manual
    partition assignment includes broker 7, but no such broker is registered."``.

    >>> validate_replica_assignment({0: [1, 2], 1: [2, 1]}, brokers=[1, 2, 3])
    """
    known = None if brokers is None else {b.id if isinstance(b, Broker) else b for b in brokers}
    expected = replication_factor
    for replicas in assignment.values():
        if not replicas:
            raise InvalidReplicaAssignmentError(
                "The manual partition assignment includes an empty replica list.")
        previous = None
        for broker in sorted(replicas):
            if (known is not None and broker not in known) or broker < 0:
                raise InvalidReplicaAssignmentError(
                    f"The manual partition assignment includes broker {broker}, but no such "
                    "broker is registered.")
            if broker == previous:
                raise InvalidReplicaAssignmentError(
                    f"The manual partition assignment includes the broker {previous} more "
                    "than once.")
            previous = broker
        if expected is not None and len(replicas) != expected:
            raise InvalidReplicaAssignmentError(
                f"The manual partition assignment includes a partition with {len(replicas)} "
                f"replica(s), but this is not consistent with previous partitions, which have "
                f"{expected} replica(s).")
        expected = len(replicas)
    if set(assignment) != set(range(len(assignment))):
        raise InvalidReplicaAssignmentError(
            "partitions should be a consecutive 0-based integer sequence")


def format_replica_assignment(assignment: Mapping[int, Sequence[int]]) -> str:
    """``{0: (0, 1), 1: (1, 0)}`` → ``"0:1,1:0"`` (partitions 0..n-1 in order).

    Errors: ``InvalidReplicaAssignmentError`` when partition ids are not ``0 .. n-1`` (the
    string has no way to say which partition an entry is) or a partition has no replica.
    """
    if set(assignment) != set(range(len(assignment))):
        raise InvalidReplicaAssignmentError(
            f"Cannot write partitions {sorted(assignment)} as --replica-assignment: partitions "
            "should be a consecutive 0-based integer sequence")
    parts = []
    for p in range(len(assignment)):
        if not assignment[p]:
            raise InvalidReplicaAssignmentError(f"Partition {p} has no replicas.")
        parts.append(":".join(str(b) for b in assignment[p]))
    return ",".join(parts)


@dataclass(frozen=True, slots=True)
class ZkTopicNode:
    """The data of ``/brokers/topics/<topic>``: ``partitions`` (``{partition: replicas}``,
    sorted by partition) and ``warnings`` about what ``kafka-topics.sh`` would have refused
    but ZooKeeper accepts (seed 001's ``topic-test7``: a partition with one replica)."""

    partitions: ReplicaAssignment
    warnings: tuple[str, ...] = ()
    version: int = 1


def _node_error(message: str) -> ConfigError:
    return ConfigError(f"Invalid ZooKeeper topic node: {message}")


def read_zk_topic_node(data: str | bytes | Mapping[str, Any]) -> ZkTopicNode:
    """Read the ZooKeeper topic node JSON (``{"version":1,"partitions":{"0":[0,1],...}}``;
    versions 2/3 with ``adding_replicas``/``removing_replicas``/``topic_id`` are accepted and
    those fields ignored).

    Irregularities ZooKeeper lets through are returned as ``warnings`` rather than raised:
    replica counts differing from partition 0's, a broker twice in one partition, an empty
    replica list, partition ids that are not ``0 .. n-1``. Errors (``ConfigError``, naming the
    value): malformed JSON, no ``partitions`` object, a non-integer partition or broker id.
    """
    if isinstance(data, (str, bytes)):
        try:
            doc = json.loads(data)
        except json.JSONDecodeError as e:
            raise _node_error(f"malformed JSON ({e.msg} at line {e.lineno} column {e.colno})")\
                from None
        except UnicodeDecodeError:
            raise _node_error("not UTF-8 text") from None
    else:
        doc = data
    if not isinstance(doc, Mapping) or not isinstance(doc.get("partitions"), Mapping):
        raise _node_error(f'expected an object with a "partitions" object, got {doc!r:.80}')
    version = doc.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool):
        raise _node_error(f"invalid version {version!r}")
    parts: dict[int, tuple[int, ...]] = {}
    for key, replicas in doc["partitions"].items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit()):
            raise _node_error(f"invalid partition id {key!r}")
        if not isinstance(replicas, list) or not all(
            isinstance(b, int) and not isinstance(b, bool) and b >= 0 for b in replicas
        ):
            raise _node_error(f"invalid replica list {replicas!r} for partition {key}")
        if int(key) in parts:
            raise _node_error(f"partition {int(key)} appears twice")
        parts[int(key)] = tuple(replicas)
    partitions = dict(sorted(parts.items()))
    warnings: list[str] = []
    if set(partitions) != set(range(len(partitions))):
        warnings.append(f"partition ids {sorted(partitions)} are not 0..{len(partitions) - 1}")
    rf = len(partitions[0]) if 0 in partitions else None
    for p, replicas in partitions.items():
        if not replicas:
            warnings.append(f"partition {p} has no replicas")
        elif rf is not None and len(replicas) != rf:
            warnings.append(f"partition {p} has {len(replicas)} replica(s) while partition 0 "
                            f"has {rf}")
        if len(set(replicas)) != len(replicas):
            warnings.append(f"partition {p} lists a broker twice: {list(replicas)}")
    return ZkTopicNode(partitions, tuple(warnings), version)


def write_zk_topic_node(assignment: Mapping[int, Sequence[int]]) -> str:
    """The ZooKeeper topic node JSON of seed 001, compact, partitions in increasing order.

    >>> write_zk_topic_node({1: (1, 0), 0: (0, 1)})
    '{"version":1,"partitions":{"0":[0,1],"1":[1,0]}}'
    """
    body = {str(p): [int(b) for b in assignment[p]] for p in sorted(assignment)}
    return json.dumps({"version": 1, "partitions": body}, separators=(",", ":"))


def add_partitions(
    existing: Mapping[int, Sequence[int]],
    brokers: Sequence[Broker | int],
    new_total: int,
    *,
    topic: str = "topic",
    replica_assignment: Mapping[int, Sequence[int]] | None = None,
    rack_aware: bool = True,
    kafka_version: str | KafkaVersion | None = None,
) -> ReplicaAssignment:
    """Replicas of the partitions ``kafka-topics.sh --alter --partitions new_total`` adds, as
    ``AdminZkClient.createNewPartitionsAssignment`` computes them in ZooKeeper mode.

    ``kafka_version``: the brokers' version, looked up in :mod:`kpart.versions` (rule
    ``zk_add_partitions``: KAFKA-2146's start index from 0.10.0.0 to 3.9.x). ZooKeeper mode is
    gone in 4.0, so the default is ``3.9``, the last release line with it (not the newest
    release), and a 4.x version is a ``ConfigError`` naming it (KRaft adds partitions with the
    striped placer: :class:`~kpart.placement.striped_replica_placer.StripedReplicaPlacer`).

    The new partitions continue the existing placement: :func:`assign_replicas_to_brokers`
    with the replication factor of partition 0, ``start_partition_id`` = the current count and
    ``fixed_start_index`` = the index of the first broker whose id is ≥ partition 0's
    leader (its position when it is still in the list; ``brokers`` sorted by id, as Kafka lists
    them). Kafka restarts the replica shift at that index too, so the result equals a
    single creation of ``new_total`` partitions only while the existing ones had not wrapped
    around the broker list. A ``replica_assignment`` for the new partitions is validated instead
    (``validate_replica_assignment`` rules with the existing replication factor).

    Returns the new partitions only: ``{partition: (broker, ...)}``.

    Errors: ``AdminOperationError`` when partition 0 is missing, ``InvalidPartitionsError``
    when ``new_total`` is not an increase (Kafka's messages), and those of
    :func:`assign_replicas_to_brokers`.

    >>> add_partitions({0: (2, 0, 1), 1: (0, 1, 2)}, [0, 1, 2], 4)
    {2: (1, 2, 0), 3: (2, 1, 0)}
    >>> add_partitions({0: (2, 0, 1), 1: (0, 1, 2)}, [0, 1, 2], 4, kafka_version="4.0")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: Adding partitions in ZooKeeper mode does not exist in kafka_version '4.0': ZooKeeper mode is removed in 4.0.0 (KRaft adds partitions with the striped placer); kpart supports it for 0.10.0.0 to 3.9.2
    """
    # the table's one behaviour, "first-at-or-above" (KAFKA-2146); other versions raise
    behaviour("zk_add_partitions", _ZK_LAST if kafka_version is None else kafka_version)
    if 0 not in existing:
        shown = {p: list(r) for p, r in sorted(existing.items())}
        raise AdminOperationError(
            f"Unexpected existing replica assignment for topic '{topic}', partition id 0 is "
            f"missing. Assignment: {shown}")
    partition0 = tuple(existing[0])
    to_add = new_total - len(existing)
    if to_add <= 0:
        raise InvalidPartitionsError(
            f"The number of partitions for a topic can only be increased. Topic {topic} "
            f"currently has {len(existing)} partitions, {new_total} would not be an increase.")
    check_partitions(new_total, "new partition count")  # kpart.limits, before range() below
    metas = [b if isinstance(b, Broker) else Broker(b) for b in brokers]
    if replica_assignment is not None:
        wanted = set(range(len(existing), new_total))
        if set(replica_assignment) != wanted:
            raise InvalidReplicaAssignmentError(
                f"Attempted to add {to_add} additional partition(s), but assignments were given "
                f"for partitions {sorted(replica_assignment)}.")
        shifted = {p - len(existing): list(r) for p, r in replica_assignment.items()}
        validate_replica_assignment(shifted, brokers=metas, replication_factor=len(partition0))
        return {p: tuple(replica_assignment[p]) for p in sorted(replica_assignment)}
    leader = partition0[0] if partition0 else -1
    start = next((i for i, m in enumerate(metas) if m.id >= leader), -1)
    return assign_replicas_to_brokers(
        metas, to_add, len(partition0), fixed_start_index=max(0, start),
        start_partition_id=len(existing), rack_aware=rack_aware)
