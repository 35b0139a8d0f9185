"""kpart._files: one reader for every file input, one atomic writer for every output.

The kill tests run the writer in a child Python process that stops at a chosen point of the
write (a chunk of the payload, the fsync, the rename) and is SIGKILLed there: the previous
output must be byte-identical, and after the next complete run no temporary may remain. The
points are drawn from a seeded ``random.Random``, so every run tests the same points.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kpart import _files
from kpart._files import check_writable, clean_stale, read_text, write_dir, write_text, write_texts
from kpart.cli import main
from kpart.errors import ConfigError

CHUNKS = 160  # × 64 KiB = 10 MiB


def payload(version: str) -> bytes:
    return b"".join(_chunk(version, i) for i in range(CHUNKS))


def _chunk(version: str, i: int) -> bytes:
    return hashlib.sha256(f"{version}:{i}".encode()).hexdigest().encode() * 1024  # 64 KiB


CHILD = textwrap.dedent('''
    import hashlib, os, sys
    from pathlib import Path
    import kpart._files as F

    mode, target, version, stop = sys.argv[1:5]
    CHUNKS = int(sys.argv[5])

    def halt():
        sys.stdout.write("ready\\n")
        sys.stdout.flush()
        sys.stdin.read()  # blocks until the parent kills us
        raise SystemExit(3)

    def chunk(i):
        return hashlib.sha256(f"{version}:{i}".encode()).hexdigest().encode() * 1024

    def chunks():
        for i in range(CHUNKS):
            if stop == f"chunk:{i}":
                halt()
            yield chunk(i)

    def wrap(name, before):
        real = getattr(F.os, name)
        def hooked(*args, **kwargs):
            if before:
                halt()
            result = real(*args, **kwargs)
            halt()
            return result
        return hooked

    if stop == "fsync":
        F.os.fsync = wrap("fsync", True)
    elif stop == "before-rename":
        F.os.replace = wrap("replace", True)
        F.os.rename = wrap("rename", True)
    elif stop == "after-rename":
        F.os.replace = wrap("replace", False)
    elif stop.startswith("exchange"):
        real_exchange = F._exchange
        def exchange(a, b):
            if stop == "exchange-unsupported":
                return False
            if stop == "exchange-before":
                halt()
            done = real_exchange(a, b)
            halt()
            return done
        F._exchange = exchange
    if stop == "aside":  # fallback path: old report moved aside, new one not yet in place
        F._exchange = lambda a, b: False
        real_rename = F.os.rename
        calls = []
        def rename(a, b):
            real_rename(a, b)
            calls.append(b)
            if len(calls) == 1:
                halt()
        F.os.rename = rename

    if mode == "file":
        F.write_text(target, chunks(), "--out")
    else:
        def fill(tmp):
            for i, c in enumerate(chunks()):
                if i % 40 == 0:
                    f = open(tmp / f"part-{i // 40}.bin", "wb")
                f.write(c)
                if i % 40 == 39:
                    f.close()
        F.write_dir(target, fill, "--out", replace=lambda p: True)
''')


def _run_child(tmp_path: Path, mode: str, target: Path, version: str, stop: str) -> int:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, str(script), mode, str(target), version, stop, str(CHUNKS)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
    )
    assert proc.stdout is not None
    if stop == "none":
        proc.communicate()
        return proc.returncode
    line = proc.stdout.readline()
    assert line == b"ready\n", line
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdin.close()  # type: ignore[union-attr]
    proc.stdout.close()
    return proc.returncode


def _dir_bytes(d: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(d.iterdir()))


def _stops(seed: int) -> list[str]:
    rng = random.Random(seed)
    return [f"chunk:{rng.randrange(CHUNKS)}" for _ in range(3)]


@pytest.mark.parametrize("seed", [1, 2])
def test_sigkill_mid_file_write_keeps_the_previous_file(tmp_path: Path, seed: int) -> None:
    work = tmp_path / "out"
    work.mkdir()
    target = work / "out.txt"
    assert _run_child(tmp_path, "file", target, "old", "none") == 0
    old = payload("old")
    assert target.read_bytes() == old
    for stop in [*_stops(seed), "fsync", "before-rename"]:
        assert _run_child(tmp_path, "file", target, "new", stop) == -signal.SIGKILL
        assert target.read_bytes() == old, stop  # byte-identical
        assert any(".kpart-" in n for n in os.listdir(work)), stop  # the killed run's temp
    assert _run_child(tmp_path, "file", target, "after", "after-rename") == -signal.SIGKILL
    assert target.read_bytes() == payload("after")  # renamed: the new file is complete
    assert _run_child(tmp_path, "file", target, "new", "none") == 0
    assert target.read_bytes() == payload("new")
    assert os.listdir(work) == ["out.txt"]  # the stale temps of killed runs are gone
    assert (target.stat().st_mode & 0o777) == 0o666 & ~_umask()


@pytest.mark.parametrize("seed", [3])
def test_sigkill_mid_directory_write_keeps_the_previous_directory(tmp_path: Path,
                                                                   seed: int) -> None:
    work = tmp_path / "out"
    work.mkdir()
    target = work / "report"
    assert _run_child(tmp_path, "dir", target, "old", "none") == 0
    old = payload("old")
    assert _dir_bytes(target) == old
    for stop in [*_stops(seed), "fsync", "exchange-before"]:
        assert _run_child(tmp_path, "dir", target, "new", stop) == -signal.SIGKILL
        assert _dir_bytes(target) == old, stop
    # killed after the atomic swap: the new report is in place, the old one is a stale temp
    assert _run_child(tmp_path, "dir", target, "swapped", "exchange") == -signal.SIGKILL
    assert _dir_bytes(target) == payload("swapped")
    # without renameat2: killed between the two renames, the next run puts the old one back
    assert _run_child(tmp_path, "dir", target, "new", "aside") == -signal.SIGKILL
    assert not target.exists()
    clean_stale(target)
    assert _dir_bytes(target) == payload("swapped")
    assert _run_child(tmp_path, "dir", target, "new", "none") == 0
    assert _dir_bytes(target) == payload("new")
    assert os.listdir(work) == ["report"]


def test_sigkill_a_real_kpart_place_at_random_times(tmp_path: Path) -> None:
    """``kpart place`` writing 13 MB, killed at seeded random delays: the output is always the
    previous one or the new one, whole, and the next complete run leaves no temporary."""
    argv = [sys.executable, "-m", "kpart.cli", "place", "--brokers", "0,1,2,3,4,5",
            "--partitions", "200000", "--replication-factor", "3", "-o", "out.txt"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([*argv, "--start-index", "0"], cwd=tmp_path, env=env, check=True)
    previous = (tmp_path / "out.txt").read_bytes()
    seen = []
    rng = random.Random(10)
    for _ in range(2):
        proc = subprocess.Popen([*argv, "--start-index", "1"], cwd=tmp_path, env=env)
        try:
            proc.wait(timeout=rng.uniform(0.5, 4.0))
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        seen.append((tmp_path / "out.txt").read_bytes())
    subprocess.run([*argv, "--start-index", "1"], cwd=tmp_path, env=env, check=True)
    assert os.listdir(tmp_path) == ["out.txt"]
    new = (tmp_path / "out.txt").read_bytes()
    assert new != previous and new.count(b"\n") == 200_001
    assert all(content in (previous, new) for content in seen)


# -- modes ---------------------------------------------------------------------------------


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.fixture(params=[0o022, 0o077])
def umask(request: pytest.FixtureRequest):
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def test_modes_follow_the_umask_as_open_gives_them(tmp_path: Path, umask: int) -> None:
    with open(tmp_path / "by-open", "w"):
        pass
    os.mkdir(tmp_path / "by-mkdir")
    want_file = (tmp_path / "by-open").stat().st_mode & 0o777
    want_dir = (tmp_path / "by-mkdir").stat().st_mode & 0o777
    assert want_file == 0o666 & ~umask and want_dir == 0o777 & ~umask
    assert write_text(tmp_path / "a.txt", "x").stat().st_mode & 0o777 == want_file
    (tmp_path / "b.txt").write_text("old")
    os.chmod(tmp_path / "b.txt", 0o600)
    write_texts({tmp_path / "b.txt": "new", tmp_path / "c.txt": b"\x00"})
    assert (tmp_path / "c.txt").stat().st_mode & 0o777 == want_file
    # a file replaced keeps its own mode, as open(path, "w") leaves it
    assert (tmp_path / "b.txt").stat().st_mode & 0o777 == 0o600
    d = write_dir(tmp_path / "d", lambda t: (t / "f").write_text("x"))
    assert d.stat().st_mode & 0o777 == want_dir
    assert (d / "f").stat().st_mode & 0o777 == want_file


@pytest.mark.parametrize("command", [
    ["place", "--brokers", "0,1,2", "--partitions", "3", "--replication-factor", "2"],
    ["plan", "--current", "current.txt", "--add-brokers", "3"],
])
def test_place_and_plan_outputs_are_readable_under_umask_022(tmp_path: Path, monkeypatch,
                                                             command: list[str]) -> None:
    (tmp_path / "current.txt").write_text(
        "Topic: t\tPartitionCount: 2\tReplicationFactor: 2\tConfigs: \n"
        "Topic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\tIsr: 0,1\n"
        "Topic: t\tPartition: 1\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\n")
    monkeypatch.chdir(tmp_path)
    old = os.umask(0o022)
    try:
        assert main([*command, "-o", "out.txt"]) == 0
    finally:
        os.umask(old)
    assert (tmp_path / "out.txt").stat().st_mode & 0o777 == 0o644  # was 0o600 (mkstemp)


# -- errors name the user's path -----------------------------------------------------------


def _error(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kpart: error: "), lines
    assert ".kpart-" not in lines[0] and ".tmp" not in lines[0]
    return lines[0]


PLACE = ["place", "--brokers", "0,1,2", "--partitions", "3", "--replication-factor", "2", "-o"]


def test_errors_name_the_users_path(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "emptydir").mkdir()
    assert _error(capsys, [*PLACE, "emptydir"]).endswith("cannot write 'emptydir': is a directory")
    assert "directory 'nope' does not exist" in _error(capsys, [*PLACE, "nope/out.txt"])
    (tmp_path / "afile").write_text("x")
    assert "'afile' is not a directory" in _error(capsys, [*PLACE, "afile/out.txt"])
    assert sorted(os.listdir(tmp_path)) == ["afile", "emptydir"]


@pytest.mark.skipif(not os.path.isdir("/sys/kernel"), reason="needs Linux sysfs")
def test_unwritable_directory_is_named(capsys) -> None:
    line = _error(capsys, [*PLACE, "/sys/kpart-out.txt"])
    assert "'/sys/kpart-out.txt'" in line and "permission denied" in line
    with pytest.raises(ConfigError, match="permission denied"):
        check_writable("/sys/kpart-out.txt", "--out")


class Boom(Exception):
    pass


@pytest.mark.parametrize("exc", [Boom, KeyboardInterrupt])
def test_temp_removed_on_every_error(tmp_path: Path, exc: type[BaseException]) -> None:
    (tmp_path / "out.txt").write_text("previous")

    def chunks():
        yield "half of it"
        raise exc()

    with pytest.raises(exc):
        write_text(tmp_path / "out.txt", chunks())
    with pytest.raises(exc):
        write_texts({tmp_path / "a.txt": "fine", tmp_path / "out.txt": chunks()})

    def fill(d: Path) -> None:
        (d / "x").write_text("x")
        raise exc()

    with pytest.raises(exc):
        write_dir(tmp_path / "dir", fill)
    assert sorted(os.listdir(tmp_path)) == ["out.txt"]
    assert (tmp_path / "out.txt").read_text() == "previous"


def test_an_os_error_while_filling_a_directory_names_the_users_path(tmp_path: Path) -> None:
    def fill(d: Path) -> None:
        raise OSError(28, "No space left on device", str(d / "partitions.parquet"))

    with pytest.raises(ConfigError) as e:
        write_dir(tmp_path / "report", fill)
    assert str(e.value) == f"--out: cannot write {str(tmp_path / 'report')!r}: no space left on device"
    assert os.listdir(tmp_path) == []


def test_never_the_input_and_never_one_file_twice(tmp_path: Path) -> None:
    (tmp_path / "in.json").write_text("{}")
    (tmp_path / "link.json").symlink_to("in.json")
    for given in ("in.json", "link.json", "./in.json"):
        with pytest.raises(ConfigError, match="it is the input given as --current"):
            check_writable(tmp_path / given, "--out", inputs={"--current": tmp_path / "in.json"})
    check_writable(tmp_path / "new.json", "--out", inputs={"--current": tmp_path / "in.json",
                                                          "--pools": None})
    (tmp_path / "b").mkdir()
    with pytest.raises(ConfigError, match="'.*b/../a.txt': it is also the output of --out"):
        write_texts({tmp_path / "a.txt": "1", tmp_path / "b" / ".." / "a.txt": "2"},
                    {tmp_path / "b" / ".." / "a.txt": "--rollback"})
    assert sorted(os.listdir(tmp_path)) == ["b", "in.json", "link.json"]


def test_a_later_run_removes_only_kpart_stale_temps_of_that_target(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    names = {
        f".out.txt.kpart-{dead.pid}-0badc0de.tmp": "removed",  # killed writer of out.txt
        f".out.txt.kpart-{os.getpid()}-0badc0de.tmp": "kept",  # a live process (us)
        f".other.txt.kpart-{dead.pid}-0badc0de.tmp": "kept",  # another target
        ".out.txt.tmp-users-own": "kept",  # not kpart's name
    }
    for name in names:
        (tmp_path / name).write_text("x")
    write_text(tmp_path / "out.txt", "new")
    assert sorted(os.listdir(tmp_path)) == sorted(
        ["out.txt", *(n for n, v in names.items() if v == "kept")])


def test_many_files_at_once_clean_their_own_stale_temps_and_are_all_written(
        tmp_path: Path) -> None:
    """write_texts of a plan's many batch files: one listing of the directory removes the
    stale temporaries of every target (and only theirs), and every file is written (their
    fsyncs run together)."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = [f".batch-{i}.json.kpart-{dead.pid}-0badc0de.tmp" for i in (3, 17)]
    kept = [f".other.json.kpart-{dead.pid}-0badc0de.tmp",
            f".batch-3.json.kpart-{os.getpid()}-0badc0de.tmp"]
    for name in stale + kept:
        (tmp_path / name).write_text("x")
    files = {tmp_path / f"batch-{i}.json": f"{i}\n" for i in range(40)}
    write_texts(files)
    assert sorted(os.listdir(tmp_path)) == sorted([p.name for p in files] + kept)
    assert all(p.read_text() == c for p, c in files.items())


