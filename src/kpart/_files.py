"""The user's files: one reader for every file input, one writer for every output.

Every command reads its file inputs with :func:`read_text` and writes its outputs with
:func:`write_text` (one file), :func:`write_texts` (several files, all checked before any is
written), :func:`write_binary` (a file a library writes, e.g. pyarrow), :func:`write_table`
(an Arrow table as Parquet or an Arrow IPC file) or :func:`write_dir` (a directory, e.g. the
report). Errors are one-line
:class:`~kpart.errors.ConfigError` messages naming the option and the user's path, never a
temporary name:

* reading: ``--current: cannot read 'x.txt': not UTF-8 (byte 0xff at offset 12)``, or
  ``does not exist``, ``is a directory``, ``permission denied``;
* writing: ``--out: cannot write 'dir': is a directory``, ``directory 'no/such' does not
  exist``, ``permission denied``, ``read-only file system``, ...

Writing is atomic: the content goes to a temporary sibling ``.<name>.kpart-<pid>-<rand>.tmp``
(same directory, so the rename never crosses file systems), is flushed and ``fsync``'d, then
renamed over the target with :func:`os.replace` (a directory is swapped in with Linux's
``renameat2(RENAME_EXCHANGE)`` where available); the directory is ``fsync``'d after the rename.
The temporary is removed on every error path, ``KeyboardInterrupt`` included. A process killed
with SIGKILL cannot clean up: the next write to the same target removes the temporaries of
that target whose process is gone (only kpart's own, recognised by their name). The final
mode is the one :func:`open` gives a new file (``0o666 & ~umask``; ``0o777 & ~umask`` for a
directory), since the temporary is created with exactly those calls.

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> p = write_text(os.path.join(d, "plan.json"), '{"version": 1}\\n', "--out")
>>> read_text(p, "--current")
'{"version": 1}\\n'
>>> sorted(os.listdir(d))
['plan.json']
>>> write_text(d, "x", "--out")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
kpart.errors.ConfigError: --out: cannot write '...': is a directory
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import shutil
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = [
    "MAX_INPUT_BYTES",
    "check_writable",
    "clean_stale",
    "is_kpart_temp",
    "read_text",
    "write_binary",
    "write_dir",
    "write_table",
    "write_text",
    "write_texts",
]

PathLike = str | os.PathLike[str]

#: A writer of a file's bytes: ``fill(f)`` writes them to ``f``, a binary file open for writing
#: (it must not close it); e.g. ``lambda f: pyarrow.parquet.write_table(table, f)``.
Fill = Callable[[BinaryIO], object]

#: What :func:`write_texts` writes to a file: text (as UTF-8), bytes, an iterable of chunks
#: (streamed) or a :data:`Fill`.
Content = str | bytes | Iterable[str | bytes] | Fill

#: The binary table formats of :func:`write_table`: Apache Parquet and the Arrow IPC file
#: format (Feather v2, ``.arrow``).
TABLE_FORMATS = ("parquet", "arrow")

#: The largest file input read (a typo such as ``--current /dev/zero`` must not fill memory).
MAX_INPUT_BYTES = 1 << 30

_CHUNK = 1 << 20


# -- reading ---------------------------------------------------------------------------------


def _reason(e: OSError) -> str:
    if isinstance(e, FileNotFoundError):
        return "does not exist"
    if isinstance(e, IsADirectoryError):
        return "is a directory"
    if isinstance(e, PermissionError):
        return "permission denied"
    if isinstance(e, NotADirectoryError):
        return "a component of the path is not a directory"
    if e.errno == errno.EROFS:
        return "read-only file system"
    if e.errno == errno.ENOSPC:
        return "no space left on device"
    if e.errno == errno.ENAMETOOLONG:
        return "file name too long"
    return (e.strerror or str(e)).lower()


def _decode(data: bytes, option: str, shown: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError.naming_value(
            option, "{param}: cannot read {shown}: not UTF-8 (byte 0x{byte:02x} at offset "
            "{offset})", shown=shown, byte=data[e.start], offset=e.start) from None
    return text[1:] if text.startswith("\ufeff") else text  # a UTF-8 byte order mark


def _read_capped(f: BinaryIO, max_bytes: int) -> bytes:
    """At most ``max_bytes + 1`` bytes of ``f``, never allocating more than it holds."""
    try:
        st = os.fstat(f.fileno())
    except (OSError, AttributeError, ValueError):
        st = None
    if st is not None and stat.S_ISREG(st.st_mode) and st.st_size <= max_bytes:
        return f.read()  # a regular file of known size (may have grown: checked by the caller)
    chunks, total = [], 0
    while total <= max_bytes:
        chunk = f.read(min(_CHUNK, max_bytes + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def read_text(path: PathLike, option: str, *, stdin: bool = False,
              max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of the user's file ``path``, given as ``option`` (named in errors).

    ``stdin=True``: ``-`` reads standard input. A leading byte order mark is dropped.
    ``ConfigError`` (one line: option, path, reason) when the file does not exist, is a
    directory, cannot be read, is not UTF-8 or holds more than ``max_bytes``.

    >>> read_text("/no/such.json", "--current")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: --current: cannot read '/no/such.json': does not exist
    """
    if stdin and str(path) == "-":
        shown = "standard input"
        stream = sys.stdin
        if stream is None or getattr(stream, "closed", False):
            raise ConfigError.naming_value(option, "{param}: cannot read standard input: it is closed")
        if not hasattr(stream, "buffer"):  # a text stream (tests, embedding processes)
            return stream.read()
        data = _read_capped(stream.buffer, max_bytes)
    else:
        shown = repr(str(path))
        try:
            with open(path, "rb") as f:
                data = _read_capped(f, max_bytes)
        except OSError as e:
            raise ConfigError.naming_value(option, "{param}: cannot read {shown}: {reason}",
                                             shown=shown, reason=_reason(e)) from None
    if len(data) > max_bytes:
        raise ConfigError.naming_value(option, "{param}: cannot read {shown}: larger than "
                                         "{max_bytes:,} bytes", shown=shown, max_bytes=max_bytes)
    return _decode(data, option, shown)


