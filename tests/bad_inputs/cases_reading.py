"""Bad-input cases of issue 24 on reading users' datasets: timestamp units (4a), malformed JSON
lines (4b), a key column null in every record (4c), a duplicated CSV header (9) and the
window grid of topics months apart (10). The Spark ones are marked ``spark``."""

from __future__ import annotations

import io

import pyarrow as pa
import pyarrow.parquet as pq

from bad_inputs.case import Case

T0 = 1_714_557_600_000  # 2024-05-01T10:00:00Z


def _parquet(table: pa.Table) -> bytes:
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def _topology(*topics: str, members: int = 2) -> str:
    group = ", ".join(f'"m{i}"' for i in range(members))
    return ("[cluster]\nbrokers = [0, 1]\n\n" + "".join(topics)
            + f'[[groups]]\nname = "g"\nstrategy = "range"\nmembers = [{group}]\n')


def _timed(name: str, data: str, extra: str = "", partitions: int = 4) -> str:
    return (f'[[topics]]\nname = "{name}"\ndata = "{data}"\nkey = "user"\ntimestamp = "ts"\n'
            f"partitions = {partitions}\nreplication_factor = 1\nplacement_seed = 1\n{extra}\n")


_SECONDS = "user,ts\n" + "".join(f"u{i},{T0 // 1000 + i}\n" for i in range(5))
_LATE = "user,ts\n" + "".join(f"u{i},{T0 + 200 * 86_400_000 + i * 1000}\n" for i in range(150))
_EARLY = "user,ts\n" + "".join(f"u{i},{T0 + i * 1000}\n" for i in range(150))
_TYPED = _parquet(pa.table({"user": ["a"], "ts": pa.array([T0], pa.timestamp("ms"))}))
_MILLIS = _parquet(pa.table({"user": ["a"], "ts": pa.array([T0], pa.int64())}))


def _report(name: str, *argv: str, names: str, files: dict[str, str | bytes],
            expect: str = "error", marks: tuple[str, ...] = ()) -> Case:
    return Case(f"reading-{name}", ("report", *argv, "--out", "out"), names, files,
                expect=expect, marks=marks)


CASES = [
    _report("csv-duplicate-header", "e.csv", "--key", "v",
            files={"e.csv": "user_id,v,user_id\nu1,1,u1\n"},
            names="'e.csv': the CSV header names column 'user_id' twice (columns 1 and 3)"),
    _report("epoch-seconds-read-as-ms", "--topology", "t.toml",
            files={"t.toml": _topology(_timed("clicks", "s.csv")), "s.csv": _SECONDS},
            names='1714557600 read as epoch milliseconds is 1970-01-20T20:15:57Z, before 1971 '
                  '(not a time kpart guesses: if the values are epoch seconds, set '
                  'timestamp_unit = "s", --timestamp-unit s)'),
    _report("epoch-ms-read-as-seconds", "--topology", "t.toml", "--timestamp-unit", "s",
            files={"t.toml": _topology(_timed("clicks", "m.parquet")), "m.parquet": _MILLIS},
            names="1714557600000 read as epoch seconds"),
    _report("timestamp-unit-unknown", "--topology", "t.toml", "--timestamp-unit", "sec",
            files={"t.toml": _topology(_timed("clicks", "s.csv")), "s.csv": _SECONDS},
            names="--timestamp-unit: expected one of s, ms, us, ns, got 'sec'"),
    _report("timestamp-unit-on-a-timestamp", "--topology", "t.toml",
            files={"t.toml": _topology(_timed("clicks", "t.parquet", 'timestamp_unit = "s"')),
                   "t.parquet": _TYPED},
            names="topics[0] (clicks).timestamp_unit: 's' is the unit of integer timestamps; "
                  "column 'ts' is a timestamp"),
    _report("timestamp-unit-without-timestamp", "--topology", "t.toml",
            files={"t.toml": _topology(_timed("clicks", "s.csv", 'timestamp_unit = "s"')
                                       .replace('timestamp = "ts"\n', "")),
                   "s.csv": _SECONDS},
            names="topics[0].timestamp_unit: 's' is the unit of the timestamp column, and the "
                  "topic has none"),
    _report("timestamp-unit-on-a-single-topic-report", "e.csv", "--key", "user",
            "--timestamp-unit", "s", files={"e.csv": _SECONDS},
            names="--timestamp-unit: applies to a cluster report"),
    _report("bad-records-unknown", "e.csv", "--key", "user", "--bad-records", "skip",
            files={"e.csv": _SECONDS},
            names="--bad-records: expected one of fail, count, got 'skip'"),
    _report("malformed-json-line", "e.jsonl", "--key", "user", "--quiet",
            files={"e.jsonl": '{"user": "a"}\n{"user": "b"}\n{"user": "c", "n\n'},
            names="e.jsonl', line 3: malformed JSON record", marks=("spark",)),
    _report("key-null-in-every-record", "e.csv", "--key", "user_id",
            files={"e.csv": "user_id,v\n,1\n,2\n"}, expect="warning",
            names="key column 'user_id' is null in every record (2)", marks=("spark",)),
    _report("grid-of-topics-months-apart", "--topology", "t.toml", "--quiet",
            files={"t.toml": _topology(_timed("early", "a.csv", partitions=100),
                                       _timed("late", "b.csv", partitions=100), members=40),
                   "a.csv": _EARLY, "b.csv": _LATE},
            names="the topics' windows lie on one grid from 2024-05-01T10:00:00Z (topic "
                  "'early')", marks=("spark",)),
]
