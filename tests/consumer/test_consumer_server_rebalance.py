"""KIP-848 strategies in the classic tools: ``assign(group, "uniform"|"server-range")`` on a
``GroupSpec`` and the rebalance simulator's ``CONSUMER`` protocol (the golden sequences are
replayed in ``test_consumer_server_golden.py``)."""

from __future__ import annotations

import pytest

from kpart.consumer import assign, server_assign
from kpart.consumer._scenario import parse_scenario
from kpart.consumer.coordinator.server_spec import ServerGroupSpec, derived_topic_id, server_group
from kpart.consumer.rebalance import simulate
from kpart.consumer.spec import GroupSpec
from kpart.errors import ConfigError, KpartWarning

# A owns a partition of a topic the metadata no longer has: Kafka's input, which kpart accepts
# with a warning (and drops, as Kafka does).
with pytest.warns(KpartWarning, match="owns partitions of topic 'gone'"):
    GROUP = GroupSpec.from_json({
        "topics": {"t0": 3, "t1": 2},
        "members": [
            {"id": "A", "topics": ["t0", "t1"], "owned": [["t0", [0, 1, 2]], ["gone", [0]]]},
            {"id": "B", "topics": ["t0", "t1"], "instance_id": "b-1"},
        ],
    })


@pytest.mark.parametrize(("strategy", "assignor"), [("uniform", "uniform"),
                                                    ("server-range", "range")])
def test_assign_equals_the_server_assignor_on_the_converted_group(strategy, assignor):
    spec = server_group(GROUP)
    assert [t.topic_id for t in spec.topics] == [derived_topic_id("t0"), derived_topic_id("t1")]
    assert spec.members[0].assignment == (("t0", (0, 1, 2)),)  # a topic not in metadata dropped
    assert spec.members[1].instance_id == "b-1"
    got = assign(GROUP, strategy)
    assert got == server_assign(spec, assignor)
    assert sum(got.partition_counts().values()) == 5


def test_derived_topic_ids_are_valid_kafka_uuids():
    ids = {derived_topic_id(f"topic-{i}") for i in range(2000)}
    assert len(ids) == 2000 and not any(i.startswith("-") for i in ids)
    ServerGroupSpec.from_json({"topics": [{"name": f"t{i}", "id": t, "partitions": 1}
                                          for i, t in enumerate(sorted(ids))], "members": []})


def test_simulator_reports_only_moved_partitions_as_revoked():
    sim = simulate({"topics": {"t": 6}, "steps": [
        {"join": [{"id": "A", "topics": ["t"]}]},
        {"join": [{"id": "B", "topics": ["t"]}]},
        {"crash": ["A"]},
    ]}, "uniform")
    first, second, third = sim.steps
    assert (first.moved, first.revoked, first.balance) == (0, 0, 0)
    assert second.moved == second.revoked == second.paused == 3  # A gives B half
    assert second.balance == 0 and second.rounds == 1
    assert (third.moved, third.revoked) == (3, 0)  # A's partitions move; nobody present revokes
    assert third.assignment.as_dict() == {"B": {"t": [0, 1, 2, 3, 4, 5]}}


def test_scenario_topic_ids_are_checked_and_used():
    doc = {"topics": {"t": 2}, "topic_ids": {"t": "not-a-uuid"},
           "steps": [{"join": [{"id": "A", "topics": ["t"]}]}]}
    with pytest.raises(ConfigError, match=r"scenario\.topic_ids\.t: .*not-a-uuid"):
        parse_scenario(doc)
    doc["topic_ids"] = {"t": "AAAAAAAAAAAAAAAAAAAAAg"}
    assert parse_scenario(doc).topic_ids == {"t": "AAAAAAAAAAAAAAAAAAAAAg"}


def test_deleted_and_recreated_topics():
    """Partitions of a deleted topic a member still subscribes to count as revoked, as under
    the cooperative protocol; a topic created again gets a new id, so its old partitions
    are revoked too."""
    delete = {"topics": {"t": 4, "u": 2}, "steps": [
        {"join": [{"id": "A", "topics": ["t", "u"]}, {"id": "B", "topics": ["t", "u"]}]},
        {"delete_topics": ["u"]},
    ]}
    coop = simulate(delete, "cooperative-sticky").steps[1]
    uniform = simulate(delete, "uniform").steps[1]
    before = simulate(delete, "uniform").steps[0].assignment.as_dict()
    moved_t = uniform.moved
    assert coop.revoked == 2 and uniform.revoked == 2 + moved_t
    assert {t for m in before.values() for t in m} == {"t", "u"}
    recreate = {"topics": {"t": 2, "u": 4}, "steps": [
        {"join": [{"id": "A", "topics": ["t", "u"]}, {"id": "B", "topics": ["t", "u"]}]},
        {"delete_topics": ["u"], "create_topics": {"u": 4}},
    ]}
    sim = simulate(recreate, "uniform")
    assert sim.steps[1].revoked == 4  # every partition of the old u
    assert sim.rounds[1].revoked and all(t.startswith("id:") for _, lost in sim.rounds[1].revoked
                                         for t, _ in lost)


def test_simulate_rounds_runs_kip848_strategies_as_targets():
    from kpart.consumer.rebalance import simulate_rounds

    doc = {"topics": {"t": 6}, "steps": [
        {"join": [{"id": "A", "topics": ["t"]}, {"id": "C", "topics": ["t"]}]},
        {"join": [{"id": "B", "topics": ["t"]}]},
    ]}
    scenario = parse_scenario(doc)
    rounds = simulate_rounds(scenario.groups, "uniform")
    assert [r.assignment for r in rounds] == [r.assignment for r in simulate(doc, "uniform").rounds]


@pytest.mark.parametrize(("ids", "message"), [
    ({"t": "AAAAAAAAAAAAAAAAAAAAAA"}, "reserved"),
    ({"nosuch": "AAAAAAAAAAAAAAAAAAAAAg"}, "unknown topic 'nosuch'"),
    ({"t": "AAAAAAAAAAAAAAAAAAAAAg", "u": "AAAAAAAAAAAAAAAAAAAAAg"}, "already the id of topic 't'"),
])
def test_bad_topic_ids_name_the_field(ids, message):
    doc = {"topics": {"t": 2, "u": 1}, "topic_ids": ids,
           "steps": [{"join": [{"id": "A", "topics": ["t"]}]}]}
    with pytest.raises(ConfigError, match=r"scenario\.topic_ids\.\w+: ") as info:
        parse_scenario(doc)
    assert message in str(info.value)