# -- temporaries -----------------------------------------------------------------------------


def _stem(name: str) -> str:
    """``name`` cut to 200 bytes as the file system stores it (a temporary's name, with kpart's
    suffix, must stay under the usual 255-byte limit whatever the target's characters)."""
    return os.fsdecode(os.fsencode(name)[:200])


def _temp_re(name: str) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(_stem(name))}\.kpart-(\d+)-[0-9a-f]{{8}}\.(tmp|old)")


def is_kpart_temp(entry: str) -> bool:
    """Whether a directory entry's name is one of kpart's temporaries (of any target)."""
    return re.fullmatch(r"\..+\.kpart-\d+-[0-9a-f]{8}\.(tmp|old)", entry) is not None


def _temp_name(name: str, kind: str = "tmp") -> str:
    return f".{_stem(name)}.kpart-{os.getpid()}-{secrets.token_hex(4)}.{kind}"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


def clean_stale(target: PathLike) -> list[Path]:
    """Remove the temporaries left next to ``target`` by kpart processes that are gone
    (killed mid-write); returns them. A previous report swapped aside (``.old``) while the
    target is missing is put back instead."""
    return _clean_stale([Path(target)])


#: Any kpart temporary: ``.<stem>.kpart-<pid>-<rand>.<tmp|old>``.
_ANY_TEMP = re.compile(r"\.(.+)\.kpart-(\d+)-[0-9a-f]{8}\.(tmp|old)")


def _clean_stale(targets: Iterable[Path]) -> list[Path]:
    """:func:`clean_stale` of several targets, each directory listed once (a plan's thousands
    of batch files in one directory would otherwise list it once per file)."""
    by_parent: dict[Path, dict[str, Path]] = {}
    for target in targets:
        by_parent.setdefault(target.parent, {}).setdefault(_stem(target.name), target)
    removed: list[Path] = []
    for parent, stems in by_parent.items():
        try:
            names = os.listdir(parent)
        except OSError:
            continue
        for entry in sorted(names):
            m = _ANY_TEMP.fullmatch(entry)
            if m is None or m.group(1) not in stems or _alive(int(m.group(2))):
                continue
            path = parent / entry
            if m.group(3) == "old" and not os.path.lexists(stems[m.group(1)]):
                with contextlib.suppress(OSError):
                    os.rename(path, stems[m.group(1)])
                    continue
            _remove(path)
            removed.append(path)
    return removed


