"""``kpart_warn``: raise a :class:`~kpart.errors.KpartWarning` attributed to the caller's code.

A warning about a user's input should point at the line of *their* program that handed kpart
that input, not at kpart's parser: :func:`kpart_warn` walks up the stack past every frame of the
``kpart`` package (any depth of private helpers, comprehensions included) and warns from there,
so ``warnings`` filters by module and the "once per location" default act on the user's code.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     kpart_warn("owned partition t-9 is beyond t's 3 partitions")
>>> caught[0].category.__name__, str(caught[0].message)
('KpartWarning', "owned partition t-9 is beyond t's 3 partitions")
"""

from __future__ import annotations

import os
import sys
import warnings

from kpart.errors import KpartWarning

__all__ = ["kpart_warn"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def kpart_warn(message: str) -> None:
    """``warnings.warn(message, KpartWarning)`` at the first stack frame outside ``kpart``."""
    level = 2
    frame = sys._getframe(1)
    while frame.f_back is not None and os.path.abspath(
        frame.f_code.co_filename
    ).startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    warnings.warn(message, KpartWarning, stacklevel=level)
