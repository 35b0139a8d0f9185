"""Spark Connect remotes (``sc://HOST:PORT``): the URL's form checked and its port reached
before anything starts, the session opened with a bounded first contact, and every failure one
``ConfigError`` line naming ``remote`` (the command line's ``--remote``) and the URL.

Spark Connect (Spark ≥ 3.4; the client is ``pyspark[connect]``: gRPC, protobuf) runs the driver
on a server (``org.apache.spark.sql.connect.service.SparkConnectServer``, port 15002 by
default) and gives the client a ``pyspark.sql.connect.session.SparkSession``: DataFrames,
``mapInArrow``, ``persist``, ``collect`` as on a classic session, but no ``SparkContext``, no
py4j, no JVM in the client process. The connection string is the one of Spark's
``DefaultChannelBuilder`` (``sc://HOST[:PORT][/;key=value;...]``, parameters ``token``,
``use_ssl``, ``user_id``, ``session_id``, ...); a ``token``'s value is never printed.

The client retries an unreachable server for ten minutes (``DefaultPolicy``): kpart opens
the TCP port first (refused and unresolvable hosts fail at once), then makes one call
(``SparkSession.version``) without retries within ``timeout`` seconds.

>>> check_remote("sc://127.0.0.1:15002"), check_remote("sc://spark.example.com/;use_ssl=true")
(('127.0.0.1', 15002), ('spark.example.com', 15002))
>>> check_remote("sc://10.0.0.1:15002/;token=s3cret;x")
Traceback (most recent call last):
kpart.errors.ConfigError: remote 'sc://10.0.0.1:15002/;token=***;x': parameter 'x' is not \
key=value
"""

from __future__ import annotations

import os
import re
import socket
import threading
import urllib.parse
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import SparkSession
    from pyspark.sql.connect.session import SparkSession as ConnectSession

__all__ = [
    "DEFAULT_CONNECT_PORT",
    "DEFAULT_REMOTE_TIMEOUT",
    "check_remote",
    "check_remote_reachable",
    "connect_session",
    "is_connect",
    "shown_url",
]

#: Spark Connect's default port (``spark.connect.grpc.binding.port``; the client's default).
DEFAULT_CONNECT_PORT = 15002
#: Seconds kpart waits for a Spark Connect server: its TCP port, then its first answer. A
#: live server answers ``version`` in milliseconds; unreachable and refused ones fail at once.
DEFAULT_REMOTE_TIMEOUT = 10.0

_EXPECTED = "expected sc://HOST[:PORT][/;key=value...]"
_SECRET = re.compile(r"(?i)(;token=)[^;]*")


def shown_url(url: str) -> str:
    """``url`` as kpart prints it: a ``token`` parameter's value replaced by ``***``.

    >>> shown_url("sc://h:1/;user_id=a;token=abc")
    'sc://h:1/;user_id=a;token=***'
    """
    return _SECRET.sub(r"\1***", url)


def _fail(url: str, why: str) -> ConfigError:
    return ConfigError.about("remote", "{param} {value!r}: {why}", value=shown_url(url), why=why)


def check_remote(url: str) -> tuple[str, int]:
    """Check the form of a Spark Connect URL as Spark's ``DefaultChannelBuilder`` parses it
    and return its ``(host, port)`` (port :data:`DEFAULT_CONNECT_PORT` when absent). No
    pyspark import, no network. ``ConfigError`` naming the URL (token hidden): not ``sc://``,
    no host, a path, a bad port, a parameter that is not ``key=value``."""
    if not isinstance(url, str) or not url.startswith("sc://"):
        raise _fail(str(url), f"a Spark Connect URL starts with sc://; {_EXPECTED}")
    if url != url.strip() or any(c.isspace() for c in url):
        raise _fail(url, f"a URL has no spaces; {_EXPECTED}")
    parsed = urllib.parse.urlparse("http" + url[2:])
    if parsed.path not in ("", "/"):
        raise _fail(url, f"no path is allowed, got {parsed.path!r}; {_EXPECTED}")
    if parsed.params:
        for part in parsed.params.split(";"):
            if len(part.split("=")) != 2:
                raise _fail(url, f"parameter {part!r} is not key=value")
    try:
        port = parsed.port
    except ValueError:
        port = -1
    if not parsed.hostname:
        raise _fail(url, f"no host; {_EXPECTED}")
    if port is not None and not 0 < port < 65536:
        raise _fail(url, f"the port is not in 1..65535; {_EXPECTED}")
    return parsed.hostname, DEFAULT_CONNECT_PORT if port is None else port


