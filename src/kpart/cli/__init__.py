"""The ``kpart`` command line: one module per pillar, no algorithm inside.

Every command parses arguments, reads and writes files, and calls the pure cores. Bad input
(any :class:`kpart.errors.KpartError`, or a usage error) prints one line on stderr naming the
bad value and exits with code 2; nothing is left half-written (outputs go to a temporary path
and are renamed into place). A :class:`kpart.errors.KpartWarning` raised by a core (input Kafka
accepts but that is probably a mistake) prints one ``kpart: warning: ...`` line on stderr and
the command goes on with the Kafka-faithful result.

A failure of Spark (a job that failed, a file Spark could not read, its JVM out of memory or
killed) is one ``kpart: error: ...`` line naming the cause (:mod:`kpart.spark._failures`), exit
code 2, the JVM kpart started stopped. Ctrl-C (SIGINT) ends any command with the one line
``kpart: interrupted`` and exit code 130 (128 + SIGINT, as shells report it), the JVM kpart
started stopped and nothing half-written.
"""

from __future__ import annotations

import signal
import sys
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Annotated, Any, TextIO

import typer

from kpart.cli._flags import flag_for
from kpart.errors import KpartError, KpartWarning

app = typer.Typer(
    name="kpart",
    help="Kafka's partitioning decisions, computed exactly as Kafka computes them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        from kpart import __version__

        typer.echo(__version__)
        raise typer.Exit()


@app.callback()
def _root(_version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print kpart's version and exit.")] = False) -> None:
    """Kafka's partitioning decisions, computed exactly as Kafka computes them."""


@app.command("version")
def version() -> None:
    """Print kpart's version, and the Kafka version every decision follows unless
    ``--kafka-version`` (or a topology's ``kafka_version`` / ``client_version``) says another."""
    from kpart import __version__
    from kpart.versions import DEFAULT_KAFKA_VERSION, RELEASES, UNRELEASED

    def dotted(v: tuple[int, ...]) -> str:
        return ".".join(map(str, v))

    typer.echo(__version__)
    typer.echo(f"Kafka version by default: {DEFAULT_KAFKA_VERSION} (known: "
               f"{dotted(RELEASES[0])} to {dotted(RELEASES[-1])}; "
               f"{', '.join(map(dotted, UNRELEASED))} unreleased)")


_registered = False


def _register() -> None:
    # Each command module exposes register(app). Imported here, not at module level, so that
    # a command module may import heavy libraries lazily inside its commands.
    global _registered
    if _registered:
        return
    from kpart.cli import (
        cluster,
        compat,
        consumer,
        coordinator,
        nullkey,
        outage,
        placement,
        plan,
        producer,
        report,
        share,
        snapshot,
        streams,
        upgrade,
    )

    for module in (producer, compat, nullkey, placement, plan, cluster, outage, consumer,
                   upgrade, share, streams, coordinator, report, snapshot):
        module.register(app)
    _registered = True


@contextmanager
def _warnings_as_lines() -> Iterator[None]:
    """Print every :class:`KpartWarning` as one ``kpart: warning: ...`` line on stderr (each
    distinct message once), leaving other warnings as Python shows them."""
    shown: set[str] = set()
    previous = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: TextIO | None = None, line: str | None = None) -> None:
        if isinstance(message, KpartWarning) or (
            isinstance(category, type) and issubclass(category, KpartWarning)
        ):
            text = str(message)
            if text not in shown:
                shown.add(text)
                typer.echo(f"kpart: warning: {text}", err=True)
            return
        previous(message, category, filename, lineno, file, line)

    with warnings.catch_warnings():
        warnings.simplefilter("always", KpartWarning)
        warnings.showwarning = show
        yield


#: Exit code of a command ended by Ctrl-C (128 + SIGINT).
INTERRUPTED = 130


@contextmanager
def _sigint_noted() -> Iterator[list[int]]:
    """Note each SIGINT in the yielded list, then raise KeyboardInterrupt as Python does (a
    Spark session kpart starts keeps this handler: :mod:`kpart.spark.session`). An ignored
    SIGINT (a background job) stays ignored."""
    seen: list[int] = []
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) == signal.SIG_IGN):
        yield seen
        return

    def on_sigint(signum: int, frame: Any) -> None:
        seen.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield seen
    finally:
        signal.signal(signal.SIGINT, previous)


def _launched_jvm() -> object | None:
    """The JVM this process launched for Spark (``None`` when Spark never ran here)."""
    if "kpart.spark.session" not in sys.modules:
        return None
    from kpart.spark.session import launched_jvm

    return launched_jvm()


