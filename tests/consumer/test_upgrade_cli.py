"""``kpart upgrade`` and ``kpart migrate`` from the command line: both assignments, the moves per
member and the balance, as a table, JSON, or written to ``--out``; errors are one line."""

from __future__ import annotations

import json
from pathlib import Path

from kpart.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
THREE = str(EXAMPLES / "kip848-three-partitions.json")
BALANCED = str(EXAMPLES / "kip848-already-balanced.json")


def _json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_upgrade_json_gives_both_assignments_the_moves_and_balance(capsys):
    doc = _json(capsys, ["upgrade", THREE, "--from", "4.0.0", "--to", "4.3", "--json"])
    assert doc["before"] == {"label": "4.0.0", "assignment": {"m1": {"t": [0, 1]},
                                                              "m2": {"t": [2]}},
                             "balance": {"members": 2, "min_partitions": 1, "max_partitions": 2}}
    assert doc["after"]["label"] == "4.3"
    assert doc["after"]["assignment"] == {"m1": {"t": [0]}, "m2": {"t": [1, 2]}}
    assert doc["moved"] == 1
    assert doc["moves"] == [{"topic": "t", "partition": 1, "from": "m1", "to": "m2"}]
    assert doc["members"] == {"m1": {"before": 2, "after": 1, "lost": {"t": [1]}, "gained": {}},
                              "m2": {"before": 1, "after": 2, "lost": {}, "gained": {"t": [1]}}}


def test_upgrade_the_other_way_moves_the_partition_back(capsys):
    doc = _json(capsys, ["upgrade", THREE, "--from", "4.3", "--to", "4.0.0", "-f", "json"])
    assert doc["moves"] == [{"topic": "t", "partition": 1, "from": "m2", "to": "m1"}]


def test_upgrade_between_releases_with_one_behaviour_moves_nothing(capsys):
    doc = _json(capsys, ["upgrade", BALANCED, "--from", "4.1.0", "--to", "4.3.1", "--json"])
    assert doc["moved"] == 0 and doc["moves"] == []
    doc = _json(capsys, ["upgrade", BALANCED, "--from", "4.0.0", "--to", "4.3", "--json"])
    assert doc["moves"] == [{"topic": "t", "partition": 4, "from": "B", "to": "C"}]


def test_upgrade_table_lists_members_moves_and_balance(capsys):
    assert main(["upgrade", THREE, "--from", "4.0.0", "--to", "4.3"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == ("uniform assignment of kip848-three-partitions.json: "
                                   "Kafka 4.0.0 → 4.3")
    assert "│ m1     │ 2: t[0,1] │ 1: t[0]   │ t[1] │ -      │" in out
    assert "moved: 1 partition changes owner" in out
    assert ("balance: 4.0.0: 1-2 partitions per member (2 members); 4.3: 1-2 partitions per "
            "member (2 members)") in out


def test_upgrade_out_writes_json_atomically(tmp_path, capsys):
    out = tmp_path / "moves.json"
    assert main(["upgrade", THREE, "--from", "4.0.0", "--to", "4.3", "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert json.loads(out.read_text())["moved"] == 1


def test_upgrade_of_a_classic_group_file_with_uniform(tmp_path, capsys):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"topics": {"t": 3}, "members": [
        {"id": "m1", "topics": ["t"]}, {"id": "m2", "topics": ["t"]}]}))
    doc = _json(capsys, ["upgrade", str(path), "--from", "4.0.0", "--to", "4.3", "--json"])
    assert doc["moves"] == [{"topic": "t", "partition": 1, "from": "m1", "to": "m2"}]


def test_upgrade_with_a_classic_assignor_where_it_does_not_exist_is_an_error(tmp_path, capsys):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"topics": {"t": 3}, "members": [{"id": "m1", "topics": ["t"]}]}))
    out = tmp_path / "o.json"
    assert main(["upgrade", str(path), "--from", "2.3", "--to", "4.3", "-a", "cooperative-sticky",
                 "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kpart: error: The cooperative-sticky assignor does not exist in "
                          "--from-version '2.3'")
    assert not out.exists()


def test_upgrade_of_a_classic_range_group_moves_the_static_member_first(tmp_path, capsys):
    """KIP-345's ordering (2.4.0): the static member c3 takes the first range."""
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"topics": {"t": 3}, "members": [
        {"id": "c1", "topics": ["t"]}, {"id": "c2", "topics": ["t"]},
        {"id": "c3", "topics": ["t"], "instance_id": "host-3"}]}))
    doc = _json(capsys, ["upgrade", str(path), "--from", "2.3", "--to", "2.4", "-a", "range",
                         "--json"])
    assert doc["before"]["assignment"] == {"c1": {"t": [0]}, "c2": {"t": [1]}, "c3": {"t": [2]}}
    assert doc["after"]["assignment"] == {"c1": {"t": [1]}, "c2": {"t": [2]}, "c3": {"t": [0]}}
    assert doc["moved"] == 3


