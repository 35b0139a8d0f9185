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
from kpart.spark.inputs import resolve_input
from kpart.spark.key_loads import measure_loads
from kpart.spark.pipeline import run_report
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
    # a final line break: Java's '$' would match before it; Integer.parseInt and
    # UUID.fromString refuse it, and so does the command line
    ("int", ["12", "12\n"], "'12\\\\n'"),
    ("uuid", ["00112233-4455-6677-8899-aabbccddeeff\n"],
     "'00112233-4455-6677-8899-aabbccddeeff\\\\n'"),
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
    with pytest.raises(ConfigError, match=f"^key: {fails}$"):
        measure_compat(df, "k", N, serializer="int")
    with pytest.raises(ConfigError, match=f"^key: {fails}$"):
        measure_whatif(df, "k", N, [16], serializer="int")
    got = df.transform(with_partition("k", N, "long")).collect()
    assert {r["k"]: r["partition"] for r in got}[BIG] == 10


@pytest.mark.spark
def test_a_bigint_key_under_string_gets_the_serializer_to_use(spark):
    df = spark.createDataFrame([(1,)], "k bigint")
    with pytest.raises(ConfigError, match="use serializer long"):
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
    from kpart.spark.inputs import flights_key_type

    schema = flights_table(10).schema
    assert {f.name: flights_key_type(f.name) for f in schema} == {
        f.name: ("timestamp" if f.name == "time_hour" else _spark_type_name(f.type))
        for f in schema}
    with pytest.raises(ConfigError, match="use serializer long"):
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


# -- one serializer list: ``hex`` text columns (issue 10, point 18) ----------------------------

#: hex text as ``kpart partition --serializer hex`` takes it: any case, whitespace between
#: pairs, ``""`` and whitespace alone are the empty key; ``None``: a null key
_HEX = ["00ff", "C3A9", "c3a9", "", "  ", "de ad\tbe ef", "0000bbc5", None, "7f"]


def _hex_dataset(tmp_path, fmt: str, keys) -> object:
    rows = [(keys[i % len(keys)], i) for i in range(4 * len(keys))]
    if fmt == "csv":
        path = tmp_path / "hex.csv"
        path.write_text("k,v\n" + "".join(f'{"" if k is None else chr(34) + k + chr(34)},{v}\n'
                                          for k, v in rows), encoding="utf-8")
    else:
        path = tmp_path / "hex.parquet"
        pq.write_table(pa.table({"k": pa.array([k for k, _ in rows], pa.string()),
                                 "v": pa.array([str(v) for _, v in rows])}), path)
    return path, rows


@pytest.mark.spark
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_hex_text_keys_are_partitioned_by_their_bytes(spark, tmp_path, fmt):
    from kpart.spark import with_partition
    from kpart.spark.datasets import read_dataset

    path, rows = _hex_dataset(tmp_path, fmt, _HEX)
    df = read_dataset(spark, path, fmt, "k")
    for partitioner in ("java:default", "sarama:hash"):  # the JVM path and the Arrow kernels
        got = df.transform(with_partition("k", N, "hex", partitioner=partitioner)).collect()
        keyed = sorted((int(r["v"]), r["k"], r["partition"]) for r in got if r["k"] is not None)
        assert keyed == [(v, k, partition_for_key(bytes.fromhex(k), N, partitioner))
                         for k, v in rows if k is not None], partitioner
    # the report: loads per partition, key size = the decoded length, b"" an empty key
    s = run_report(spark, _topology("k", "hex"), resolve_input(path, fmt, "k", "hex"))
    keyed = [(bytes.fromhex(k), k, v) for k, v in rows if k is not None]
    counts = Counter(partition_for_key(b, N) for b, _, _ in keyed)
    sizes = Counter()
    for b, k, v in keyed:
        sizes[partition_for_key(b, N)] += len(b) + _json_len({"k": k, "v": str(v)})
    assert [p["keyed_records"] for p in s["partitions"]] == [counts[p] for p in range(N)]
    assert [p["keyed_bytes"] for p in s["partitions"]] == [sizes[p] for p in range(N)]
    assert s["empty_key_records"] == sum(b == b"" for b, _, _ in keyed) == 8
    assert s["distinct_keys"] == len({b for b, _, _ in keyed}) == 6  # C3A9 is c3a9
    assert s["null_key_records"] == 4


