"""``kpart report``'s topology options: ``--topic``, ``-p/--partitions``,
``--replication-factor``, ``--brokers`` and ``--racks`` override the topology's (the default one,
the dataset's or ``--topology FILE`` of one topic), so a report on one's own data needs no TOML.
A dataset given without a topology gets its own layout (:func:`dataset_topology`): a topic named
after it, no brokers (the producer view) unless ``--brokers`` gives them, no consumer groups.

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
from pathlib import Path
from typing import Any

from kpart.errors import ConfigError
from kpart.topology import Topology, topology_from_dict

__all__ = ["dataset_topic_name", "dataset_topology", "override_topology"]

#: Dataset extensions left out of the topic name a dataset gives (longest first).
_DATA_EXTENSIONS = (".jsonl.gz", ".json.gz", ".csv.gz", ".parquet", ".ndjson", ".jsonl", ".json",
                    ".csv", ".pq")
#: The partition count of a dataset's topic when neither ``-p`` nor a topology gives one (the
#: count of kpart's default topology, so the reports of the demo and of a dataset compare).
DEFAULT_PARTITIONS = 12


def dataset_topic_name(data: str | Path) -> str:
    """The topic a dataset is produced to when the user names none: the file's name without its
    dataset extension (``events.csv.gz`` → ``events``), or the directory's name (a Spark output
    directory ``orders/`` → ``orders``), each character Kafka refuses in a topic name (outside
    ASCII letters, digits, ``.``, ``_``, ``-``) written ``_``, at most 249 characters.
    ``ConfigError`` about ``--topic`` when nothing usable is left.

    >>> dataset_topic_name("data/events.csv.gz"), dataset_topic_name("/x/orders.parquet/")
    ('events', 'orders')
    >>> dataset_topic_name("Sales 2024 (EU).CSV")
    'Sales_2024_EU_'
    """
    p = Path(data)
    name = (p if p.name else p.resolve()).name
    lower = name.lower()
    ext = next((e for e in _DATA_EXTENSIONS if lower.endswith(e) and len(e) < len(name)), None)
    stem = name[: -len(ext)] if ext else name
    topic = re.sub(r"[^a-zA-Z0-9._-]+", "_", stem)[:249]
    if topic in ("", ".", ".."):
        raise ConfigError(f"--topic: the dataset {str(data)!r} gives no legal Kafka topic name; "
                          "name the topic with --topic")
    return topic


def dataset_topology(data: str | Path, key: str | None) -> Topology:
    """The layout of a user's dataset given without a topology: one topic named after it
    (:func:`dataset_topic_name`), keyed by ``key`` (``--key``), :data:`DEFAULT_PARTITIONS`
    partitions, the producer's defaults (Kafka's Java client, ``StringSerializer``), and
    nothing else: no brokers (the producer view; ``--brokers`` adds them) and no consumer
    groups. The dataset is the topic's ``data`` (made absolute, as a topology file's would be).
    ``ConfigError`` about ``--key`` when no key column is given.

    >>> t = dataset_topology("/exports/orders.parquet", "customer_id")
    >>> t.topic.name, t.topic.key, t.topic.partitions, t.brokers, t.groups, t.topic.data
    ('orders', 'customer_id', 12, (), (), '/exports/orders.parquet')
    """
    if key is None:
        raise ConfigError(f"--key: name the key column of {str(data)!r} (no --topology gives "
                          "one)")
    if not key:
        raise ConfigError("--key: expected a column name, got ''")
    return topology_from_dict({"topic": {"name": dataset_topic_name(data), "key": key,
                                         "partitions": DEFAULT_PARTITIONS,
                                         "data": str(Path(data).absolute())}})

#: topic field → the parameter of :func:`override_topology` that sets it (errors name it, and
#: the command line its flag: ``--topic``, ``--partitions``, ``--replication-factor``).
_PARAMETERS = {
    "name": "topic",
    "partitions": "partitions",
    "replication_factor": "replication_factor",
}
#: The replication factor of a topic created without one: the broker's
#: ``default.replication.factor`` (Kafka's default 1), given to the topic of a topology without
#: brokers (the producer view) when ``--brokers`` adds them without ``--replication-factor``.
KAFKA_DEFAULT_REPLICATION_FACTOR = 1


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
    if len(topology.topics) != 1:
        flag = next(f for f, v in (("--topic", topic), ("--partitions", partitions),
                                   ("--replication-factor", replication_factor),
                                   ("--brokers", brokers)) if v is not None)
        raise ConfigError(f"{flag}: applies to a single-topic topology; this one has "
                          f"{len(topology.topics)} topics ({', '.join(topology.topic_names)}): set it "
                          "in the topology")
    partitions = _integer(partitions, "--partitions")
    replication_factor = _integer(replication_factor, "--replication-factor")
    if not topology.brokers and brokers is None and replication_factor is not None:
        raise ConfigError(f"--replication-factor {replication_factor}: the topology has no "
                          "brokers (the producer view: nothing placed); give them with "
                          "--brokers")
    doc: dict[str, Any] = topology.to_dict()
    entry = doc["topic"] if "topic" in doc else doc["topics"][0]
    where = "topic" if "topic" in doc else "topics[0]"
    changes = {"name": topic, "partitions": partitions, "replication_factor": replication_factor}
    entry.update({k: v for k, v in changes.items() if v is not None})
    if brokers is not None and entry.get("replication_factor") is None:
        entry["replication_factor"] = KAFKA_DEFAULT_REPLICATION_FACTOR
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
        rf, count = entry["replication_factor"], len(doc["cluster"]["brokers"])
        if isinstance(rf, int) and rf > count:
            raise ConfigError(
                f"--brokers {brokers!r}: {count} broker(s), fewer than the topology's "
                f"replication factor {rf} (lower it with --replication-factor)")
    given = {f"{where}.{field}": p for field, p in _PARAMETERS.items()
             if changes[field] is not None}
    return topology_from_dict(doc, parameters=given)
