"""The Java producer's null-key strategies by client version: which strategy a Kafka client
version uses for records without a key, which strategies it has at all, and its version-bound
settings (``batch.size=0``, KIP-1123's ``partitioner.rack.aware``). Every answer comes from a
rule of :mod:`kpart.versions` (this module compares no versions):

=================== ============================ ==========================================
client version      records without key          kpart strategy (``kpart.producer.simulate``)
=================== ============================ ==========================================
0.10.0.0–0.10.1.1   DefaultPartitioner: round    ``legacy`` (one counter for every topic: the
                    robin from a random start    same as per topic for one topic)
0.10.2.0–2.3.1      per-topic counters           ``legacy``
                    (KAFKA-4402)
2.4.0–3.2.3         KIP-480 sticky               ``sticky``
3.3.0–4.3.1, 4.4    KIP-794 BuiltInPartitioner   ``builtin`` (KIP-1123 rack-aware on 4.4 when
                                                 ``partitioner.rack.aware`` and ``client.rack``)
=================== ============================ ==========================================

A strategy named explicitly must exist in the version: ``legacy`` up to 2.3.1 (the default
partitioner's round robin); ``sticky`` and ``uniform-sticky`` (``DefaultPartitioner``,
``UniformStickyPartitioner``) 2.4.0–3.9.2 (removed in 4.0.0, KAFKA-18262); ``round-robin``
(``RoundRobinPartitioner`` before KAFKA-17632) 2.4.0–3.9.1 and ``round-robin-fixed`` from 3.9.2;
``builtin`` from 3.3.0; ``random`` (a custom ``partitioner.class``) in every version. Keyed
records are placed by ``toPositive(murmur2(key)) % n`` in every version (rule
``key_partitioner``): they never move between client versions.

``kafka_version``: the client's, a string or :class:`~kpart.versions.KafkaVersion` (default
:data:`~kpart.versions.DEFAULT_KAFKA_VERSION`, ``4.3``). Errors:
:class:`~kpart.errors.ConfigError` naming ``kafka_version`` and the releases that have what was
asked: an unknown version, a strategy or setting the version lacks.

>>> java_null_key_strategy("2.3"), java_null_key_strategy("2.8.2"), java_null_key_strategy()
('legacy', 'sticky', 'builtin')
>>> check_null_key_strategy("sticky", "4.0.0")
Traceback (most recent call last):
...
kpart.errors.ConfigError: Sticky partitioning by partitioner.class (KIP-480's DefaultPartitioner, UniformStickyPartitioner) does not exist in kafka_version '4.0.0': DefaultPartitioner and UniformStickyPartitioner are removed in 4.0.0; kpart supports it for 2.4.0 to 3.9.2
"""

from __future__ import annotations

from kpart.errors import ConfigError
from kpart.versions import KafkaVersion, behaviour, kafka_version, releases_with

__all__ = [
    "DEFAULT_STRATEGY",
    "check_null_key_strategy",
    "check_rack_aware",
    "java_null_key_strategy",
    "key_rule",
    "key_rule_of",
    "null_key_batch_size",
    "resolve_strategy",
]

#: The strategy name meaning "the Java producer's own null-key strategy for the version".
DEFAULT_STRATEGY = "default"

_PARAM = "kafka_version"
#: ``null_key_partitioner`` behaviour → kpart strategy.
_OF_DEFAULT = {"round-robin-shared": "legacy", "round-robin": "legacy", "sticky": "sticky",
               "builtin": "builtin"}
_NAMES = {
    "legacy": "The legacy null-key strategy (DefaultPartitioner's round robin)",
    "builtin": "The built-in partitioner (KIP-794)",
    "round-robin": "RoundRobinPartitioner before KAFKA-17632 (round-robin)",
    "round-robin-fixed": "RoundRobinPartitioner with KAFKA-17632 (round-robin-fixed)",
}


def java_null_key_strategy(kafka_version: str | KafkaVersion | None = None,
                           what: str = _PARAM) -> str:
    """The kpart strategy of the Java producer of ``kafka_version`` for records without a key
    and no ``partitioner.class`` (rule ``null_key_partitioner``): ``legacy``, ``sticky`` or
    ``builtin``. ``ConfigError`` about ``what`` for a version kpart does not know."""
    return _OF_DEFAULT[behaviour("null_key_partitioner", kafka_version, what)]


def key_rule(kafka_version: str | KafkaVersion | None = None, what: str = _PARAM) -> str:
    """The Java producer's key rule in ``kafka_version`` (rule ``key_partitioner``): always
    ``"murmur2"``, ``toPositive(murmur2(key)) % n``; raises (about ``what``) for an unknown
    version.

    >>> key_rule("0.10.0.0") == key_rule("4.4") == "murmur2"
    True
    """
    return behaviour("key_partitioner", kafka_version, what)


