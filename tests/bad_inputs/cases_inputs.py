"""Bad-input cases of ``kpart report`` on the user's own data (issue 24, points 1 and 2): a
topology's ``data``/``format`` are read or refused (never replaced by kpart's demo flights), a
dataset without a topology needs ``--key`` and gets no brokers unless given, ``--timestamp`` and
the topic options apply to one topic. Each fails before Spark starts, in one line."""

from __future__ import annotations

from bad_inputs.case import Case

_CLUSTER = '[cluster]\nbrokers = [{ id = 1, rack = "a" }, { id = 2, rack = "b" }]\n\n'
_TOPIC = '[topic]\nname = "events"\npartitions = 3\nkey = "user_id"\n'
_PLACED = _CLUSTER + _TOPIC + "replication_factor = 2\n"
_EVENTS = {"events.csv": "user_id,amount,ts\nu1,3,2024-05-01T10:00:00Z\n"}


def _report(*args: str) -> tuple[str, ...]:
    return ("report", *args, "--out", "out")


def _topology(text: str, **files: str) -> dict[str, str]:
    return {"t.toml": text, **_EVENTS, **files}


CASES = [
    # point 1: the topology's data is read, or refused naming it
    Case("inputs-topology-data-missing", _report("--topology", "t.toml"),
         "/missing.csv' does not exist",
         files=_topology(_PLACED + 'data = "missing.csv"\n')),
    Case("inputs-topology-key-not-in-its-data", _report("--topology", "t.toml"),
         "/events.csv' (columns: user_id, amount, ts)",
         files=_topology(_PLACED.replace('"user_id"', '"customer"') + 'data = "events.csv"\n')),
    Case("inputs-topology-format-without-data", _report("--topology", "t.toml"),
         "topic.format: 'csv'", files=_topology(_PLACED + 'format = "csv"\n')),
    Case("inputs-topology-format-not-its-data", _report("--topology", "t.toml"),
         "topic.data", files=_topology(_PLACED + 'data = "events.csv"\nformat = "parquet"\n')),
    Case("inputs-topology-window-without-timestamp", _report("--topology", "t.toml"),
         "window: no topic has a timestamp column, got '1h'",
         files=_topology('window = "1h"\n' + _PLACED + 'data = "events.csv"\n')),
    Case("inputs-format-without-a-dataset", _report("--format", "csv"), "--format"),
    Case("inputs-format-without-a-dataset-key", _report("--format", "csv", "--key", "dest"),
         "--format: 'csv'"),
    Case("inputs-format-with-topology-data", _report("--topology", "t.toml", "--format", "json"),
         "--format 'json'", files=_topology(_PLACED + 'data = "events.csv"\n')),
    # point 2: a dataset without a topology: its own topic, the producer view
    Case("inputs-dataset-without-key", _report("events.csv"),
         "--key: name the key column of 'events.csv'", files=_EVENTS),
    Case("inputs-dataset-rf-without-brokers",
         _report("events.csv", "--key", "user_id", "--replication-factor", "2"),
         "--replication-factor 2", files=_EVENTS),
    Case("inputs-dataset-brokers-below-rf",
         _report("events.csv", "--key", "user_id", "--brokers", "0", "--replication-factor", "2"),
         "--replication-factor: 2 is larger than the number of brokers (1)", files=_EVENTS),
    Case("inputs-dataset-no-topic-name", _report("..csv", "--key", "user_id"), "--topic",
         files={"..csv": "user_id\nu1\n"}),
    Case("inputs-producer-view-rf", _report("--topology", "t.toml"),
         "topic.replication_factor", files=_topology(_TOPIC + "replication_factor = 2\n")),
    Case("inputs-producer-view-rack-aware", _report("--topology", "t.toml"), "topic.rack_aware",
         files=_topology(_TOPIC + "rack_aware = false\n")),
    Case("inputs-producer-view-placer", _report("--topology", "t.toml"), "placer",
         files=_topology('placer = "kraft"\n' + _TOPIC)),
    # a [topic] with a timestamp and no [cluster] was refused here ("cluster"): it is the
    # producer view over time now (issue 24, point 2; tests/bad_inputs/cases_tsview.py)
    # --timestamp and the topic options on one topic
    # --timestamp without --brokers was refused here: it is the producer view over time now
    # (issue 24, point 2; its bad inputs in tests/bad_inputs/cases_tsview.py)
    Case("inputs-timestamp-empty",
         _report("events.csv", "--key", "user_id", "--brokers", "1", "--timestamp", ""),
         "--timestamp", files=_EVENTS),
    Case("inputs-timestamp-column-missing",
         _report("events.csv", "--key", "user_id", "--brokers", "1", "--timestamp", "when"),
         "'when'", files=_EVENTS),
    Case("inputs-timestamp-with-whatif",
         _report("events.csv", "--key", "user_id", "--brokers", "1", "--timestamp", "ts",
                 "--whatif", "6"), "--whatif", files=_EVENTS),
    Case("inputs-several-topics-partitions", _report("--topology", "t.toml", "-p", "6"),
         "--partitions: applies to a single-topic topology",
         files=_topology(_CLUSTER + "".join(
             f'[[topics]]\nname = "{n}"\npartitions = 3\nreplication_factor = 1\n'
             'key = "user_id"\ndata = "events.csv"\n\n' for n in ("a", "b")))),
    Case("inputs-several-topics-timestamp", _report("--topology", "t.toml", "--timestamp", "ts"),
         "--timestamp: applies to a single-topic topology",
         files=_topology(_CLUSTER + "".join(
             f'[[topics]]\nname = "{n}"\npartitions = 3\nreplication_factor = 1\n'
             'key = "user_id"\ndata = "events.csv"\n\n' for n in ("a", "b")))),
]
