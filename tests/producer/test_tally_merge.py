"""``CompatTally.merge`` and ``WhatIfTally.merge`` (what the Spark layer sums on the driver): the
merge of the tallies of two halves of a set of distinct keys equals the tally of the whole."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kpart.errors import ConfigError
from kpart.producer import compat, whatif

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# distinct keys (None at most once: the null key), with records (and bytes) per key
distinct = st.lists(st.one_of(st.none(), st.text(max_size=12)), unique=True, max_size=30)
COMPAT_IDS = ("java:default", "librdkafka:consistent_random", "sarama:hash", "kafkajs:legacy",
              "librdkafka:random")


def _halves(data: st.DataObject, keys: list[str | None]) -> tuple[list[int], np.ndarray]:
    records = np.array(data.draw(st.lists(st.integers(0, 1000), min_size=len(keys),
                                          max_size=len(keys))), dtype=np.int64)
    in_first = data.draw(st.lists(st.booleans(), min_size=len(keys), max_size=len(keys)))
    return [i for i, first in enumerate(in_first) if first], records


def _compat_state(t: compat.CompatTally) -> tuple[object, ...]:
    return (t.partitioners, t.num_partitions, t.max_examples, t.keys, t.records,
            t.null_key_records, t.pair_keys.tolist(), t.pair_records.tolist(), t.loads.tolist(),
            t.undetermined.tolist(), {k: v for k, v in t.examples.items() if v})


@SETTINGS
@given(keys=distinct, n=st.integers(1, 40), k=st.integers(0, 3), data=st.data())
def test_compat_merge_of_halves_is_the_whole(keys: list[str | None], n: int, k: int,
                                             data: st.DataObject) -> None:
    first, records = _halves(data, keys)
    second = [i for i in range(len(keys)) if i not in first]

    def tally(idx: list[int]) -> compat.CompatTally:
        values = pa.array([keys[i] for i in idx], type=pa.string())
        return compat.tally_batch(values, records[idx], n, COMPAT_IDS, "string", k)

    merged = tally(first).merge(tally(second))
    assert _compat_state(merged) == _compat_state(tally(list(range(len(keys)))))


@SETTINGS
@given(keys=distinct, n=st.integers(1, 20), targets=st.lists(st.integers(1, 30), max_size=3),
       with_bytes=st.booleans(), pid=st.sampled_from(["java:default", "kafka-go:crc32",
                                                      "kafka-python:default"]),
       data=st.data())
def test_whatif_merge_of_halves_is_the_whole(keys: list[str | None], n: int, targets: list[int],
                                             with_bytes: bool, pid: str,
                                             data: st.DataObject) -> None:
    first, records = _halves(data, keys)
    second = [i for i in range(len(keys)) if i not in first]
    sizes = records * 7 + 1
    counts = whatif.whatif_counts(n, targets)

    def tally(idx: list[int]) -> whatif.WhatIfTally:
        values = pa.array([keys[i] for i in idx], type=pa.string())
        return whatif.tally_batch(values, records[idx], sizes[idx] if with_bytes else None,
                                  pid, n, counts)

    merged, whole = tally(first).merge(tally(second)), tally(list(range(len(keys))))
    assert (merged.unkeyed_keys, merged.unkeyed_records, merged.unkeyed_bytes) == (
        whole.unkeyed_keys, whole.unkeyed_records, whole.unkeyed_bytes)
    assert {m: a.tolist() for m, a in merged.loads.items()} == {
        m: a.tolist() for m, a in whole.loads.items()}
    assert whatif.WhatIfReport.from_tally(merged, tuple(targets)) == (
        whatif.WhatIfReport.from_tally(whole, tuple(targets)))


def test_merge_refuses_tallies_of_another_shape() -> None:
    a = compat.CompatTally(("java:default", "sarama:hash"), 6, 3)
    with pytest.raises(ConfigError, match="cannot merge a compat tally"):
        a.merge(compat.CompatTally(("java:default", "sarama:hash"), 7, 3))
    w = whatif.WhatIfTally("java:default", 6, (6, 8), True)
    with pytest.raises(ConfigError, match="cannot merge a what-if tally"):
        w.merge(whatif.WhatIfTally("java:default", 6, (6, 9), True))
    with pytest.raises(ConfigError, match="has_bytes"):
        w.merge(whatif.WhatIfTally("java:default", 6, (6, 8), False))
