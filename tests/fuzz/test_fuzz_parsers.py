"""Fuzzing every input parser (issue 10, point 12): random and mutated valid inputs give a
result or a :class:`~kpart.errors.KpartError`, never another exception.

Valid seeds come from the docs' examples, the golden vectors' inputs and the formats' own
docstrings; :mod:`fuzz_inputs` mutates them (fields dropped/replaced/added, tokens deleted,
duplicated, swapped, numbers made huge/negative/float/string, texts truncated, invalid UTF-8
inserted). Example counts are CI-sized; ``make fuzz`` scales them (``KPART_FUZZ_SCALE``) and
draws a fresh seed. Inputs that once broke a parser are pinned with ``@example``.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from fuzz_inputs import docs, mutated_bytes, refused_or_parsed, texts
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from golden_vectors import load_golden

pytestmark = pytest.mark.fuzz

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
FUZZ = settings(
    max_examples=100, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                           HealthCheck.data_too_large],
)


def _example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def _golden_inputs(name: str, n: int = 4, limit: int = 1500) -> list[dict]:
    cases = [c["input"] for c in load_golden(name) if c["kind"] == "single"]
    return [c for c in cases if len(json.dumps(c)) < limit][:n]


# -- topology TOML ------------------------------------------------------------------------------

from kpart.topology import DEFAULT_TOPOLOGY_TEXT, parse_topology, topology_from_dict  # noqa: E402

TOPOLOGIES = [
    DEFAULT_TOPOLOGY_TEXT,
    '[cluster]\nbrokers = [0, 1, 2]\n[topic]\nname = "t"\npartitions = 3\n'
    'replication_factor = 2\nkey = "k"\nrack_aware = false\n'
    '[[groups]]\nname = "g"\nstrategy = "sticky"\nmembers = ["a", "b"]\n',
    'kafka_version = "4.0.1"\n[cluster]\nbrokers = [0, 1]\n[topic]\nname = "t"\n'
    'partitions = 3\nreplication_factor = 1\nkey = "k"\nnull_key_strategy = "sticky"\n'
    'client_version = "3.6.2"\n[[groups]]\nname = "g"\nstrategy = "uniform"\n'
    'members = ["a", "b"]\n[[groups]]\nname = "r"\nstrategy = "range"\n'
    'client_version = "4.3.1"\nmembers = ["c"]\n',
]
TOPOLOGY_DOCS = [tomllib.loads(t) for t in TOPOLOGIES]
TOPOLOGY_FIELDS = ["cluster", "topic", "groups", "brokers", "id", "rack", "name", "partitions",
                   "replication_factor", "key", "key_serializer", "partitioner", "members",
                   "null_key_strategy", "placement_seed", "null_key_seed", "batch_size",
                   "rack_aware", "strategy", "instance_id", "kafka_version",
                   "client_version"]


@FUZZ
@given(texts(TOPOLOGIES))
def test_fuzz_topology_toml(text: str) -> None:
    refused_or_parsed(parse_topology, text)


@FUZZ
@given(docs(TOPOLOGY_DOCS, TOPOLOGY_FIELDS))
def test_fuzz_topology_document(doc: object) -> None:
    refused_or_parsed(topology_from_dict, doc)


# -- group JSON (kpart assign) and KIP-848 group JSON (kpart server-assign) --------------------

from kpart.cli.consumer import load_group_file  # noqa: E402
from kpart.consumer import ASSIGNORS, assign, server_assign  # noqa: E402
from kpart.consumer.coordinator.server_spec import ServerGroupSpec  # noqa: E402
from kpart.consumer.spec import GroupSpec  # noqa: E402

GROUPS = [
    json.loads(_example("range-roundrobin.json")),
    json.loads(_example("uneven.json")),
    *_golden_inputs("assign_sticky"),
    *_golden_inputs("assign_cooperative_sticky"),
]
GROUP_FIELDS = ["topics", "members", "partition_racks", "id", "rack", "instance_id",
                "generation", "owned", "has_user_data", "user_data_hex", "input"]
SERVER_GROUPS = [*_golden_inputs("uniform_assignor"), *_golden_inputs("server_range"),
                 json.loads(_example("kip848-regex.json")),
                 json.loads(_example("kip848-regex-names.json"))]
SERVER_FIELDS = ["topics", "members", "name", "id", "partitions", "partition_racks", "rack",
                 "instance_id", "assignment", "topic_ids", "subscribed_topic_regex"]


def _small(group: object) -> bool:
    """Small enough to assign in a fuzz example (sizes are the size limits' business)."""
    topics = getattr(group, "topics", ())
    return sum(getattr(t, "num_partitions", 0) for t in topics) <= 2000 and \
        len(getattr(group, "members", ())) <= 100


@FUZZ
@given(docs(GROUPS, GROUP_FIELDS), st.sampled_from(sorted(ASSIGNORS)))
@example({"topics": {"t": 1}, "members": [{"id": "a", "owned": 5}]}, "range")
@example({"topics": {"t": 1}, "members": [{"id": "a", "owned": [[["t"], [0]]]}]}, "range")
@example({"topics": {"t": 1}, "partition_racks": {"t": [["a"]]},
          "members": [{"id": "a", "topics": ["t"], "rack": ["x"]}]}, "range")
@example({"topics": {"t": 1}, "members": [{"id": "a", "topics": ["t"], "instance_id": ["x"]}]},
         "range")
def test_fuzz_group_json(doc: object, strategy: str) -> None:
    group = refused_or_parsed(GroupSpec.from_json, doc)
    if group is not None and _small(group):  # what the parser accepts, the assignor takes
        refused_or_parsed(assign, group, strategy)


@FUZZ
@given(st.one_of(mutated_bytes([json.dumps(g) for g in GROUPS]),
                 texts([json.dumps(g) for g in GROUPS], GROUPS, GROUP_FIELDS)
                 .map(lambda t: t.encode("utf-8", "surrogatepass"))))
@example(b'{"topics": {"t": 2}, "partition_racks": {"t": [null, ["a"]]}, "members": []}')
@example(b'{"topics": {"t": 2}, "members": [{"id": "a", "owned": [[["t"], [0]]]}]}')
def test_fuzz_group_file(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.getbasetemp() / "fuzz-group.json"
    path.write_bytes(data)
    refused_or_parsed(load_group_file, path)


@FUZZ
@given(docs(SERVER_GROUPS, SERVER_FIELDS), st.sampled_from(["uniform", "range"]))
@example({"topics": [{"name": "t", "id": "UgDYw3tMnaKH7I4nNbX4gw", "partitions": 7}],
          "members": [{"id": "a", "topics": ["t"], "assignment": [["t", [[], 3]]]}]}, "uniform")
@example({"topics": [], "members": [{"id": "a", "assignment": 5}]}, "uniform")
@example({"topics": [{"name": "t", "id": "UgDYw3tMnaKH7I4nNbX4gw", "partitions": 2}],
          "members": [{"id": "a", "topics": ["t"], "rack": ["x"]}]}, "range")
@example({"topics": [{"name": "t", "id": "UgDYw3tMnaKH7I4nNbX4gw", "partitions": 2}],
          "members": [{"id": "a", "subscribed_topic_regex": "t\\Q{*"}]}, "uniform")
def test_fuzz_kip848_group_json(doc: object, assignor: str) -> None:
    group = refused_or_parsed(ServerGroupSpec.from_json, doc)
    if group is not None and _small(group):
        refused_or_parsed(server_assign, group, assignor)


# -- rebalance scenarios (JSON and TOML) --------------------------------------------------------

from kpart.consumer._scenario import load_scenario, parse_scenario  # noqa: E402
from kpart.consumer.rebalance import compare  # noqa: E402

SCENARIOS = [
    json.loads(_example("sticky-four-topics.json")),
    json.loads(_example("sticky-uneven.json")),
    {
        "name": "events",
        "strategies": ["range", "sticky"],
        "topics": {"t0": 2, "t1": 1},
        "partition_racks": {"t0": [["a", "b"], ["b"]]},
        "topic_ids": {"t0": "TiSarLlxTTgvi602tDaz1Q"},
        "steps": [
            {"join": [{"id": "C0", "topics": ["t0", "t1"], "rack": "a"},
                      {"id": "C1", "topics": ["t0"], "instance_id": "i1"}]},
            {"name": "grow", "create_topics": {"t2": 2}, "add_partitions": {"t1": 3},
             "subscribe": {"C1": ["t0", "t2"]}, "crash": ["C0"]},
            {"delete_topics": ["t1"], "partition_racks": {"t0": [["c"], ["a"]]},
             "leave": ["C1"], "join": [{"id": "C2", "topics": ["t2"]}]},
        ],
    },
    {"steps": [GROUPS[0], {**GROUPS[1], "name": "absolute"}]},
]
SCENARIO_TOML = """name = "C1 leaves"
strategies = ["range", "sticky"]
topics = { t0 = 2, t1 = 2 }
[partition_racks]
t0 = [["a", "b"], ["b", "c"]]
[topic_ids]
t0 = "TiSarLlxTTgvi602tDaz1Q"

[[steps]]
join = [{ id = "C0", topics = ["t0", "t1"], rack = "a" },
        { id = "C1", topics = ["t0", "t1"], instance_id = "i1" },
        { id = "C2", topics = ["t0", "t1"] }]
[[steps]]
name = "C1 leaves"
leave = ["C1"]
"""
SCENARIO_FIELDS = ["name", "strategies", "topics", "partition_racks", "topic_ids", "steps",
                   "delete_topics", "create_topics", "add_partitions", "leave", "crash",
                   "subscribe", "join", "members", "id", "rack", "instance_id", "generation",
                   "owned", "has_user_data"]


@FUZZ
@given(docs(SCENARIOS, SCENARIO_FIELDS), st.sampled_from(sorted(ASSIGNORS)))
@example({"topics": {"t": 1}, "steps": [{"join": [{"id": "a", "owned": 5}]}]}, "range")
@example({"topics": {"t": 1}, "steps": [{"join": [{"id": "a", "owned": [[["t"], [0]]]}]}]},
         "range")
@example({"topics": {"t": 1}, "partition_racks": {"t": [[1]]},
          "steps": [{"join": [{"id": "a", "topics": ["t"], "rack": "r"}]}]}, "cooperative-sticky")
def test_fuzz_scenario_document(doc: object, strategy: str) -> None:
    scenario = refused_or_parsed(parse_scenario, doc)
    if scenario is not None and all(_small(g) for g in scenario.groups):
        refused_or_parsed(compare, scenario, [strategy])


@FUZZ
@given(st.sampled_from([".json", ".toml"]),
       mutated_bytes([SCENARIO_TOML, *(json.dumps(s) for s in SCENARIOS)]))
def test_fuzz_scenario_file(tmp_path_factory: pytest.TempPathFactory, suffix: str,
                            data: bytes) -> None:
    path = tmp_path_factory.getbasetemp() / f"fuzz-scenario{suffix}"
    path.write_bytes(data)
    refused_or_parsed(load_scenario, path)


# -- placement formats: --describe, --replica-assignment, reassignment, ZooKeeper, log dirs ----

from kpart.placement.balance import parse_partition_sizes  # noqa: E402
from kpart.placement.formats import parse_describe, parse_describe_partitions  # noqa: E402
from kpart.placement.manual import parse_replica_assignment, read_zk_topic_node  # noqa: E402
from kpart.placement.reassign import (  # noqa: E402
    parse_reassignment_json,
    parse_topics_to_move_json,
    read_current,
)

DESCRIBE = [
    _example("topic-test4.describe.txt"),
    "Topic: foo\tTopicId: x\tPartitionCount: 2\tReplicationFactor: 1\tConfigs: a=b\n"
    "\tTopic: foo\tPartition: 0\tLeader: none\tReplicas: 1\tIsr: \n"
    "\tTopic: foo\tPartition: 1\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: \tLastKnownElr: \n",
]
REPLICA_ASSIGNMENTS = ["0:1:2,3:4:5", "1:2,2:3,3:1", "0", "5:4, 4:5", "0:1,,1:0"]
ZK_NODES = ['{"version":1,"partitions":{"0":[0,1],"1":[1,0]}}',
            '{"version":2,"partitions":{"0":[2]},"adding_replicas":{},"removing_replicas":{}}']
TOPICS_TO_MOVE = ['{"topics":[{"topic":"foo"},{"topic":"bar"}],"version":1}']
REASSIGNMENTS = [
    '{"version":1,"partitions":[{"topic":"foo","partition":1,"replicas":[1,2,3],'
    '"log_dirs":["any","any","any"]},{"topic":"foo","partition":0,"replicas":[3,2,1]}]}',
    json.dumps({"version": 1, "partitions": json.loads(_example("pools-current.json"))
                ["partitions"][:6]}),
]
LOG_DIRS = [
    '{"version":1,"brokers":[{"broker":0,"logDirs":[{"logDir":"/kafka","error":null,'
    '"partitions":[{"partition":"foo-0","size":100,"offsetLag":0,"isFuture":false},'
    '{"partition":"my-topic-1","size":7,"offsetLag":0,"isFuture":false}]}]},{"broker":1,'
    '"logDirs":[{"logDir":"/kafka","error":null,"partitions":[{"partition":"foo-0","size":120,'
    '"offsetLag":0,"isFuture":false},{"partition":"foo-0","size":999,"offsetLag":0,'
    '"isFuture":true}]}]}]}',
    'Querying brokers for log directories information\nReceived log directory information '
    'from brokers 0\n{"version":1,"brokers":[{"broker":0,"logDirs":[]}]}\n',
    '{"foo-0": 10, "bar": {"1": 5}}',
]


@FUZZ
@given(texts(DESCRIBE))
@example("\tTopic: a\tPartition: ²\tLeader: 1\tReplicas: 1\tIsr: 1\n")
@example("Topic: a\tPartitionCount: ²\tReplicationFactor: 1\tConfigs: \n"
         "\tTopic: a\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n")
@example("\tTopic: a\tPartition: 0\tLeader: ²\tReplicas: 1\tIsr: 1\n")
def test_fuzz_describe_text(text: str) -> None:
    refused_or_parsed(parse_describe_partitions, text)
    refused_or_parsed(parse_describe, text)


@FUZZ
@given(texts(REPLICA_ASSIGNMENTS))
def test_fuzz_replica_assignment(text: str) -> None:
    refused_or_parsed(parse_replica_assignment, text)


@FUZZ
@given(st.one_of(texts(ZK_NODES, [json.loads(z) for z in ZK_NODES], ["version", "partitions"]),
                 mutated_bytes(ZK_NODES),
                 docs([json.loads(z) for z in ZK_NODES], ["version", "partitions"])))
@example(b'\xff"version":1,"partitions":{"0":[0,1],"1":[1,0]}}')
def test_fuzz_zookeeper_node(data: object) -> None:
    refused_or_parsed(read_zk_topic_node, data)


@FUZZ
@given(texts(REASSIGNMENTS, [json.loads(r) for r in REASSIGNMENTS],
             ["version", "partitions", "topic", "partition", "replicas", "log_dirs"]))
def test_fuzz_reassignment_json(text: str) -> None:
    refused_or_parsed(parse_reassignment_json, text)


@FUZZ
@given(texts(TOPICS_TO_MOVE, [json.loads(t) for t in TOPICS_TO_MOVE], ["version", "topics"]))
def test_fuzz_topics_to_move_json(text: str) -> None:
    refused_or_parsed(parse_topics_to_move_json, text)


@FUZZ
@given(texts([*REASSIGNMENTS, *ZK_NODES, *DESCRIBE]), st.sampled_from([None, "foo", "t"]))
def test_fuzz_current_assignment(text: str, topic: str | None) -> None:
    refused_or_parsed(read_current, text, topic)


@FUZZ
@given(texts(LOG_DIRS, [json.loads(LOG_DIRS[0]), json.loads(LOG_DIRS[2])],
             ["brokers", "logDirs", "partitions", "partition", "size", "isFuture"]))
@example('{"foo-²": 1}')
@example('{"foo": {"²": 1}}')
@example('{"version": 1, "brokers": [{"broker": 0, "logDirs": null}]}')
@example('{"version": 1, "brokers": [{"broker": 0, "logDirs": [{"partitions": 5}]}]}')
def test_fuzz_log_dirs_json(text: str) -> None:
    refused_or_parsed(parse_partition_sizes, text)


# -- pools JSON ---------------------------------------------------------------------------------

from kpart.placement.pools import parse_pools, pools_from_dict  # noqa: E402

POOLS = [_example("pools.json"), '{"pools": {"a": {"brokers": [0], "topics": ["t"]}}}']


@FUZZ
@given(texts(POOLS, [json.loads(p) for p in POOLS], ["pools", "brokers", "topics"]))
def test_fuzz_pools_json(text: str) -> None:
    refused_or_parsed(parse_pools, text)


@FUZZ
@given(docs([json.loads(p) for p in POOLS], ["pools", "brokers", "topics"]))
@example(None)
@example({"pools": {"a": [1]}, "topics": {"t": []}})
def test_fuzz_pools_document(doc: object) -> None:
    refused_or_parsed(pools_from_dict, doc)


# -- command-line lists: counts, ranges, keys, broker ids ---------------------------------------

from kpart.cli.compat import _cli_keys, parse_count, parse_counts, parse_search  # noqa: E402
from kpart.cli.nullkey import _int_list, _pairs  # noqa: E402
from kpart.cli.placement import _brokers  # noqa: E402
from kpart.cli.plan import parse_broker_spec  # noqa: E402
from kpart.producer.compat import VALUE_SERIALIZERS  # noqa: E402

CLI_LISTS = ["12", "16,18,24", "13-48", "a,b,c", "0,1,2", "0:r1,1:r1,2-5", "1=0.5,2=3",
             "e4d1a0a6-5b63-4a55-9e5c-5f9b7c2a1d3e,f47ac10b-58cc-4372-a567-0e02b2c3d479",
             "-5,300,2147483647", ""]


@FUZZ
@given(texts(CLI_LISTS), st.sampled_from(VALUE_SERIALIZERS + ("nope",)))
@example("0-2147483647", "string")
def test_fuzz_cli_lists(text: str, serializer: str) -> None:
    refused_or_parsed(parse_count, text, "-n")
    refused_or_parsed(parse_counts, text, "--to")
    refused_or_parsed(parse_search, text)
    refused_or_parsed(_cli_keys, text, serializer)
    refused_or_parsed(_int_list, text, "--weights")
    refused_or_parsed(_pairs, [text], "--latency", float)
    refused_or_parsed(_brokers, text, None, None)
    refused_or_parsed(_brokers, "0,1,2", text, text)
    refused_or_parsed(parse_broker_spec, text, "--add-brokers")
