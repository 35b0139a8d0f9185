"""Keys as the producer sent them (issue 10, points 4, 5, 7 and 10): CSV and JSON keys read as
text, serializers that never wrap or guess, nested fields as keys, and empty inputs."""

from __future__ import annotations

import json
import warnings
from collections import Counter

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kpart import partition_for_key
from kpart.cli import main
from kpart.errors import ConfigError, KpartWarning
from kpart.producer.serializers import serialize_key
from kpart.spark.pipeline import measure_loads, resolve_input, run_report
from kpart.topology import default_topology

N = 12


def _topology(key: str, serializer: str = "string", n: int = N):
    return default_topology().with_topic(key=key, key_serializer=serializer, partitions=n)


def _json_len(doc: dict) -> int:
    """Spark's to_json of a record: compact, null fields left out, UTF-8."""
    doc = {k: v for k, v in doc.items() if v is not None}
    return len(json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode())


# -- point 4: CSV keys as the producer sent them ----------------------------------------------

#: (field as written in the CSV, the key Spark must read): quoted "" is the empty string, an
#: absent field (nothing between the delimiters) is null
_CSV_KEYS = [("007", "007"), ("0123", "0123"), ("123", "123"), ('""', ""), ("", None),
             ("N14228", "N14228"), ('"a,b"', "a,b"), ("7", "7")]


@pytest.fixture(scope="module")
def csv_200(tmp_path_factory):
    rows = [(_CSV_KEYS[i % len(_CSV_KEYS)], i) for i in range(200)]
    path = tmp_path_factory.mktemp("csv") / "keys.csv"
    path.write_text("k,v\n" + "".join(f"{field},{v}\n" for (field, _), v in rows),
                    encoding="utf-8")
    return path, [(key, v) for (_, key), v in rows]


@pytest.mark.spark
def test_csv_keys_are_text_and_empty_keys_are_hashed(spark, csv_200):
    path, rows = csv_200
    s = run_report(spark, _topology("k"), resolve_input(path, None, "k", "string"))
    keyed = [k for k, _ in rows if k is not None]
    counts = Counter(partition_for_key(k.encode(), N) for k in keyed)
    parts = s["partitions"]
    assert [p["keyed_records"] for p in parts] == [counts[p] for p in range(N)]
    assert s["null_key_records"] == sum(k is None for k, _ in rows) == 25
    assert s["empty_key_records"] == keyed.count("") == 25
    assert s["distinct_keys"] == len(set(keyed)) == 7  # 007, 0123 and 123 stay apart
    by_key = {h["key"]: h["partition"] for h in s["hot_keys"]}
    assert by_key[""] == partition_for_key(b"", N)  # Kafka hashes the empty key
    assert by_key["007"] == partition_for_key(b"007", N)
    # record bytes: the key's bytes + the record as JSON, every CSV column as its text
    sizes = Counter()
    for k, v in rows:
        if k is not None:
            sizes[partition_for_key(k.encode(), N)] += len(k.encode()) + _json_len(
                {"k": k, "v": str(v)})
    assert [p["keyed_bytes"] for p in parts] == [sizes[p] for p in range(N)]


@pytest.mark.spark
def test_csv_text_under_int_is_parsed_as_integer_parse_int(spark, tmp_path):
    keys = ["007", "0123", "123", "-5", "+5", None, "2147483647"] * 20
    path = tmp_path / "ints.csv"
    path.write_text("k,v\n" + "".join(f"{k or ''},{i}\n" for i, k in enumerate(keys)))
    loads = measure_loads(_read(spark, path), _topology("k", "int").topic)
    counts = Counter(partition_for_key(serialize_key(int(k), "int"), N)
                     for k in keys if k is not None)
    assert loads.partition_records == tuple(counts[p] for p in range(N))
    assert sum(loads.partition_keys) == 5  # 0123 and 123 are the int 123; 5 and +5 are 5
    assert loads.null_key_records == keys.count(None)


def _read(spark, path):
    from kpart.spark.datasets import read_dataset

    return read_dataset(spark, path, "csv")


# -- point 5: serializers never wrap or guess -------------------------------------------------

BIG = -1099486074322  # as int it wraps to partition 9 of 12; as a long it is partition 10


