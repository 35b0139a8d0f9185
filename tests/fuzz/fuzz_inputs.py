"""Hypothesis strategies for the fuzz tests: random inputs and mutations of valid ones.

A fuzz test feeds a parser (or ``kpart.cli.main``) inputs of three kinds:

- random JSON-like values (:data:`json_values`), with the numbers that break parsers most often
  (huge, negative, floats, NaN, numbers as strings, booleans);
- structural mutations of a valid document (:func:`mutated_doc`): a field replaced, dropped,
  duplicated, emptied, wrapped in a list, or a field added;
- token mutations of a valid text (:func:`mutated_text`): tokens deleted, duplicated, swapped,
  numbers changed, random text inserted, the text truncated; :func:`mutated_bytes` also inserts
  invalid UTF-8 for parsers that read bytes.

:func:`refused_or_parsed` calls a parser and allows only a result or a
:class:`~kpart.errors.KpartError` (a :class:`~kpart.errors.KpartWarning` is allowed too); any
other exception escapes, which is a bug the fuzz test reports.
"""

from __future__ import annotations

import copy
import json
import re
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as st

from kpart.errors import KpartError, KpartWarning

#: numbers that parsers mishandle: bounds of Java's int/long, huge, negative, zero
NUMBERS: tuple[Any, ...] = (
    0, 1, -1, 2, 3, 7, 2**31 - 1, 2**31, -(2**31), 2**63, -(2**63) - 1, 10**30, 10**9,
    1.5, -0.0, 1e308, float("inf"), float("-inf"), float("nan"), True, False,
)
#: strings that parsers mishandle (numbers as text, empty, control characters, a lone surrogate)
STRINGS: tuple[str, ...] = (
    "", " ", "0", "-1", "1e9", "0x10", "NaN", "t0", "C0", "any", "a", "\x00", "\ud800",
    "é", "💥", "t0-1", "{", "[", ":", ",", "-", "1,2", "0:1", "99999999999999999999",
    "²", "١٢", "１", "t0-²",  # digits to str.isdigit() that int() refuses (or reads)
)
_TEXT = st.text(max_size=8)
leaves = st.one_of(
    st.none(),
    st.sampled_from(NUMBERS),
    st.integers(),
    st.floats(),
    st.sampled_from(STRINGS),
    _TEXT,
)
#: any JSON-like value (what ``json.loads`` or ``tomllib.loads`` can give, and a bit more)
json_values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.one_of(_TEXT, st.sampled_from(STRINGS)), inner, max_size=4),
    max_leaves=12,
)


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*prefix, i))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _variants(value: Any) -> list[Any]:
    """Likely-bad replacements for ``value`` (number ↔ string ↔ float ↔ list ...)."""
    out: list[Any] = [None, [], {}, [value], str(value)]
    if isinstance(value, int) and not isinstance(value, bool):
        out += [-value - 1, value * 10**12, float(value) + 0.5, 2**31, 2**63, -1, bool(value)]
    if isinstance(value, str):
        out += [value * 3, value.upper(), value[:1], "", int(value) if value.isascii() and value.isdigit() else 0]
    if isinstance(value, list):
        out += [value + value, value[:1], value[::-1], dict(enumerate(value))]
    if isinstance(value, dict):
        out += [list(value), list(value.values()), {k: None for k in value}]
    return out


@st.composite
def mutated_doc(draw: st.DrawFn, seeds: Sequence[Any], fields: Sequence[str] = ()) -> Any:
    """A deep copy of one of ``seeds`` with one to three structural mutations."""
    doc = copy.deepcopy(draw(st.sampled_from(list(seeds))))
    names = st.one_of(st.sampled_from(list(fields) or ["x"]), _TEXT)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(doc)))
        value = _get(doc, path)
        op = draw(st.sampled_from(["replace", "variant", "drop", "dup", "add", "empty"]))
        if op == "replace":
            new = draw(json_values)
        elif op == "variant":
            new = draw(st.sampled_from(_variants(value)))
        elif op == "drop" and path:
            parent = _get(doc, path[:-1])
            del parent[path[-1]]
            continue
        elif op == "dup" and isinstance(value, list) and value:
            new = value + [copy.deepcopy(draw(st.sampled_from(value)))]
        elif op == "add" and isinstance(value, dict):
            new = {**value, draw(names): draw(json_values)}
        elif op == "empty":
            new = type(value)() if isinstance(value, (list, dict, str)) else None
        else:
            new = draw(json_values)
        if path:
            _get(doc, path[:-1])[path[-1]] = new
        else:
            doc = new
    return doc


