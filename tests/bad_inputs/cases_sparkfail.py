"""Bad-input cases of Spark read failures (issue 24, point 8): a file Spark cannot read is one
line naming the file and the cause, exit code 2, not a Java stack trace (``kpart report``)."""

from __future__ import annotations

import struct
import zlib

import pyarrow as pa
import pyarrow.parquet as pq

from bad_inputs.case import Case


def _parquet(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


def _stale_crc(data: bytes) -> bytes:
    """A Hadoop ``.crc`` sidecar (``crc\\0``, bytes per checksum, CRC32 per 512-byte chunk) whose
    checksums are one bit off: the file changed after the .crc was written."""
    sums = b"".join(struct.pack(">I", zlib.crc32(data[i:i + 512]) ^ 1)
                    for i in range(0, len(data), 512))
    return b"crc\0" + struct.pack(">i", 512) + sums


_TABLE = pa.table({"user_id": [f"u{i}" for i in range(50)], "v": list(range(50))})
_PART0 = _parquet(_TABLE)
_PART1 = _parquet(_TABLE.slice(0, 20))

CASES = [
    Case("sparkfail-stale-crc", ("report", "ev", "--key", "user_id", "--out", "out", "--quiet"),
         "/ev/part-00001.parquet' at byte 512: the file does not match its Hadoop checksum file",
         {"ev/part-00000.parquet": _PART0, "ev/part-00001.parquet": _PART1,
          "ev/.part-00001.parquet.crc": _stale_crc(_PART1)}, marks=("spark",)),
]