@pytest.mark.spark
def test_int_serializer_refuses_a_bigint_out_of_range(spark):
    assert partition_for_key(serialize_key(BIG, "long"), N) == 10
    df = spark.createDataFrame([(1, i) for i in range(5)] + [(BIG, 9), (BIG, 10), (2**31, 11)],
                               "k bigint, v int")
    with pytest.raises(ConfigError, match=r"'k' holds 3 record\(s\) the int serializer cannot "
                                          r"represent; first bad value: '-1099486074322'"):
        measure_loads(df, _topology("k", "int").topic)
    loads = measure_loads(df, _topology("k", "long").topic)
    assert loads.partition_records[10] >= 2  # the long key lands where Kafka puts it
    small = df.where("k = 1")
    assert sum(measure_loads(small, _topology("k", "int").topic).partition_records) == 5


@pytest.mark.spark
@pytest.mark.parametrize(("serializer", "values", "bad"), [
    ("uuid", ["00112233-4455-6677-8899-AABBCCDDEEFF", "not-a-uuid", None], "'not-a-uuid'"),
    ("int", ["12", "12x", "", " 1"], "''"),
    ("short", ["1", "40000"], "'40000'"),
    ("long", ["1", "9223372036854775808"], "'9223372036854775808'"),
])
def test_text_the_serializer_cannot_represent_is_an_error(spark, serializer, values, bad):
    df = spark.createDataFrame([(v,) for v in values], "k string")
    with pytest.raises(ConfigError, match=f"first bad value: {bad}"):
        measure_loads(df, _topology("k", serializer).topic)


@pytest.mark.spark
def test_uuid_keys_hash_as_uuid_to_string(spark):
    u = "00112233-4455-6677-8899-AABBCCDDEEFF"
    df = spark.createDataFrame([(u,), (u.lower(),), (None,)], "k string")
    loads = measure_loads(df, _topology("k", "uuid").topic)
    assert loads.partition_records[partition_for_key(serialize_key(u, "uuid"), N)] == 2
    assert loads.hot_keys[0].key == u.lower() and sum(loads.partition_keys) == 1


@pytest.mark.spark
def test_with_partition_compat_and_whatif_never_wrap(spark):
    from kpart.spark import with_partition
    from kpart.spark.compat import measure_compat
    from kpart.spark.whatif import measure_whatif

    df = spark.createDataFrame([(BIG,), (1,)], "k bigint")
    fails = "key column 'k': the 'int' serializer cannot represent the key -1099486074322"
    with pytest.raises(Exception, match=fails):  # a Spark error: the job fails
        df.transform(with_partition("k", N, "int")).collect()
    with pytest.raises(ConfigError, match=f"^--key: {fails}$"):
        measure_compat(df, "k", N, serializer="int")
    with pytest.raises(ConfigError, match=f"^--key: {fails}$"):
        measure_whatif(df, "k", N, [16], serializer="int")
    got = df.transform(with_partition("k", N, "long")).collect()
    assert {r["k"]: r["partition"] for r in got}[BIG] == 10


@pytest.mark.spark
def test_a_bigint_key_under_string_gets_the_serializer_to_use(spark):
    df = spark.createDataFrame([(1,)], "k bigint")
    with pytest.raises(ConfigError, match="use --serializer long"):
        measure_loads(df, _topology("k").topic)


# -- point 7: nested fields as keys -----------------------------------------------------------

_DEVICES = ["d-1", "d-2", None, "d-1", "日本", "", "d-3"]


@pytest.fixture(scope="module")
def nested_parquet(tmp_path_factory):
    path = tmp_path_factory.mktemp("nested") / "events.parquet"
    table = pa.table({
        "device": pa.array([{"id": d, "n": i} for i, d in enumerate(_DEVICES)]),
        "device.id": pa.array([f"top-{i}" for i in range(len(_DEVICES))]),
        "v": list(range(len(_DEVICES))),
    })
    pq.write_table(table, path)
    return path


def _expected_partitions(keys) -> tuple[int, ...]:
    counts = Counter(partition_for_key(k.encode(), N) for k in keys if k is not None)
    return tuple(counts[p] for p in range(N))