def test_migrate_to_consumer_json(tmp_path, capsys):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"topics": {"orders": 4, "payments": 4}, "members": [
        {"id": f"c{i}", "topics": ["orders", "payments"]} for i in (1, 2, 3)]}))
    doc = _json(capsys, ["migrate", str(path), "--to-protocol", "consumer", "-a",
                         "cooperative-sticky", "--kafka-version", "4.0.0", "--json"])
    assert doc["before"]["label"] == "classic cooperative-sticky"
    assert doc["after"]["label"] == "consumer uniform"
    assert doc["moves"] == [{"topic": "payments", "partition": 3, "from": "c2", "to": "c3"}]
    doc = _json(capsys, ["migrate", str(path), "--to-protocol", "consumer", "-a",
                         "cooperative-sticky", "--json"])
    assert doc["moved"] == 0 and doc["after"]["assignment"] == doc["before"]["assignment"]


def test_migrate_default_assignor_is_range_to_server_range(capsys):
    doc = _json(capsys, ["migrate", str(EXAMPLES / "range-roundrobin.json"), "--to-protocol",
                         "consumer", "--json"])
    assert (doc["before"]["label"], doc["after"]["label"]) == ("classic range", "consumer range")


def test_migrate_back_to_classic(capsys):
    doc = _json(capsys, ["migrate", THREE, "--to-protocol", "classic", "--to-assignor", "range",
                         "--json"])
    assert doc["before"]["assignment"] == {"m1": {"t": [0]}, "m2": {"t": [1, 2]}}
    assert doc["after"]["assignment"] == {"m1": {"t": [0, 1]}, "m2": {"t": [2]}}
    assert doc["moves"] == [{"topic": "t", "partition": 1, "from": "m2", "to": "m1"}]


def test_migrate_to_another_protocol_is_one_error_line(tmp_path, capsys):
    out = tmp_path / "o.json"
    assert main(["migrate", THREE, "--to-protocol", "streams", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == ("kpart: error: --to-protocol 'streams': expected consumer or classic (the "
                   "values of group.protocol)\n")
    assert not out.exists()


def test_migrate_offline_starts_from_no_assignment(capsys):
    path = str(EXAMPLES / "migrate-two-topics.json")
    online = _json(capsys, ["migrate", path, "--to-protocol", "consumer", "-a",
                            "cooperative-sticky", "--json"])
    offline = _json(capsys, ["migrate", path, "--to-protocol", "consumer", "-a",
                             "cooperative-sticky", "--offline", "--json"])
    assert online["moved"] == 0
    assert offline["before"] == online["before"]
    assert offline["moved"] == 6
    assert offline["after"]["assignment"] == {"c1": {"orders": [2, 3], "payments": [0]},
                                              "c2": {"payments": [1, 2, 3]},
                                              "c3": {"orders": [0, 1]}}


def test_upgrade_parquet_has_one_row_per_partition(tmp_path, capsys):
    import pyarrow.parquet as pq

    out = tmp_path / "moves.parquet"
    assert main(["upgrade", THREE, "--from", "4.0.0", "--to", "4.3", "-o", str(out)]) == 0
    table = pq.read_table(out)
    assert table.to_pylist() == [
        {"topic": "t", "partition": 0, "before": "m1", "after": "m1", "moved": False},
        {"topic": "t", "partition": 1, "before": "m1", "after": "m2", "moved": True},
        {"topic": "t", "partition": 2, "before": "m2", "after": "m2", "moved": False}]
    assert table.schema.metadata[b"kpart.labels"] == b'["4.0.0", "4.3"]'


def test_the_assignor_named_by_a_test_vector_case_is_the_default(tmp_path, capsys):
    case = tmp_path / "case.json"
    case.write_text(json.dumps({"id": "x", "assignor": "roundrobin", "input": {
        "topics": {"t": 4}, "members": [{"id": "C0", "topics": ["t"]},
                                        {"id": "C1", "topics": ["t"]}]}}))
    doc = _json(capsys, ["migrate", str(case), "--to-protocol", "consumer", "--json"])
    assert doc["before"]["label"] == "classic roundrobin"
    assert doc["before"]["assignment"] == {"C0": {"t": [0, 2]}, "C1": {"t": [1, 3]}}
    doc = _json(capsys, ["migrate", str(case), "--to-protocol", "consumer", "-a", "range",
                         "--json"])
    assert doc["before"]["label"] == "classic range"
    server = tmp_path / "server.json"
    server.write_text(json.dumps({"assignor": "range", "input": json.loads(
        Path(THREE).read_text())}))
    assert main(["upgrade", str(server), "--from", "4.0.0", "--to", "4.3"]) == 0
    assert capsys.readouterr().out.startswith("range assignment of server.json")
