"""``kpart report``'s topology options: ``--topic``, ``-p/--partitions``,
``--replication-factor``, ``--brokers`` and ``--racks`` override the topology's (the default one
or ``--topology FILE``), so a report on one's own data needs no TOML.

``--brokers``/``--racks`` are parsed by ``kpart place``'s own parser
(:func:`kpart.cli.placement._brokers`): the same syntax and the same messages. Every error is a
:class:`~kpart.errors.ConfigError` naming the option and its value, raised before Spark starts.

>>> from kpart.topology import default_topology
>>> t = override_topology(default_topology(), topic="orders", partitions=6,
...                       replication_factor=2, brokers="1,2,3", racks="a,b,a")
>>> t.topic.name, t.topic.partitions, t.topic.replication_factor, [b.id for b in t.brokers], t.racks
('orders', 6, 2, [1, 2, 3], ('a', 'b'))
>>> override_topology(default_topology(), replication_factor=4, brokers="0,1,2")
Traceback (most recent call last):
...
kpart.errors.ConfigError: replication_factor: 4 is larger than the number of brokers (3)
"""

from __future__ import annotations

import re
from typing import Any

from kpart.errors import ConfigError
from kpart.topology import Topology, topology_from_dict

__all__ = ["override_topology"]

#: topology field → the parameter of :func:`override_topology` that sets it (errors name it, and
#: the command line its flag: ``--topic``, ``--partitions``, ``--replication-factor``).
_PARAMETERS = {
    "topic.name": "topic",
    "topic.partitions": "partitions",
    "topic.replication_factor": "replication_factor",
}


def _integer(value: int | str | None, option: str) -> int | None:
    if not isinstance(value, str):
        return value
    text = value.strip()
    if re.fullmatch(r"-?[0-9]+", text) is None:  # ASCII digits, one optional sign
        raise ConfigError(f"{option}: expected a positive integer, got {value!r}")
    return int(text)


def override_topology(
    topology: Topology,
    *,
    topic: str | None = None,
    partitions: int | str | None = None,
    replication_factor: int | str | None = None,
    brokers: str | None = None,
    racks: str | None = None,
) -> Topology:
    """``topology`` with the options given (``None`` = keep the topology's value) applied.

    ``partitions``, ``replication_factor``: positive integers (or their decimal text, as
    typed); ``brokers``: broker ids in Kafka's order (``"0,1,2"``); ``racks``: their ``broker.rack``,
    same order (needs ``brokers``; every broker gets a rack, or none). Replaces the cluster.
    Raises ConfigError about the parameter (``replication_factor: 4 is larger than ...``; the
    command line names its flag).
    """
    if racks is not None and brokers is None:
        raise ConfigError(f"--racks {racks!r} needs --brokers (the racks are those of the "
                          "brokers listed there, in the same order)")
    if topic is None and partitions is None and replication_factor is None and brokers is None:
        return topology
    partitions = _integer(partitions, "--partitions")
    replication_factor = _integer(replication_factor, "--replication-factor")
    doc: dict[str, Any] = topology.to_dict()
    changes = {"name": topic, "partitions": partitions, "replication_factor": replication_factor}
    doc["topic"].update({k: v for k, v in changes.items() if v is not None})
    if brokers is not None:
        from kpart.cli.placement import _brokers

        members = _brokers(brokers, racks, None)
        with_rack = [b.rack is not None for b in members]
        if any(with_rack) and not all(with_rack):
            i = with_rack.index(False)
            raise ConfigError(f"--racks {racks!r}: broker {members[i].id} has no rack while "
                              "others have one (give every broker a rack, or none)")
        doc["cluster"] = {"brokers": [{"id": b.id, **({"rack": b.rack} if b.rack else {})}
                                      for b in members]}
    if replication_factor is None and brokers is not None:
        rf, count = doc["topic"]["replication_factor"], len(doc["cluster"]["brokers"])
        if isinstance(rf, int) and rf > count:
            raise ConfigError(
                f"--brokers {brokers!r}: {count} broker(s), fewer than the topology's "
                f"replication factor {rf} (lower it with --replication-factor)")
    given = {field: p for field, p in _PARAMETERS.items() if changes[field[len("topic."):]]
             is not None}
    return topology_from_dict(doc, parameters=given)
