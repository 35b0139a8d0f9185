"""The rates CSV's column-wise path (``kpart.cluster.rates._fast_rows``): on any file it either
declines or gives exactly what the row-by-row reader gives, and :func:`parse_rates_csv` gives
the reader's result or its error line; plain files take the fast path."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kpart.cluster.rates import (
    RATE_COLUMNS,
    PartitionLoads,
    _fast_rows,
    _parse_rows,
    parse_rates_csv,
)
from kpart.errors import ConfigError

_NUMBERS = st.one_of(
    st.just(""), st.just(" "), st.integers(0, 10**6).map(str),
    st.floats(0, 1e12, allow_nan=False).map(repr),
    st.sampled_from(["1.5e6", ".5", "5.", "+3", " 7\t", "-1", "-0", "1e400", "nan", "inf",
                     "1_0", "1,5", "1 2", "e5", "0x10", "\u0661", "1e", "+", ".",
                     "\u20031", "1\x0b"]))
_PARTS = st.one_of(st.integers(0, 2**31 + 5).map(str),
                   st.sampled_from(["", " 3", "007", "+1", "-1", "1.0", "12345678901", "a"]))
_TOPICS = st.one_of(st.sampled_from(["t", "orders", " spaced ", "a.b-c_d", "\u00a0t",
                                     "caf\u00e9", "t\x0b", "\tt\t"]),
                    st.text(alphabet="ab ,\"", max_size=4))


def _same(a: PartitionLoads, b: PartitionLoads) -> None:
    assert a.topics == b.topics and a.where == b.where and a.source == b.source
    assert a.partition.dtype == b.partition.dtype and (a.partition == b.partition).all()
    assert list(a.columns) == list(b.columns)
    for k in a.columns:
        assert a.columns[k].dtype == b.columns[k].dtype
        assert np.array_equal(a.columns[k], b.columns[k], equal_nan=True), k


@st.composite
def _csv(draw: st.DrawFn) -> str:
    order = draw(st.permutations(RATE_COLUMNS))
    head = ",".join(draw(st.sampled_from([c, c.upper(), f" {c} "])) for c in order)
    if draw(st.booleans()):
        head = draw(st.sampled_from(["# banner\n", "\n", ",,,,\n"])) + head
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        cell = {"topic": draw(_TOPICS), "partition": draw(_PARTS)}
        cell |= {c: draw(_NUMBERS) for c in RATE_COLUMNS[2:]}
        rows.append(",".join(cell[c] for c in order))
    end = draw(st.sampled_from(["", "\n", "\n\n", "\r\n"]))
    return head + "\n" + "\n".join(rows) + end


@given(_csv())
def test_the_fast_path_declines_or_agrees(text: str) -> None:
    try:
        slow: PartitionLoads | None = _parse_rows(text)
        error = ""
    except ConfigError as e:
        slow, error = None, str(e)
    fast = _fast_rows(text)
    if fast is not None:
        assert slow is not None, error
        _same(fast, slow)
    try:
        got = parse_rates_csv(text)
    except ConfigError as e:
        assert str(e) == error
    else:
        assert slow is not None
        _same(got, slow)


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(0, 50),
                          _NUMBERS.filter(lambda c: c.strip(" \t") in ("", "+3", ".5", "5.")
                                          or (c.strip(" \t").isascii()
                                              and c.strip(" \t").isdigit()))),
                min_size=1, max_size=20,
                unique_by=lambda r: r[:2]))
def test_a_plain_file_takes_the_fast_path(rows: list[tuple[str, int, str]]) -> None:
    text = "topic,partition,bytes_in_per_s,bytes_out_per_s,messages_in_per_s\n" + "".join(
        f"{t},{p},{v},{v},\n" for t, p, v in rows)
    fast = _fast_rows(text)
    assert fast is not None
    _same(fast, _parse_rows(text))


@pytest.mark.parametrize("bad", ["t,0,-1,0,0", "t,0,1,1,1\nt,0,2,2,2", "t,x,1,1,1",
                                 "t,0,1,1", "t,0,1e400,1,1", " ,0,1,1,1"])
def test_bad_rows_keep_the_readers_message(bad: str) -> None:
    text = "topic,partition,bytes_in_per_s,bytes_out_per_s,messages_in_per_s\n" + bad
    assert _fast_rows(text) is None
    with pytest.raises(ConfigError) as slow:
        _parse_rows(text)
    with pytest.raises(ConfigError, match="line") as got:
        parse_rates_csv(text)
    assert str(got.value) == str(slow.value)
