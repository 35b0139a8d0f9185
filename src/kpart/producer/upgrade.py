"""What moves for a producer's records when its Java client is upgraded (or downgraded): the
records whose partition changes between two client versions, as kpart can know it. Pure core
of ``kpart upgrade --keys FILE|--dataset PATH --from V1 --to V2``.

The records are given in send order, each a serialized key or ``None`` (no key), to one topic
of ``num_partitions`` partitions, every partition with a leader. Two partitioners:

* ``"default"`` (no ``partitioner.class``). A record with a key goes to
  ``toPositive(murmur2(key)) % n`` in every version kpart knows (rule ``key_partitioner``): it
  never moves, and kpart checks both versions against the rule. A record without a key follows
  the version's null-key strategy (rule ``null_key_partitioner``: round robin from a random
  start up to 2.3, KIP-480 sticky 2.4–3.2, KIP-794 built-in from 3.3). Its partition is random
  in Java on both sides (the counter's random start, the random sticky draws), so no record
  can be said to move: kpart counts these records, names both strategies, and gives the
  *expected* records per partition (keyed records exactly, each record without a key
  ``1 / n`` on every partition); ``moved`` covers the keyed records only.
* ``"round-robin"`` (``RoundRobinPartitioner``, 2.4+; rule ``round_robin_partitioner``). Keys
  are ignored and the counter starts at 0, so the answer is per record, under one stated
  assumption: every record needs a new batch (``linger.ms=0`` and each batch sent before the
  next record: the case of KAFKA-9965). Up to 3.9.1 the counter advances twice per record
  (record ``i`` → ``(2i + 1) % n``: with 4 partitions p1, p3, p1, p3); from 3.9.2 once
  (``i % n``: p0, p1, p2, p3). With batching, fewer records are partitioned twice and fewer
  move: ``kpart simulate --kafka-version`` models the batches.

:class:`ProducerUpgrade` lists the first ``limit`` moved records (send order) and counts all.
Errors: :class:`~kpart.errors.ConfigError` naming the bad value (an unknown version, a
partitioner the version lacks, a bad partition count or limit).

>>> u = producer_upgrade([None] * 4, 4, "3.9.0", "4.3", partitioner="round-robin")
>>> u.moved, [(m.index, m.before, m.after) for m in u.moves]
(3, [(0, 1, 0), (1, 3, 1), (2, 1, 2)])
>>> d = producer_upgrade([b"k1", None], 2, "2.3", "4.3")
>>> d.moved, d.null_key_strategies, d.expected_after
(0, ('legacy', 'builtin'), (0.5, 1.5))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from kpart._java.ints import to_int32
from kpart._java.murmur2 import to_positive
from kpart.errors import ConfigError
from kpart.producer.clients import check_num_partitions
from kpart.producer.null_key_versions import java_null_key_strategy, kafka_version_of, key_rule
from kpart.versions import KafkaVersion, behaviour

__all__ = ["PARTITIONERS", "ProducerUpgrade", "RecordMove", "null_key_upgrade",
           "producer_upgrade"]

#: The Java partitioners compared: no ``partitioner.class``, or ``RoundRobinPartitioner``.
PARTITIONERS = ("default", "round-robin")
#: How many moved records are listed by default.
DEFAULT_LIMIT = 20

_STRATEGY_TEXT = {
    "legacy": "round robin from a random start (DefaultPartitioner)",
    "sticky": "sticky, one random partition per batch (KIP-480)",
    "builtin": "uniform sticky by batch.size bytes, adaptive (KIP-794)",
    "kafka-9965": "counter advanced twice per record (KAFKA-9965)",
    "kafka-17632": "counter advanced once per record (KAFKA-17632)",
}


@dataclass(frozen=True, slots=True)
class RecordMove:
    """A record whose partition changes: its ``index`` in send order (0-based), its ``key``
    (``None``: no key) and its partition ``before`` and ``after``."""

    index: int
    key: bytes | None
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class ProducerUpgrade:
    """The comparison (see the module docstring). ``versions``: the two client versions as
    given; ``null_key_strategies``: each side's strategy for records without a key
    (``legacy``/``sticky``/``builtin``, or the ``round_robin_partitioner`` behaviour);
    ``per_record``: whether every record has one partition on each side (``round-robin``), or
    only the keyed ones (``default``); ``moved``: records that change partition (keyed only
    when not ``per_record``); ``moves``: the first ``limit`` of them; ``expected_before`` /
    ``expected_after``: records per partition (exact when ``per_record``, else expected)."""

    versions: tuple[str, str]
    partitioner: str
    num_partitions: int
    records: int
    keyed_records: int
    null_key_records: int
    null_key_strategies: tuple[str, str]
    per_record: bool
    moved: int
    moves: tuple[RecordMove, ...]
    expected_before: tuple[float, ...]
    expected_after: tuple[float, ...]

    @property
    def strategy_texts(self) -> tuple[str, str]:
        """Each side's null-key strategy in words."""
        a, b = self.null_key_strategies
        return _STRATEGY_TEXT[a], _STRATEGY_TEXT[b]

    @property
    def note(self) -> str:
        """What kpart computes, in one sentence (in the text and the JSON)."""
        if self.per_record:
            return ("RoundRobinPartitioner ignores keys and its counter starts at 0: per record, "
                    "assuming every record needs a new batch (linger.ms=0, each batch sent "
                    "before the next record)")
        return ("keyed records: toPositive(murmur2(key)) % n on both sides (rule "
                "key_partitioner), so none moves; records without a key are placed at random "
                "in Java on both sides (random counter start, random sticky draws): kpart gives "
                "their expected share (1/n per partition), not a per-record partition, and "
                "counts none as moved")

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: ``{"from", "to", "partitioner", "num_partitions", "records",
        "keyed_records", "null_key_records", "null_key_strategy": {"from", "to"},
        "per_record", "moved", "listed", "moved_records": [{"index", "key", "from", "to"}],
        "records_per_partition": {"from": [...], "to": [...], "expected": bool}, "note"}``;
        keys as UTF-8 text (undecodable bytes as ``\\xNN``), ``null`` for no key."""
        a, b = self.versions
        return {
            "from": a, "to": b, "partitioner": self.partitioner,
            "num_partitions": self.num_partitions, "records": self.records,
            "keyed_records": self.keyed_records, "null_key_records": self.null_key_records,
            "null_key_strategy": {"from": self.null_key_strategies[0],
                                  "to": self.null_key_strategies[1]},
            "per_record": self.per_record, "moved": self.moved, "listed": len(self.moves),
            "moved_records": [{"index": m.index, "key": key_text(m.key), "from": m.before,
                               "to": m.after} for m in self.moves],
            "records_per_partition": {"from": self._counts(self.expected_before),
                                      "to": self._counts(self.expected_after),
                                      "expected": not self.per_record},
            "note": self.note,
        }


    def _counts(self, values: tuple[float, ...]) -> list[float] | list[int]:
        return [int(v) for v in values] if self.per_record else list(values)


def key_text(key: bytes | None) -> str | None:
    """A key for display: UTF-8 text, undecodable bytes as ``\\xNN``; ``None`` stays."""
    return None if key is None else key.decode("utf-8", "backslashreplace")


def _round_robin(n_records: int, n: int, rule: str) -> list[int]:
    """Record ``i``'s partition: the counter (a Java ``int`` from 0) read once per record
    (KAFKA-17632) or twice, the second value used (KAFKA-9965)."""
    step, first = (2, 1) if rule == "kafka-9965" else (1, 0)
    return [to_positive(to_int32(step * i + first)) % n for i in range(n_records)]


def _check_limit(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ConfigError.about("limit", "{param}: expected an integer >= 0, got {value!r}",
                                value=limit)
    return limit


def producer_upgrade(
    keys: Sequence[bytes | None],
    num_partitions: int,
    from_version: str | KafkaVersion,
    to_version: str | KafkaVersion,
    *,
    partitioner: str = "default",
    limit: int = DEFAULT_LIMIT,
    names: tuple[str, str] = ("from_version", "to_version"),
) -> ProducerUpgrade:
    """Compare where ``keys`` (serialized keys in send order, ``None`` for no key) go on
    ``num_partitions`` partitions with the Java producer of ``from_version`` and of
    ``to_version`` (client versions), for ``partitioner`` (one of :data:`PARTITIONERS`);
    list at most ``limit`` moved records. See the module docstring for the model.
    ``ConfigError`` naming a bad value (about ``from_version``/``to_version`` for a version, or
    the parameters ``names`` gives them: ``kpart report --compare-version`` names its own).

    >>> producer_upgrade([b"a"], 4, "2.3", "4.3", partitioner="round-robin")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: RoundRobinPartitioner does not exist in from_version '2.3': RoundRobinPartitioner was added in 2.4.0; kpart supports it for 2.4.0 to 4.3.1
    """
    if partitioner not in PARTITIONERS:
        raise ConfigError.about("partitioner", "{param} {value!r}: expected one of {known}",
                                value=partitioner, known=", ".join(PARTITIONERS))
    n = check_num_partitions(num_partitions)
    limit = _check_limit(limit)
    versions = ((from_version, names[0]), (to_version, names[1]))
    labels = (str(kafka_version_of(from_version, names[0])),
              str(kafka_version_of(to_version, names[1])))
    records = len(keys)
    null_keys = sum(1 for k in keys if k is None)
    if partitioner == "round-robin":
        rules = tuple(behaviour("round_robin_partitioner", v, what) for v, what in versions)
        before, after = (_round_robin(records, n, r) for r in rules)
        moves = [RecordMove(i, keys[i], b, a)
                 for i, (b, a) in enumerate(zip(before, after, strict=True)) if b != a]
        return ProducerUpgrade(
            labels, partitioner, n, records, records - null_keys, null_keys,
            (rules[0], rules[1]), True, len(moves), tuple(moves[:limit]),
            tuple(float(before.count(p)) for p in range(n)),
            tuple(float(after.count(p)) for p in range(n)))
    from kpart.producer.builtin import partition_for_key

    strategies = tuple(java_null_key_strategy(v, what) for v, what in versions)
    for v, what in versions:
        key_rule(v, what)  # murmur2 on both sides: keyed records cannot move
    counts = [0] * n
    for k in keys:
        if k is not None:
            p = partition_for_key(k, n)
            assert p is not None
            counts[p] += 1
    expected = tuple(c + null_keys / n for c in counts)
    return ProducerUpgrade(
        labels, partitioner, n, records, records - null_keys, null_keys,
        (strategies[0], strategies[1]), False, 0, (), expected, expected)


#: Record indexes below this one never wrap RoundRobinPartitioner's Java ``int`` counter (read at
#: most ``2i + 1``), so the records' partitions repeat every ``num_partitions`` records.
NO_WRAP_RECORDS = 2**30


def null_key_upgrade(
    null_key_records: int,
    num_partitions: int,
    from_version: str | KafkaVersion,
    to_version: str | KafkaVersion,
    *,
    partitioner: str = "default",
    names: tuple[str, str] = ("from_version", "to_version"),
) -> ProducerUpgrade | None:
    """:func:`producer_upgrade` of ``null_key_records`` records without a key (``[None] *
    null_key_records``) without building the list: time and memory O(``num_partitions``), for
    the counts a report measures. Every record's partition (``round-robin``), or expected share
    (``default``), repeats every ``num_partitions`` records, so the answer is
    :func:`producer_upgrade` on one period times the periods, plus the rest; no record is
    listed (``moves`` empty, ``moved`` counts them all). ``None`` for ``round-robin`` from
    :data:`NO_WRAP_RECORDS` records (2**30): the counter wraps there and the period breaks.
    Errors: :func:`producer_upgrade`'s.

    >>> u = null_key_upgrade(10, 4, "3.9.0", "4.3", partitioner="round-robin")
    >>> u.moved == producer_upgrade([None] * 10, 4, "3.9.0", "4.3", partitioner="round-robin").moved
    True
    >>> u.moved, u.expected_before, u.expected_after
    (8, (0.0, 5.0, 0.0, 5.0), (3.0, 3.0, 2.0, 2.0))
    >>> null_key_upgrade(6, 4, "2.3", "4.3").expected_after
    (1.5, 1.5, 1.5, 1.5)
    """
    if isinstance(null_key_records, bool) or not isinstance(null_key_records, int) \
            or null_key_records < 0:
        raise ConfigError.about("null_key_records", "{param}: expected an integer >= 0, got "
                                "{value!r}", value=null_key_records)
    n = check_num_partitions(num_partitions)
    if partitioner == "round-robin" and null_key_records >= NO_WRAP_RECORDS:
        return None
    periods, rest = divmod(null_key_records, n)
    kw: dict[str, Any] = {"partitioner": partitioner, "limit": 0, "names": names}
    one = producer_upgrade([None] * n, n, from_version, to_version, **kw)
    tail = producer_upgrade([None] * rest, n, from_version, to_version, **kw)

    def times(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
        if not one.per_record:  # the expected share: exactly 1/n of every record
            return (null_key_records / n,) * n
        return tuple(periods * x + y for x, y in zip(a, b, strict=True))

    return replace(tail, records=null_key_records, null_key_records=null_key_records,
                   moved=periods * one.moved + tail.moved,
                   expected_before=times(one.expected_before, tail.expected_before),
                   expected_after=times(one.expected_after, tail.expected_after))
