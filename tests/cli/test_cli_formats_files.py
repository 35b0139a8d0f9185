"""The binary writer (:func:`kpart._files.write_binary`, :func:`kpart._files.write_table`) and
the commands writing Parquet/Arrow through it: atomic, nothing half-written when the writer
fails (an error, a full disk, Ctrl-C), errors one line naming the option and the user's path."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kpart._files import write_binary, write_table
from kpart.cli import main
from kpart.errors import ConfigError

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
TABLE = pa.table({"member": ["C0", "C1"], "topic": ["t", "t"],
                  "partition": pa.array([0, 1], pa.int32())})


def listing(d: Path) -> list[str]:
    return sorted(os.listdir(d))


def half_then(exc: BaseException):
    def fill(f) -> None:
        f.write(b"PAR1 half")
        raise exc
    return fill


@pytest.mark.parametrize("exc", [RuntimeError("writer bug"), KeyboardInterrupt(),
                                 pa.ArrowInvalid("bad table")])
def test_failing_fill_leaves_the_previous_file_and_no_temporary(tmp_path, exc) -> None:
    target = tmp_path / "a.parquet"
    target.write_bytes(b"previous")
    with pytest.raises(type(exc)):
        write_binary(target, half_then(exc))
    assert listing(tmp_path) == ["a.parquet"] and target.read_bytes() == b"previous"


def test_full_disk_is_a_one_line_error_naming_the_option(tmp_path) -> None:
    target = tmp_path / "a.arrow"
    with pytest.raises(ConfigError) as info:
        write_binary(target, half_then(OSError(errno.ENOSPC, "No space left on device")),
                     "--out")
    assert str(info.value) == f"--out: cannot write {str(target)!r}: no space left on device"
    assert listing(tmp_path) == []


def test_write_binary_checks_like_write_text(tmp_path) -> None:
    with pytest.raises(ConfigError, match="is a directory"):
        write_binary(tmp_path, lambda f: f.write(b"x"))
    with pytest.raises(ConfigError, match="directory .* does not exist"):
        write_binary(tmp_path / "no" / "a.bin", lambda f: f.write(b"x"))
    src = tmp_path / "in.json"
    src.write_text("{}")
    with pytest.raises(ConfigError, match="it is the input given as FILE"):
        write_binary(src, lambda f: f.write(b"x"), inputs={"FILE": src})
    assert src.read_text() == "{}"


def test_write_binary_mode_is_what_open_gives(tmp_path) -> None:
    old = os.umask(0o027)
    try:
        p = write_binary(tmp_path / "a.bin", lambda f: f.write(b"x"))
    finally:
        os.umask(old)
    assert (p.stat().st_mode & 0o777) == 0o640


@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
def test_write_table_round_trips(tmp_path, fmt) -> None:
    p = write_table(tmp_path / f"a.{fmt}", TABLE, fmt)
    back = pq.read_table(p) if fmt == "parquet" else pa.ipc.open_file(str(p)).read_all()
    assert back.equals(TABLE)
    # overwriting an earlier output of kpart is allowed, as write_text does
    write_table(p, TABLE.slice(0, 1), fmt)
    back = pq.read_table(p) if fmt == "parquet" else pa.ipc.open_file(str(p)).read_all()
    assert back.num_rows == 1 and listing(tmp_path) == [f"a.{fmt}"]


def test_write_table_unknown_format(tmp_path) -> None:
    with pytest.raises(ValueError, match="unknown table format 'orc'"):
        write_table(tmp_path / "a.orc", TABLE, "orc")
    assert listing(tmp_path) == []


@pytest.mark.parametrize(("command", "fmt", "patch"), [
    (["assign", str(EXAMPLES / "range-roundrobin.json")], "parquet", "parquet"),
    (["assign", str(EXAMPLES / "range-roundrobin.json")], "arrow", "ipc"),
    (["rebalance", str(EXAMPLES / "sticky-four-topics.json")], "parquet", "parquet"),
    (["place", "--brokers", "0,1,2", "--partitions", "6", "--replication-factor", "2"],
     "arrow", "ipc"),
])
def test_commands_write_nothing_when_the_disk_fills(capsys, tmp_path, monkeypatch, command,
                                                    fmt, patch) -> None:
    def broken(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    if patch == "parquet":
        monkeypatch.setattr(pq, "write_table", broken)
    else:
        monkeypatch.setattr(pa.ipc, "new_file", broken)
    target = tmp_path / f"out.{fmt}"
    target.write_bytes(b"an earlier result")
    assert main([*command, "-o", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"kpart: error: --out: cannot write {str(target)!r}: no space left on device\n"
    assert listing(tmp_path) == [f"out.{fmt}"] and target.read_bytes() == b"an earlier result"


@pytest.mark.parametrize("argv", [
    ["place", "--brokers", "0,1,2", "--partitions", "6", "--replication-factor", "2", "-o",
     "p.parquet"],
    ["plan", "--current", str(EXAMPLES / "topic-test4.describe.txt"), "--add-brokers", "3",
     "-o", "plan.arrow", "--json"],
    ["assign", str(EXAMPLES / "range-roundrobin.json"), "-s", "cooperative-sticky", "-o",
     "a.parquet"],
    ["rebalance", str(EXAMPLES / "sticky-four-topics.json"), "-s", "range", "-o", "r.arrow"],
])
def test_tables_are_built_without_importing_pandas(tmp_path, argv) -> None:
    # pa.array/pa.scalar import pandas on first use (~0.4 s); kpart._arrow avoids them
    import subprocess
    import sys

    code = ("import sys\nfrom kpart.cli import main\n"
            f"assert main({argv!r}) == 0\n"
            "assert 'pandas' not in sys.modules, 'pandas was imported'\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    assert len(list(tmp_path.iterdir())) == 1