@pytest.mark.spark
def test_spark_reads_hex_by_the_rule_of_the_command_line(spark):
    # the Java regex, Spark's unhex and bytes.fromhex agree on every text (or the text is bad)
    from kpart.spark._keys import key_column, prepared_key

    texts = ["", " ", "00ff", "ABcd", " 00 ff\t", "0", "abc", "0x00", "0 0", "00\u2028",
             "00\n", "00\x0b\x0c\r", "gg", "\uff11\uff12", "00\u00a0", "00\x1c", "-1", "+0a"]
    df = spark.createDataFrame([(t,) for t in texts], "k string")
    key, bad = prepared_key(key_column("k"), "string", "hex")
    for r in df.select("k", key.alias("key"), bad.alias("bad")).collect():
        try:
            expected = bytes.fromhex(r["k"])
        except ValueError:
            expected = None
        assert r["bad"] == (expected is None), repr(r["k"])
        assert (None if r["key"] is None else bytes(r["key"])) == expected, repr(r["k"])


@pytest.mark.spark
def test_bad_hex_text_is_one_error_naming_it(spark, tmp_path, capsys):
    df = spark.createDataFrame([(v,) for v in ["00ff", "abc", "0x00", None, "abc", "00"]],
                               "k string")
    with pytest.raises(ConfigError, match=r"^key: column 'k' holds 3 record\(s\) the hex "
                                          r"serializer cannot represent; first bad value: "
                                          r"'0x00' is not hex bytes"):
        measure_loads(df, _topology("k", "hex").topic)
    loads = measure_loads(df, _topology("k", "hex").topic, invalid_keys="count")
    assert loads.invalid_key_records == 3 and loads.null_key_records == 1
    assert sum(loads.partition_records) == 2
    # on the command line, a bad value past the first records is found by the Spark pass
    path = tmp_path / "late.csv"
    path.write_text("k,v\n" + "00ff,1\n" * 150 + "0x1f,2\n")
    out = tmp_path / "report"
    assert main(["report", str(path), "--key", "k", "--serializer", "hex", "--quiet",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("kpart: error:") == 1 and "1 record(s)" in err and "'0x1f'" in err, err
    assert not out.exists()


@pytest.mark.spark
def test_compat_and_whatif_on_a_dataset_take_hex(spark, tmp_path, capsys):
    keys = [k for k in _HEX if k is not None]
    path, rows = _hex_dataset(tmp_path, "csv", keys)
    listed = ",".join(k for k, _ in rows)  # the same records as --keys
    for command, extra in (("compat", ["--partitioners", "java:default,sarama:hash"]),
                           ("whatif", ["--to", "16,24"])):
        assert main([command, str(path), "--key", "k", "-p", str(N), "--serializer", "hex",
                     "--json", *extra]) == 0, capsys.readouterr().err
        on_spark = json.loads(capsys.readouterr().out)[command]
        assert main([command, "--keys", listed, "-p", str(N), "--serializer", "hex",
                     "--json", *extra]) == 0
        from_keys = json.loads(capsys.readouterr().out)[command]
        if command == "whatif":  # the dataset's records have bytes; --keys have none
            on_spark = [(x["num_partitions"], x["records"], x["keys"])
                        for x in on_spark["loads"]]
            from_keys = [(x["num_partitions"], x["records"], x["keys"])
                         for x in from_keys["loads"]]
        assert on_spark == from_keys, command
