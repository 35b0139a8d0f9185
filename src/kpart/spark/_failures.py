"""A failed Spark job, a bad file Spark could not read or a dead JVM, as one line.

What a Spark failure costs the user of the command line is one ``kpart: error: ...`` line naming
the cause, never a Java stack trace: :func:`describe_failure` turns the exception a job raised
(py4j's ``Py4JJavaError``, pyspark's captured exceptions, py4j's network errors when the JVM is
gone) into that line, reading the Java exception's chain from its text (``: Class: message``,
then ``Caused by: Class: message``), and the JVM's exit status when it has died:

* a Hadoop checksum error (a stale ``.crc`` sidecar next to a file, or a corrupt file): the file,
  the byte offset and its ``.crc``;
* any other failure to read a file of the input (Spark's ``FAILED_READ_FILE``): the file and
  the root cause;
* ``java.lang.OutOfMemoryError`` (thrown, or the JVM's last words under
  ``-XX:+ExitOnOutOfMemoryError``, :func:`kpart.spark._stderr.fatal_lines`), Spark's own
  ``SparkOutOfMemoryError``, or a JVM that exited with status 3 (``ExitOnOutOfMemoryError``)
  or 52 (Spark's out-of-memory exit code): out of memory, and how to give the driver more;
* a JVM that died otherwise: its exit status or the signal that killed it;
* a Python worker's error (``mapInArrow``): its Python exception line;
* anything else from Spark: the root cause's class and first line.

Nothing here imports pyspark or py4j: exceptions are recognised by their module's name.

>>> describe_java_text(": org.apache.spark.SparkException: boom\\n\\tat x.y(Z.java:1)\\n"
...                    "Caused by: java.io.IOException: disk gone")
'Spark failed: java.io.IOException: disk gone'
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from urllib.parse import unquote, urlparse

__all__ = [
    "OOM_HINT",
    "describe_failure",
    "describe_java_text",
    "is_lost_connection",
    "is_spark_error",
    "java_chain",
]

#: How to give Spark's driver more memory: kpart starts it through ``spark-submit``, which reads
#: ``SPARK_DRIVER_MEMORY`` (a ``spark.driver.memory`` of a Spark configuration wins over it).
OOM_HINT = "give Spark's driver more memory, e.g. SPARK_DRIVER_MEMORY=4g"
#: Exit statuses of a JVM that ran out of memory: HotSpot's under ``-XX:+ExitOnOutOfMemoryError``
#: and Spark's ``SparkExitCode.OOM``.
OOM_EXIT_STATUSES = (3, 52)
_MAX = 300  # characters of a Java message kept in the line

# "java.lang.OutOfMemoryError: Java heap space", "Caused by: org.apache...Exception: msg",
# ": org.apache.spark.SparkException: msg" (py4j's first line of a Java error)
_JAVA = re.compile(r"^(?:Caused by: |: )?((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*"
                   r"(?:Exception|Error|Throwable))(?::\s?(.*))?$")
_CHECKSUM = re.compile(r"Checksum error: (.+?) at (\d+)(?: exp:|$)")
_READ_FILE = re.compile(r"error while reading file (\S+?)\.?(?:\s|$)")
_SPARK_PACKAGES = ("py4j", "pyspark")
_SIGNALS = {6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM"}


def is_spark_error(error: BaseException) -> bool:
    """True for an exception of py4j or pyspark (a Java error, a lost JVM, a Spark analysis
    error; by its class's module), or one raised inside them (a refused connection to a dead
    JVM; by its traceback), or while handling one; never imports either."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if any(c.__module__.split(".")[0] in _SPARK_PACKAGES for c in type(current).__mro__):
            return True
        tb = current.__traceback__
        while tb is not None:
            parts = tb.tb_frame.f_code.co_filename.replace("\\", "/").split("/")
            if any(p in _SPARK_PACKAGES for p in parts):
                return True
            tb = tb.tb_next
        current = current.__cause__ or current.__context__
    return False


def is_lost_connection(error: BaseException) -> bool:
    """True for an error that says the JVM stopped answering (py4j's network errors and its
    errors without a Java exception, a refused or reset connection), not what failed in it:
    the JVM may be dying, its exit status tells more."""
    names = {c.__name__ for c in type(error).__mro__}
    return ("Py4JJavaError" not in names and "Py4JError" in names) or isinstance(
        error, (ConnectionError, EOFError))


def java_chain(text: str) -> list[tuple[str, str]]:
    """The Java exceptions named in ``text`` (a py4j error's text, a Java stack trace), in order:
    ``(class, first line of its message)``, the thrown one first and the root cause last.

    >>> java_chain("An error occurred while calling o1.csv.\\n: java.lang.OutOfMemoryError: "
    ...            "Java heap space\\n\\tat java.base/x.y(Z.java)")
    [('java.lang.OutOfMemoryError', 'Java heap space')]
    """
    chain: list[tuple[str, str]] = []
    for line in text.splitlines():
        m = _JAVA.match(line.strip() if line.startswith("Caused by") else line)
        if m is not None and (line.startswith((": ", "Caused by: ")) or not chain):
            entry = (m.group(1), (m.group(2) or "").strip())
            if entry not in chain:
                chain.append(entry)
    return chain


def _short(text: str) -> str:
    return text if len(text) <= _MAX else text[:_MAX - 3] + "..."


def _local_path(url: str) -> str:
    """``file:///tmp/x.parquet`` or ``file:/tmp/x.parquet`` → ``/tmp/x.parquet``; other URLs
    (``hdfs://...``) as they are."""
    parsed = urlparse(url)
    return unquote(parsed.path) if parsed.scheme == "file" else url