def check_remote_reachable(url: str, timeout: float = DEFAULT_REMOTE_TIMEOUT) -> None:
    """Open (and close) a TCP connection to the server of ``url`` within ``timeout`` seconds;
    ``ConfigError`` naming the URL otherwise (refused and unresolvable: at once)."""
    host, port = check_remote(url)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return
    except socket.gaierror as e:
        why = f"cannot resolve host {host!r} ({e.strerror})"
    except TimeoutError:
        why = f"{host}:{port}: no answer within {timeout:g} s"
    except OSError as e:
        why = f"cannot connect to {host}:{port} ({e.strerror or e})"
    raise _fail(url, f"no Spark Connect server: {why}")


def is_connect(session: Any) -> bool:
    """True for a Spark Connect session (``pyspark.sql.connect``): no SparkContext, no py4j.
    Imports nothing.

    >>> is_connect(object())
    False
    """
    return type(session).__module__.startswith("pyspark.sql.connect")


def connect_session(url: str, settings: Mapping[str, str],
                    timeout: float = DEFAULT_REMOTE_TIMEOUT) -> SparkSession:
    """A Spark Connect session on ``url`` whose server answered within ``timeout`` seconds,
    with the SQL ``settings`` (``spark.sql.*``: the server's static settings are its own)
    applied to it. ``ConfigError`` naming the URL when the server does not answer or refuses
    the session; the session is closed then. The URL's form and port are checked by the
    caller (:func:`check_remote`, :func:`check_remote_reachable`).

    This process's pyspark is switched to Spark Connect (``SPARK_CONNECT_MODE_ENABLED``, as
    ``SparkSession.builder.remote`` does): a process runs classic sessions or Connect ones,
    not both; ConfigError when a classic session is already active here.
    """
    os.environ.setdefault("GRPC_VERBOSITY", "NONE")  # kpart reports failures in its own line
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    if SparkContext._active_spark_context is not None:
        raise _fail(url, "this process already runs a classic Spark session; Spark Connect "
                    "needs a process of its own")
    _check_active_connect(url)
    try:
        # typed as a classic session by pyspark's builder, as every Connect session it returns
        session = cast("ConnectSession", SparkSession.builder.remote(url).getOrCreate())
    except Exception as e:  # PySparkValueError: the URL's parameters  # noqa: BLE001
        raise _fail(url, _first_line(e)) from None
    _first_answer(session, url, timeout)
    try:
        for key, value in settings.items():
            session.conf.set(key, value)
    except Exception as e:  # noqa: BLE001 - the server refused a setting
        session.stop()
        raise _fail(url, f"the server refused a setting: {_first_line(e)}") from None
    return cast("SparkSession", session)


def _check_active_connect(url: str) -> None:
    """ConfigError when this process has an active Connect session on another server (the
    builder would hand it back, whatever the URL)."""
    import sys

    if "pyspark.sql.connect.session" not in sys.modules:
        return
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    active = ConnectSession.getActiveSession()
    if active is None:
        return
    host, port = check_remote(url)
    wanted = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    endpoint = getattr(getattr(active.client, "_builder", None), "endpoint", wanted)
    if endpoint != wanted:
        raise _fail(url, f"this process already has a Spark Connect session on {endpoint}")


def _first_answer(session: ConnectSession, url: str, timeout: float) -> None:
    """Ask the server its Spark version, once, without the client's retries; within
    ``timeout`` seconds or ``ConfigError`` (the session is closed)."""
    from pyspark.sql.connect.client.retries import DefaultPolicy

    client = session.client
    policies = client.get_retry_policies()
    client.set_retry_policies([DefaultPolicy(max_retries=0)])
    answers: list[str] = []
    errors: list[BaseException] = []

    def ask() -> None:
        try:
            with warnings.catch_warnings():  # RETRIES_EXCEEDED: the error says it all
                warnings.simplefilter("ignore")
                answers.append(session.version)
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
            errors.append(e)

    thread = threading.Thread(target=ask, name="kpart-connect-probe", daemon=True)
    thread.start()
    thread.join(timeout)
    if answers:
        client.set_retry_policies(policies)
        return
    _close(session)
    if errors:
        raise _fail(url, f"the Spark Connect server did not answer: {_grpc_detail(errors[0])}")
    raise _fail(url, f"the Spark Connect server did not answer within {timeout:g} s")


def _close(session: ConnectSession) -> None:
    """Close ``session``'s channel without asking the server to release the session (it has
    not answered: that call would wait for it too)."""
    session.release_session_on_close = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        session.stop()


def _first_line(error: BaseException) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    text = lines[0] if lines else type(error).__name__
    return shown_url(text if len(text) <= 300 else text[:297] + "...")


def _grpc_detail(error: BaseException) -> str:
    """The ``details`` of a gRPC error (``failed to connect to all addresses; ...``), else
    its first line."""
    m = re.search(r'details = "([^"]*)"', str(error))
    return shown_url(m.group(1)) if m else _first_line(error)
