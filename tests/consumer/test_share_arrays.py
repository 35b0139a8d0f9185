"""The array path of Kafka 4.2+'s share-group ``SimpleAssignor``
(:mod:`kpart.consumer.share._simple_arrays`) gives exactly the object builders' answer — or the
same ``NoSuchElementException`` — on random groups: homogeneous and heterogeneous, members
holding partitions (of topics they no longer read, partitions not assignable, shared
partitions over their share), as the golden vectors check on Kafka's own answers."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kpart.consumer.coordinator.server_spec import derived_topic_id
from kpart.consumer.share import ShareGroupSpec, _simple_arrays, assign_simple
from kpart.errors import NoSuchElementError

TOPICS = ["a", "b", "c", "d"]


@st.composite
def _groups(draw: st.DrawFn) -> dict:
    n_topics = draw(st.integers(1, 4))
    counts = [draw(st.integers(1, 8)) for _ in range(n_topics)]
    topics = [{"name": TOPICS[t], "id": derived_topic_id(TOPICS[t]), "partitions": counts[t]}
              for t in range(n_topics)]
    homogeneous = draw(st.booleans())
    everyone = draw(st.lists(st.sampled_from(TOPICS[:n_topics]), min_size=1, unique=True))
    members = []
    for i in range(draw(st.integers(1, 14))):
        subs = everyone if homogeneous else draw(st.lists(
            st.sampled_from(TOPICS[:n_topics]), min_size=1, unique=True))
        held = []
        for t in draw(st.lists(st.integers(0, n_topics - 1), unique=True, max_size=3)):
            ps = draw(st.lists(st.integers(0, counts[t] - 1), unique=True, max_size=4))
            if ps:
                held.append([TOPICS[t], ps])
        members.append({"id": f"m{draw(st.integers(0, 10**6))}-{i}", "topics": subs,
                        "assignment": held})
    doc: dict = {"topics": topics, "members": members}
    if draw(st.booleans()):
        doc["assignable"] = {t["name"]: sorted(draw(st.sets(st.integers(0, c - 1))))
                             for t, c in zip(topics, counts, strict=True)}
    return doc


def _answer(doc: dict, threshold: int) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        spec = ShareGroupSpec.from_json(doc)
    old = _simple_arrays.ARRAY_THRESHOLD
    _simple_arrays.ARRAY_THRESHOLD = threshold
    try:
        return assign_simple(spec, kafka_version="4.3").to_json()
    except NoSuchElementError as e:
        return ("NoSuchElementException", str(e))
    finally:
        _simple_arrays.ARRAY_THRESHOLD = old


@given(_groups())
def test_the_array_path_gives_the_object_builders_answer(doc: dict) -> None:
    assert _answer(doc, 0) == _answer(doc, 10**12)


def test_the_array_path_takes_large_groups_and_declines_what_it_does_not_read() -> None:
    doc = {"topics": [{"name": "t", "id": derived_topic_id("t"), "partitions": 3000}],
           "members": [{"id": "m1", "topics": ["t"], "assignment": [
               ["t", [1]], [f"id:{derived_topic_id('t')}", [2]]]}, {"id": "m2", "topics": ["t"]}]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        spec = ShareGroupSpec.from_json(doc)
    assert _simple_arrays.use_arrays(spec)
    assert _simple_arrays.share_columns(spec) is None  # one topic under two names
    assert assign_simple(spec).to_json() == _answer(doc, 10**12)
    doc["members"][0]["assignment"] = [["t", [1]]]
    spec = ShareGroupSpec.from_json(doc)
    columns = _simple_arrays.share_columns(spec)
    assert columns is not None
    assert assign_simple(spec).to_json() == _answer(doc, 10**12)


@pytest.mark.parametrize("heterogeneous", [False, True])
def test_a_large_group_is_answered_by_the_arrays(heterogeneous: bool) -> None:
    members = [{"id": f"c{i}", "topics": ["a", "b"] if not heterogeneous or i % 2 else ["a"]}
               for i in range(2000)]
    doc = {"topics": [{"name": n, "id": derived_topic_id(n), "partitions": 100}
                      for n in ("a", "b")], "members": members}
    spec = ShareGroupSpec.from_json(doc)
    assert assign_simple(spec).columns is not None
    assert assign_simple(spec).to_json() == _answer(doc, 10**12)