def _oom(detail: str) -> str:
    return f"Spark ran out of memory ({_short(detail)}): {OOM_HINT}"


def describe_java_text(text: str, fatal: tuple[str, ...] = ()) -> str:
    """The one line for a Java failure described by ``text`` (see the module docstring);
    ``fatal``: the JVM's last words (:func:`kpart.spark._stderr.fatal_lines`)."""
    chain = java_chain(text)
    for cls, msg in chain:
        if cls.endswith(".ChecksumException"):
            m = _CHECKSUM.search(msg)
            if m is not None:
                path = PurePosixPath(_local_path(m.group(1)))
                crc = path.with_name(f".{path.name}.crc")
                return (f"DATA: checksum error in {str(path)!r} at byte {m.group(2)}: the file "
                        f"does not match its Hadoop checksum file {crc.name!r} (the file was "
                        f"changed after the .crc was written, or it is corrupt; a stale .crc "
                        f"can be deleted)")
    for line in fatal:
        if "OutOfMemoryError" in line:
            return _oom(line.removeprefix("Terminating due to "))
    for cls, msg in chain:
        if cls.endswith("OutOfMemoryError"):
            return _oom(f"{cls}: {msg}" if msg else cls)
    python = _python_error(text)
    if python is not None:  # a Python worker's error (mapInArrow): its own last line
        return f"Spark failed in a Python worker: {_short(python)}"
    root = chain[-1] if chain else None
    cause = "" if root is None else (f"{root[0]}: {root[1]}" if root[1] else root[0])
    for _, msg in chain:
        m = _READ_FILE.search(msg)
        if m is not None:
            return f"DATA: cannot read {_local_path(m.group(1))!r}: {_short(cause)}"
    if root is None:
        first = next((line.strip() for line in text.splitlines() if line.strip()), "")
        return f"Spark failed: {_short(first or 'no detail')}"
    return f"Spark failed: {_short(cause)}"


def _python_error(text: str) -> str | None:
    """The exception line of the first Python traceback in ``text`` (``ValueError: boom``),
    ``None`` when there is none."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == "Traceback (most recent call last):":
            for after in lines[i + 1:]:
                if after.strip() and not after[0].isspace():
                    return after.strip()
    return None


def _error_text(error: BaseException) -> str:
    """The text of ``error`` with its Java chain: a Py4JJavaError's ``str`` asks the JVM for the
    stack trace (a dead JVM answers nothing: its Java exception's class and message are then
    unknown), a pyspark captured exception keeps its JVM stack trace."""
    parts = []
    try:
        parts.append(str(error))
    except Exception:  # noqa: BLE001 - a Py4JJavaError whose JVM is gone
        parts.append(type(error).__name__)
    trace = getattr(error, "_stackTrace", None)
    if isinstance(trace, str):
        cls = _captured_class(error)
        desc = getattr(error, "_desc", None)
        if cls and isinstance(desc, str):
            parts.insert(0, f": {cls}: {desc}")
        parts.append(trace)
    return "\n".join(parts)


def _captured_class(error: BaseException) -> str | None:
    """The Java class of a pyspark captured exception (``org.apache.spark.sql.AnalysisException``
    for an ``AnalysisException``), ``None`` when it cannot be asked."""
    origin = getattr(error, "_origin", None)
    try:
        return str(origin.getClass().getName()) if origin is not None else None
    except Exception:  # noqa: BLE001 - the JVM is gone
        return None


def describe_failure(error: BaseException, *, jvm_status: int | None = None,
                     fatal: tuple[str, ...] = ()) -> str | None:
    """One line naming the cause of ``error``, or ``None`` when it is not a Spark failure (not
    raised by py4j or pyspark, and the JVM is alive). ``jvm_status``: the exit status of the
    JVM kpart started when it has exited (negative: killed by that signal), else ``None``;
    ``fatal``: the JVM's last words (:func:`kpart.spark._stderr.fatal_lines`).

    >>> describe_failure(ValueError("x")) is None
    True
    >>> describe_failure(ValueError("x"), jvm_status=-9)
    "Spark's JVM was killed by signal 9 (SIGKILL; the system may have run out of memory)"
    >>> describe_failure(ValueError("x"), jvm_status=3)  # doctest: +ELLIPSIS
    "Spark ran out of memory (Spark's JVM exited with status 3): give Spark's driver more ..."
    """
    if jvm_status is not None:
        text = _error_text(error) if is_spark_error(error) else ""
        if fatal or jvm_status in OOM_EXIT_STATUSES or "OutOfMemoryError" in text:
            line = describe_java_text(text, fatal)
            if "out of memory" in line:
                return line
            return _oom(f"Spark's JVM exited with status {jvm_status}")
        if jvm_status < 0:
            name = _SIGNALS.get(-jvm_status, "")
            why = f" ({name}; the system may have run out of memory)" if -jvm_status == 9 else (
                f" ({name})" if name else "")
            return f"Spark's JVM was killed by signal {-jvm_status}{why}"
        return f"Spark's JVM exited with status {jvm_status} before the job ended"
    if not is_spark_error(error):
        return None
    if is_lost_connection(error) and not fatal:  # the JVM runs on, but answers no more
        return f"Spark's JVM stopped answering ({_short(_first_line(error))})"
    return describe_java_text(_error_text(error), fatal)


def _first_line(error: BaseException) -> str:
    text = next((line.strip() for line in str(error).splitlines() if line.strip()), "")
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
