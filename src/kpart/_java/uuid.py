"""``org.apache.kafka.common.Uuid`` (topic ids), emulated: parsing, printing, ``hashCode``,
``compareTo``, plus the iteration order of ``HashSet``/``HashMap`` keyed by ``Uuid`` or
``Integer`` (used by the KIP-848 server-side assignors).

A Kafka ``Uuid`` is two Java ``long`` s (most/least significant bits). Here it is a plain
non-negative Python ``int`` of 128 bits (``msb << 64 | lsb``, both as unsigned 64-bit values).

- ``toString`` / ``fromString``: URL-safe base64 of the 16 big-endian bytes, no padding.
- ``hashCode``: ``x = msb ^ lsb`` then ``(int) (x >> 32) ^ (int) x`` (a signed 32-bit int).
- ``compareTo``: ``Long.compare`` (signed) on ``msb``, then on ``lsb``, as in the Kafka commit
  the golden vectors come from (later Kafka versions compare unsigned).

>>> u = uuid_from_string("AAAAAAAAAAAAAAAAAAAAAQ")
>>> u, uuid_to_string(u), uuid_hash_code(u)
(1, 'AAAAAAAAAAAAAAAAAAAAAQ', 1)
>>> uuid_hash_code(uuid_from_string("TiSarLlxTTgvi602tDaz1Q"))
1827195255
>>> sorted(["AAAAAAAAAAAAAAAAAAAAAQ", "_____________________w"],
...        key=lambda s: uuid_compare_key(uuid_from_string(s)))   # msb -1 < msb 0
['_____________________w', 'AAAAAAAAAAAAAAAAAAAAAQ']
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable

from kpart._java.hashing import hashmap_order, hashset_copy_capacity
from kpart._java.ints import to_int32
from kpart.errors import ConfigError

__all__ = [
    "uuid_compare_key",
    "uuid_from_string",
    "uuid_hash_code",
    "uuid_hashset_order",
    "uuid_to_string",
]

_MASK64 = (1 << 64) - 1
_SIGN64 = 1 << 63


def uuid_from_string(text: str) -> int:
    """``Uuid.fromString``: URL-safe base64 (22 characters, no padding) → 128-bit int.

    Raises :class:`~kpart.errors.ConfigError` naming ``text`` when it is not 16 bytes of
    URL-safe base64.
    """
    if not isinstance(text, str) or len(text) > 24:
        raise ConfigError(f"Invalid topic id {text!r}: not a base64 Kafka Uuid.")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ConfigError(f"Invalid topic id {text!r}: not a base64 Kafka Uuid.") from None
    if len(raw) != 16 or any(c in text for c in "+/="):
        raise ConfigError(
            f"Invalid topic id {text!r}: decoded as {len(raw)} bytes, not the 16 bytes "
            "of a base64 Kafka Uuid."
        )
    return int.from_bytes(raw, "big")


def uuid_to_string(uuid: int) -> str:
    """``Uuid.toString``: URL-safe base64 of the 16 big-endian bytes, without padding."""
    return base64.urlsafe_b64encode(uuid.to_bytes(16, "big")).decode("ascii").rstrip("=")


def uuid_hash_code(uuid: int) -> int:
    """``Uuid.hashCode``: fold ``msb ^ lsb`` to 32 bits (signed)."""
    x = (uuid >> 64) ^ (uuid & _MASK64)
    return to_int32((x >> 32) ^ x)


def uuid_compare_key(uuid: int) -> int:
    """A sort key giving ``Uuid.compareTo`` order (signed msb, then signed lsb)."""
    msb, lsb = uuid >> 64, uuid & _MASK64
    return ((msb ^ _SIGN64) << 64) | (lsb ^ _SIGN64)


def uuid_hashset_order(uuids: Iterable[int], *, capacity: int | None = None) -> list[int]:
    """Iteration order of a ``HashSet<Uuid>`` filled with ``uuids`` in that order.

    ``capacity``: the table length; by default that of ``new HashSet<>(collection)`` (the
    copy constructor Kafka's assignors use).
    """
    items = list(dict.fromkeys(uuids))
    cap = hashset_copy_capacity(len(items)) if capacity is None else capacity
    return hashmap_order(items, capacity=cap, hash_of=uuid_hash_code)