def _fsync_path(path: str | Path, flags: int = 0) -> None:
    """fsync ``path`` opened read-only (best effort: a file system without fsync is no error)."""
    try:
        fd = os.open(path, os.O_RDONLY | flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _fsync_dir(directory: Path) -> None:
    _fsync_path(directory, getattr(os, "O_DIRECTORY", 0))


# -- checks ----------------------------------------------------------------------------------


def _target(path: PathLike) -> Path:
    p = Path(path)
    return Path(os.path.realpath(p)) if p.is_symlink() else p


def _write_error(option: str, path: PathLike, reason: str) -> ConfigError:
    return ConfigError.naming_value(option, "{param}: cannot write {path!r}: {reason}",
                                    path=str(path), reason=reason)


def check_writable(path: PathLike, option: str, *, directory: bool = False,
                   inputs: Mapping[str, PathLike | None] | None = None,
                   probed: set[Path] | None = None) -> None:
    """Check, before long work, that ``path`` can be written as a file (or, with
    ``directory=True``, as a directory): its parent exists, is a directory and accepts a new
    entry (probed by creating and removing a temporary), ``path`` is not a directory
    (resp. not a file), and it is none of the ``inputs`` (``{option: path}`` of the command's
    file inputs: kpart never overwrites its input). ``ConfigError`` naming ``option`` and the
    user's path otherwise. ``probed``: parents already probed in this write (skipped, then
    added): a plan's thousands of batch files share one directory."""
    shown = path
    p = _target(path)
    for what, given in (inputs or {}).items():
        if given is not None and str(given) != "-" and os.path.exists(p) and os.path.exists(
                given) and os.path.samefile(p, given):
            raise _write_error(option, shown, f"it is the input given as {what}")
    parent = p.parent
    if not parent.exists():
        raise _write_error(option, shown, f"directory {str(parent)!r} does not exist")
    if not parent.is_dir():
        raise _write_error(option, shown, f"{str(parent)!r} is not a directory")
    if directory and p.exists() and not p.is_dir():
        raise _write_error(option, shown, "exists and is not a directory")
    if not directory and p.is_dir():
        raise _write_error(option, shown, "is a directory")
    if probed is not None:
        if parent in probed:
            return
        probed.add(parent)
    probe = parent / _temp_name(p.name)
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as e:
        raise _write_error(option, shown, _reason(e)) from None
    with contextlib.suppress(OSError):
        os.unlink(probe)


# -- writing ---------------------------------------------------------------------------------


def _chunks(content: str | bytes | Iterable[str | bytes]) -> Iterator[bytes]:
    if isinstance(content, str | bytes):
        content = (content,)
    for chunk in content:
        yield chunk.encode("utf-8") if isinstance(chunk, str) else chunk


def _write_temp(target: Path, content: Content, sync: bool = True) -> Path:
    """Write ``content`` to a new temporary beside ``target``; fsync'd unless ``sync`` is
    false (the caller then fsyncs it, :func:`_fsync_all`); removed on error (whatever ``fill``
    raises, ``KeyboardInterrupt`` included)."""
    tmp = target.parent / _temp_name(target.name)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # mode as open() gives
    try:
        with contextlib.suppress(OSError):  # open() keeps a file's mode when it replaces it
            os.fchmod(fd, stat.S_IMODE(os.stat(target).st_mode))
        with os.fdopen(fd, "wb") as f:
            if callable(content):
                content(f)
            else:
                for chunk in _chunks(content):
                    f.write(chunk)
            f.flush()
            if sync:
                os.fsync(f.fileno())
    except BaseException:
        _remove(tmp)
        raise
    return tmp


def _fsync_file(path: Path) -> None:
    """fsync a written temporary (an error is the file's write error)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_all(paths: list[Path]) -> list[OSError | None]:
    """fsync every path, several at once (fsync releases the GIL, and a file system commits
    concurrent fsyncs together: thousands of small files take a fraction of the time one by
    one takes); each path's error, or ``None``."""
    def one(path: Path) -> OSError | None:
        try:
            _fsync_file(path)
        except OSError as e:
            return e
        return None

    if len(paths) < 8:
        return [one(p) for p in paths]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=16, thread_name_prefix="kpart-fsync") as pool:
        return list(pool.map(one, paths))


