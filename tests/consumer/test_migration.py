"""The comparison of two assignments of one group (:mod:`kpart.consumer.migration`): moves per
partition and per member, balance, on small hand-checked groups; the upgrade across Kafka
versions and the switch of rebalance protocol."""

from __future__ import annotations

import pytest

from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator.server_spec import ServerGroupSpec
from kpart.consumer.migration import (
    Balance,
    MemberChange,
    PartitionMove,
    compare,
    protocol_change,
    upgrade_change,
)
from kpart.consumer.spec import GroupSpec
from kpart.errors import ConfigError

TID = "AAAAAAAAAAAAAAAAAAAAAg"


def _server(partitions: int, members: dict[str, list[int]] | list[str]) -> ServerGroupSpec:
    ms = members if isinstance(members, dict) else {m: [] for m in members}
    return ServerGroupSpec.from_json({
        "topics": [{"name": "t", "id": TID, "partitions": partitions}],
        "members": [{"id": m, "topics": ["t"], "assignment": [["t", ps]] if ps else []}
                    for m, ps in ms.items()]})


def _classic(topics: dict[str, int], n: int) -> GroupSpec:
    return GroupSpec.from_json({"topics": topics, "members": [
        {"id": f"c{i}", "topics": list(topics)} for i in range(1, n + 1)]})


def test_the_issue_three_partition_example_across_4_0_0_to_4_3():
    """m1={0,1}, m2={2} (4.0.0) → m1={0}, m2={1,2} (4.3): partition 1 moves from m1 to m2."""
    c = upgrade_change(_server(3, ["m1", "m2"]), "uniform", "4.0.0", "4.3")
    assert c.labels == ("4.0.0", "4.3")
    assert c.before.as_dict() == {"m1": {"t": [0, 1]}, "m2": {"t": [2]}}
    assert c.after.as_dict() == {"m1": {"t": [0]}, "m2": {"t": [1, 2]}}
    assert c.moves == (PartitionMove("t", 1, "m1", "m2"),)
    assert c.moved == 1
    assert c.members == (MemberChange("m1", 2, 1, (("t", 1),), ()),
                         MemberChange("m2", 1, 2, (), (("t", 1),)))
    assert c.before_balance == c.after_balance == Balance(2, 1, 2)


def test_pr_19677_already_balanced_group_moves_partition_4_only_at_4_0_0():
    """A={0,3}, B={1}, C={2,4}: 4.0.0 moves partition 4 from C to B, 4.0.1+ nothing."""
    group = _server(5, {"A": [0, 3], "B": [1], "C": [2, 4]})
    c = upgrade_change(group, "uniform", "4.0.0", "4.0.1")
    assert c.moves == (PartitionMove("t", 4, "B", "C"),)
    assert [(m.member_id, m.lost, m.gained) for m in c.members] == [
        ("A", (), ()), ("B", (("t", 4),), ()), ("C", (), (("t", 4),))]
    assert upgrade_change(group, "uniform", "4.1.0", "4.3").moved == 0


def test_compare_counts_unowned_partitions_and_new_members():
    before = GroupAssignment.from_pairs(["a"], {"a": [("t", 0), ("t", 1), ("u", 0)]})
    after = GroupAssignment.from_pairs(["a", "b"], {"a": [("t", 0)], "b": [("u", 0), ("u", 1)]})
    c = compare(before, after)
    assert c.moves == (PartitionMove("t", 1, "a", None), PartitionMove("u", 0, "a", "b"),
                       PartitionMove("u", 1, None, "b"))
    assert c.members == (MemberChange("a", 3, 1, (("t", 1), ("u", 0)), ()),
                         MemberChange("b", 0, 2, (), (("u", 0), ("u", 1))))
    assert (c.before_balance, c.after_balance) == (Balance(1, 3, 3), Balance(2, 1, 2))
    assert c.to_json()["members"]["a"] == {"before": 3, "after": 1,
                                           "lost": {"t": [1], "u": [0]}, "gained": {}}


