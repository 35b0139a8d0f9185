"""Option conventions shared by every ``kpart`` command (checked by ``tests/test_cli_options.py``).

- an option writing a file or directory is ``-o/--out`` (a second output of the same command is
  ``--<what>-out``);
- a partition count is ``-p/--partitions``;
- a key serializer is ``--serializer``, whose help lists :data:`SERIALIZER_NAMES`;
- an output format is ``--format``; the columnar ones, ``parquet`` and ``arrow``
  (:data:`BINARY_FORMATS`), are binary files written to ``-o/--out`` only, atomically: kpart
  never prints binary data (Spark, DuckDB and pyarrow read Parquet and Arrow files by path). Left
  out, ``--format`` follows ``--out``'s name (``.parquet``, ``.arrow``), see :func:`output_format`.

Older spellings stay accepted as hidden aliases so that no command line breaks: ``-n`` for
``--partitions`` (``partition``, ``compat``, ``whatif``), ``--output`` for ``--out``
(``place``, ``simulate``), ``--rollback`` for ``--rollback-out`` (``plan``, ``pools``).

>>> either("6", None, "--partitions"), either(None, "6", "--partitions")
('6', '6')
>>> either(None, None, "--out", required=False) is None
True
>>> output_format(None, Path("a.parquet"), ("json", "parquet"), "json")
'parquet'
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Literal, TypeVar, overload

import typer

from kpart.errors import ConfigError
from kpart.producer.serializers import SERIALIZERS

#: The key serializers every ``--serializer`` option names (the one list,
#: :data:`kpart.producer.serializers.SERIALIZERS`).
SERIALIZER_NAMES = SERIALIZERS
#: Help of ``--serializer`` where keys come from the command line.
SERIALIZER_HELP = ("Key serializer: string (UTF-8), int, long, short, uuid, bytes, hex (the "
                   "key written as hex digits). See docs/producer-partitioning.md.")

#: ``-n``: hidden alias of ``-p/--partitions``.
PartitionsAlias = Annotated[str | None, typer.Option("-n", hidden=True, show_default=False)]

#: ``--kafka-version`` of a command whose output no versioned decision changes: checked (an
#: unknown or unparseable version is refused), so that one command line serves every command.
UnversionedKafkaVersion = Annotated[str | None, typer.Option(
    "--kafka-version", show_default=False,
    help="The Kafka version (default: 4.3, the newest release). Nothing this command computes "
    "depends on it (docs/versions.md); it is checked, so one command line serves every "
    "command.")]


def check_kafka_version(value: str | None) -> None:
    """Refuse an unparseable or unknown ``--kafka-version`` (one line, exit 2)."""
    if value is not None:
        from kpart.versions import KafkaVersion

        KafkaVersion.parse(value)
#: ``--output``: hidden alias of ``-o/--out``.
OutputAlias = Annotated[Path | None, typer.Option("--output", hidden=True, show_default=False)]

T = TypeVar("T")


@overload
def either(value: T | None, alias: T | None, option: str, *,
           required: Literal[True] = True) -> T: ...


@overload
def either(value: T | None, alias: T | None, option: str, *, required: bool) -> T | None: ...


def either(value: T | None, alias: T | None, option: str, *, required: bool = True) -> T | None:
    """The option's value, given under its name or its hidden alias (not both); ConfigError
    naming ``option`` when it is given twice, or missing and ``required``."""
    if value is not None and alias is not None:
        raise ConfigError(f"{option} is given twice ({value!r} and {alias!r})")
    chosen = value if value is not None else alias
    if chosen is None and required:
        raise ConfigError(f"Missing option '{option}'.")
    return chosen


#: Output formats that are binary files (Apache Parquet, Arrow IPC file): ``--out`` only.
BINARY_FORMATS = ("parquet", "arrow")
#: ``--out`` suffixes naming a format when ``--format`` is left out.
SUFFIX_FORMATS = {".parquet": "parquet", ".arrow": "arrow"}


def output_format(fmt: str | None, out: Path | None, choices: Sequence[str], default: str) -> str:
    """The format a command writes: ``fmt`` (``--format``) when given, else the one ``out``'s
    suffix names (:data:`SUFFIX_FORMATS`, when among ``choices``), else ``default``.

    ``ConfigError`` (one line) for a format not in ``choices``, and for a binary format
    (:data:`BINARY_FORMATS`) without ``out``.

    >>> output_format("table", None, ("json", "table"), "json")
    'table'
    >>> output_format(None, Path("plan.ARROW"), ("json", "parquet", "arrow"), "json")
    'arrow'
    >>> output_format("parquet", None, ("json", "parquet"), "json")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: --format parquet writes a binary file: give -o/--out FILE \
(e.g. --out result.parquet); kpart does not print binary data
    >>> output_format("xml", None, ("json", "table"), "json")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: --format: unknown format 'xml' (expected one of json, table)
    """
    if fmt is None:
        named = SUFFIX_FORMATS.get(out.suffix.lower()) if out is not None else None
        fmt = named if named in choices else default
    assert fmt is not None
    if fmt not in choices:
        raise ConfigError(f"--format: unknown format {fmt!r} (expected one of "
                          f"{', '.join(choices)})")
    if fmt in BINARY_FORMATS and out is None:
        raise ConfigError(f"--format {fmt} writes a binary file: give -o/--out FILE (e.g. --out "
                          f"result.{fmt}); kpart does not print binary data")
    return fmt
