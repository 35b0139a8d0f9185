"""Issue 24, reading users' datasets correctly: timestamp units (4a), malformed JSON lines
(4b), a key column null in every record (4c), Parquet nanosecond timestamps (6), a CSV's
byte-order mark and duplicated header, a JSON file's metadata first line (9), and the window
grid checked before the work (10).

The checks before Spark are plain tests; the few Spark ones share the session fixture."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kpart.errors import ConfigError, KpartWarning
from kpart.spark.datasets import dataset_columns, key_type
from kpart.spark.inputs import resolve_input, resolve_topic_input
from kpart.topology import (
    Broker,
    ConsumerGroupConfig,
    GroupMemberConfig,
    TopicConfig,
    Topology,
    topology_from_dict,
)

T0 = 1_714_557_600_000  # 2024-05-01T10:00:00Z, on a minute


def _topic(path: Path, *, timestamp: str | None = "ts", unit: str | None = None,
           name: str = "clicks", key: str = "user", partitions: int = 4) -> TopicConfig:
    unit_field = {} if unit is None else {"timestamp_unit": unit}
    return TopicConfig(name, partitions, 1, key, placement_seed=1, data=str(path),
                       timestamp=timestamp, **unit_field)


# -- 4(a) timestamp units, before Spark --------------------------------------------------------


def test_epoch_milliseconds_in_a_csv_are_accepted(tmp_path):
    csv = tmp_path / "clicks.csv"
    csv.write_text(f"user,ts\nu1,{T0}\nu2,{T0 + 60_000}\n")
    assert resolve_topic_input(_topic(csv), 0).fmt == "csv"


def test_epoch_seconds_read_as_milliseconds_are_refused_naming_the_unit(tmp_path):
    csv = tmp_path / "clicks.csv"
    csv.write_text(f"user,ts\nu1,{T0 // 1000}\nu2,{T0 // 1000 + 60}\n")
    with pytest.raises(ConfigError, match=r"^topics\[0\] \(clicks\)\.timestamp: column 'ts', "
                       r"record 1 of '.*clicks\.csv': 1714557600 read as epoch milliseconds is "
                       r"1970-01-20T20:15:57Z, before 1971 \(not a time kpart guesses: if the "
                       r"values are epoch seconds, set timestamp_unit = \"s\", --timestamp-unit "
                       r"s\)$"):
        resolve_topic_input(_topic(csv), 0)
    resolve_topic_input(_topic(csv, unit="s"), 0)  # the unit said: accepted


@pytest.mark.parametrize(("values", "unit", "fits"), [
    ([T0 * 1_000_000], "ms", "nanoseconds"),     # after 2200 as milliseconds
    ([T0 * 1000], "ms", "microseconds"),
    ([T0], "s", "milliseconds"),                 # milliseconds read as seconds: after 2200
])
def test_integer_timestamps_in_another_unit_are_refused(tmp_path, values, unit, fits):
    path = tmp_path / "clicks.parquet"
    pq.write_table(pa.table({"user": ["a"] * len(values), "ts": pa.array(values, pa.int64())}),
                   path)
    with pytest.raises(ConfigError, match=f"if the values are epoch {fits}"):
        resolve_topic_input(_topic(path, unit=unit), 0)


def test_a_unit_is_refused_where_it_means_nothing(tmp_path):
    path = tmp_path / "clicks.parquet"
    pq.write_table(pa.table({"user": ["a"], "ts": pa.array([T0], pa.timestamp("ms"))}), path)
    with pytest.raises(ConfigError, match=r"^topics\[0\] \(clicks\)\.timestamp_unit: 's' is the "
                       "unit of integer timestamps; column 'ts' is a timestamp"):
        resolve_topic_input(_topic(path, unit="s"), 0)
    doc = {"cluster": {"brokers": [{"id": 0}]},
           "topics": [{"name": "t", "partitions": 1, "replication_factor": 1, "key": "k"}]}
    doc["topics"][0]["timestamp_unit"] = "s"
    with pytest.raises(ConfigError, match=r"^topics\[0\]\.timestamp_unit: 's' is the unit of the "
                       "timestamp column, and the topic has none"):
        topology_from_dict(doc)
    doc["topics"][0].update(timestamp="ts", timestamp_unit="sec")
    with pytest.raises(ConfigError, match=r"^topics\[0\]\.timestamp_unit: unknown value 'sec' "
                       r"\(expected one of s, ms, us, ns\)"):
        topology_from_dict(doc)
    doc["topics"][0]["timestamp_unit"] = "us"
    assert topology_from_dict(doc).topics[0].timestamp_unit == "us"


# -- 9: what real files look like, before Spark ------------------------------------------------


def test_a_csv_with_a_byte_order_mark_reads_its_first_column(tmp_path):
    csv = tmp_path / "excel.csv"
    csv.write_bytes(b"\xef\xbb\xbfuser_id,v\r\nu1,1\r\nu2,2\r\n")
    assert dataset_columns(csv, "csv") == ["user_id", "v"]
    assert resolve_input(csv, None, "user_id", "string").key == "user_id"


def test_a_duplicated_csv_header_is_named_before_spark(tmp_path):
    csv = tmp_path / "e.csv"
    csv.write_text("user_id,v,user_id\nu1,1,u1\n")
    with pytest.raises(ConfigError, match=r"^path: '.*e\.csv': the CSV header names column "
                       r"'user_id' twice \(columns 1 and 3\); give each column its own name$"):
        resolve_input(csv, None, "v", "string")
    csv.write_text("user_id,v,USER_ID\nu1,1,u1\n")  # Spark compares names case aside
    with pytest.raises(ConfigError, match=r"twice \(columns 1 and 3: 'user_id', 'USER_ID'\)"):
        resolve_input(csv, None, "v", "string")


def test_a_json_metadata_first_line_does_not_hide_the_key(tmp_path):
    js = tmp_path / "events.jsonl"
    js.write_text('{"schema": "v2", "exported_by": "tool"}\n'
                  + "".join(json.dumps({"user": f"u{i}", "n": i}) + "\n" for i in range(5)))
    assert set(dataset_columns(js, "json")) == {"schema", "exported_by", "user", "n"}
    assert key_type(js, "json", "user") == "string"
    assert resolve_input(js, None, "user", "string").key == "user"
    ts = tmp_path / "timed.jsonl"
    ts.write_text('{"meta": 1}\n' + json.dumps({"user": "a", "ts": T0 // 1000}) + "\n")
    with pytest.raises(ConfigError, match="if the values are epoch seconds"):
        resolve_topic_input(_topic(ts), 0)


def test_a_malformed_line_does_not_stop_the_checks_before_spark(tmp_path):
    js = tmp_path / "events.jsonl"
    js.write_text('{"user": 1}\n{"user": 2}\n{"user": 3, "n\n')  # Spark's pass refuses it
    assert resolve_input(js, None, "user", "long").key == "user"


def test_parquet_nanosecond_columns_are_found_without_spark(tmp_path):
    from kpart.spark.datasets import parquet_nanos_columns

    path = tmp_path / "pandas.parquet"
    pq.write_table(pa.table({"k": ["a"], "at": pa.array([T0 * 1_000_000], pa.timestamp("ns")),
                             "utc": pa.array([0], pa.timestamp("ns", tz="UTC")),
                             "ms": pa.array([T0], pa.timestamp("ms"))}), path)
    assert parquet_nanos_columns(path) == {"at": False, "utc": True}


# -- with Spark --------------------------------------------------------------------------------


def _report(spark: Any, path: Path, key: str, **kw: Any) -> dict[str, Any]:
    from kpart.spark.pipeline import run_report

    topo = Topology((Broker(0, None),), (TopicConfig("t", 3, 1, key, placement_seed=5),), ())
    return run_report(spark, topo, resolve_input(path, None, key, "string"), **kw)


@pytest.mark.spark
def test_malformed_json_lines_are_refused_or_counted_apart(spark, tmp_path):
    js = tmp_path / "events.jsonl"
    js.write_text("".join(json.dumps({"user": f"u{i % 3}", "n": i}) + "\n" for i in range(6))
                  + '{"user": "u9", "n\n')
    with pytest.raises(ConfigError, match=r"^path: '.*events\.jsonl', line 7: malformed JSON "
                       r"record '\{\"user\": \"u9\", \"n' .*pass bad_records count") as e:
        _report(spark, js, "user")
    assert e.value.mentions == ("bad_records",)
    summary = _report(spark, js, "user", bad_records="count")
    assert summary["malformed_records"] == 1
    assert (summary["records"], summary["null_key_records"]) == (6, 0)
    good = tmp_path / "good.jsonl"
    good.write_text('{"user": "a"}\n')
    assert "malformed_records" not in _report(spark, good, "user")  # fail: nothing to count


@pytest.mark.spark
def test_a_key_null_in_every_record_is_one_warning(spark, tmp_path):
    csv = tmp_path / "e.csv"
    csv.write_text("user_id,v\n,1\n,2\n,3\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        summary = _report(spark, csv, "user_id")
    assert summary["null_key_records"] == 3
    lines = [str(w.message) for w in caught if issubclass(w.category, KpartWarning)]
    assert lines == ["key column 'user_id' is null in every record (3): the partitions' loads "
                     "are the null-key model's draws, not the keys' (check the key column's "
                     "name)"]


@pytest.mark.spark
def test_parquet_nanosecond_timestamps_are_read(spark, tmp_path):
    from kpart.analysis.layout import resolve_topology
    from kpart.producer.partition_count import default_limits
    from kpart.spark.cluster_job import measure_topics

    path = tmp_path / "pandas.parquet"
    ns = [T0 * 1_000_000 + 999_999, (T0 + 61_000) * 1_000_000, (T0 + 125_000) * 1_000_000 + 1]
    pq.write_table(pa.table({"user": ["a", "b", "c"],
                             "ts": pa.array(ns, pa.timestamp("ns", tz="UTC")),
                             "seen": pa.array(ns, pa.timestamp("ns"))}), path)
    assert _report(spark, path, "user")["records"] == 3  # a column neither key nor timestamp
    for column in ("ts", "seen"):  # the instant and the wall clock (UTC)
        rt = resolve_topology(Topology((Broker(0, None),), (_topic(path, timestamp=column),),
                                       ()))
        (m,) = measure_topics(spark, SimpleNamespace(topics=(rt,)),
                              {"clicks": resolve_topic_input(rt.topic, 0)},
                              window_ms=60_000, limits=default_limits())
        assert m.windows is not None
        assert (m.windows.start_ms, m.windows.windows) == (T0, 3)
        assert m.windows.records.sum(axis=0).tolist() == [1, 1, 1]


def _measure_cluster(spark: Any, *topics: TopicConfig, steps: list[str] | None = None) -> Any:
    from kpart.analysis.layout import resolve_cluster
    from kpart.producer.partition_count import default_limits
    from kpart.spark.cluster_job import measure_topics

    group = ConsumerGroupConfig("g", "range", tuple(GroupMemberConfig(f"m{i}")
                                                    for i in range(40)))
    topo = Topology((Broker(0, None), Broker(1, None)), topics, (group,), form="topics")
    specs = {t.name: resolve_topic_input(t, i) for i, t in enumerate(topo.topics)}
    return measure_topics(spark, resolve_cluster(topo), specs, window_ms=60_000,
                          limits=default_limits(),
                          on_step=(steps if steps is not None else []).append)


@pytest.mark.spark
def test_timestamp_units_are_read_and_every_value_checked_before_the_job(spark, tmp_path):
    seconds = tmp_path / "seconds.csv"  # epoch seconds: 150 records over 150 s
    seconds.write_text("user,ts\n" + "".join(f"u{i},{T0 // 1000 + i}\n" for i in range(150)))
    (m,) = _measure_cluster(spark, _topic(seconds, unit="s"))
    assert m.windows is not None and (m.windows.start_ms, m.windows.windows) == (T0, 3)
    bad = tmp_path / "bad.csv"  # one value in milliseconds, past the first values checked
    bad.write_text(seconds.read_text() + f"u9,{T0}\n")
    steps: list[str] = []
    with pytest.raises(ConfigError, match=r"^topics\[0\] \(clicks\)\.timestamp: column 'ts': "
                       r"1714557600000 read as epoch seconds is .*after 2200 .*epoch "
                       "milliseconds"):
        _measure_cluster(spark, _topic(bad, unit="s"), steps=steps)
    assert not any("hashing" in s for s in steps), steps


@pytest.mark.spark
def test_the_common_grid_is_checked_before_the_jobs(spark, tmp_path):
    early = tmp_path / "early.csv"  # epoch milliseconds, minutes long
    early.write_text("user,ts\n" + "".join(f"u{i},{T0 + i * 1000}\n" for i in range(150)))
    late = tmp_path / "late.csv"  # 200 days later: the common grid of 1m windows is too large
    late.write_text("user,ts\n" + "".join(f"u{i},{T0 + 200 * 86_400_000 + i * 1000}\n"
                                          for i in range(150)))
    steps: list[str] = []
    with pytest.raises(ConfigError, match=r"^window: the topics' windows lie on one grid from "
                       r"2024-05-01T10:00:00Z \(topic 'clicks'\) to .* \(topic 'late'\)"):
        _measure_cluster(spark, _topic(early, partitions=100),
                         _topic(late, name="late", partitions=100), steps=steps)
    assert "late: time range" in steps  # every range read, and no topic's job started
    assert not any("hashing" in s for s in steps), steps