def test_compare_of_equal_assignments_moves_nothing():
    a = GroupAssignment.from_pairs(["x", "y"], {"x": [("t", 0)], "y": [("t", 1)]})
    c = compare(a, a)
    assert c.moved == 0 and all(not m.lost and not m.gained for m in c.members)


@pytest.mark.parametrize("assignor", ["sticky", "cooperative-sticky", "roundrobin"])
def test_migrating_to_consumer_maps_sticky_and_roundrobin_to_uniform(assignor):
    """7 partitions, 3 members: each classic answer gives one member the extra partition; the
    converted group's uniform target (the members owning the classic answer, Kafka 4.3) keeps
    every partition where it is."""
    g = _classic({"t": 7}, 3)
    c = protocol_change(g, assignor, "consumer")
    assert c.labels == (f"classic {assignor}", "consumer uniform")
    assert c.moved == 0 and c.after == c.before


def test_migrating_to_consumer_at_4_0_0_moves_what_4_3_keeps():
    """orders 4 + payments 4, 3 members, cooperative-sticky: c1 and c2 hold the two extra
    partitions; 4.0.0's uniform builder rebuilds its own extra slots and moves payments-3 from
    c2 to c3; from 4.0.1 the members filling extra slots keep them (KAFKA-18688)."""
    g = _classic({"orders": 4, "payments": 4}, 3)
    assert protocol_change(g, "cooperative-sticky", "consumer").moved == 0
    old = protocol_change(g, "cooperative-sticky", "consumer", kafka_version="4.0.0")
    assert old.moves == (PartitionMove("payments", 3, "c2", "c3"),)
    assert old.before_balance == Balance(3, 2, 3) and old.after_balance == Balance(3, 2, 3)


def test_migrating_range_to_consumer_runs_the_server_range_assignor():
    g = GroupSpec.from_json({"topics": {"t0": 3, "t1": 3}, "members": [
        {"id": "C0", "topics": ["t0", "t1"]}, {"id": "C1", "topics": ["t0", "t1"]}]})
    c = protocol_change(g, "range", "consumer")
    assert c.labels == ("classic range", "consumer range")
    assert c.before.as_dict() == {"C0": {"t0": [0, 1], "t1": [0, 1]}, "C1": {"t0": [2], "t1": [2]}}
    assert c.moved == 0


def test_classic_range_to_uniform_moves_partitions():
    """Overriding the mapping: range's per-topic ranges give C0 both extra partitions (4 vs 2);
    uniform balances to 3 and 3, moving one partition from C0 to C1."""
    g = GroupSpec.from_json({"topics": {"t0": 3, "t1": 3}, "members": [
        {"id": "C0", "topics": ["t0", "t1"]}, {"id": "C1", "topics": ["t0", "t1"]}]})
    c = protocol_change(g, "range", "consumer", to_assignor="uniform")
    assert c.before_balance == Balance(2, 2, 4) and c.after_balance == Balance(2, 3, 3)
    assert c.moved == 1 and c.moves[0].from_member == "C0" and c.moves[0].to_member == "C1"


def test_downgrade_to_classic_keeps_the_uniform_target_under_cooperative_sticky():
    c = protocol_change(_server(3, ["m1", "m2"]), "uniform", "classic")
    assert c.labels == ("consumer uniform", "classic cooperative-sticky")
    assert c.before.as_dict() == {"m1": {"t": [0]}, "m2": {"t": [1, 2]}}
    assert c.moved == 0


def test_downgrade_to_range_moves_what_range_places_elsewhere():
    c = protocol_change(_server(3, ["m1", "m2"]), "uniform", "classic", to_assignor="range")
    assert c.after.as_dict() == {"m1": {"t": [0, 1]}, "m2": {"t": [2]}}
    assert c.moves == (PartitionMove("t", 1, "m2", "m1"),)


