"""Option conventions shared by every ``kpart`` command (checked by ``tests/test_cli_options.py``).

- an option writing a file or directory is ``-o/--out`` (a second output of the same command is
  ``--<what>-out``);
- a partition count is ``-p/--partitions``;
- a key serializer is ``--serializer``, whose help lists :data:`SERIALIZER_NAMES`.

Older spellings stay accepted as hidden aliases so that no command line breaks: ``-n`` for
``--partitions`` (``partition``, ``compat``, ``whatif``), ``--output`` for ``--out``
(``place``, ``simulate``), ``--rollback`` for ``--rollback-out`` (``plan``, ``pools``).

>>> either("6", None, "--partitions"), either(None, "6", "--partitions")
('6', '6')
>>> either(None, None, "--out", required=False) is None
True
"""

from __future__ import annotations

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
