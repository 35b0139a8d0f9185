"""Resource pools: topics isolated on broker subsets, moved there with
``kafka-reassign-partitions.sh`` (the resource isolation scheme of seed 002; Kafka itself has no
pool concept, so kpart plans the reassignment offline).

A pool file (JSON) maps pool names to broker sets and topics to pools, in either form::

    {"pools": {"pool1": [1, 2, 3], "pool2": [4, 5, 6]},
     "topics": {"t1": "pool1", "t4": "pool2"}}
    {"pools": {"pool1": {"brokers": [1, 2, 3], "topics": ["t1", "t2"]}}}

Pools are disjoint. A topic no pool names uses the *default pool*: the brokers of no pool.

>>> spec = parse_pools('{"pools": {"p1": [1, 2], "p2": [3]}, "topics": {"a": "p1"}}')
>>> sorted(spec.allowed("a", [1, 2, 3, 4]))
[1, 2]
>>> sorted(spec.allowed("other", [1, 2, 3, 4]))
[4]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from kpart._java.strings import java_string_key
from kpart.errors import ConfigError

__all__ = [
    "Pool",
    "PoolSpec",
    "parse_pools",
    "pools_from_dict",
]


@dataclass(frozen=True, slots=True)
class Pool:
    """A resource pool: ``name``, its ``brokers`` and the ``topics`` it hosts."""

    name: str
    brokers: frozenset[int]
    topics: frozenset[str]

    def __post_init__(self) -> None:
        if not self.brokers:
            raise ConfigError(f"Pool {self.name!r} has no brokers.")


@dataclass(frozen=True, slots=True)
class PoolSpec:
    """Disjoint pools. Errors (``ConfigError``): a broker or a topic in two pools."""

    pools: tuple[Pool, ...]

    def __post_init__(self) -> None:
        owner_b: dict[int, str] = {}
        owner_t: dict[str, str] = {}
        for pool in self.pools:
            for b in sorted(pool.brokers):
                if b in owner_b:
                    raise ConfigError(f"Broker {b} is in two pools: {owner_b[b]!r} and {pool.name!r}.")
                owner_b[b] = pool.name
            for t in sorted(pool.topics, key=java_string_key):
                if t in owner_t:
                    raise ConfigError(f"Topic {t!r} is in two pools: {owner_t[t]!r} and {pool.name!r}.")
                owner_t[t] = pool.name

    def pool_of(self, topic: str) -> Pool | None:
        """The pool naming ``topic`` (``None``: the default pool)."""
        for pool in self.pools:
            if topic in pool.topics:
                return pool
        return None

    def pooled_brokers(self) -> frozenset[int]:
        return frozenset(b for pool in self.pools for b in pool.brokers)

    def allowed(self, topic: str, brokers: Iterable[int]) -> frozenset[int]:
        """The brokers among ``brokers`` that ``topic`` may use (its pool, or the unpooled
        brokers for a topic of no pool)."""
        live = frozenset(brokers)
        pool = self.pool_of(topic)
        if pool is not None:
            return pool.brokers & live
        return live - self.pooled_brokers()

    def check_brokers(self, known: Iterable[int]) -> None:
        """``ConfigError`` when a pool names a broker outside ``known``."""
        known_set = set(known)
        for pool in self.pools:
            for b in sorted(pool.brokers - known_set):
                raise ConfigError(f"Unknown broker id {b} in pool {pool.name!r}")


def _broker_ids(value: object, pool: str) -> frozenset[int]:
    if not isinstance(value, list):
        raise ConfigError(f"Invalid brokers {value!r} of pool {pool!r}: expected a list of ids")
    for b in value:
        if not isinstance(b, int) or isinstance(b, bool) or b < 0:
            raise ConfigError(f"Invalid broker id {b!r} in pool {pool!r}")
    if len(set(value)) != len(value):
        dup = next(b for b in value if value.count(b) > 1)
        raise ConfigError(f"Broker {dup} is listed twice in pool {pool!r}")
    return frozenset(value)


def _pool_entry(name: str, spec: object, put: Callable[[object, str], None]) -> frozenset[int]:
    """One entry of ``"pools"``: a broker list, or ``{"brokers": [...], "topics": [...]}``
    (its topics go to ``put``). Returns the pool's brokers."""
    if not isinstance(spec, dict):
        return _broker_ids(spec, name)
    unknown = set(spec) - {"brokers", "topics"}
    if unknown:
        raise ConfigError(f"Unknown key {sorted(unknown)[0]!r} in pool {name!r}")
    brokers = _broker_ids(spec.get("brokers", []), name)
    listed = spec.get("topics", [])
    if not isinstance(listed, list):
        raise ConfigError(f"Invalid topics {listed!r} of pool {name!r}")
    for t in listed:
        put(t, name)
    return brokers


def pools_from_dict(obj: Mapping[str, object]) -> PoolSpec:
    """Build a :class:`PoolSpec` from a parsed pool file (see the module docstring)."""
    if not isinstance(obj, dict):
        raise ConfigError(f"The pool file must hold a JSON object, got {obj!r:.40}")
    raw_pools = obj.get("pools")
    if not isinstance(raw_pools, dict) or not raw_pools:
        raise ConfigError("The pool file needs a non-empty 'pools' object")
    brokers: dict[str, frozenset[int]] = {}
    topics: dict[str, list[str]] = {}
    owner: dict[str, str] = {}

    def put(topic: object, pool: str) -> None:
        if not isinstance(topic, str) or not topic:
            raise ConfigError(f"Invalid topic {topic!r} in pool {pool!r}")
        if topic in owner and owner[topic] != pool:
            raise ConfigError(f"Topic {topic!r} is in two pools: {owner[topic]!r} and {pool!r}.")
        owner[topic] = pool
        if topic not in topics[pool]:
            topics[pool].append(topic)

    for name, spec in raw_pools.items():
        topics[name] = []
        brokers[name] = _pool_entry(name, spec, put)
        if not brokers[name]:
            raise ConfigError(f"Pool {name!r} has no brokers.")
    mapping = obj.get("topics", {})
    if not isinstance(mapping, dict):
        raise ConfigError(f"Invalid 'topics' {mapping!r:.40}: expected {{topic: pool}}")
    for topic, pool in mapping.items():
        if not isinstance(pool, str) or pool not in brokers:
            raise ConfigError(f"Unknown pool {pool!r} for topic {topic!r}")
        put(topic, pool)
    return PoolSpec(
        tuple(Pool(n, brokers[n], frozenset(topics[n])) for n in raw_pools)
    )


def parse_pools(text: str) -> PoolSpec:
    """Parse a pool file. Errors: ``ConfigError`` naming the bad value (malformed JSON, a pool
    without brokers, a topic or broker in two pools, an unknown pool, a duplicate key)."""

    def no_dups(pairs: list[tuple[str, object]]) -> dict[str, object]:
        out: dict[str, object] = {}
        for k, v in pairs:
            if k in out:
                if isinstance(v, str) and isinstance(out[k], str):
                    raise ConfigError(f"Topic {k!r} is in two pools: {out[k]!r} and {v!r}.")
                raise ConfigError(f"Duplicate key {k!r} in the pool file")
            out[k] = v
        return out

    try:
        obj = json.loads(text, object_pairs_hook=no_dups)
    except json.JSONDecodeError as e:
        raise ConfigError(f"Malformed pool file JSON: {e.msg} at line {e.lineno} column {e.colno}") from e
    if not isinstance(obj, dict):
        raise ConfigError("Malformed pool file: expected a JSON object")
    return pools_from_dict(obj)