_TOKEN = re.compile(r"\s+|-?\d+(?:\.\d+)?|[A-Za-z_][\w.-]*|.", re.S)


@st.composite
def mutated_text(draw: st.DrawFn, seeds: Sequence[str], huge: bool = True) -> str:
    """One of ``seeds`` with one to four token mutations (or truncated); ``huge=False`` keeps
    the numbers it writes small."""
    tokens = _TOKEN.findall(draw(st.sampled_from(list(seeds))))
    pool = [t for s in seeds for t in _TOKEN.findall(s)][:400]
    for _ in range(draw(st.integers(1, 4))):
        if not tokens:
            tokens = [draw(st.text(max_size=4))]
        i = draw(st.integers(0, len(tokens) - 1))
        op = draw(st.sampled_from(
            ["delete", "dup", "swap", "number", "insert", "token", "truncate", "string"]
        ))
        if op == "delete":
            del tokens[i]
        elif op == "dup":
            tokens.insert(i, tokens[i])
        elif op == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == "number":
            numbers = [k for k, t in enumerate(tokens) if re.fullmatch(r"-?\d+(\.\d+)?", t)]
            k = draw(st.sampled_from(numbers)) if numbers else i
            tokens[k] = draw(st.sampled_from(
                ["-1", "0", "1.5", "-0", "1e3", '"7"', "NaN", "inf", "true", "null", "", "x", "²",
                 "١"]
                + (["2147483648", "9223372036854775808", "1" + "0" * 30] if huge else ["2", "5"])
            ))
        elif op == "insert":
            tokens.insert(i, draw(st.text(max_size=3)))
        elif op == "token":
            tokens[i] = draw(st.sampled_from(pool))
            if not huge and tokens[i].isdigit() and len(tokens[i]) > 3:
                tokens[i] = "7"
        elif op == "truncate":
            tokens = tokens[:i]
        else:
            tokens.insert(i, draw(st.sampled_from(STRINGS)))
    return "".join(tokens)


@st.composite
def mutated_bytes(draw: st.DrawFn, seeds: Sequence[str]) -> bytes:
    """A mutated text encoded as UTF-8, sometimes with invalid UTF-8 bytes inserted."""
    data = draw(mutated_text(seeds)).encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        i = draw(st.integers(0, len(data)))
        bad = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xfe\xff", b"\x80"]))
        data = data[:i] + bad + data[i:]
    return data


def texts(seeds: Sequence[str], docs: Sequence[Any] = (), fields: Sequence[str] = ()
          ) -> st.SearchStrategy[str]:
    """Texts for a text parser: mutated seeds, mutated documents dumped as JSON, random text."""
    parts = [mutated_text(seeds), st.text(max_size=40), json_values.map(_dumps)]
    if docs:
        parts.append(mutated_doc(docs, fields).map(_dumps))
    return st.one_of(*parts)


def docs(seeds: Sequence[Any], fields: Sequence[str] = ()) -> st.SearchStrategy[Any]:
    """Documents for a parser of parsed JSON/TOML: mutated seeds and random values."""
    return st.one_of(mutated_doc(seeds, fields), mutated_doc(seeds, fields), json_values)


def _dumps(doc: Any) -> str:
    return json.dumps(doc, allow_nan=True)


def refused_or_parsed(parse: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``parse(*args)``; a :class:`KpartError` (bad input refused) gives ``None``. Any other
    exception propagates: the fuzz test fails on it. Warnings are allowed outcomes."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", KpartWarning)
        try:
            return parse(*args, **kwargs)
        except KpartError:
            return None