def key_rule_of(partitioner: str, kafka_version: str | KafkaVersion | None) -> str | None:
    """The key rule of the Java client of ``kafka_version`` for ``partitioner`` (an id of
    :data:`kpart.producer.clients.PARTITIONERS`): :func:`key_rule` for ``java:default``;
    ``None`` for another client when ``kafka_version`` is ``None``, a ``ConfigError`` naming
    the version otherwise (it is the Java client's version).

    >>> key_rule_of("java:default", "2.8"), key_rule_of("sarama:hash", None)
    ('murmur2', None)
    """
    if partitioner.startswith("java:"):
        return key_rule(kafka_version)
    if kafka_version is None:
        return None
    raise ConfigError.about(
        _PARAM, "{param} {value!r} is the Java client's version; partitioner {partitioner!r} "
        "is not the Java producer's (drop {param})", value=str(kafka_version_of(kafka_version)),
        partitioner=partitioner)


def _lacks(strategy: str, v: KafkaVersion, rule: str, *behaviours: str) -> ConfigError:
    return ConfigError.about(
        _PARAM, "{name} is not in {param} {value!r}; kpart supports {strategy} for "
        "{supported}", name=_NAMES[strategy], value=str(v), strategy=strategy,
        supported=releases_with(rule, *behaviours))


def check_null_key_strategy(strategy: str, kafka_version: str | KafkaVersion | None) -> str:
    """``strategy`` (a name of :data:`kpart.producer.simulate.STRATEGIES`) if the Java client
    of ``kafka_version`` has it (see the module docstring), else ``ConfigError`` naming the
    version and the releases that have it. A line whose releases differ is ambiguous
    (``round-robin`` for ``3.9``: give the patch release)."""
    v = kafka_version_of(kafka_version)
    if strategy in ("sticky", "uniform-sticky"):
        behaviour("sticky_partitioner_classes", v)
    elif strategy == "legacy":
        if behaviour("null_key_partitioner", v) not in ("round-robin", "round-robin-shared"):
            raise _lacks(strategy, v, "null_key_partitioner", "round-robin", "round-robin-shared")
    elif strategy == "builtin":
        if behaviour("null_key_partitioner", v) != "builtin":
            raise _lacks(strategy, v, "null_key_partitioner", "builtin")
    elif strategy in ("round-robin", "round-robin-fixed"):
        wanted = "kafka-9965" if strategy == "round-robin" else "kafka-17632"
        if behaviour("round_robin_partitioner", v) != wanted:
            raise _lacks(strategy, v, "round_robin_partitioner", wanted)
    elif strategy != "random":
        raise ConfigError(f"unknown strategy {strategy!r}")
    return strategy


def kafka_version_of(value: str | KafkaVersion | None, what: str = _PARAM) -> KafkaVersion:
    """``value`` parsed (``None``: 4.3); ``ConfigError`` naming ``what``."""
    return kafka_version(value, what)


def resolve_strategy(strategy: str, kafka_version: str | KafkaVersion | None) -> str:
    """The strategy to simulate: :data:`DEFAULT_STRATEGY` (``"default"``) becomes the version's
    own (:func:`java_null_key_strategy`; ``kafka_version`` ``None``: 4.3's ``builtin``); any
    other name is returned when ``kafka_version`` is ``None`` (the name fixes the Kafka class)
    and checked against the version otherwise (:func:`check_null_key_strategy`).

    >>> resolve_strategy("default", "0.10.2.1"), resolve_strategy("legacy", None)
    ('legacy', 'legacy')
    """
    if strategy == DEFAULT_STRATEGY:
        return java_null_key_strategy(kafka_version)
    if kafka_version is None:
        return strategy
    return check_null_key_strategy(strategy, kafka_version)


def null_key_batch_size(batch_size: int, strategy: str,
                        kafka_version: str | KafkaVersion | None) -> int:
    """``batch.size`` as the producer of ``kafka_version`` uses it for ``strategy``: 0 is
    allowed by Kafka and means one-record batches (kpart: 1 byte); with the built-in
    partitioner, 3.3.0 and 3.3.1 never return from such a send (rule
    ``builtin_zero_batch_size``, KAFKA-14303): an error. Other values are returned as given.

    >>> null_key_batch_size(0, "builtin", "3.3.2"), null_key_batch_size(0, "sticky", "2.8")
    (1, 1)
    """
    if batch_size != 0:
        return batch_size
    if strategy == "builtin" and behaviour("builtin_zero_batch_size", kafka_version) == "hangs":
        raise ConfigError.about(
            _PARAM, "batch.size=0 with records without a key: the producer of {param} "
            "{value!r} never returns from send() (KAFKA-14303, fixed in 3.3.2)",
            value=str(kafka_version_of(kafka_version)))
    return 1


def check_rack_aware(rack_aware: bool, client_rack: str | None,
                     kafka_version: str | KafkaVersion | None) -> None:
    """KIP-1123's settings: ``partitioner.rack.aware=true`` needs a version that has it (rule
    ``partitioner_rack_aware``: branch 4.4 only, so the default 4.3 refuses it) and a
    non-blank ``client.rack`` (Kafka's ``ConfigException`` message). Nothing to check when
    ``rack_aware`` is false."""
    if not rack_aware:
        return
    behaviour("partitioner_rack_aware", kafka_version)
    if not (client_rack or "").strip():
        raise ConfigError("client.rack must be provided if partitioner.rack.aware is enabled")
