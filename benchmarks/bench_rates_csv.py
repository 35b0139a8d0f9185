"""Reading a rates CSV (``kpart plan --loads``) on Cruise Control's #1592 shape: 930,000
partitions, one row each (``topic,partition,bytes_in_per_s,bytes_out_per_s,messages_in_per_s``).

Prints, median of ``--repeats``, each ending with materialized columns:

- kpart's :func:`~kpart.cluster.rates.parse_rates_csv` (the column-wise path a plain file
  takes);
- kpart's row-by-row reader alone (``_parse_rows``: what a file with quotes, CRLF or a banner
  goes through);
- the peer, measured in the same run: ``pyarrow.csv.read_csv`` with every column typed (no
  inference), to a materialized Arrow table — a C++ reader that checks less (no negative,
  duplicate or range check, ``nan``/``inf`` taken as numbers).

Run: ``PYTHONPATH=src:benchmarks python benchmarks/bench_rates_csv.py [--scale 1.0]
[--repeats 3]``.
"""

from __future__ import annotations

import argparse
import io
import tempfile
from pathlib import Path

import pyarrow as pa
from _cluster_shape import cc1592
from _timing import median_of, peak_rss_mb
from bench_cluster_plan_cli import write_files
from pyarrow import csv

from kpart.cluster.rates import RATE_COLUMNS, _parse_rows, parse_rates_csv


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    model = cc1592(args.scale)
    with tempfile.TemporaryDirectory() as d:
        write_files(model, Path(d))
        text = (Path(d) / "rates.csv").read_text()
    types = {"topic": pa.string(), "partition": pa.int32(),
             **{c: pa.float64() for c in RATE_COLUMNS[2:]}}
    data = text.encode()

    def arrow() -> pa.Table:
        return csv.read_csv(io.BytesIO(data),
                            convert_options=csv.ConvertOptions(column_types=types,
                                                               strings_can_be_null=False))

    rows = len(parse_rates_csv(text).partition)
    assert arrow().num_rows == rows
    print(f"rates CSV of cc1592({args.scale}): {rows:,} rows, {len(data) / 1e6:.1f} MB "
          f"(median of {args.repeats})")
    for name, fn in (("kpart parse_rates_csv", lambda: parse_rates_csv(text)),
                     ("kpart row by row (_parse_rows)", lambda: _parse_rows(text)),
                     ("pyarrow.csv.read_csv, typed (peer)", arrow)):
        print(f"  {name:38} {median_of(args.repeats, fn):6.2f} s")
    print(f"peak RSS {peak_rss_mb():,.0f} MiB")


if __name__ == "__main__":
    main()
