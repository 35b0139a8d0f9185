"""kpart.producer.compat against the scalar partition_for_key, DESIGN.md's cross-client vectors
and librdkafka itself; `kpart compat --keys` through the CLI (no Spark)."""

from __future__ import annotations

import json
import random

import numpy as np
import pyarrow as pa
import pytest

from kpart import partition_for_key
from kpart.cli import main
from kpart.errors import ConfigError, InvalidPartitionsError
from kpart.producer.clients import PARTITIONERS, get_partitioner
from kpart.producer.compat import (
    DEFAULT_PARTITIONERS,
    compare_partitioners,
    parse_partitioners,
    serialized_keys,
    skew,
)
from kpart.producer.serializers import serialize_key


def _random_keys(seed: int, count: int) -> tuple[list[str | None], list[int]]:
    rng = random.Random(seed)
    alphabet = "abcXYZ019:-_éü日本🙂"
    distinct = ["", "100:48069", "TT0124", "my_key_1"] + [
        "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 24))) for _ in range(count)]
    keys = [rng.choice(distinct) for _ in range(3 * count)] + [None, None]
    records = [rng.randrange(0, 50) for _ in keys]
    return keys, records


def _naive(keys, records, n, ids, k):
    """Per distinct key, the scalar partition of each client (None = placed at random)."""
    per_key: dict[bytes | None, int] = {}
    for key, r in zip(keys, records, strict=True):
        kb = None if key is None else key.encode("utf-8")
        per_key[kb] = per_key.get(kb, 0) + r
    null_records = per_key.pop(None, 0)

    def place(pid, kb):
        spec = get_partitioner(pid)
        if spec.hash == "none" or (kb == b"" and spec.empty_key == "random"):
            return None
        return partition_for_key(kb, n, pid)

    where = {kb: [place(pid, kb) for pid in ids] for kb in per_key}
    pairs = {}
    for i in range(len(ids)):
        for j in range(i + 1, len(ids)):
            differ = [kb for kb, p in where.items() if p[i] is None or p[j] is None or p[i] != p[j]]
            ranked = sorted(differ, key=lambda kb: (-per_key[kb], kb))
            pairs[ids[i], ids[j]] = (len(differ), sum(per_key[kb] for kb in differ),
                                     tuple(kb.decode("utf-8") for kb in ranked[:k]))
    loads = [[0] * n for _ in ids]
    for kb, ps in where.items():
        for i, p in enumerate(ps):
            if p is not None:
                loads[i][p] += per_key[kb]
    return per_key, null_records, pairs, loads


@pytest.mark.parametrize("n", [1, 7, 12, 1000])
def test_compare_equals_scalar_reference(n):
    keys, records = _random_keys(n, 300)
    ids = tuple(PARTITIONERS)
    report = compare_partitioners(pa.array(keys), n, ids, records=records, examples=3)
    per_key, null_records, pairs, loads = _naive(keys, records, n, ids, 3)
    assert report.keys == len(per_key)
    assert report.records == sum(per_key.values())
    assert report.null_key_records == null_records
    for (a, b), (dk, dr, ex) in pairs.items():
        got = report.pair(a, b)
        assert (got.keys, got.records, got.examples) == (dk, dr, ex), (a, b)
        assert got.key_fraction == round(dk / len(per_key), 6)
    assert [list(x) for x in report.records_per_partition] == loads


def test_design_vectors_decide_the_matrix():
    # DESIGN.md: 100:48069 @12 -> Java 9, kafkajs legacy 6, librdkafka consistent 6, Sarama 3;
    # TT0124 @15 -> 10, 1, 9, 2.
    ids = ("java:default", "kafkajs:legacy", "librdkafka:consistent", "sarama:hash")
    r = compare_partitioners(["100:48069"], 12, ids)
    expected = {0: 9, 1: 6, 2: 6, 3: 3}
    for i in range(4):
        for j in range(4):
            assert r.matrix("keys")[i][j] == int(expected[i] != expected[j]), (ids[i], ids[j])
    r = compare_partitioners(["TT0124"], 15, ids)
    assert r.matrix("keys") == [[int(i != j) for j in range(4)] for i in range(4)]


def test_same_family_never_disagrees_on_non_empty_keys():
    keys = [f"user-{i}" for i in range(2000)]
    r = compare_partitioners(keys, 24, ["java:default", "librdkafka:murmur2", "kafkajs:default",
                                        "sarama:hash", "librdkafka:fnv1a", "kafka-go:hash"])
    for a, b in (("java:default", "librdkafka:murmur2"), ("java:default", "kafkajs:default"),
                 ("sarama:hash", "librdkafka:fnv1a"), ("sarama:hash", "kafka-go:hash")):
        assert r.pair(a, b).keys == 0
    assert r.pair("java:default", "sarama:hash").key_fraction > 0.9  # 1 - 1/24 expected


def test_librdkafka_peer_counts():
    confluent_kafka = pytest.importorskip("confluent_kafka")
    rng = np.random.default_rng(5)
    keys = [bytes(rng.integers(0, 256, size=int(s), dtype=np.uint8)) for s in
            rng.integers(1, 30, size=3000)]
    n = 17
    peer = {name: [getattr(confluent_kafka, name)(k, n) for k in set(keys)]
            for name in ("murmur2", "consistent", "fnv1a")}
    r = compare_partitioners(pa.array(sorted(set(keys)), pa.binary()), n,
                             ["librdkafka:murmur2", "librdkafka:consistent", "librdkafka:fnv1a"],
                             serializer="bytes")
    names = ("murmur2", "consistent", "fnv1a")
    for i in range(3):
        for j in range(i + 1, 3):
            want = sum(a != b for a, b in zip(peer[names[i]], peer[names[j]], strict=True))
            assert r.pair(f"librdkafka:{names[i]}", f"librdkafka:{names[j]}").keys == want


def test_random_placements_count_as_disagreement():
    r = compare_partitioners(["", "a"], 5, ["librdkafka:consistent", "librdkafka:consistent_random",
                                            "librdkafka:random"], records=[3, 1])
    assert r.pair("librdkafka:consistent", "librdkafka:consistent_random").keys == 1
    assert r.pair("librdkafka:consistent", "librdkafka:consistent_random").examples == ("",)
    assert r.pair("librdkafka:consistent", "librdkafka:random").keys == 2
    assert r.undetermined_keys == (0, 1, 2)


def test_duplicate_values_are_merged_and_examples_ranked_by_records():
    r = compare_partitioners(["b", "a", "b", "c", "b", "c"], 12, ["java:default", "sarama:hash"],
                             examples=2)
    p = r.pair("java:default", "sarama:hash")
    assert r.keys == 3 and r.records == 6
    assert all(e in ("a", "b", "c") for e in p.examples)
    assert list(p.examples) == sorted(p.examples, key=lambda k: (-["a", "b", "b", "b", "c",
                                                                   "c"].count(k), k))


@pytest.mark.parametrize("serializer,bits", [("int", 32), ("long", 64), ("short", 16)])
def test_serialized_keys_equal_kafka_serializers(serializer, bits):
    rng = random.Random(bits)
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    values = [0, -1, lo, hi, None] + [rng.randint(lo, hi) for _ in range(200)]
    arr = pa.array(values, pa.int64())
    got = serialized_keys(arr.slice(1), serializer).to_pylist()
    assert got == [serialize_key(v, serializer) for v in values[1:]]
    with pytest.raises(ConfigError, match=str(hi + 1)):
        serialized_keys(pa.array([hi + 1], pa.uint64()), serializer)


def test_uuid_keys_are_lower_cased():
    u = "00112233-4455-6677-8899-AABBCCDDEEFF"
    assert serialized_keys(pa.array([u]), "uuid").to_pylist() == [serialize_key(u, "uuid").decode()]


def test_skew_matches_report_definition():
    from kpart._skew import skew_stats

    rng = np.random.default_rng(1)
    for _ in range(20):
        loads = rng.integers(0, 100, size=int(rng.integers(1, 40))).tolist()
        want = skew_stats(loads)
        assert skew(loads) == {"max_over_mean": want["max_over_mean"], "cv": want["cv"]}


def test_defaults_cover_distinct_families():
    fams = {(get_partitioner(p).hash, get_partitioner(p).index) for p in DEFAULT_PARTITIONERS}
    assert len(fams) == len(DEFAULT_PARTITIONERS)
    deterministic = {(p.hash, p.index) for p in PARTITIONERS.values() if p.hash != "none"}
    assert fams == deterministic
    assert parse_partitioners("all") == tuple(PARTITIONERS)


@pytest.mark.parametrize(("kwargs", "error", "named"), [
    ({"partitioners": "java:default,nope"}, ConfigError, "'nope'"),
    ({"partitioners": "java:default,java:default"}, ConfigError, "java:default"),
    ({"num_partitions": 0}, InvalidPartitionsError, "0"),
    ({"num_partitions": "12"}, InvalidPartitionsError, "'12'"),
    ({"examples": -1}, ConfigError, "-1"),
    ({"serializer": "avro"}, ConfigError, "'avro'"),
    ({"records": [1, 2]}, ConfigError, "3"),
])
def test_bad_input_names_the_value(kwargs, error, named):
    args = {"keys": ["a", "b", "c"], "num_partitions": 12, **kwargs}
    with pytest.raises(error, match=named):
        compare_partitioners(**args)


def test_json_section_shape():
    doc = compare_partitioners(["a", "b", None], 4, examples=1).to_json()
    assert doc["reference"] == "java:default" and doc["partitioners"] == list(DEFAULT_PARTITIONERS)
    assert [c["partitioner"] for c in doc["clients"]] == list(DEFAULT_PARTITIONERS)
    assert doc["clients"][0]["same_fraction"] == 1.0
    assert all(len(row) == 5 for row in doc["matrix"]["record_fraction"])
    assert len(doc["pairs"]) == 10 and doc["null_key_records"] == 1
    json.dumps(doc)


# --- CLI (no Spark: --keys) -------------------------------------------------------------------

def test_cli_compat_json(capsys):
    assert main(["compat", "--keys", "100:48069,TT0124", "-n", "12", "--partitioners",
                 "java:default,kafkajs:legacy", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)["compat"]
    want = compare_partitioners(["100:48069", "TT0124"], 12, ["java:default", "kafkajs:legacy"])
    assert doc == want.to_json()


def test_cli_compat_table_and_out(capsys, tmp_path):
    out = tmp_path / "summary.json"
    out.write_text(json.dumps({"topic": "t"}))
    assert main(["compat", "--keys", "1,2,3", "--serializer", "int", "-n", "6", "--out",
                 str(out)]) == 0
    text = capsys.readouterr().out
    assert "Share of records on different partitions" in text and "java:default" in text
    doc = json.loads(out.read_text())
    assert doc["topic"] == "t" and doc["compat"]["serializer"] == "int"


@pytest.mark.parametrize(("argv", "named"), [
    (["-n", "12", "--partitioners", "java:default,bogus:x"], "'bogus:x'"),
    (["-n", "twelve"], "'twelve'"),
    (["-n", "0"], "'0'"),
    (["-n", "-3"], "'-3'"),
    (["-n", "4", "--examples", "many"], "'many'"),
    (["-n", "4", "--serializer", "int"], "'a'"),
])
def test_cli_compat_bad_input(capsys, tmp_path, argv, named):
    out = tmp_path / "o.json"
    assert main(["compat", "--keys", "a,b", *argv, "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and named in lines[0]
    assert not out.exists()


def test_cli_missing_key_column_is_named_before_spark(capsys):
    assert main(["compat", "-n", "12", "--key", "no_such_col"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'no_such_col'" in err[0]
