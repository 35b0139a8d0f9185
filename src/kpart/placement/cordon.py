"""Cordoned brokers (KIP-1066, Kafka 4.3.0): a broker whose log dirs are all cordoned
(``cordoned.log.dirs``) keeps its replicas but is not a usable broker for placement.

In Kafka 4.3 the controller's ``usableBrokers()`` skips such a broker
(``BrokerHeartbeatManager.UsableBrokerIterator``: ``!hasUncordonedDirs``), so CreateTopics and
CreatePartitions place on the other brokers, and ask for more replicas than they have fails
with ``InvalidReplicationFactorException`` (``The target replication factor of 4 cannot be
reached because only 3 broker(s) are registered or some brokers have all their log
directories cordoned.``). Cordoning does not exist before 4.3.0: the version is looked up in
:mod:`kpart.versions` (rule ``cordoned_log_dirs``), and asking for it earlier is an error
naming the version.

- :func:`cordoned_brokers`: the ids, checked against the version (a ``"3,5"`` string or ids);
- :func:`usable_brokers`: the brokers the controller places on.

>>> from kpart.placement.spec import Broker
>>> ids = cordoned_brokers("3,5")
>>> sorted(ids), [b.id for b in usable_brokers([Broker(i) for i in range(6)], ids)]
([3, 5], [0, 1, 2, 4])
>>> cordoned_brokers("3", kafka_version="4.2")
Traceback (most recent call last):
...
kpart.errors.ConfigError: Cordoning log dirs (cordoned.log.dirs) does not exist in kafka_version '4.2': cordoned.log.dirs starts with KIP-1066 in 4.3.0; kpart supports it for 4.3.0 to 4.3.1
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from kpart.errors import ConfigError
from kpart.placement.spec import Broker
from kpart.versions import KafkaVersion, behaviour

__all__ = ["cordoned_brokers", "usable_brokers"]

_ID = re.compile(r"0|[1-9][0-9]{0,9}")


def cordoned_brokers(ids: str | Iterable[int] | None,
                     kafka_version: str | KafkaVersion | None = None) -> frozenset[int]:
    """The cordoned broker ids: ``ids`` as ``"3,5"`` (the command line's ``--cordoned``) or
    ints; ``None`` or empty: none (and no version check). ``kafka_version``: the brokers'
    version (default: the newest release, 4.3). Errors: :class:`~kpart.errors.ConfigError`
    about ``cordoned`` (not a list of broker ids, an id twice) or about ``kafka_version``
    (before 4.3.0, unknown or unparseable)."""
    if ids is None:
        return frozenset()
    if isinstance(ids, str):
        pieces = [p.strip() for p in ids.split(",")] if ids.strip() else []
        bad = next((p for p in pieces if not _ID.fullmatch(p) or int(p) > 2**31 - 1), None)
        if bad is not None:
            raise ConfigError.about(
                "cordoned", "Invalid {param} {value!r}: expected broker ids separated by "
                "commas, e.g. 3,5 (bad id {bad!r})", value=ids, bad=bad)
        out = [int(p) for p in pieces]
    else:
        out = [int(i) for i in ids]
    if len(set(out)) != len(out):
        dup = next(i for i in out if out.count(i) > 1)
        raise ConfigError.about("cordoned", "Invalid {param}: broker {value} given twice",
                                value=dup)
    if out:
        behaviour("cordoned_log_dirs", kafka_version)
    return frozenset(out)


def usable_brokers(brokers: Sequence[Broker], cordoned: frozenset[int]) -> list[Broker]:
    """``brokers`` without the cordoned ones, in order (the controller's usable brokers).
    Errors: :class:`~kpart.errors.ConfigError` about ``cordoned`` naming an id that is not
    among ``brokers``."""
    known = {b.id for b in brokers}
    unknown = sorted(cordoned - known)
    if unknown:
        raise ConfigError.about("cordoned", "Unknown broker id {value} in {param}: not among "
                                "the brokers {known}", value=unknown[0],
                                known=",".join(str(b.id) for b in brokers))
    return [b for b in brokers if b.id not in cordoned]
