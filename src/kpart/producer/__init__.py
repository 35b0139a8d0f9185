"""Producer partitioning: which partition a record goes to.

* :mod:`kpart.producer.builtin` — Kafka's key rule (``BuiltInPartitioner.partitionForKey``:
  ``toPositive(murmur2(key)) % n``) and the explicit-partition path: :func:`partition_for_key`,
  :func:`partition_for_record`;
* :mod:`kpart.producer.clients` — every other client's key hashing (librdkafka, Sarama, kafkajs,
  kafka-go, kafka-python), selected with ``partitioner="<client>:<name>"``;
* :mod:`kpart.producer.kernels` — the same, vectorised over Arrow arrays with compiled kernels:
  :func:`partition_for_keys`;
* :mod:`kpart.producer.serializers` — Kafka's key serializers: :func:`serialize_key`;
* the null-key strategies (round-robin, sticky, uniform sticky, adaptive) and custom
  partitioners live in their own modules of this package.

Names are resolved lazily so that importing this package does not import numba or pyarrow.

>>> from kpart.producer import partition_for_key
>>> partition_for_key(b"TT0124", 15)
10
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "murmur2": "kpart.producer.builtin",
    "partition_for_key": "kpart.producer.builtin",
    "partition_for_record": "kpart.producer.builtin",
    "partition_for_keys": "kpart.producer.kernels",
    "serialize_key": "kpart.producer.serializers",
    "PARTITIONERS": "kpart.producer.clients",
    "ClientPartitioner": "kpart.producer.clients",
    "get_partitioner": "kpart.producer.clients",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'kpart.producer' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