def test_a_symlink_target_is_written_through(tmp_path: Path) -> None:
    (tmp_path / "real.txt").write_text("old")
    (tmp_path / "link.txt").symlink_to("real.txt")
    write_text(tmp_path / "link.txt", "new")
    assert (tmp_path / "link.txt").is_symlink() and (tmp_path / "real.txt").read_text() == "new"


# -- reading -------------------------------------------------------------------------------


def test_read_text_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "x.txt"
    prefix = b"Topic: t\tPartition: 0"
    bad.write_bytes(prefix + b"\xff")
    with pytest.raises(ConfigError) as e:
        read_text(bad, "--current")
    assert str(e.value) == (f"--current: cannot read {str(bad)!r}: not UTF-8 "
                            f"(byte 0xff at offset {len(prefix)})")
    with pytest.raises(ConfigError, match="cannot read .*: is a directory$"):
        read_text(tmp_path, "--pools")
    with pytest.raises(ConfigError, match="cannot read .*missing.json': does not exist$"):
        read_text(tmp_path / "missing.json", "--sizes")
    with pytest.raises(ConfigError, match="larger than 4 bytes"):
        read_text(bad, "--current", max_bytes=4)
    if os.path.exists("/dev/zero"):  # endless: read up to the cap, never further
        with pytest.raises(ConfigError, match="'/dev/zero': larger than 3,000,000 bytes"):
            read_text("/dev/zero", "--current", max_bytes=3_000_000)