@pytest.mark.parametrize(("call", "names"), [
    (lambda: upgrade_change(_server(3, ["m1"]), "uniform", "4.x", "4.3"), "from_version '4.x'"),
    (lambda: upgrade_change(_server(3, ["m1"]), "uniform", "4.0.0", "5.0"), "to_version '5.0'"),
    (lambda: upgrade_change(_server(3, ["m1"]), "uniform", "3.6", "4.3"), "from_version '3.6'"),
    (lambda: upgrade_change(_classic({"t": 3}, 2), "range", "0.10.0", "4.3"), "range assignor"),
    (lambda: protocol_change(_classic({"t": 3}, 2), "range", "share"), "to_protocol 'share'"),
    (lambda: protocol_change(_server(3, ["m1"]), "range", "consumer"), "classic group"),
    (lambda: protocol_change(_classic({"t": 3}, 2), "uniform", "consumer"), "'uniform'"),
    (lambda: protocol_change(_classic({"t": 3}, 2), "range", "consumer", kafka_version="3.6"),
     "'3.6'"),
])
def test_bad_input_is_one_config_error_naming_the_value(call, names):
    with pytest.raises(ConfigError) as e:
        call()
    assert names in str(e.value) and "\n" not in str(e.value)


def test_a_classic_assignor_where_it_does_not_exist_names_version_and_assignor():
    with pytest.raises(ConfigError) as e:
        upgrade_change(_classic({"t": 3}, 2), "cooperative-sticky", "2.3.1", "4.3")
    assert str(e.value).startswith("The cooperative-sticky assignor does not exist in "
                                   "from_version '2.3.1'")


def test_classic_upgrade_across_kip881_moves_partitions_to_their_racks():
    """Range before 3.5.0 ignores racks (C0 takes the first range); from 3.5.0 (KIP-881) each
    partition goes to the member on its replica's rack."""
    g = GroupSpec.from_json({"topics": {"t": 2}, "partition_racks": {"t": [["r1"], ["r0"]]},
                             "members": [{"id": "C0", "topics": ["t"], "rack": "r0"},
                                         {"id": "C1", "topics": ["t"], "rack": "r1"}]})
    c = upgrade_change(g, "range", "3.4.1", "3.5.0")
    assert c.before.as_dict() == {"C0": {"t": [0]}, "C1": {"t": [1]}}
    assert c.after.as_dict() == {"C0": {"t": [1]}, "C1": {"t": [0]}}
    assert c.moved == 2


def test_offline_switch_starts_the_new_side_from_no_assignment():
    """c1..c3 on 4+4 partitions: online, cooperative-sticky's answer is kept (nothing moves);
    offline, the uniform assignor starts afresh and its own fresh answer differs."""
    g = _classic({"orders": 4, "payments": 4}, 3)
    online = protocol_change(g, "cooperative-sticky", "consumer")
    offline = protocol_change(g, "cooperative-sticky", "consumer", online=False)
    assert online.moved == 0
    assert offline.before == online.before
    from kpart.consumer import server_assign
    from kpart.consumer.coordinator.server_spec import server_group

    assert offline.after == server_assign(server_group(g), "uniform")
    assert offline.moved > 0


def test_a_cooperative_answer_is_taken_once_settled():
    """c1 owns all 4 partitions and c2 joins: cooperative-sticky's first round revokes two of
    c1's partitions without handing them out; the follow-up round gives them to c2, and that
    settled answer is the classic side (no partition left unowned)."""
    g = GroupSpec.from_json({"topics": {"t": 4}, "members": [
        {"id": "c1", "topics": ["t"], "generation": 3, "owned": [["t", [0, 1, 2, 3]]]},
        {"id": "c2", "topics": ["t"]}]})
    from kpart.consumer import assign

    first = assign(g, "cooperative-sticky")
    assert first.revoked and sum(first.partition_counts().values()) == 2
    c = protocol_change(g, "cooperative-sticky", "consumer")
    assert c.before_balance == Balance(2, 2, 2)
    assert sorted(p for m in ("c1", "c2") for _, p in c.before.partitions_of(m)) == [0, 1, 2, 3]
    assert c.moved == 0
