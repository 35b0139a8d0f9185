"""kpart compat / whatif on Spark equal the pure cores on the same small data; CLI on a file."""

from __future__ import annotations

import json
import random

import pyarrow.parquet as pq
import pytest

from kpart.cli import main
from kpart.errors import ConfigError
from kpart.producer.clients import PARTITIONERS
from kpart.producer.compat import compare_partitioners
from kpart.producer.whatif import partition_count_whatif
from kpart.spark.compat import measure_compat
from kpart.spark.whatif import measure_whatif

pytestmark = pytest.mark.spark


def _rows(seed: int = 3, distinct: int = 120, count: int = 600):
    rng = random.Random(seed)
    alphabet = "abXY09:-é日🙂"
    keys = ["", "TT0124", "100:48069"] + [
        "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 16))) for _ in range(distinct)]
    rows = [(rng.choice(keys), i) for i in range(count)] + [(None, count), (None, count + 1)]
    return rows


@pytest.fixture(scope="module")
def rows():
    return _rows()


@pytest.fixture(scope="module")
def df(spark, rows):
    # several input partitions, so the executors tally several Arrow batches that must merge
    return spark.createDataFrame(rows, "k string, v int").repartition(3)


def test_compat_equals_core_all_partitioners(df, rows):
    got = measure_compat(df, "k", 12, "all", examples=3)
    want = compare_partitioners([k for k, _ in rows], 12, tuple(PARTITIONERS), examples=3)
    assert got == want
    assert got.null_key_records == 2


def test_compat_int_keys(spark):
    rng = random.Random(9)
    values = [rng.randrange(-(1 << 31), 1 << 31) for _ in range(150)] + [None, 0, 0, 48069]
    sdf = spark.createDataFrame([(v,) for v in values], "k int")
    got = measure_compat(sdf, "k", 7, serializer="int", examples=2)
    assert got == compare_partitioners(values, 7, serializer="int", examples=2)
    assert got.to_json()["pairs"][0]["examples"]  # example keys come back as ints
    assert all(isinstance(e, int) for e in got.to_json()["pairs"][0]["examples"])


@pytest.mark.parametrize("pid", ["java:default", "librdkafka:consistent_random", "sarama:hash"])
def test_whatif_equals_core(df, rows, pid):
    got = measure_whatif(df, "k", 12, [16, 18, 24], pid, search=(13, 30), with_bytes=False)
    want = partition_count_whatif([k for k, _ in rows], 12, [16, 18, 24], pid, search=(13, 30))
    assert got == want


def test_whatif_bytes_are_key_plus_json_value(df, rows):
    got = measure_whatif(df, "k", 6, [9])
    sizes = []
    for k, v in rows:
        doc = {"k": k, "v": v} if k is not None else {"v": v}  # to_json drops null fields
        value = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()
        sizes.append(len(value) + (len(k.encode()) if k is not None else 0))
    want = partition_count_whatif([k for k, _ in rows], 6, [9], bytes_=sizes)
    assert got == want


def test_flights_sample_with_the_pipeline_loader(spark, tmp_path):
    from kpart.spark.datasets import read_dataset, write_flights_parquet

    path = write_flights_parquet(tmp_path, limit=3000)
    tails = pq.read_table(path, columns=["tailnum"]).column("tailnum")
    sdf = read_dataset(spark, path, "parquet")
    assert measure_compat(sdf, "tailnum", 12) == compare_partitioners(tails, 12)
    got = measure_whatif(sdf, "tailnum", 12, [16], with_bytes=False)
    assert got == partition_count_whatif(tails, 12, [16])


def test_bad_column_and_serializer_are_named(df):
    with pytest.raises(ConfigError, match="'nope'"):
        measure_compat(df, "nope", 12)
    with pytest.raises(ConfigError, match="'int'"):
        measure_whatif(df, "k", 12, [16], serializer="int")


def test_cli_on_a_csv_file(spark, rows, tmp_path, capsys):
    path = tmp_path / "events.csv"
    lines = ["k,v"] + [f"{k},{v}" for k, v in rows if k]  # CSV: no empty or null keys
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    keys = [k for k, _ in rows if k]
    out = tmp_path / "summary.json"
    assert main(["compat", str(path), "--key", "k", "-n", "12", "--json", "--out", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)["compat"]
    assert doc == compare_partitioners(keys, 12).to_json()
    assert json.loads(out.read_text())["compat"] == doc
    assert main(["whatif", str(path), "--key", "k", "-n", "12", "--to", "16,24", "--json",
                 "--out", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)["whatif"]
    want = partition_count_whatif(keys, 12, [16, 24]).to_json()
    assert [s["moved_fraction"] for s in doc["scenarios"]] == [
        s["moved_fraction"] for s in want["scenarios"]]
    assert [x["records"] for x in doc["loads"]] == [x["records"] for x in want["loads"]]
    assert set(json.loads(out.read_text())) == {"compat", "whatif"}


def test_cli_missing_column_in_a_file(tmp_path, capsys):
    path = tmp_path / "events.csv"
    path.write_text("k,v\na,1\n", encoding="utf-8")
    assert main(["whatif", str(path), "--key", "user", "-n", "3", "--to", "4"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'user'" in err[0]
