"""Value types of replica placement: brokers and topic assignments.

``Broker`` mirrors ``org.apache.kafka.admin.BrokerMetadata`` (id + optional rack) and KRaft's
``UsableBroker`` (id, rack, fenced). A topic assignment is ``{partition: (broker, ...)}`` with
the preferred leader first, as in ``kafka-topics.sh --describe``.

>>> Broker(1, "rack-a")
Broker(id=1, rack='rack-a', fenced=False)
"""

from __future__ import annotations

from dataclasses import dataclass

from kpart.errors import ConfigError
from kpart.limits import check_broker_id

__all__ = ["Broker", "ReplicaAssignment"]

#: ``{partition id: (broker id, ...)}``, preferred leader first.
ReplicaAssignment = dict[int, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Broker:
    """A broker: ``id`` (int ≥ 0), ``rack`` (``broker.rack``, ``None`` when unset) and
    ``fenced`` (KRaft: a fenced broker never becomes a leader). Errors: ``ConfigError``."""

    id: int
    rack: str | None = None
    fenced: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.id, int) or isinstance(self.id, bool) or self.id < 0:
            raise ConfigError(f"Invalid broker id {self.id!r}: must be an integer >= 0.")
        check_broker_id(self.id, "broker id")
        if self.rack is not None and (not isinstance(self.rack, str) or not self.rack):
            raise ConfigError(f"Invalid rack {self.rack!r} for broker {self.id}.")
