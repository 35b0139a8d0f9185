"""Command-line keys keep their bytes (issue 10, point 6).

Python decodes argv with ``surrogateescape``: ``os.fsdecode(b"\\xff\\xfeabc")`` is what a real
process gets for ``$'\\xff\\xfeabc'``. Under ``--serializer string`` such a key is refused (Java's
``StringSerializer`` never sends bytes that are not UTF-8) instead of hashing ``??abc``; under
``--serializer bytes`` its raw bytes are hashed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from kpart import partition_for_key
from kpart.cli import main
from kpart.producer.compat import compare_partitioners
from kpart.producer.whatif import partition_count_whatif

RAW = b"\xff\xfeabc"
ARG = os.fsdecode(RAW)  # what sys.argv holds for these bytes


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kpart: error: "), out.err
    return lines[0]


def test_raw_bytes_and_replaced_bytes_hash_differently() -> None:
    # the premise of the point: hashing '??abc' gives another partition than the real bytes
    assert partition_for_key(RAW, 6) != partition_for_key(b"??abc", 6)


@pytest.mark.parametrize("serializer", [[], ["--serializer", "string"],
                                        ["--serializer", "StringSerializer"]])
def test_partition_refuses_a_string_key_that_is_not_utf8(
    serializer: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["partition", ARG, "-n", "6", *serializer]) == 2
    line = _one_error_line(capsys)
    assert "fffe616263" in line and "not valid UTF-8" in line
    assert "--serializer hex" in line and "StringSerializer" in line


@pytest.mark.parametrize("serializer", [
    "bytes", "raw", "ByteArraySerializer",
    "org.apache.kafka.common.serialization.ByteArraySerializer",
])
def test_partition_hashes_the_raw_bytes_under_bytes(
    serializer: str, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    assert main(["partition", ARG, "b", "-n", "6", "--serializer", serializer]) == 0
    out = capfdbinary.readouterr()
    assert out.err == b""
    assert out.out == (RAW + f"\t{partition_for_key(RAW, 6)}\n"  # the key echoed as given
                       f"b\t{partition_for_key(b'b', 6)}\n".encode())


def test_partition_hex_gives_the_same_partition(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["partition", RAW.hex(), "-n", "6", "--serializer", "hex"]) == 0
    assert capsys.readouterr().out == f"{RAW.hex()}\t{partition_for_key(RAW, 6)}\n"


def test_a_valid_utf8_key_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    key = os.fsdecode("café".encode())
    assert main(["partition", key, "-n", "6"]) == 0
    assert capsys.readouterr().out == f"café\t{partition_for_key('café'.encode(), 6)}\n"


@pytest.mark.parametrize("command", [["compat"], ["whatif", "--to", "7"]])
def test_keys_option_refuses_a_string_key_that_is_not_utf8(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--keys", f"b,{ARG}", "-n", "6"]) == 2
    line = _one_error_line(capsys)
    assert "--keys" in line and "fffe616263" in line and "--serializer bytes" in line


def test_compat_keys_hash_the_raw_bytes_under_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    ids = "java:default,sarama:hash"
    assert main(["compat", "--keys", f"b,{ARG}", "-n", "6", "--serializer", "bytes",
                 "--partitioners", ids, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)["compat"]
    want = compare_partitioners([b"b", RAW], 6, ids.split(","), serializer="bytes")
    assert doc == want.to_json()


def test_whatif_keys_hash_the_raw_bytes_under_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["whatif", "--keys", f"b,{ARG}", "-n", "6", "--to", "7", "--serializer",
                 "bytes", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)["whatif"]
    want = partition_count_whatif([b"b", RAW], 6, (7,), "java:default", serializer="bytes")
    assert doc == want.to_json()


def test_a_real_process_argv(tmp_path: os.PathLike[str]) -> None:
    """The bytes as a shell passes them: refused as a string key, hashed as raw bytes."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    cmd = [sys.executable.encode(), b"-m", b"kpart.cli", b"partition", RAW, b"-n", b"6"]
    refused = subprocess.run(cmd, capture_output=True, env=env, cwd=tmp_path, check=False)
    assert refused.returncode == 2 and refused.stdout == b""
    assert b"fffe616263" in refused.stderr and len(refused.stderr.splitlines()) == 1
    raw = subprocess.run([*cmd, b"--serializer", b"bytes"], capture_output=True, env=env,
                         cwd=tmp_path, check=False)
    assert raw.returncode == 0, raw.stderr
    assert raw.stdout == RAW + f"\t{partition_for_key(RAW, 6)}\n".encode()
