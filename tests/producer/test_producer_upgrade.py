"""Issue 25, point 4, producer side: ``kpart upgrade --keys/--dataset --from --to`` and its core
:func:`kpart.producer.upgrade.producer_upgrade`."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kpart.cli import main
from kpart.errors import ConfigError
from kpart.producer.builtin import partition_for_key
from kpart.producer.upgrade import producer_upgrade


def test_round_robin_records_move_with_kafka_17632():
    u = producer_upgrade([None] * 8, 4, "3.9.1", "3.9.2", partitioner="round-robin")
    assert u.per_record and u.null_key_strategies == ("kafka-9965", "kafka-17632")
    assert u.expected_before == (0, 4, 0, 4) and u.expected_after == (2, 2, 2, 2)
    # record i: (2i + 1) % 4 before, i % 4 after; only i = 3 and 7 stay on p3
    assert u.moved == 6 and [m.index for m in u.moves] == [0, 1, 2, 4, 5, 6]


def test_round_robin_ignores_keys_and_nothing_moves_between_fixed_versions():
    u = producer_upgrade([b"k1", None, b"k2"], 3, "3.9.2", "4.3", partitioner="round-robin")
    assert u.moved == 0 and u.moves == () and u.expected_before == (1, 1, 1)


def test_the_list_of_moved_records_is_bounded_but_the_count_is_not():
    u = producer_upgrade([None] * 100, 2, "2.4.0", "4.0.0", partitioner="round-robin", limit=3)
    assert u.moved == 50 and len(u.moves) == 3  # 2 partitions: all on p1 before KAFKA-17632


def test_default_partitioner_keyed_records_never_move_and_null_keys_are_an_expectation():
    keys = [b"k1", b"k2", None, None, b"k3", None]
    u = producer_upgrade(keys, 3, "0.10.1.1", "4.3")
    assert not u.per_record and u.moved == 0 and u.moves == ()
    assert u.null_key_strategies == ("legacy", "builtin")
    assert u.keyed_records == 3 and u.null_key_records == 3
    exact = [0, 0, 0]
    for k in (b"k1", b"k2", b"k3"):
        exact[partition_for_key(k, 3)] += 1
    assert u.expected_after == tuple(c + 1.0 for c in exact) == u.expected_before
    assert "expected share" in u.note
    assert producer_upgrade([None], 2, "2.4.0", "3.2.3").null_key_strategies == \
        ("sticky", "sticky")


@pytest.mark.parametrize(("args", "message"), [
    (("2.3.1", "4.3"), r"does not exist in from_version '2\.3\.1'"),
    (("3.9", "4.3"), r"from_version '3\.9' is ambiguous"),
    (("3.9.0", "5.0"), r"Unknown to_version '5\.0'"),
])
def test_round_robin_versions_are_checked_naming_the_side(args, message):
    with pytest.raises(ConfigError, match=message):
        producer_upgrade([None], 2, *args, partitioner="round-robin")


def test_bad_partitioner_and_limit_are_errors():
    with pytest.raises(ConfigError, match="'sticky'"):
        producer_upgrade([None], 2, "3.0", "4.3", partitioner="sticky")
    with pytest.raises(ConfigError, match="-1"):
        producer_upgrade([None], 2, "3.0", "4.3", limit=-1)


def test_upgrade_command_with_keys(tmp_path, capsys):
    keys = tmp_path / "keys.txt"
    keys.write_text("a\nb\n\nc\n", encoding="utf-8")
    argv = ["upgrade", "--keys", str(keys), "-p", "4", "--from", "3.9.0", "--to", "4.3",
            "--partitioner", "round-robin"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "moved: 3 of 4 records change partition" in text
    assert "records per partition: 3.9.0: 0 2 0 2; 4.3: 1 1 1 1" in text
    out = tmp_path / "u.json"
    assert main([*argv, "--out", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["moved"] == 3 and doc["moved_records"][2] == {"index": 2, "key": None,
                                                             "from": 1, "to": 2}


def test_upgrade_command_with_a_dataset(tmp_path, capsys):
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({"key": pa.array([b"k1", None, b"k2"], pa.binary())}), path)
    assert main(["upgrade", "--dataset", str(path), "-p", "3", "--from", "2.3", "--to", "4.3",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["null_key_strategy"] == {"from": "legacy", "to": "builtin"}
    assert doc["moved"] == 0 and doc["records_per_partition"]["expected"] is True


@pytest.mark.parametrize("version", ["2.4.0", "3.9.0", "3.9.1", "4.3"])
def test_the_round_robin_closed_form_is_the_partitioner_with_a_new_batch_per_record(version):
    from kpart.producer.cluster import Cluster
    from kpart.producer.round_robin_partitioner import RoundRobinPartitioner

    cluster = Cluster.of("t", [0] * 6)
    rr = RoundRobinPartitioner(kafka_version=version)

    def send() -> int:  # KafkaProducer 2.4-3.9 when the record needs a new batch (4.0: once)
        first = rr.partition("t", None, None, None, None, cluster)
        rr.on_new_batch("t", cluster, first)
        return rr.partition("t", None, None, None, None, cluster)

    sent = [send() for _ in range(13)]
    u = producer_upgrade([None] * 13, 6, version, "4.3", partitioner="round-robin", limit=13)
    moved = {m.index: m.before for m in u.moves}
    assert [moved.get(i, i % 6) for i in range(13)] == sent  # 4.3: record i on i % 6