def _stop_jvm_since(before: object | None) -> None:
    """Stop the JVM launched since ``before`` was (not one an embedding process runs)."""
    jvm = _launched_jvm()
    if jvm is not None and jvm is not before:
        from kpart.spark.session import stop_jvm

        stop_jvm()


def _spark_failure(error: BaseException, before: object | None) -> str | None:
    """The one line of a Spark failure (:mod:`kpart.spark._failures`), ``None`` for any other
    error (and when Spark never ran)."""
    if "kpart.spark.session" not in sys.modules:
        return None
    from kpart.spark._failures import describe_failure, is_lost_connection
    from kpart.spark._stderr import fatal_lines
    from kpart.spark.session import jvm_exit_status

    status = None
    if _launched_jvm() not in (None, before):  # a lost connection: the JVM may be dying
        status = jvm_exit_status(wait=5.0 if is_lost_connection(error) else 0.0)
    return describe_failure(error, jvm_status=status,
                            fatal=fatal_lines(wait=1.0 if status is not None else 0.0))


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``kpart`` console script; returns the process exit code."""
    _register()
    before = _launched_jvm()
    with _warnings_as_lines(), _sigint_noted() as sigint:
        try:
            code = _main(argv, sigint)
        except BaseException as e:  # noqa: BLE001 - Ctrl-C or a Spark failure: one line
            if sigint or isinstance(e, KeyboardInterrupt):
                code = INTERRUPTED
            else:
                line = _spark_failure(e, before)
                if line is None:
                    raise
                typer.echo(f"kpart: error: {line}", err=True)
                code = 2
        if sigint:
            code = INTERRUPTED
        try:
            if code != 0:  # a failed run leaves no JVM of its own behind
                _stop_jvm_since(before)
        except KeyboardInterrupt:  # Ctrl-C again while the JVM stops (it is killed at exit)
            code = INTERRUPTED
        if code == INTERRUPTED:
            with suppress(KeyboardInterrupt):
                typer.echo("kpart: interrupted", err=True)
        return code


def _main(argv: list[str] | None, interrupted: list[int] | None = None) -> int:
    """The command's exit code; a usage error or bad input printed as one line (none after
    Ctrl-C, noted in ``interrupted``: the error is the interruption's)."""
    try:
        code = app(args=argv, prog_name="kpart", standalone_mode=False)
        if code == INTERRUPTED:  # typer's answer to a KeyboardInterrupt (Exit(130))
            return INTERRUPTED
    except typer.TyperException as e:  # usage errors (exit 2) and other click-style errors
        if type(e).__name__ == "NoArgsIsHelpError":  # a bare group command: print its help
            typer.echo(e.format_message(), err=True)
        else:
            ctx = getattr(e, "ctx", None)
            where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            given = _given_value(e, sys.argv[1:] if argv is None else argv)
            got = f" (got {given!r})" if given is not None else ""
            from kpart.cli._argv_keys import dash_key_hint

            hint = dash_key_hint(e, sys.argv[1:] if argv is None else argv)
            typer.echo(f"kpart: error: {e.format_message()}{got}{where}{hint}", err=True)
        return e.exit_code
    except typer.Abort:
        typer.echo("Aborted.", err=True)
        return 1
    except typer.Exit as e:
        return e.exit_code
    except KpartError as e:
        if interrupted:
            return INTERRUPTED
        flags = {m: flag_for(m) for m in e.mentions}
        typer.echo(f"kpart: error: {e.naming(flag_for(e.parameter), flags)}", err=True)
        return 2
    except (FileNotFoundError, IsADirectoryError, PermissionError) as e:
        typer.echo(f"kpart: error: {e.strerror}: {e.filename}", err=True)
        return 2
    return 0


def _given_value(e: Exception, argv: list[str]) -> str | None:
    """The value the user gave to the option a conversion error is about (click's message
    does not name it), e.g. ``many`` for ``--records many``; ``None`` when not found."""
    param = getattr(e, "param", None)
    if type(e).__name__ != "BadParameter" or param is None:
        return None
    for i, token in enumerate(argv):
        for opt in (*param.opts, *param.secondary_opts):
            if not opt.startswith("-"):
                continue
            if token == opt and i + 1 < len(argv):
                return argv[i + 1]
            if opt.startswith("--") and token.startswith(opt + "="):
                return token[len(opt) + 1:]
            if len(opt) == 2 and token.startswith(opt) and not token.startswith("--"):
                return token[2:]
    return None


def run() -> None:  # pragma: no cover - console script shim
    """The ``kpart`` console script: :func:`main` on ``sys.argv``, then exit with its code."""
    sys.exit(main())