@pytest.mark.spark
def test_a_struct_field_is_a_key_in_parquet_and_json(spark, nested_parquet, tmp_path):
    s = run_report(spark, _topology("device.id"),
                   resolve_input(nested_parquet, None, "device.id", "string"))
    assert tuple(p["keyed_records"] for p in s["partitions"]) == _expected_partitions(_DEVICES)
    assert s["null_key_records"] == 1 and s["empty_key_records"] == 1
    # the top-level column whose name holds a dot: backticks, as in Spark SQL
    s = run_report(spark, _topology("`device.id`"),
                   resolve_input(nested_parquet, None, "`device.id`", "string"))
    tops = [f"top-{i}" for i in range(len(_DEVICES))]
    assert tuple(p["keyed_records"] for p in s["partitions"]) == _expected_partitions(tops)
    path = tmp_path / "events.jsonl"
    path.write_text("".join(json.dumps({"device": {"id": d, "n": 1}, "v": i}) + "\n"
                            for i, d in enumerate(_DEVICES)), encoding="utf-8")
    s = run_report(spark, _topology("device.id"), resolve_input(path, None, "device.id"))
    assert tuple(p["keyed_records"] for p in s["partitions"]) == _expected_partitions(_DEVICES)


@pytest.mark.spark
def test_json_keys_are_the_text_of_their_values(spark, tmp_path):
    # Spark infers 7 and "7" as one column of strings only when they mix; a key column read as
    # text keeps what the producer wrote: 1.50 stays "1.50", 7 is "7"
    path = tmp_path / "nums.jsonl"
    values = [7, 1.50, 123, 7, None]
    path.write_text("".join(
        ("{\"k\": 1.50, \"v\": 1}" if v == 1.50 else json.dumps({"k": v, "v": 1})) + "\n"
        for v in values), encoding="utf-8")
    s = run_report(spark, _topology("k"), resolve_input(path, None, "k", "string"))
    keys = ["7", "1.50", "123", "7"]
    assert tuple(p["keyed_records"] for p in s["partitions"]) == _expected_partitions(keys)
    with pytest.raises(ConfigError, match="'1.50'"):  # Long.parseLong("1.50") fails
        run_report(spark, _topology("k", "long"), resolve_input(path, None, "k"))


# -- point 10: an empty input is found before Spark and reported as such ----------------------

@pytest.mark.parametrize(("name", "content"), [
    ("header.csv", "k,v\n"), ("empty.jsonl", ""), ("blank.jsonl", "\n\n"),
    ("empty.csv", ""), ("empty.parquet", None),
])
def test_an_empty_input_is_a_report_that_says_so(tmp_path, capsys, name, content):
    path = tmp_path / name
    if content is None:
        pq.write_table(pa.table({"k": pa.array([], pa.string())}), path)
    else:
        path.write_text(content, encoding="utf-8")
    spec = resolve_input(path, None, "k", "string")
    assert spec.records == 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        s = run_report(None, _topology("k"), spec, whatif=[16], compat="default")
    assert any(issubclass(w.category, KpartWarning) and "no records" in str(w.message)
               for w in caught)
    assert s["records"] == 0 and s["whatif"]["records"] == 0
    out = tmp_path / "report"
    assert main(["report", str(path), "--key", "k", "--out", str(out)]) == 0  # no Spark
    captured = capsys.readouterr()
    assert f"no records in {path}" in captured.out
    assert f"kpart: warning: no records in {path}" in captured.err
    page = (out / "report.html").read_text(encoding="utf-8")
    assert 'id="no-records"' in page and "chart-partition-records" not in page
    assert json.loads((out / "summary.json").read_text())["records"] == 0


# -- one rule: the Spark checks and ``kpart partition``'s serializers agree --------------------

