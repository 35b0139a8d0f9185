"""Doctests stay with the module that defines them (``pytest --doctest-modules``).

``kpart`` reports itself as the module of its public names (``kpart/__init__.py``, as httpx
does). doctest keeps an object's examples to the module its ``__module__`` names, so it would
skip them in the module that defines them and look for them in ``kpart``, with ``kpart``'s
globals. ``kpart._DEFINED_IN`` records where each of those names is defined: their examples are
collected there, as before.
"""

from __future__ import annotations

import doctest
from types import ModuleType

import kpart

_from_module = doctest.DocTestFinder._from_module


def _from_defining_module(self: doctest.DocTestFinder, module: ModuleType | None,
                          obj: object) -> bool:
    if module is not None and getattr(obj, "__module__", None) == "kpart":
        defined_in = kpart._DEFINED_IN.get(getattr(obj, "__qualname__", ""))
        if defined_in is not None:
            return module.__name__ == defined_in
    return _from_module(self, module, obj)


doctest.DocTestFinder._from_module = _from_defining_module  # type: ignore[method-assign]
