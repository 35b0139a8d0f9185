"""with_partition on Spark equals the scalar Kafka partitioner, for every key type and path."""

from __future__ import annotations

import random
import uuid

import pytest

from kpart.errors import ConfigError, InvalidPartitionsError
from kpart.producer.builtin import partition_for_key
from kpart.producer.serializers import serialize_key
from kpart.spark import with_partition

pytestmark = pytest.mark.spark

N_PARTITIONS = (1, 7, 12, 1000)


def _strings() -> list[str | None]:
    rng = random.Random(7)
    alphabet = "abcXYZ019 -_éüß日本語🙂"
    keys: list[str | None] = ["", "a", "N14228", "TT0124", "100:48069", "café", "日本語のキー",
                              "🙂🙃", "x" * 33, None, "my_key_1", None]
    keys += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40))) for _ in range(300)]
    return keys


def _ints(bits: int) -> list[int | None]:
    rng = random.Random(bits)
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    values: list[int | None] = [0, 1, -1, lo, hi, lo + 1, hi - 1, None, 127, -128]
    values += [v for v in (255, 256, -256, 48069, 2**31 - 1) if lo <= v <= hi]
    values += [rng.randint(lo, hi) for _ in range(300)]
    values += [rng.randint(max(lo, -1000), min(hi, 1000)) for _ in range(50)]
    return values


def _expected(values, serializer: str, n: int) -> list[int | None]:
    return [partition_for_key(serialize_key(v, serializer), n) if v is not None else None
            for v in values]


def _partitions(spark, values, spark_type: str, serializer: str, ns, method: str = "auto"):
    """Partitions of ``values`` for every count in ``ns``, in one Spark job."""
    rows = [(i, v) for i, v in enumerate(values)]
    df = spark.createDataFrame(rows, f"i int, k {spark_type}")
    for n in ns:
        df = df.transform(with_partition("k", n, serializer, method=method, output=f"p{n}"))
    got = sorted(df.collect())
    assert [r.i for r in got] == list(range(len(values)))
    assert {df.schema[f"p{n}"].dataType.simpleString() for n in ns} == {"int"}
    return {n: [r[f"p{n}"] for r in got] for n in ns}


def _expected_all(values, serializer: str, ns):
    return {n: _expected(values, serializer, n) for n in ns}


@pytest.mark.parametrize("method", ["auto", "reflect", "arrow"])
def test_string_keys_match_scalar(spark, method):
    keys = _strings()
    got = _partitions(spark, keys, "string", "string", N_PARTITIONS, method)
    assert got == _expected_all(keys, "string", N_PARTITIONS)


@pytest.mark.parametrize(("spark_type", "serializer", "bits", "method"),
                         [("int", "int", 32, "auto"), ("bigint", "long", 64, "auto"),
                          ("smallint", "short", 16, "auto"), ("int", "long", 32, "auto"),
                          ("tinyint", "int", 8, "auto"), ("bigint", "long", 64, "arrow"),
                          ("smallint", "short", 16, "arrow")])
def test_fixed_width_keys_match_scalar(spark, spark_type, serializer, bits, method):
    values = _ints(bits)
    got = _partitions(spark, values, spark_type, serializer, N_PARTITIONS, method)
    assert got == _expected_all(values, serializer, N_PARTITIONS)


@pytest.mark.parametrize("method", ["auto", "arrow"])
def test_binary_keys_match_scalar(spark, method):
    rng = random.Random(3)
    keys = [b"", b"\x00", b"\xff" * 5, None, "日本".encode(), b"\x00\x01\x02\x03"]
    keys += [bytes(rng.randrange(256) for _ in range(rng.randrange(0, 50))) for _ in range(300)]
    got = _partitions(spark, [bytearray(k) if k is not None else None for k in keys],
                      "binary", "bytes", (3, 12), method)
    assert got == _expected_all(keys, "bytes", (3, 12))


def test_uuid_keys_are_lower_case_strings(spark):
    rng = random.Random(11)
    keys = [str(uuid.UUID(int=rng.getrandbits(128))).upper() for _ in range(50)] + [None]
    assert _partitions(spark, keys, "string", "uuid", (12,)) == _expected_all(keys, "uuid", (12,))


def test_spark_hash_baseline_is_spark_pmod_hash(spark):
    from pyspark.sql import functions as F

    df = spark.createDataFrame([(k,) for k in ["a", "b", None, "N14228"]], "k string")
    got = df.transform(with_partition("k", 12, partitioner="spark:hash"))
    ref = df.select(F.expr("pmod(hash(k), 12)").alias("p")).collect()
    assert [r.partition for r in got.collect()] == [r.p for r in ref]


def test_other_client_partitioners_use_the_arrow_kernels(spark):
    keys = ["100:48069", "TT0124", "a", "", "日本"]
    df = spark.createDataFrame([(i, k) for i, k in enumerate(keys)], "i int, k string")
    for pid in ("librdkafka:consistent", "sarama:hash"):
        got = sorted(df.transform(with_partition("k", 12, partitioner=pid)).collect())
        assert [r.partition for r in got] == [partition_for_key(k.encode(), 12, pid) for k in keys]


def test_other_client_partitioners_on_integer_keys(spark):
    values = [v for v in _ints(32) if v is not None][:100]
    df = spark.createDataFrame([(i, v) for i, v in enumerate(values)], "i int, k int")
    for pid in ("librdkafka:consistent", "sarama:hash"):
        got = sorted(df.transform(with_partition("k", 12, "int", partitioner=pid)).collect())
        assert [r.partition for r in got] == [
            partition_for_key(serialize_key(v, "int"), 12, pid) for v in values]


def test_bad_arguments_name_the_value(spark):
    df = spark.createDataFrame([("a", 1, 1.5)], "k string, v int, d double")
    with pytest.raises(InvalidPartitionsError, match="-3"):
        with_partition("k", -3)
    with pytest.raises(ConfigError, match="'nope'"):
        with_partition("k", 3, "nope")
    with pytest.raises(ConfigError, match="'x:y'"):
        with_partition("k", 3, partitioner="x:y")
    with pytest.raises(ConfigError, match="'missing'"):
        df.transform(with_partition("missing", 3))
    with pytest.raises(ConfigError, match="'v' of type int"):
        df.transform(with_partition("v", 3, "string"))
    with pytest.raises(ConfigError, match="'d' of type double"):
        df.transform(with_partition("d", 3, "long"))
