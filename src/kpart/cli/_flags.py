"""Library parameters → the command-line flags that set them, for errors that name a parameter.

A library error about one argument (:meth:`kpart.errors.KpartError.about`) names it as Python
does (``max_moves``); the CLI prints the same message naming the flag (``--max-moves``). A
parameter is its flag with dashes for underscores unless :data:`FLAGS` says otherwise.

>>> flag_for("max_moves"), flag_for("num_partitions"), flag_for(None)
('--max-moves', '--partitions', None)
"""

from __future__ import annotations

#: Library parameter names whose flag is not ``--`` + the name with dashes (add one here when a
#: library function's parameter and the CLI's flag are spelt differently).
FLAGS: dict[str, str] = {
    "data": "DATA",
    "fixed_start_index": "--start-index",
    "fmt": "--format",
    "null_key_strategy": "--null-keys",
    "num_partitions": "--partitions",
    "out_dir": "--out",
    "path": "DATA",
}


def flag_for(parameter: str | None) -> str | None:
    """The flag that sets library ``parameter`` (``None`` for an error about no parameter)."""
    if parameter is None:
        return None
    return FLAGS.get(parameter, "--" + parameter.replace("_", "-"))
