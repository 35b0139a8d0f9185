"""KIP-966 elections after ordered broker events (:mod:`kpart.cluster.broker_events`,
:mod:`kpart.cluster.partition_change`): the KIP's worked example, the version rules, errors."""

from __future__ import annotations

import pytest

from kpart.cluster.broker_events import BrokerEvent, ReplicationState, apply_event, run_events
from kpart.cluster.partition_change import (
    ElectionRules,
    PartitionRegistration,
    build_partition_change,
)
from kpart.errors import ConfigError

EXAMPLE = [BrokerEvent("down", 1), BrokerEvent("down", 2), BrokerEvent("down", 3),
           BrokerEvent("up", 2)]


def _one(replicas=(1, 2, 3), min_isr=2, fenced=()) -> ReplicationState:
    reg = PartitionRegistration(tuple(replicas), replicas[0], tuple(replicas))
    return ReplicationState.of(sorted(replicas), [("t", 0, min_isr, reg)], fenced=fenced)


def _path(steps):
    return [(s.partitions[0].leader, s.partitions[0].isr, s.partitions[0].elr,
             s.partitions[0].last_known_elr) for s in steps]


def test_kip966_worked_example_with_elr_broker_2_leads_with_isr_2_and_elr_3():
    steps = run_events(_one(), EXAMPLE, ElectionRules.for_version("4.3", True))
    assert _path(steps) == [(2, (2, 3), (), ()), (3, (3,), (2,), ()),
                            (None, (), (2, 3), (3,)), (2, (2,), (3,), ())]
    assert steps[-1].offline == ()
    assert steps[-1].under_min_isr == (("t", 0),)


def test_kip966_worked_example_without_elr_stays_offline():
    steps = run_events(_one(), EXAMPLE, ElectionRules.for_version("4.3", False))
    assert _path(steps) == [(2, (2, 3), (), ()), (3, (3,), (), ()),
                            (None, (3,), (), ()), (None, (3,), (), ())]
    assert steps[-1].offline == (("t", 0),)


def test_unclean_return_leaves_isr_and_elr_and_the_partition_stays_offline():
    events = [*EXAMPLE[:3], BrokerEvent("up_unclean", 2)]
    steps = run_events(_one(), events, ElectionRules.for_version("4.3", True))
    assert _path(steps)[-1] == (None, (), (3,), (3,))


def test_an_elr_member_returning_cleanly_is_elected_cleanly():
    events = [*EXAMPLE[:3], BrokerEvent("up_unclean", 2), BrokerEvent("up", 3)]
    last = run_events(_one(), events, ElectionRules.for_version("4.3", True))[-1].partitions[0]
    assert (last.leader, last.isr, last.elr, last.last_known_elr) == (3, (3,), (), ())
    assert last.leader_recovery_state == "RECOVERED"


def test_the_last_known_leader_is_elected_uncleanly_when_isr_and_elr_are_empty():
    # both ELR members return uncleanly: ISR and ELR empty, LastKnownElr [3]
    events = [*EXAMPLE[:3], BrokerEvent("up_unclean", 2), BrokerEvent("up_unclean", 3)]
    last = run_events(_one(), events, ElectionRules.for_version("4.3", True))[-1].partitions[0]
    assert (last.leader, last.isr, last.elr, last.last_known_elr) == (3, (3,), (), ())
    assert last.leader_recovery_state == "RECOVERING"


def test_before_kafka_19522_a_fenced_last_leader_is_elected():
    p = PartitionRegistration((1, 2, 3), None, (), (), (3,))
    fenced = {1, 3}
    acceptable = lambda r: r not in fenced  # noqa: E731
    old = build_partition_change(p, acceptable, 2, ElectionRules.for_version("4.0.1", True),
                                 target_isr=())
    new = build_partition_change(p, acceptable, 2, ElectionRules.for_version("4.1.0", True),
                                 target_isr=())
    assert (old.leader, old.isr) == (3, (3,))
    assert (new.leader, new.isr) == (None, ())


def test_elr_defaults_by_version():
    assert ElectionRules.for_version("4.1.0", None).elr
    assert ElectionRules.for_version(None, None).elr
    for v in ("4.0.1", "3.9.2", "3.7.0"):
        assert not ElectionRules.for_version(v, None).elr
    assert not ElectionRules.for_version("2.8.2", False).elr
    assert ElectionRules.for_version("3.9", True).elr
    assert not ElectionRules.for_version("3.7", True).unclean_shutdown_detection
    assert not ElectionRules.for_version("4.0", True).unclean_shutdown_detection
    assert ElectionRules.for_version("3.8.0", True).unclean_shutdown_detection


@pytest.mark.parametrize("version", ["3.6.2", "2.8"])
def test_elr_asked_of_a_version_without_it_is_an_error(version):
    with pytest.raises(ConfigError, match="does not exist in kafka_version"):
        ElectionRules.for_version(version, True)
    assert not ElectionRules.for_version(version, None).elr  # events without ELR


@pytest.mark.parametrize(("event", "fenced", "message"), [
    (BrokerEvent("up", 2), (), "broker 2 is not down"),
    (BrokerEvent("up_unclean", 2), (), "broker 2 is not down"),
    (BrokerEvent("down", 2), (2,), "broker 2 is already down"),
    (BrokerEvent("down", 9), (), "unknown broker 9"),
])
def test_bad_events_are_errors_naming_them(event, fenced, message):
    with pytest.raises(ConfigError, match=message):
        apply_event(_one(fenced=fenced), event, ElectionRules(True))


def test_last_known_elr_before_4_1_1_is_recorded_only_when_the_isr_empties():
    # leader 1 fails while the other ISR member, 2, is fenced: leaderless, ISR [2]
    p = PartitionRegistration((1, 2, 3), 1, (1, 2))
    acceptable = lambda r: r == 3  # noqa: E731
    new = build_partition_change(p, acceptable, 2, ElectionRules.for_version("4.1.1", True),
                                 target_isr=(2,))
    old = build_partition_change(p, acceptable, 2, ElectionRules.for_version("4.1.0", True),
                                 target_isr=(2,))
    assert (new.leader, new.isr, new.elr, new.last_known_elr) == (None, (2,), (1,), (1,))
    assert (old.leader, old.isr, old.elr, old.last_known_elr) == (None, (2,), (1,), ())


def test_without_unclean_shutdown_detection_an_unclean_return_counts_as_clean():
    events = [*EXAMPLE[:3], BrokerEvent("up_unclean", 2)]
    with_detection = run_events(_one(), events, ElectionRules.for_version("3.8", True))
    without = run_events(_one(), events, ElectionRules.for_version("3.7", True))
    assert _path(with_detection)[-1] == (None, (), (3,), (3,))
    assert _path(without)[-1] == (2, (2,), (3,), ())
