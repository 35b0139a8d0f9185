"""One catalogue case: a ``kpart`` command line on files in a fresh directory, and what must happen.

``expect="error"``: exit code 2, stderr is exactly one line ``kpart: error: ...`` that contains
``names`` (the bad value), no traceback, and the directory holds exactly the input files
afterwards, unchanged (nothing half-written, nothing deleted).

``expect="warning"``: exit code 0, a ``kpart: warning: ...`` line containing ``names``, no
traceback; the command's normal result is still produced (``stdout`` not empty unless
``quiet_ok``).

``argv`` and file contents may use ``{d}`` for the case directory (the runner also runs the
command with the case directory as the working directory, so relative names work).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["Case"]


@dataclass(frozen=True)
class Case:
    """A bad-input case (see the module docstring)."""

    id: str
    argv: tuple[str, ...]
    names: str
    files: Mapping[str, str | bytes] = field(default_factory=dict)
    expect: str = "error"
    stdin: str | None = None
    #: a warning case whose command writes its result to a file instead of stdout
    quiet_ok: bool = False
    #: pytest marks (e.g. "spark") for the rare case that needs more than the CLI
    marks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.expect not in ("error", "warning"):
            raise ValueError(f"{self.id}: expect must be 'error' or 'warning'")
        if not self.names:
            raise ValueError(f"{self.id}: names must say which value the message names")
