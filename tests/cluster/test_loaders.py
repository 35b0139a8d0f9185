"""The cluster loaders on real-looking tool output: describe dumps (banners, trailing text,
configs), kafka-log-dirs JSON, Cruise Control's capacity.json, rates CSVs, kpart report output;
every bad input is one ConfigError naming the line, field, broker or partition."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kpart.cluster import cluster_from_json, cluster_to_json
from kpart.cluster.capacity import capacities_for, parse_capacity_json
from kpart.cluster.from_files import cluster_from_files
from kpart.cluster.rates import parse_rates_csv, parse_report_loads
from kpart.errors import ConfigError
from kpart.placement import formats
from kpart.placement.formats import parse_describe_with_configs
from kpart.placement.spec import Broker

DESCRIBE = """\
[2026-11-24 05:00:00,000] WARN some log4j banner (org.apache.kafka)
Topic: orders\tTopicId: Xy3\tPartitionCount: 3\tReplicationFactor: 3\tConfigs: min.insync.replicas=2,cleanup.policy=compact,delete,segment.bytes=1073741824
\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3\tElr: N/A\tLastKnownElr: N/A
\tTopic: orders\tPartition: 2\tLeader: 3\tReplicas: 3,1,2\tIsr: 3\tElr: N/A\tLastKnownElr: N/A
\tTopic: orders\tPartition: 1\tLeader: none\tReplicas: 2,3,1\tIsr: \tElr: N/A\tLastKnownElr: N/A
Topic:payments\tPartitionCount:1\tReplicationFactor:2\tConfigs:
    Topic: payments  Partition: 0    Leader: 2   Replicas: 2,4 Isr: 2,4
