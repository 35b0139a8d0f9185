"""Properties of Range and RoundRobin on random groups (hypothesis): equality with a naive
reference written from Kafka's Javadoc (no racks), validity, and Range's per-topic quotas
with KIP-881 rack matching."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.consumer import assign
from kpart.consumer.spec import GroupSpec

RACKS = ["r0", "r1", "r2"]


@st.composite
def groups(draw, with_racks: bool = False) -> dict:
    topics = {f"t{i}": draw(st.integers(0, 9)) for i in range(draw(st.integers(1, 4)))}
    names = [*topics, "absent"]
    members = []
    for i in range(draw(st.integers(1, 7))):
        members.append(
            {
                "id": f"m{draw(st.integers(0, 99)):02d}-{i}",
                "topics": sorted(draw(st.sets(st.sampled_from(names), max_size=len(names)))),
                "instance_id": draw(st.one_of(st.none(), st.just(f"i{i}"))),
                "rack": draw(st.sampled_from([None, *RACKS])) if with_racks else None,
            }
        )
    doc = {"topics": topics, "members": members}
    if with_racks:
        doc["partition_racks"] = {
            t: [sorted(draw(st.sets(st.sampled_from(RACKS), min_size=1))) for _ in range(n)]
            for t, n in topics.items()
        }
    return doc


def _order(members: list[dict]) -> list[dict]:
    # MemberInfo.compareTo: static members first by instance id, then member id (ASCII ids).
    return sorted(members, key=lambda m: (m["instance_id"] is None, m["instance_id"] or m["id"]))


def reference_range(doc: dict) -> dict:
    out: dict = {m["id"]: {} for m in doc["members"]}
    for topic, n in doc["topics"].items():
        consumers = [m["id"] for m in _order(doc["members"]) if topic in m["topics"]]
        if not consumers or not n:
            continue
        per, extra = divmod(n, len(consumers))
        start = 0
        for i, c in enumerate(consumers):
            length = per + (i < extra)
            if length:
                out[c][topic] = list(range(start, start + length))
            start += length
    return out


def reference_round_robin(doc: dict) -> dict:
    out: dict = {m["id"]: {} for m in doc["members"]}
    ring = itertools.cycle(_order(doc["members"]))
    current = next(ring)
    for topic in sorted(t for t in doc["topics"] if any(t in m["topics"] for m in doc["members"])):
        for p in range(doc["topics"][topic]):
            while topic not in current["topics"]:
                current = next(ring)
            out[current["id"]].setdefault(topic, []).append(p)
            current = next(ring)
    return out


def _check_valid(doc: dict, got: dict) -> None:
    subscribed = {m["id"]: set(m["topics"]) for m in doc["members"]}
    owners: dict = {}
    for member, by_topic in got.items():
        for topic, ps in by_topic.items():
            assert topic in subscribed[member]
            for p in ps:
                assert (topic, p) not in owners
                owners[topic, p] = member
    wanted = {
        (t, p)
        for t, n in doc["topics"].items()
        for p in range(n)
        if any(t in s for s in subscribed.values())
    }
    assert set(owners) == wanted


@settings(max_examples=200, deadline=None)
@given(groups())
def test_range_matches_reference(doc: dict) -> None:
    got = assign(GroupSpec.from_json(doc), "range").as_dict()
    assert got == reference_range(doc)
    _check_valid(doc, got)


@settings(max_examples=200, deadline=None)
@given(groups())
def test_round_robin_matches_reference(doc: dict) -> None:
    got = assign(GroupSpec.from_json(doc), "roundrobin").as_dict()
    assert got == reference_round_robin(doc)
    _check_valid(doc, got)


@settings(max_examples=200, deadline=None)
@given(groups(with_racks=True))
def test_range_rack_aware_keeps_per_topic_quotas(doc: dict) -> None:
    got = assign(GroupSpec.from_json(doc), "range").as_dict()
    _check_valid(doc, got)
    for topic, n in doc["topics"].items():
        consumers = [m["id"] for m in doc["members"] if topic in m["topics"]]
        if not consumers:
            continue
        per, extra = divmod(n, len(consumers))
        counts = sorted(len(got[c].get(topic, [])) for c in consumers)
        assert counts == [per] * (len(consumers) - extra) + [per + 1] * extra
