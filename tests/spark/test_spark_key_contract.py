"""One key contract on Spark (issue 11, point 1): ``kpart report``'s job
(:func:`~kpart.spark.key_loads.measure_loads`), ``kpart compat``
(:func:`~kpart.spark.compat.measure_compat`), ``kpart whatif``
(:func:`~kpart.spark.whatif.measure_whatif`) and ``with_partition`` take the same key columns
under the same serializers: every (serializer, column type) pair is accepted by all of them or
refused by all of them with the same message, and where accepted they put the keys on the same
partitions — Kafka's, as the pure core computes them.

The columns: ``s`` text (decimal digits in pairs: a string, its bytes, an integer or hex
bytes), ``b`` binary, ``i`` int, ``l`` bigint and ``u`` UUID text."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest

from kpart import partition_for_key
from kpart.errors import ConfigError
from kpart.producer.serializers import SERIALIZERS, serialize_key
from kpart.spark import with_partition
from kpart.spark._keys import bad_keys_as_config_errors
from kpart.spark.compat import measure_compat
from kpart.spark.key_loads import measure_loads
from kpart.spark.whatif import measure_whatif
from kpart.topology import default_topology

pytestmark = pytest.mark.spark

N = 8
_U = [str(uuid.UUID(int=i * 0x0123456789ABCDEF0123456789ABCDEF % (1 << 128))) for i in range(4)]
#: column → (Spark type, values); None is a null key
COLUMNS = {
    "s": ("string", ["12", "0042", "99", "1234", None, "12", "00"]),
    "b": ("binary", [b"\x00\x01", b"", b"kafka", b"\xff", None, b"kafka", b"12"]),
    "i": ("int", [5, -1, 32000, 0, None, 5, -32768]),
    "l": ("bigint", [5, -1, 32000, 0, None, 5, 32767]),
    "u": ("string", [_U[0].upper(), _U[1], _U[2], _U[3], None, _U[0], _U[1].upper()]),
}
#: (serializer, column) pairs every job accepts
ACCEPTED = {
    ("string", "s"), ("bytes", "s"), ("int", "s"), ("long", "s"), ("short", "s"), ("hex", "s"),
    ("bytes", "b"),
    ("int", "i"), ("long", "i"), ("short", "i"),
    ("int", "l"), ("long", "l"), ("short", "l"),
    ("string", "u"), ("bytes", "u"), ("uuid", "u"),
}
#: pairs whose column type fits but whose values the serializer cannot represent (found by
#: the job); every other pair is refused for its column type, before any Spark job
BAD_VALUES = {("uuid", "s"), ("int", "u"), ("long", "u"), ("short", "u"), ("hex", "u")}
PAIRS = [(s, c) for s in SERIALIZERS for c in COLUMNS]


@pytest.fixture(scope="module")
def df(spark):
    rows = list(zip(*(values for _, values in COLUMNS.values()), strict=True))
    schema = ", ".join(f"{name} {dtype}" for name, (dtype, _) in COLUMNS.items())
    return spark.createDataFrame(rows, schema).repartition(2).cache()


def _kafka_partitions(column: str, serializer: str) -> list[int]:
    """Records per partition as Kafka places the non-null keys (the pure core)."""
    counts: Counter[int] = Counter()
    for value in COLUMNS[column][1]:
        if value is None:
            continue
        if serializer == "bytes" and isinstance(value, str):
            value = value.encode()  # a text column under bytes: its UTF-8
        counts[partition_for_key(serialize_key(value, serializer), N)] += 1
    return [counts[p] for p in range(N)]


def _run(job):
    """``("ok", records per partition)`` or ``("error", parameter, message)``."""
    try:
        with bad_keys_as_config_errors():
            return ("ok", list(job()))
    except ConfigError as e:
        return ("error", e.parameter, str(e))


def _jobs(df, column: str, serializer: str, *, report: bool = True) -> dict[str, tuple]:
    def partitioned():
        rows = df.transform(with_partition(column, N, serializer)).collect()
        counts = Counter(r["partition"] for r in rows if r["partition"] is not None)
        return [counts[p] for p in range(N)]

    jobs = {
        "compat": _run(lambda: measure_compat(
            df, column, N, ["java:default", "sarama:hash"],
            serializer=serializer).records_per_partition[0]),
        "whatif": _run(lambda: measure_whatif(
            df, column, N, [N + 4], serializer=serializer).scenarios[0].records),
        "with_partition": _run(partitioned),
    }
    if report:
        topic = default_topology().with_topic(key=column, key_serializer=serializer,
                                              partitions=N).topic
        jobs["report"] = _run(lambda: measure_loads(df, topic, top_k=0).partition_records)
    return jobs


@pytest.mark.parametrize(("serializer", "column"), PAIRS)
def test_report_compat_and_whatif_share_one_key_contract(df, serializer, column):
    got = _jobs(df, column, serializer)
    outcomes = {job: r[0] for job, r in got.items()}
    if (serializer, column) in ACCEPTED:
        assert set(outcomes.values()) == {"ok"}, got
        want = _kafka_partitions(column, serializer)
        assert {job: r[1] for job, r in got.items()} == dict.fromkeys(got, want)
        return
    assert set(outcomes.values()) == {"error"}, got
    if (serializer, column) in BAD_VALUES:  # found by each job, worded by each job
        for job, (_, parameter, message) in got.items():
            assert parameter == "key", (job, message)
            assert f"'{column}'" in message and "serializer cannot represent" in message, (
                job, message)
        return
    messages = {r[2] for r in got.values()}
    assert len(messages) == 1, got  # the same words from every job
    dtype = COLUMNS[column][0]
    assert {r[1] for r in got.values()} == {"serializer"}
    assert messages == {f"serializer: {serializer!r} cannot serialize column {column!r} of "
                        f"type {dtype}" + _hint(serializer, dtype)}


def _hint(serializer: str, dtype: str) -> str:
    if serializer == "string" and dtype in ("int", "bigint"):
        java = {"int": "int", "bigint": "long"}[dtype]
        return (f": Kafka's StringSerializer cannot take a number; use serializer {java} "
                "(the producer's Java type)")
    if serializer == "hex":
        return ": 'hex' takes text of hex digits" + (
            "; a binary column is its bytes already: use serializer bytes"
            if dtype == "binary" else "")
    return ""


def test_a_binary_key_under_string_is_refused_by_every_job(df):
    # the bug of issue 11: compat took a binary column under 'string' that report refused
    got = _jobs(df, "b", "string")
    assert {r[2] for r in got.values()} == {
        "serializer: 'string' cannot serialize column 'b' of type binary"}


def test_an_unknown_serializer_is_named_alike_by_every_job(df):
    # (a topology refuses it before the report's job: topic.key_serializer)
    got = _jobs(df, "s", "float", report=False)
    assert {(r[1], r[2]) for r in got.values()} == {(
        "serializer", "serializer: unknown key serializer 'float' (known: string, int, long, "
        "short, uuid, bytes, hex)")}