def test_reading_a_small_file_allocates_what_it_holds(tmp_path: Path) -> None:
    import tracemalloc

    (tmp_path / "small.txt").write_text("x" * 1000)
    tracemalloc.start()
    try:
        assert read_text(tmp_path / "small.txt", "--current") == "x" * 1000
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # not the 1 GiB cap


def test_read_text_drops_a_bom_and_reads_stdin(tmp_path: Path, monkeypatch) -> None:
    import io

    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf{}")
    assert read_text(tmp_path / "bom.json", "FILE") == "{}"

    class Stdin:
        buffer = io.BytesIO(b"\xc3\xa9t\xe9")

    monkeypatch.setattr(sys, "stdin", Stdin())
    with pytest.raises(ConfigError, match="cannot read standard input: not UTF-8 "
                                          r"\(byte 0xe9 at offset 3\)"):
        read_text("-", "--current", stdin=True)
    with pytest.raises(ConfigError, match="'-': does not exist"):
        read_text("-", "--pools")  # no stdin for this option: '-' is a file name


def test_simulate_input_not_utf8_is_one_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "records.csv"
    prefix = b"timestamp_ms,size,key\n0,10,"
    bad.write_bytes(prefix + b"\xff\xfe\n")
    line = _error(capsys, ["simulate", "-i", str(bad)])
    assert line == (f"kpart: error: --input: cannot read {str(bad)!r}: not UTF-8 "
                    f"(byte 0xff at offset {len(prefix)})")