Processed a total of 2 topics
"""

def _replica(name: str, size: int, future: bool = False) -> dict[str, object]:
    return {"partition": name, "size": size, "offsetLag": 0, "isFuture": future}


def _log_dirs(error: str | None = None) -> str:
    """kafka-log-dirs.sh --describe output: two lines, then the JSON on one line."""
    brokers = {1: [_replica("orders-0", 100), _replica("orders-1", 210), _replica("orders-2", 300)],
               2: [_replica("orders-0", 90), _replica("orders-1", 200),
                   _replica("orders-2", 999, future=True), _replica("payments-0", 7)],
               4: [_replica("payments-0", 8)]}
    doc = {"version": 1, "brokers": [
        {"broker": b, "logDirs": [{"logDir": "/var/kafka", "error": error if b == 4 else None,
                                   "partitions": parts}]} for b, parts in brokers.items()]}
    return ("Querying brokers for log directories information\n"
            "Received log directory information from brokers 1,2,3,4\n" + json.dumps(doc) + "\n")


LOG_DIRS = _log_dirs()

CAPACITY = {"brokerCapacities": [
    {"brokerId": "-1", "capacity": {"DISK": "500000", "CPU": "100", "NW_IN": "50000",
                                    "NW_OUT": "50000"}, "doc": "default"},
    {"brokerId": "2", "capacity": {"DISK": {"/data/a": "100", "/data/b": "250.5"}, "CPU": "100",
                                   "NW_IN": "10", "NW_OUT": "20"}, "doc": "JBOD"}]}

RATES = """topic,partition,bytes_in_per_s,bytes_out_per_s,messages_in_per_s
orders,0,1000,2500.5,10
orders,1,,,
payments,0,1e3,0,3
"""


def test_describe_dump_gives_brokers_topics_replicas_leaders_isr_and_min_isr() -> None:
    m = cluster_from_files(DESCRIBE)
    assert [b.id for b in m.brokers] == [1, 2, 3, 4]
    assert all(b.rack is None and b.capacity is None for b in m.brokers)
    assert [(t.name, t.min_insync_replicas) for t in m.topics] == [("orders", 2), ("payments", None)]
    # rows sorted by topic then partition, whatever the dump's order
    assert m.partition.tolist() == [0, 1, 2, 0]
    assert m.replicas.tolist() == [[1, 2, 3], [2, 3, 1], [3, 1, 2], [2, 4, -1]]
    assert m.leader.tolist() == [1, -1, 3, 2]
    assert m.partition_state(1).isr == () and m.partition_state(2).isr == (3,)
    assert np.isnan(m.size_bytes).all() and np.isnan(m.bytes_in_per_s).all()


def test_log_dirs_sizes_are_the_largest_non_future_replica() -> None:
    m = cluster_from_files(DESCRIBE, sizes=LOG_DIRS)
    assert m.size_bytes.tolist() == [100.0, 210.0, 300.0, 8.0]


def test_reassignment_json_and_zk_node_take_the_preferred_leader_and_full_isr() -> None:
    doc = {"version": 1, "partitions": [{"topic": "a", "partition": 1, "replicas": [2, 1]},
                                        {"topic": "a", "partition": 0, "replicas": [1, 2]}]}
    m = cluster_from_files(json.dumps(doc))
    assert m.leader.tolist() == [1, 2] and m.partition_state(1).isr == (2, 1)
    zk = cluster_from_files('{"version":1,"partitions":{"0":[3,4]}}', topic="z")
    assert zk.topics[0].name == "z" and zk.partition_state(0).leader == 3


def test_racks_from_brokers_option_include_idle_brokers() -> None:
    brokers = [Broker(b, f"r{b % 2}") for b in range(1, 7)]
    m = cluster_from_files(DESCRIBE, brokers=brokers)
    assert [(b.id, b.rack) for b in m.brokers] == [(b.id, b.rack) for b in brokers]
    with pytest.raises(ConfigError, match="replica 4 on a broker the cluster does not list"):
        cluster_from_files(DESCRIBE, brokers=[Broker(b) for b in (1, 2, 3)])


def test_capacity_json_units_are_cruise_controls_mib_and_kib() -> None:
    caps = capacities_for(parse_capacity_json(json.dumps(CAPACITY)), [1, 2, 3])
    assert caps[1].disk_bytes == 500000 * 1024 * 1024
    assert caps[1].network_in == caps[1].network_out == 50000 * 1024
    assert caps[2].disk_bytes == 350.5 * 2**20  # JBOD: log dirs summed
    assert (caps[2].network_in, caps[2].network_out, caps[2].cpu) == (10 * 1024, 20 * 1024, 100)
    cores = {"brokerCapacities": [{"brokerId": -1, "capacity": {"DISK": 1, "CPU": {"num.cores": "16"}}}]}
    cap = capacities_for(parse_capacity_json(json.dumps(cores)), [5])[5]
    assert cap.cpu == 100.0 and cap.network_in is None


@pytest.mark.parametrize(("doc", "message"), [
    ({"brokerCapacities": [{"brokerId": "1", "capacity": {"DISK": "1"}}]},
     "no capacity for broker 2 and no default"),
    ({"brokerCapacities": [{"brokerId": "-1", "capacity": {"DISK": "0"}}]},
     r"brokerCapacities\[0\].capacity.DISK: invalid capacity '0'"),
    ({"brokerCapacities": [{"brokerId": "-1", "capacity": {"NW_IN": "-5"}}]},
     "NW_IN: invalid capacity '-5'"),
    ({"brokerCapacities": [{"brokerId": "-1", "capacity": {"NW_OUT": "1,5"}}]},
     "NW_OUT: expected a number, got '1,5'"),
    ({"brokerCapacities": [{"brokerId": "-1", "capacity": {"DISKS": "1"}}]},
     "capacity.DISKS: unknown resource"),
    ({"brokerCapacities": [{"brokerId": "-1", "capacity": {"DISK": {"data": "1"}}}]},
     "must be an absolute path"),
    ({"brokerCapacities": [{"brokerId": "-1", "capacity": {"CPU": {"num.cores": "4"}}},
                           {"brokerId": "1", "capacity": {"CPU": "100"}}]},
     "inconsistent num.cores"),
    ({"brokerCapacities": [{"brokerId": "1", "capacity": {}}, {"brokerId": 1, "capacity": {}}]},
     "broker 1 is listed twice"),
    ({"brokerCapacities": [{"brokerId": "x", "capacity": {}}]}, "invalid brokerId 'x'"),
    ({"brokers": []}, "expected an object with a brokerCapacities list"),
])
def test_bad_capacity_json_is_one_line_naming_it(doc: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as e:
        capacities_for(parse_capacity_json(json.dumps(doc)), [1, 2])
    assert "\n" not in str(e.value)


def test_rates_csv_and_report_loads_apply_to_their_partitions() -> None:
    report = {"format": "kpart-report", "topic": "payments",
              "partitions": [{"partition": 0, "records": 12, "bytes": 3400}]}
    m = cluster_from_files(DESCRIBE, loads=[parse_rates_csv(RATES),
                                            parse_report_loads(json.dumps(report))])
    assert m.bytes_in_per_s.tolist()[0] == 1000.0 and m.bytes_out_per_s.tolist()[0] == 2500.5
    assert math.isnan(m.bytes_in_per_s[1]) and math.isnan(m.bytes_in_per_s[2])
    assert m.bytes_in_per_s[3] == 1000.0 and m.messages[3] == 12 and m.size_bytes[3] == 3400
    # measured sizes replace the report's estimate
    both = cluster_from_files(DESCRIBE, sizes=LOG_DIRS, loads=[parse_report_loads(json.dumps(report))])
    assert both.size_bytes[3] == 8.0


def test_cluster_report_loads_give_every_topic_and_its_mean_rate() -> None:
    report = {"format": "kpart-report", "kind": "cluster", "topics": [
        {"topic": "payments", "partitions": [{"partition": 0, "records": 12, "bytes": 3400,
                                              "bytes_in_per_s": 2.5}]},
        {"topic": "other", "partitions": [{"partition": 1, "records": 3, "bytes": 30,
                                           "bytes_in_per_s": None}]}]}
    loads = parse_report_loads(json.dumps(report))
    assert loads.topics == ("payments", "other") and loads.partition.tolist() == [0, 1]
    assert loads.columns["messages"].tolist() == [12.0, 3.0]
    assert loads.columns["bytes_in_per_s"][0] == 2.5 and math.isnan(loads.columns["bytes_in_per_s"][1])
    m = cluster_from_files(DESCRIBE, loads=[parse_report_loads(json.dumps(
        {**report, "topics": report["topics"][:1]}))])
    assert m.bytes_in_per_s[3] == 2.5 and m.size_bytes[3] == 3400
    report["topics"][1]["partitions"][0]["bytes_in_per_s"] = -1
    with pytest.raises(ConfigError, match=r"^kpart report topics\[1\]\.partitions\[0\]\.bytes_in_per_s: expected a rate >= 0, got -1$"):
        parse_report_loads(json.dumps(report))


def test_rates_csv_tolerates_banner_blank_lines_crlf_and_column_order() -> None:
    text = "exported by metrics-tool v2\r\n\r\nmessages_in_per_s, partition,topic,bytes_out_per_s,bytes_in_per_s\r\n4,0,orders,2,1\r\n\r\n"
    loads = parse_rates_csv(text)
    assert loads.topics == ("orders",) and loads.where == ("line 4",)
    assert {k: v.tolist() for k, v in loads.columns.items()} == {
        "bytes_in_per_s": [1.0], "bytes_out_per_s": [2.0], "messages_in_per_s": [4.0]}


HEADER = "topic,partition,bytes_in_per_s,bytes_out_per_s,messages_in_per_s\n"


@pytest.mark.parametrize(("text", "message"), [
    (HEADER + "orders,0,12.5.1,0,0\n", "line 2, column bytes_in_per_s: invalid number '12.5.1'"),
    (HEADER + "orders,0,1,nan,0\n", "line 2, column bytes_out_per_s: invalid number 'nan'"),
    (HEADER + "orders,0,1,1_000,0\n", "invalid number '1_000'"),
    (HEADER + "orders,0,1,2,3\norders,1,-4,0,0\n", "line 3, column bytes_in_per_s: negative rate '-4'"),
    (HEADER + "orders,x,1,2,3\n", "line 2, column partition: invalid partition 'x'"),
    (HEADER + "orders,0,1,2\n", "line 2: expected 5 cells, got 4"),
    (HEADER + "orders,0,1,2,3\norders,0,1,2,3\n", "line 3: partition orders-0 is listed twice"),
    ("topic,partition,bytes_in,bytes_out_per_s,messages_in_per_s\n", "unknown column 'bytes_in'"),
    ("topic,partition,bytes_in_per_s\n", "missing column 'bytes_out_per_s'"),
    ("a,b\n1,2\n", "no header line"),
])
def test_bad_rates_csv_names_line_and_column(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_rates_csv(text)


def test_unknown_partition_in_loads_or_sizes_is_named() -> None:
    with pytest.raises(ConfigError, match="rates CSV: line 2: partition orders-9 is not in"):
        cluster_from_files(DESCRIBE, loads=[parse_rates_csv(HEADER + "orders,9,1,1,1\n")])
    with pytest.raises(ConfigError, match="line 2: partition nope-0 is not in"):
        cluster_from_files(DESCRIBE, loads=[parse_rates_csv(HEADER + "nope,0,1,1,1\n")])
    with pytest.raises(ConfigError, match="--sizes: partition orders-7 is not in"):
        cluster_from_files(DESCRIBE, sizes='{"orders": {"0": 1, "1": 1, "2": 1, "7": 1}, "payments-0": 1}')
    with pytest.raises(ConfigError, match="--sizes: no size for partition payments-0"):
        cluster_from_files(DESCRIBE, sizes='{"orders": {"0": 1, "1": 1, "2": 1}}')


def test_log_dirs_error_names_the_broker() -> None:
    bad = _log_dirs("KafkaStorageException")
    with pytest.raises(ConfigError, match="broker 4 reports error 'KafkaStorageException' for "
                                          "log dir '/var/kafka'"):
        cluster_from_files(DESCRIBE, sizes=bad)


@pytest.mark.parametrize(("text", "message"), [
    ("Topic: t\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: min.insync.replicas=zero\n"
     "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n",
     "line 1: invalid min.insync.replicas 'zero' of topic 't'"),
    ("\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1,x\tIsr: 1\n", "line 1: invalid replica list"),
    ("Topic: t\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n"
     "\tTopic: t\tPartition: 0\tLeader: 2\tReplicas: 1\tIsr: 1\n",
     "leader 2 is not one of its replicas"),
    ("no partitions here\n", "No partitions found"),
])
def test_bad_describe_is_one_line(text: str, message: str) -> None:
    with warnings.catch_warnings(), pytest.raises(ConfigError, match=message):
        warnings.simplefilter("ignore")  # the parser warns of a leader outside its replicas
        cluster_from_files(text)


def test_round_trip_describe_to_cluster_json_to_model() -> None:
    caps = parse_capacity_json(json.dumps(CAPACITY))
    m = cluster_from_files(DESCRIBE, sizes=LOG_DIRS, capacity=caps, loads=[parse_rates_csv(RATES)],
                           brokers=[Broker(b, f"r{b}") for b in range(1, 5)])
    back = cluster_from_json(json.loads(json.dumps(cluster_to_json(m))))
    assert back.brokers == m.brokers and back.topics == m.topics
    for name in ("topic", "partition", "replicas", "leader", "isr"):
        assert np.array_equal(getattr(back, name), getattr(m, name)), name
    for name in ("messages", "size_bytes", "bytes_in_per_s", "bytes_out_per_s"):
        assert np.array_equal(getattr(back, name), getattr(m, name), equal_nan=True), name


_KEY = st.sampled_from(["Topic", "Partition", "Leader", "Replicas", "Isr", "Elr", "Foo",
                        "Adding Replicas", "Configs", "TopicId", ""])
_VALUE = st.text(alphabet="ab1,: \t", max_size=6)


@given(st.lists(st.tuples(_KEY, st.sampled_from([":", ": ", " : ", ""]), _VALUE), max_size=7),
       st.sampled_from(["", "\t", "  "]))
def test_tab_fast_path_equals_the_regex(fields: list[tuple[str, str, str]], lead: str) -> None:
    line = lead + "\t".join(k + c + v for k, c, v in fields)
    fast = formats._tab_fields(line)
    if fast is None:
        return
    matches = list(formats._KEY_RE.finditer(line))
    slow: dict[str, str] = {}
    for i, m in enumerate(matches):
        if m.group(1) == "Configs":
            slow["Configs"] = line[m.end():].strip()
            break
        end = matches[i + 1].start() if i + 1 < len(matches) else len(line)
        slow.setdefault(m.group(1), line[m.end():end].strip())
    assert fast == slow


def test_describe_header_configs_are_returned_with_their_line() -> None:
    _, configs = parse_describe_with_configs(DESCRIBE)
    assert configs == {"orders": (2, "min.insync.replicas=2,cleanup.policy=compact,delete,"
                                      "segment.bytes=1073741824")}


def test_the_shipped_examples_load_together() -> None:
    from pathlib import Path

    ex = Path(__file__).resolve().parents[2] / "docs" / "examples"
    m = cluster_from_files(
        (ex / "cluster.describe.txt").read_text(), sizes=(ex / "cluster.log-dirs.txt").read_text(),
        capacity=parse_capacity_json((ex / "capacity.json").read_text()),
        loads=[parse_rates_csv((ex / "rates.csv").read_text())],
        brokers=[Broker(1, "a"), Broker(2, "b"), Broker(3, "c"), Broker(4, "a")])
    assert m.brokers[3].capacity is not None and m.brokers[3].capacity.disk_bytes == 200000 * 2**20
    assert not np.isnan(m.size_bytes).any() and not np.isnan(m.bytes_in_per_s).any()


_IDS = st.lists(st.integers(0, 2000), min_size=0, max_size=4).map(lambda x: ",".join(map(str, x)))


@given(st.lists(st.tuples(
    st.sampled_from(["\t", "", "    "]), st.sampled_from(["t", "a.b-c_9", "x:y", "t t"]),
    st.integers(0, 5), st.sampled_from(["1", "none", "-1", "", "x", "007"]), _IDS, _IDS,
    st.sampled_from(["", "\tElr: N/A\tLastKnownElr: N/A", "\tOffline: ", "\tFoo: 1",
                     "\tAdding Replicas: 3\tRemoving Replicas: 1", "\tElr: a:b", "  "]),
    st.sampled_from([": ", ":", " : "])), max_size=5))
def test_canonical_fast_path_equals_the_key_scan(rows) -> None:
    lines = [f"{lead}Topic{c}{topic}\tPartition{c}{p}\tLeader{c}{leader}\tReplicas{c}{reps}"
             f"\tIsr{c}{isr}{tail}" for lead, topic, p, leader, reps, isr, tail, c in rows]
    text = "\n".join(lines) + "\n"

    def run() -> object:
        try:
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                return parse_describe_with_configs(text), [str(w.message) for w in seen]
        except ConfigError as e:
            return str(e)

    fast = run()
    original = formats._CANONICAL
    formats._CANONICAL = __import__("re").compile(r"(?!)")  # never matches: the key scan only
    try:
        slow = run()
    finally:
        formats._CANONICAL = original
    assert fast == slow


def test_messages_in_per_s_is_stored_and_written(tmp_path) -> None:
    """The rates CSV's messages_in_per_s reaches the model and cluster.json (and back)."""
    from kpart.cluster import cluster_from_json, cluster_to_json
    from kpart.cluster.from_files import cluster_from_files
    from kpart.cluster.rates import parse_rates_csv

    describe = ("Topic: t\tTopicId: x\tPartitionCount: 2\tReplicationFactor: 1\tConfigs:\n"
                "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n"
                "\tTopic: t\tPartition: 1\tLeader: 1\tReplicas: 1\tIsr: 1\n")
    rates = parse_rates_csv("topic,partition,bytes_in_per_s,bytes_out_per_s,messages_in_per_s\n"
                            "t,0,10,20,7.5\nt,1,1,2,\n")
    m = cluster_from_files(describe, loads=[rates])
    assert m.messages_in_per_s[0] == 7.5 and np.isnan(m.messages_in_per_s[1])
    back = cluster_from_json(cluster_to_json(m))
    assert back.messages_in_per_s[0] == 7.5 and np.isnan(back.messages_in_per_s[1])
    assert back.partition_state(0).messages_in_per_s == 7.5
