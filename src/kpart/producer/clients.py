"""Every Kafka client's key partitioner (Java ``BuiltInPartitioner``, librdkafka, Sarama, kafkajs,
kafka-go, kafka-python): one registry, one scalar entry point.

A partitioner is named ``"<client>:<name>"`` (``"java:default"``, ``"librdkafka:consistent_random"``,
``"sarama:hash"``, ...; :data:`PARTITIONERS` lists them, ``kpart partitioners`` prints them). Each is
described by a :class:`ClientPartitioner` value: the hash, how the hash becomes an index, and what
the client does with a null key and with an empty key:

========================  =========================================================================
``null_key``              meaning
========================  =========================================================================
``"unkeyed"``             the key does not decide (Java: ``BuiltInPartitioner`` sticky/adaptive
                          choice, see the null-key simulations); result ``None``/null
``"hash-empty"``          a null key is hashed like ``b""`` (librdkafka ``consistent``, ``murmur2``,
                          ``fnv1a``: the C partitioner gets ``NULL, 0``)
``"random"``              a uniformly random partition per record, drawn from ``seed``
``"round-robin"``         the client's per-topic counter (kafkajs, kafka-go ``Hash``); ``counter``
                          is its value before the record
========================  =========================================================================

``empty_key`` is ``"hash"`` or ``"random"`` (librdkafka ``consistent_random`` and kafka-go
``CRC32Balancer`` treat a zero-length key as no key).

librdkafka note: with its default ``sticky.partitioning.linger.ms=10``, the records that the
``*_random`` partitioners would send to a random partition stick to one random partition for 10 ms;
per-record here means ``sticky.partitioning.linger.ms=0``. Time-based stickiness belongs to the
null-key simulations, not to a key function.

>>> partition_for_key_by("librdkafka:consistent", b"100:48069", 12)
6
>>> partition_for_key_by("sarama:hash", b"TT0124", 15)
2
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kpart._java.ints import to_int32
from kpart._java.murmur2 import murmur2_unsigned, to_positive
from kpart.errors import ConfigError, InvalidPartitionsError
from kpart.limits import KAFKA_MAX_PARTITIONS
from kpart.producer._hashes import crc32, fnv1a32, kafkajs_legacy_murmur2

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "PARTITIONERS",
    "ClientPartitioner",
    "check_num_partitions",
    "get_partitioner",
    "index_of_hash",
    "initial_counter",
    "key_hash",
    "partition_for_key_by",
    "rng_from",
    "round_robin_partition",
]

HASHES = ("murmur2", "kafkajs-legacy-murmur2", "crc32", "fnv1a", "none")
INDEXES = ("to-positive", "unsigned", "abs")
NULL_KEY_RULES = ("unkeyed", "hash-empty", "random", "round-robin")


@dataclass(frozen=True, slots=True)
class ClientPartitioner:
    """How one client maps a serialized key to a partition.

    Attributes:
        id: ``"<client>:<name>"``, the value of ``partitioner=``.
        hash: ``"murmur2"`` (Kafka's), ``"kafkajs-legacy-murmur2"``, ``"crc32"``, ``"fnv1a"`` or
            ``"none"`` (key ignored: every record is random).
        index: ``"to-positive"``: ``(h & 0x7fffffff) % n``; ``"unsigned"``: ``uint32(h) % n``;
            ``"abs"``: ``abs(int32(h) % n)`` (Sarama's default and librdkafka's fnv1a).
        null_key: one of ``"unkeyed"``, ``"hash-empty"``, ``"random"``, ``"round-robin"``.
        empty_key: ``"hash"`` or ``"random"``.
        round_robin: for ``null_key == "round-robin"``: ``"kafkajs"`` (``toPositive(++counter) % n``,
            counter starts at a random uint32) or ``"kafka-go"`` (``counter++ % n``, from 0).
        description: one line for ``kpart partitioners``.
        source: the client class or function reproduced.
    """

    id: str
    hash: str
    index: str
    null_key: str
    empty_key: str
    description: str
    source: str
    round_robin: str | None = None

    def __post_init__(self) -> None:
        if self.hash not in HASHES:
            raise ValueError(f"unknown hash {self.hash!r}")
        if self.index not in INDEXES:
            raise ValueError(f"unknown index rule {self.index!r}")
        if self.null_key not in NULL_KEY_RULES:
            raise ValueError(f"unknown null-key rule {self.null_key!r}")
        if (self.null_key == "round-robin") != (self.round_robin is not None):
            raise ValueError(f"{self.id}: round_robin must be set exactly for round-robin null keys")

    @property
    def client(self) -> str:
        """The client part of the id (``"librdkafka"``)."""
        return self.id.split(":", 1)[0]

    @property
    def deterministic(self) -> bool:
        """True when a non-empty key always maps to the same partition."""
        return self.hash != "none"


def _p(id_: str, hash_: str, index: str, null_key: str, empty_key: str, description: str,
       source: str, round_robin: str | None = None) -> ClientPartitioner:
    return ClientPartitioner(id_, hash_, index, null_key, empty_key, description, source, round_robin)


_ALL = (
    _p("java:default", "murmur2", "to-positive", "unkeyed", "hash",
       "Java producer (Kafka >= 3.3 BuiltInPartitioner; DefaultPartitioner before): murmur2; "
       "null key -> sticky/adaptive, not key-decided",
       "org.apache.kafka.clients.producer.internals.BuiltInPartitioner#partitionForKey"),
    _p("librdkafka:consistent", "crc32", "unsigned", "hash-empty", "hash",
       "librdkafka consistent: CRC-32 % n; null and empty keys both go to crc32('') % n = 0",
       "rdkafka_msg.c rd_kafka_msg_partitioner_consistent"),
    _p("librdkafka:consistent_random", "crc32", "unsigned", "random", "random",
       "librdkafka default (consistent_random): CRC-32 % n; null or empty key -> random",
       "rdkafka_msg.c rd_kafka_msg_partitioner_consistent_random"),
    _p("librdkafka:murmur2", "murmur2", "to-positive", "hash-empty", "hash",
       "librdkafka murmur2: Java-compatible murmur2; null key hashed as empty",
       "rdkafka_msg.c rd_kafka_msg_partitioner_murmur2"),
    _p("librdkafka:murmur2_random", "murmur2", "to-positive", "random", "hash",
       "librdkafka murmur2_random: Java-compatible murmur2; null key -> random",
       "rdkafka_msg.c rd_kafka_msg_partitioner_murmur2_random"),
    _p("librdkafka:fnv1a", "fnv1a", "abs", "hash-empty", "hash",
       "librdkafka fnv1a: FNV-1a abs(int32) % n (Sarama default compatible); null key hashed as empty",
       "rdkafka_msg.c rd_kafka_msg_partitioner_fnv1a, rdfnv1a.c"),
    _p("librdkafka:fnv1a_random", "fnv1a", "abs", "random", "hash",
       "librdkafka fnv1a_random: FNV-1a like fnv1a; null key -> random",
       "rdkafka_msg.c rd_kafka_msg_partitioner_fnv1a_random"),
    _p("librdkafka:random", "none", "unsigned", "random", "random",
       "librdkafka random: every record to a random partition, key ignored",
       "rdkafka_msg.c rd_kafka_msg_partitioner_random"),
    _p("sarama:hash", "fnv1a", "abs", "random", "hash",
       "Sarama default NewHashPartitioner: FNV-1a, abs(int32(h) % n); nil key -> random",
       "sarama partitioner.go NewHashPartitioner"),
    _p("sarama:reference", "fnv1a", "to-positive", "random", "hash",
       "Sarama NewReferenceHashPartitioner: FNV-1a, (int32(h) & 0x7fffffff) % n; nil key -> random",
       "sarama partitioner.go NewReferenceHashPartitioner"),
    _p("sarama:crc", "crc32", "unsigned", "random", "hash",
       "Sarama NewConsistentCRCHashPartitioner: CRC-32, uint32(h) % n; nil key -> random",
       "sarama partitioner.go NewConsistentCRCHashPartitioner"),
    _p("sarama:murmur2", "murmur2", "to-positive", "random", "hash",
       "Sarama NewMurmur2Partitioner: Java-compatible murmur2; nil key -> random",
       "sarama partitioner.go NewMurmur2Partitioner (IBM/sarama#3567)"),
    _p("kafkajs:default", "murmur2", "to-positive", "round-robin", "hash",
       "kafkajs 2.x DefaultPartitioner: Java-compatible murmur2; null key -> round-robin",
       "kafkajs src/producer/partitioners/default", "kafkajs"),
    _p("kafkajs:legacy", "kafkajs-legacy-murmur2", "to-positive", "round-robin", "hash",
       "kafkajs LegacyPartitioner (1.x default): float-arithmetic murmur2, differs from Java; "
       "null key -> round-robin",
       "kafkajs src/producer/partitioners/legacy", "kafkajs"),
    _p("kafka-go:hash", "fnv1a", "abs", "round-robin", "hash",
       "kafka-go Hash: FNV-1a, abs(int32(h) % n) (Sarama default); nil key -> round-robin",
       "kafka-go balancer.go Hash", "kafka-go"),
    _p("kafka-go:reference-hash", "fnv1a", "to-positive", "random", "hash",
       "kafka-go ReferenceHash: FNV-1a, (int32(h) & 0x7fffffff) % n; nil key -> random",
       "kafka-go balancer.go ReferenceHash"),
    _p("kafka-go:crc32", "crc32", "unsigned", "random", "random",
       "kafka-go CRC32Balancer: CRC-32 % n (librdkafka consistent_random); nil/empty key -> random",
       "kafka-go balancer.go CRC32Balancer"),
    _p("kafka-go:murmur2", "murmur2", "to-positive", "random", "hash",
       "kafka-go Murmur2Balancer: Java-compatible murmur2; nil key -> random",
       "kafka-go balancer.go Murmur2Balancer"),
    _p("kafka-python:default", "murmur2", "to-positive", "random", "hash",
       "kafka-python DefaultPartitioner: Java-compatible murmur2; None key -> random",
       "kafka-python kafka/partitioner/default.py DefaultPartitioner"),
)

#: Every partitioner by id, in display order.
PARTITIONERS: dict[str, ClientPartitioner] = {p.id: p for p in _ALL}


def get_partitioner(partitioner: str | ClientPartitioner) -> ClientPartitioner:
    """The :class:`ClientPartitioner` named ``partitioner``.

    Raises:
        ConfigError: unknown id (the message names it and lists the known ids).

    >>> get_partitioner("sarama:crc").hash
    'crc32'
    """
    if isinstance(partitioner, ClientPartitioner):
        return partitioner
    spec = PARTITIONERS.get(partitioner) if isinstance(partitioner, str) else None
    if spec is None:
        raise ConfigError(
            f"unknown partitioner {partitioner!r}; known: {', '.join(PARTITIONERS)}"
        )
    return spec


def check_num_partitions(num_partitions: Any) -> int:
    """Validate a partition count: an ``int`` (not ``bool``) in ``[1, 2**31 - 1]``.

    Raises:
        InvalidPartitionsError: naming the bad value.
    """
    if isinstance(num_partitions, bool) or not isinstance(num_partitions, int):
        try:
            import numpy as np

            if isinstance(num_partitions, np.integer):
                return check_num_partitions(int(num_partitions))
        except ImportError:  # pragma: no cover - numpy is a dependency
            pass
        raise InvalidPartitionsError(
            f"number of partitions must be an integer, got {num_partitions!r}"
        )
    if num_partitions <= 0:
        raise InvalidPartitionsError(
            f"number of partitions must be larger than 0, got {num_partitions}"
        )
    if num_partitions > KAFKA_MAX_PARTITIONS:
        raise InvalidPartitionsError(
            f"number of partitions must fit a Java int, got {num_partitions} (above Kafka's "
            "limit of 2,147,483,647: NumPartitions is an INT32 in CreateTopicsRequest)"
        )
    return num_partitions


def rng_from(seed: int | np.random.Generator | None) -> np.random.Generator:
    """A numpy ``Generator`` from a seed, a generator (used as is) or ``None`` (fresh entropy)."""
    import numpy as np

    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def key_hash(spec: ClientPartitioner, key: bytes) -> int:
    """The client's 32-bit hash of ``key``, unsigned (``[0, 2**32)``)."""
    if spec.hash == "murmur2":
        return murmur2_unsigned(key)
    if spec.hash == "crc32":
        return crc32(key)
    if spec.hash == "fnv1a":
        return fnv1a32(key)
    if spec.hash == "kafkajs-legacy-murmur2":
        return kafkajs_legacy_murmur2(key) & 0xFFFFFFFF
    raise ValueError(f"{spec.id} does not hash keys")


def index_of_hash(index: str, h: int, num_partitions: int) -> int:
    """Map an unsigned 32-bit hash to a partition with the client's index rule."""
    if index == "to-positive":
        return to_positive(h) % num_partitions  # Java's Utils.toPositive; Sarama reference
    if index == "unsigned":
        return h % num_partitions
    return abs(to_int32(h)) % num_partitions  # "abs": abs(int32(h) % n) == abs(int32(h)) % n


def round_robin_partition(style: str, counter: int, num_partitions: int) -> int:
    """The partition a round-robin client gives a null-key record when its counter is ``counter``."""
    if style == "kafkajs":  # toPositive(++counters[topic]) % availablePartitions.length
        return to_positive(counter + 1) % num_partitions  # kafkajs ports Java's toPositive
    return (counter & 0xFFFFFFFF) % num_partitions  # kafka-go: offset = AddUint32(&o, 1) - 1


def initial_counter(style: str, rng: np.random.Generator) -> int:
    """The counter a fresh client starts from (kafkajs: a random uint32; kafka-go: 0)."""
    if style == "kafkajs":
        return int(rng.integers(0, 1 << 32))
    return 0


def partition_for_key_by(
    partitioner: str | ClientPartitioner,
    key: bytes | None,
    num_partitions: int,
    *,
    seed: int | np.random.Generator | None = None,
    counter: int | None = None,
) -> int | None:
    """The partition ``partitioner`` gives a record with serialized key ``key`` (``None`` = null key).

    Args:
        partitioner: a partitioner id (see :data:`PARTITIONERS`) or spec.
        key: the serialized key bytes, or ``None`` for a record without key.
        num_partitions: the topic's partition count (> 0).
        seed: int seed or ``numpy.random.Generator`` for the random rules (``None``: fresh entropy,
            random like the client).
        counter: for round-robin null keys, the client's counter before this record (``None``: the
            value of a freshly started client, random for kafkajs).

    Returns:
        a partition in ``[0, num_partitions)``, or ``None`` when the key does not decide
        (``java:default`` with a null key).

    Raises:
        ConfigError: unknown partitioner, key not bytes-like.
        InvalidPartitionsError: ``num_partitions`` not a positive int.
    """
    spec = get_partitioner(partitioner)
    n = check_num_partitions(num_partitions)
    if key is not None and not isinstance(key, bytes | bytearray | memoryview):
        raise ConfigError(
            f"key must be bytes (serialize it first, e.g. kpart.serialize_key), got {key!r}"
        )
    if key is None:
        rule = spec.null_key
    elif spec.hash == "none" or (len(key) == 0 and spec.empty_key == "random"):
        rule = "random"
    else:
        return index_of_hash(spec.index, key_hash(spec, bytes(key)), n)
    if rule == "unkeyed":
        return None
    if rule == "hash-empty":
        return index_of_hash(spec.index, key_hash(spec, b""), n)
    if rule == "round-robin":
        assert spec.round_robin is not None
        start = counter if counter is not None else initial_counter(spec.round_robin, rng_from(seed))
        return round_robin_partition(spec.round_robin, start, n)
    return int(rng_from(seed).integers(0, n))