def test_plan_current_from_stdin(tmp_path: Path, monkeypatch, capsys) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(
        "Topic: t\tPartitionCount: 1\tReplicationFactor: 2\tConfigs: \n"
        "Topic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\tIsr: 0,1\n"))
    assert main(["describe", "--current", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["partitions"] == 1


def test_stale_name_pattern_matches_what_the_writer_makes() -> None:
    name = _files._temp_name("out.txt")
    assert _files._temp_re("out.txt").fullmatch(name) and _files.is_kpart_temp(name)
    assert not _files.is_kpart_temp("notes.txt")
    assert not _files._temp_re("out.tx").fullmatch(name)


def test_replacing_a_file_keeps_its_mode_as_open_does(tmp_path: Path) -> None:
    target = tmp_path / "private.txt"
    target.write_text("old")
    target.chmod(0o600)
    write_text(target, "new", "--out")
    assert target.read_text() == "new"
    assert target.stat().st_mode & 0o777 == 0o600


def test_a_long_non_ascii_name_gets_a_temporary_it_can_hold(tmp_path: Path) -> None:
    target = tmp_path / ("é" * 120)  # 240 bytes: legal, but not with 200 characters more
    write_text(target, "x", "--out")
    assert target.read_text() == "x"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_a_closed_standard_input_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(ConfigError, match="^FILE: cannot read standard input: it is closed$"):
        read_text("-", "FILE", stdin=True)