def write_texts(
    files: Mapping[PathLike, Content],
    options: Mapping[PathLike | None, str] | None = None,
    default_option: str = "--out",
    *,
    inputs: Mapping[str, PathLike | None] | None = None,
) -> list[Path]:
    """Write several files at once: every target is checked (none may be one of the command's
    ``inputs``, ``{option: path}``), then every content goes to its
    temporary, then all are renamed into place (a failure before the renames leaves every
    previous file as it was and no temporary). ``options`` maps a path to the option that named
    it (errors name both); others are ``default_option``. Returns the written paths.
    Text is written as UTF-8; ``bytes`` as they are; an iterable of chunks is streamed; a
    :data:`Fill` writes into the temporary itself (an ``OSError`` it raises, e.g. no space
    left on device, is reported as this file's write error; anything else it raises goes up
    unchanged, the temporaries removed)."""
    named = {str(k): v for k, v in (options or {}).items() if k is not None}
    plan = []
    seen: dict[str, str] = {}
    probed: set[Path] = set()
    for path, content in files.items():
        option = named.get(str(path), default_option)
        check_writable(path, option, inputs=inputs, probed=probed)
        target = _target(path)
        key = os.path.realpath(target)
        if key in seen:
            raise _write_error(option, path, f"it is also the output of {seen[key]}")
        seen[key] = option
        plan.append((path, target, content, option))
    temps: list[tuple[Path, Path]] = []
    try:
        _clean_stale(target for _, target, _, _ in plan)
        for path, target, content, option in plan:
            try:
                temps.append((_write_temp(target, content, sync=len(plan) == 1), target))
            except OSError as e:
                raise _write_error(option, path, _reason(e)) from None
        if len(plan) > 1:
            for error, (path, _, _, option) in zip(_fsync_all([t for t, _ in temps]), plan,
                                                    strict=True):
                if error is not None:
                    raise _write_error(option, path, _reason(error))
        for (tmp, target), (path, _, _, option) in zip(temps, plan, strict=True):
            try:
                os.replace(tmp, target)
            except OSError as e:
                raise _write_error(option, path, _reason(e)) from None
    except BaseException:
        for tmp, _ in temps:
            _remove(tmp)
        raise
    for parent in dict.fromkeys(target.parent for _, target in temps):
        _fsync_dir(parent)
    return [Path(p) for p in files]


def write_text(path: PathLike, content: str | bytes | Iterable[str | bytes],
               option: str = "--out") -> Path:
    """Write ``content`` (text as UTF-8, bytes, or an iterable of chunks) to ``path``
    atomically; see the module docstring. Returns ``path``."""
    write_texts({path: content}, default_option=option)
    return Path(path)


def write_binary(path: PathLike, fill: Fill, option: str = "--out", *,
                 inputs: Mapping[str, PathLike | None] | None = None) -> Path:
    """Write the file ``fill(f)`` writes to ``f`` (a binary file open for writing; ``fill``
    must not close it) to ``path``, atomically as :func:`write_text` does: ``fill`` writes
    into the temporary, which becomes ``path`` only once ``fill`` returned and the bytes are
    on disk. When ``fill`` raises, ``path`` is left as it was and no temporary remains.
    ``inputs``: ``{option: path}`` of the command's file inputs (never overwritten).
    ``ConfigError`` naming ``option`` and ``path`` when it cannot be written. Returns ``path``.

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> p = write_binary(os.path.join(d, "x.bin"), lambda f: f.write(b"PAR1"))
    >>> p.read_bytes()
    b'PAR1'
    >>> def fail(f):
    ...     f.write(b"half")
    ...     raise RuntimeError("the writer failed")
    >>> write_binary(os.path.join(d, "y.bin"), fail)
    Traceback (most recent call last):
    ...
    RuntimeError: the writer failed
    >>> sorted(os.listdir(d))
    ['x.bin']
    """
    write_texts({path: fill}, default_option=option, inputs=inputs)
    return Path(path)


