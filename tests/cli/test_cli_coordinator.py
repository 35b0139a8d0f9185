"""``kpart coordinator``: text and --json output, the snapshot's partition counts and leaders,
warnings, and bad input (one line, exit code 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kpart._java.hashing import string_hash_code
from kpart._java.ints import utils_abs
from kpart.cli import main

ROOT = Path(__file__).resolve().parents[2]
CLUSTER = str(ROOT / "docs/examples/coordinator-cluster.json")


def _lines(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict]:
    assert main(["coordinator", *argv, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_json_of_one_group_without_snapshot(capsys):
    (doc,) = _lines(["--group", "orders"], capsys)
    assert doc == {"kind": "group", "group": "orders", "topic": "__consumer_offsets",
                   "partition": 31, "num_partitions": 50, "leader": None}


def test_min_value_group_and_leaders_from_the_snapshot(capsys):
    docs = _lines(["--group", "polygenelubricants", "--group", "orders",
                   "--transactional-id", "tx-1", "--snapshot", CLUSTER], capsys)
    assert [(d["kind"], d["topic"], d["partition"], d["leader"]) for d in docs] == [
        ("group", "__consumer_offsets", 0, None),  # partition 0 is offline in the snapshot
        ("group", "__consumer_offsets", 31, 2),
        ("transaction", "__transaction_state", 20, 3),
    ]
    assert docs[2]["transactional_id"] == "tx-1"


def test_the_snapshot_s_count_wins_with_a_warning(capsys):
    assert main(["coordinator", "--group", "orders", "--partitions", "7", "--snapshot",
                 CLUSTER]) == 0
    out, err = capsys.readouterr()
    assert out == "group 'orders': __consumer_offsets partition 31 of 50, leader broker 2\n"
    assert err == ("kpart: warning: --partitions 7 ignored for __consumer_offsets: the snapshot "
                   "records 50 partitions, and Kafka uses the topic's count.\n")


def test_partitions_without_snapshot(capsys):
    (doc,) = _lines(["--group", "orders", "--partitions", "7"], capsys)
    want = utils_abs(string_hash_code("orders")) % 7
    assert (doc["partition"], doc["num_partitions"]) == (want, 7)


def test_share_partition_state_and_its_group(capsys):
    docs = _lines(["--share-group", "sg", "--topic-id", "TiSarLlxTTgvi602tDaz1Q",
                   "--partition", "3"], capsys)
    assert docs[0]["kind"] == "group" and docs[0]["group"] == "sg"
    assert docs[1] == {"kind": "share_state", "share_group": "sg",
                       "topic_id": "TiSarLlxTTgvi602tDaz1Q", "topic_partition": 3,
                       "topic": "__share_group_state", "partition": 3, "num_partitions": 50,
                       "leader": None}


def test_remote_log_metadata(capsys):
    (doc,) = _lines(["--remote-log-metadata", "--topic-id", "TiSarLlxTTgvi602tDaz1Q",
                     "--partition", "0"], capsys)
    assert (doc["topic"], doc["partition"]) == ("__remote_log_metadata", 30)


def test_a_snapshot_without_the_topic_warns(capsys):
    assert main(["coordinator", "--transactional-id", "t", "--share-group", "g", "--topic-id",
                 "TiSarLlxTTgvi602tDaz1Q", "--partition", "0", "--snapshot", CLUSTER]) == 0
    out, err = capsys.readouterr()
    assert "__share_group_state not in the snapshot" in out
    assert err.count("kpart: warning:") == 1 and "__share_group_state is not recorded" in err


@pytest.mark.parametrize("argv, names", [
    (["--group", "g", "--partitions", "0"], "--partitions 0"),
    (["--group", ""], "''"),
    (["--share-group", "g", "--topic-id", "xyz", "--partition", "0"], "'xyz'"),
    (["--share-group", "g", "--topic-id", "TiSarLlxTTgvi602tDaz1Q"], "--partition"),
    (["--topic-id", "TiSarLlxTTgvi602tDaz1Q", "--partition", "0"], "--topic-id"),
    (["--transactional-id", "t", "--kafka-version", "0.10.2"], "'0.10.2'"),
    ([], "Nothing to locate"),
])
def test_bad_input_is_one_line(argv, names, capsys):
    assert main(["coordinator", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("kpart: error: ") and err.count("\n") == 1
    assert names in err