@pytest.mark.parametrize(("value", "serializer"), [
    ("0123", "int"), ("+5", "long"), ("-0", "short"), ("2147483647", "int"),
    ("2147483648", "int"), ("1_000", "int"), ("١٢", "int"), ("1.0", "long"), ("", "int"),
    ("32768", "short"), ("-9223372036854775808", "long"), ("9223372036854775808", "long"),
    ("00112233-4455-6677-8899-AABBCCDDEEFF", "uuid"), ("not-a-uuid", "uuid"),
    ("{00112233-4455-6677-8899-aabbccddeeff}", "uuid"),
    ("00112233445566778899aabbccddeeff", "uuid"),
    ("urn:uuid:00112233-4455-6677-8899-aabbccddeeff", "uuid"),
])
def test_spark_value_rule_is_kpart_partitions_rule(value, serializer):
    from kpart.spark._keys import value_problem

    try:
        serialize_key(value, serializer)
        accepted = True
    except ConfigError:
        accepted = False
    assert (value_problem(value, serializer) is None) == accepted


@pytest.mark.parametrize(("key", "parts"), [
    ("k", ("k",)), ("device.id", ("device", "id")), ("`device.id`", ("device.id",)),
    ("`a.b`.c", ("a.b", "c")), ("`a``b`", ("a`b",)), ("a.`b.c`.d", ("a", "b.c", "d")),
])
def test_key_paths_split_as_spark_splits_column_names(key, parts):
    from kpart.spark._keys import parse_key_path

    assert parse_key_path(key) == parts


def test_flights_key_types_are_known_before_spark():
    from kpart.spark.datasets import _spark_type_name, flights_table
    from kpart.spark.pipeline import flights_key_type

    schema = flights_table(10).schema
    assert {f.name: flights_key_type(f.name) for f in schema} == {
        f.name: ("timestamp" if f.name == "time_hour" else _spark_type_name(f.type))
        for f in schema}
    with pytest.raises(ConfigError, match="use --serializer long"):
        resolve_input(None, None, "flight", "string")
    assert resolve_input(None, None, "flight", "long").path is None


@pytest.mark.spark
def test_checking_the_keys_adds_no_spark_job(spark):
    """The validity of every key is counted inside the aggregation that already runs: on clean
    data the checked serializers run as many Spark jobs as the unchecked string serializer."""
    df = spark.createDataFrame([(str(i % 50),) for i in range(500)], "k string")

    def jobs(serializer: str, group: str) -> int:
        sc = spark.sparkContext
        sc.setJobGroup(group, group)
        try:
            measure_loads(df, _topology("k", serializer).topic, top_k=3)
        finally:
            sc.setLocalProperty("spark.jobGroup.id", None)
        return len(sc.statusTracker().getJobIdsForGroup(group))

    assert jobs("int", "kpart-checked") == jobs("string", "kpart-unchecked") > 0


@pytest.mark.spark
def test_with_partition_takes_a_nested_key_and_keeps_the_columns(spark, nested_parquet):
    from kpart.spark import with_partition

    df = spark.read.parquet(str(nested_parquet))
    out = df.transform(with_partition("device.id", N))
    assert out.columns == [*df.columns, "partition"]
    got = [(r["device"]["id"] if r["device"] else None, r["partition"]) for r in out.collect()]
    assert got == [(d, None if d is None else partition_for_key(d.encode(), N))
                   for d in _DEVICES]


@pytest.mark.spark
def test_invalid_keys_can_be_counted_apart(spark, tmp_path, capsys):
    keys = ["1", "2", "x", "2147483648", None, "3", "1"] * 3
    path = tmp_path / "mixed.csv"
    path.write_text("k,v\n" + "".join(f"{k or ''},{i}\n" for i, k in enumerate(keys)))
    out = tmp_path / "report"
    argv = ["report", str(path), "--key", "k", "--serializer", "int", "--out", str(out),
            "--quiet", "--whatif", "16"]
    assert main(argv) == 2
    assert "record 3 of" in capsys.readouterr().err  # found in the first records, no Spark
    assert not out.exists()
    assert main([*argv, "--invalid-keys", "count"]) == 0
    s = json.loads((out / "summary.json").read_text())
    good = [int(k) for k in keys if k is not None and k not in ("x", "2147483648")]
    counts = Counter(partition_for_key(serialize_key(k, "int"), N) for k in good)
    assert [p["keyed_records"] for p in s["partitions"]] == [counts[p] for p in range(N)]
    assert s["invalid_key_records"] == 6 and s["null_key_records"] == 3
    assert s["records"] == len(good) + 3 and s["whatif"]["records"] == len(good)