def table_fill(table: pa.Table, fmt: str) -> Fill:
    """The :data:`Fill` writing ``table`` as ``fmt``: ``"parquet"`` (Apache Parquet, pyarrow's
    defaults: snappy compression, dictionary-encoded columns; Spark's
    ``spark.read.parquet``, DuckDB and pandas read it) or ``"arrow"`` (the Arrow IPC *file*
    format, Feather v2: ``pyarrow.ipc.open_file``, ``pyarrow.feather.read_table``, Polars'
    ``read_ipc``). ``ValueError`` for another ``fmt``."""
    if fmt == "parquet":
        import pyarrow.parquet as pq

        return lambda f: pq.write_table(table, f)
    if fmt == "arrow":
        import pyarrow as pa

        def fill(f: BinaryIO) -> None:
            with pa.ipc.new_file(f, table.schema) as writer:
                writer.write_table(table)

        return fill
    raise ValueError(f"unknown table format {fmt!r} (expected one of {', '.join(TABLE_FORMATS)})")


def write_table(path: PathLike, table: pa.Table, fmt: str, option: str = "--out", *,
                inputs: Mapping[str, PathLike | None] | None = None) -> Path:
    """Write ``table`` to ``path`` as ``fmt`` (:data:`TABLE_FORMATS`, see :func:`table_fill`),
    atomically (:func:`write_binary`). Returns ``path``.

    >>> import os, tempfile
    >>> import pyarrow as pa, pyarrow.parquet as pq
    >>> d = tempfile.mkdtemp()
    >>> t = pa.table({"topic": ["t", "t"], "partition": pa.array([0, 1], pa.int32())})
    >>> pq.read_table(write_table(os.path.join(d, "a.parquet"), t, "parquet")).equals(t)
    True
    >>> pa.ipc.open_file(str(write_table(os.path.join(d, "a.arrow"), t, "arrow"))).read_all() == t
    True
    """
    return write_binary(path, table_fill(table, fmt), option, inputs=inputs)


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux ``renameat2``); ``False`` when not supported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    if fn(-100, os.fsencode(a), -100, os.fsencode(b), _RENAME_EXCHANGE) == 0:  # AT_FDCWD
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _fsync_tree(root: Path) -> None:
    for here, _dirs, names in os.walk(root):
        for name in names:
            _fsync_path(os.path.join(here, name))
        _fsync_dir(Path(here))


def write_dir(path: PathLike, fill: Callable[[Path], object], option: str = "--out", *,
              replace: Callable[[Path], bool] | None = None) -> Path:
    """Build a directory with ``fill(tmp)`` in a temporary sibling and move it to ``path``.

    An existing directory at ``path`` is replaced only when ``replace(path)`` says so (the
    caller's proof that it may delete it, e.g. it is a previous kpart report); it is swapped
    aside atomically and removed only after the new one is in place. ``ConfigError`` naming
    ``option`` and ``path`` when it cannot be written. Returns ``path``."""
    check_writable(path, option, directory=True)
    target = _target(path)
    if target.exists() and (replace is None or not replace(target)):
        raise _write_error(option, path, "exists and kpart may not replace it")
    clean_stale(target)
    tmp = target.parent / _temp_name(target.name)
    try:
        os.mkdir(tmp, 0o777)  # mode as mkdir gives it under the umask
    except OSError as e:
        raise _write_error(option, path, _reason(e)) from None
    aside: Path | None = None
    try:
        fill(tmp)
        _fsync_tree(tmp)
        if not target.exists():
            os.replace(tmp, target)
        elif _exchange(tmp, target):
            aside = tmp  # now holds the previous directory
        else:
            aside = target.parent / _temp_name(target.name, "old")
            os.rename(target, aside)
            os.rename(tmp, target)
    except BaseException as e:
        _remove(tmp)
        if aside is not None and aside != tmp and not target.exists():
            os.rename(aside, target)  # put the previous directory back
        if isinstance(e, OSError):  # e.g. no space left: name the user's path, not the temp
            raise _write_error(option, path, _reason(e)) from None
        raise
    _fsync_dir(target.parent)
    if aside is not None:
        _remove(aside)
    return Path(path)
