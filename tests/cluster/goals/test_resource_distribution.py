"""``ResourceDistributionGoal`` (``kpart.cluster.goals.resource_distribution``), the base of
the six distribution goals, as a unit: its band (``[avg × (2 − t), avg × t]`` of utilization,
``[floor, ceil]`` of counts, Cruise Control's ``BALANCE_MARGIN`` inside it for the band aimed
at), ``upper_only``, ``removed_over``, and its acceptance (Cruise Control's
``actionAcceptance``): by default no move may take a broker past a limit; with the state's
``count_guard`` only a broker inside the band may not leave it. A property: on random states,
no move a distribution goal accepts gives it more violations, and with ``count_guard`` a move
is refused exactly when it takes a broker out of the band."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import (
    BALANCE_MARGIN,
    GOALS,
    Goal,
    GoalState,
    Guards,
    ResourceDistributionGoal,
    goal_state,
)
from kpart.cluster.goals.goal import leader_delta, move_delta
from kpart.cluster.goals.relocation import relocate_leadership, relocate_replica
from kpart.cluster.goals.state import GoalSettings

#: The distribution goals of the registry, each a ResourceDistributionGoal.
FAMILY = [g for g in GOALS if isinstance(g, ResourceDistributionGoal)]
DISK = ResourceDistributionGoal(name="disk", hard=False, resource="disk", capacity="cap_disk",
                                threshold="disk_balance")


def _model(disk: list[float], caps: list[float | None]) -> ClusterModel:
    """Broker ``b`` (own rack, disk capacity ``caps[b]``) holds one single-replica partition of
    ``disk[b]`` bytes."""
    brokers = [ClusterBroker(i, f"r{i}", Capacity(disk_bytes=c)) for i, c in enumerate(caps)]
    parts = [PartitionState("t", b, (b,), leader=b, size_bytes=x) for b, x in enumerate(disk)]
    return ClusterModel.from_partitions(brokers, parts)


def _state(model: ClusterModel, allowed: list[bool] | None = None, *,
           removed_over: bool = False, count_guard: bool = False) -> GoalState:
    ok = np.ones(len(model.brokers), bool) if allowed is None else np.array(allowed)
    return goal_state(model, model.replicas, ok, settings=GoalSettings(
        removed_over=removed_over, count_guard=count_guard))


def test_the_family_is_the_six_distribution_goals() -> None:
    assert sorted(g.name for g in FAMILY) == sorted([
        "ReplicaDistributionGoal", "LeaderReplicaDistributionGoal",
        "DiskUsageDistributionGoal", "NetworkInboundUsageDistributionGoal",
        "NetworkOutboundUsageDistributionGoal", "LeaderBytesInDistributionGoal"])
    assert all(not g.hard for g in FAMILY)
    assert [g.name for g in FAMILY if g.upper_only] == ["LeaderBytesInDistributionGoal"]


def test_the_band_and_the_band_aimed_at() -> None:
    # 20 + 40 + 60 + 80 = 200 bytes on 400 of capacity: mean utilization 0.5
    s = _state(_model([20.0, 40.0, 60.0, 80.0], [100.0] * 4))
    lo, hi, c = DISK.band(s)
    assert (lo, hi) == (0.5 * (2 - 1.1), 0.5 * 1.1) and c.tolist() == [100.0] * 4
    # the band aimed at (asked for after the threshold's, so not the cached one)
    lo_m, hi_m, _ = DISK.band(s, BALANCE_MARGIN)
    assert math.isclose(lo_m, 0.5 * (1 - 0.1 * BALANCE_MARGIN))
    assert math.isclose(hi_m, 0.5 * (1 + 0.1 * BALANCE_MARGIN))
    assert lo < lo_m < hi_m < hi
    assert DISK.band(s)[:2] == (lo, hi)  # and the threshold's still cached apart
    assert DISK.violations(s) == 4  # 0.2, 0.4, 0.6, 0.8: none within [0.45, 0.55]
    # counts: [floor, ceil]
    rep = next(g for g in FAMILY if g.resource == "replicas")
    assert rep.band(s)[:2] == (math.floor(0.9 * 1.0), math.ceil(1.1 * 1.0)) == (0, 2)


def test_upper_only_has_no_lower_limit() -> None:
    upper = ResourceDistributionGoal(name="upper", hard=False, resource="disk",
                                     capacity="cap_disk", threshold="disk_balance",
                                     upper_only=True)
    s = _state(_model([20.0, 40.0, 60.0, 80.0], [100.0] * 4))
    assert upper.band(s)[0] == -math.inf
    assert upper.violations(s) == 2  # 0.6 and 0.8 over 0.55; 0.2 and 0.4 no violation
    row = 1  # broker 1's 40 bytes onto broker 0 (0.2 -> 0.6): over: refused
    assert not upper.accepts(s, row, 1, 0)
    row = 0  # broker 0's 20 bytes onto broker 1 (0.4 -> 0.6): refused; broker 0 may empty
    assert not upper.accepts(s, row, 0, 1)
    s2 = _state(_model([20.0, 10.0, 60.0, 110.0], [100.0] * 4))  # mean 0.5 again
    assert upper.accepts(s2, 0, 0, 1)  # 0.1 -> 0.3, broker 0 to 0: no lower limit
    assert not DISK.accepts(s2, 0, 0, 1)  # with a lower limit: 0 < 0.45


def test_a_removed_broker_counts_only_over_the_band_and_only_with_removed_over() -> None:
    # broker 3 is removed; mean over the others' capacity: 240 / 300 = 0.8, band
    # [0.72, 0.88]: brokers 0-2 (0.7, 0.8, 0.9) -> 0 and 2 out; broker 3 (40 on 100)
    m = _model([70.0, 80.0, 90.0, 0.0], [100.0] * 4)
    allowed = [True, True, True, False]
    assert DISK.violations(_state(m, allowed)) == 2
    assert DISK.violations(_state(m, allowed, removed_over=True)) == 2  # 0 is not over
    m = _model([70.0, 80.0, 90.0, 100.0], [100.0] * 4)  # mean 340 / 300 = 1.133
    assert DISK.violations(_state(m, allowed)) == 3
    assert DISK.violations(_state(m, allowed, removed_over=True)) == 3  # 1.0 < 1.247
    m = _model([10.0, 10.0, 10.0, 200.0], [100.0] * 4)  # mean 0.767, broker 3 at 2.0
    assert DISK.violations(_state(m, allowed)) == 3
    assert DISK.violations(_state(m, allowed, removed_over=True)) == 4


def test_a_removed_giver_has_no_lower_limit() -> None:
    # brokers 1 and 3 hold 40 + 30 bytes each, broker 0 30, broker 2 70; broker 3 removed:
    # mean 240 / 300 = 0.8, band [0.72, 0.88]. Giving 30 bytes to broker 0 (0.3 -> 0.6,
    # under the top) takes broker 1 under the floor (0.4): refused; broker 3, removed, has
    # no floor: accepted
    brokers = [ClusterBroker(i, f"r{i}", Capacity(disk_bytes=100.0)) for i in range(4)]
    spec = [(0, 30.0), (1, 40.0), (1, 30.0), (2, 70.0), (3, 40.0), (3, 30.0)]
    m = ClusterModel.from_partitions(brokers, [PartitionState("t", p, (b,), size_bytes=x)
                                               for p, (b, x) in enumerate(spec)])
    s = _state(m, [True, True, True, False])
    assert DISK.band(s)[:2] == (0.8 * (2 - 1.1), 0.8 * 1.1)
    assert not DISK.accepts(s, 2, 1, 0)
    assert DISK.accepts(s, 5, 3, 0)


def test_acceptance_by_default_and_with_count_guard() -> None:
    # 0.3, 0.5, 0.5, 0.7 of 100 each (band [0.45, 0.55]): brokers 0 and 3 out
    m = _model([30.0, 50.0, 50.0, 70.0], [100.0] * 4)
    plain, guarded = _state(m), _state(m, count_guard=True)
    # broker 3 (over) onto broker 0 (under): 70 bytes take 0 to 1.0, over: refused by
    # default; with count_guard both were out already: accepted
    assert not DISK.accepts(plain, 3, 3, 0) and DISK.accepts(guarded, 3, 3, 0)
    # broker 0 (under, 30) onto broker 3 (over): both already out. By default the receiver
    # may not go (further) over; with count_guard, brokers out may go further
    assert not DISK.accepts(plain, 0, 0, 3)
    assert DISK.accepts(guarded, 0, 0, 3)
    # broker 1 (in) onto broker 2 (in): 1 -> 0, 2 -> 1.0: both leave: refused by both
    assert not DISK.accepts(plain, 1, 1, 2) and not DISK.accepts(guarded, 1, 1, 2)
    # a move of nothing (a leadership: disk unchanged) is always accepted
    assert DISK.accepts_leader(plain, 1, 1, 2) and DISK.accepts_leader(guarded, 1, 1, 2)


@dataclass(frozen=True, slots=True)
class _RefuseAll(Goal):
    name: str = "RefuseAll"
    hard: bool = True

    def violations(self, state: GoalState) -> int:
        return 0

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        return False


def _one_broker(sizes: list[float]) -> ClusterModel:
    """Four brokers of disk capacity 100 in their own racks; single-replica partitions of
    ``sizes`` bytes, all on broker 0."""
    brokers = [ClusterBroker(i, f"r{i}", Capacity(disk_bytes=100.0)) for i in range(4)]
    return ClusterModel.from_partitions(brokers, [PartitionState("t", p, (0,), size_bytes=x)
                                                  for p, x in enumerate(sizes)])


def test_rebalancing_moves_only_what_every_guard_accepts() -> None:
    # forty 1-byte replicas on broker 0, none elsewhere: the disk goal alone spreads them
    # (band aimed at [9.1, 10.9] bytes); with a guard refusing every move nothing moves
    m = _one_broker([1.0] * 40)
    s = _state(m)
    DISK.rebalance_by_moving_replicas(s, Guards((DISK,), ()), s.size)
    assert DISK.violations(s) == 0 and 9.0 <= s.disk.min() <= s.disk.max() <= 11.0
    s = _state(m)
    refuse = _RefuseAll()
    DISK.rebalance_by_moving_replicas(s, Guards((refuse, DISK), (refuse,)), s.size)
    assert s.disk.tolist() == [40.0, 0.0, 0.0, 0.0]


def test_rebalancing_spreads_four_equal_replicas_over_four_brokers() -> None:
    s = _state(_one_broker([10.0] * 4))
    DISK.rebalance_by_moving_replicas(s, Guards((DISK,), ()), s.size)
    assert DISK.violations(s) == 0


@st.composite
def _states(draw: st.DrawFn) -> GoalState:
    n = draw(st.integers(3, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    mixed = draw(st.booleans())
    brokers = [ClusterBroker(i, f"r{i}", Capacity(
        disk_bytes=100.0 * (1 + i % 2 * mixed), network_in=100.0 * (1 + i % 3 * mixed),
        network_out=100.0)) for i in range(n)]
    parts = []
    for p in range(draw(st.integers(2, 25))):
        rf = int(rng.integers(1, min(3, n) + 1))
        reps = tuple(int(b) for b in rng.choice(n, size=rf, replace=False))
        rate = float(rng.integers(0, 10))
        parts.append(PartitionState(f"t{p % 2}", p, reps, leader=reps[0],
                                    size_bytes=float(rng.integers(0, 20)),
                                    bytes_in_per_s=rate, bytes_out_per_s=rate))
    model = ClusterModel.from_partitions(brokers, parts)
    allowed = np.ones(n, bool)
    if draw(st.booleans()):
        allowed[draw(st.integers(0, n - 1))] = False
    return goal_state(model, model.replicas, allowed, settings=GoalSettings(
        removed_over=draw(st.booleans()), count_guard=draw(st.booleans())))


def _leaves(goal: ResourceDistributionGoal, s: GoalState, b: int, d: float) -> bool:
    """Broker ``b`` inside ``goal``'s band before, outside after ``d`` more of its load."""
    lo, hi, c = goal.band(s)
    load = float(getattr(s, goal.resource)[b])
    tol = 1e-9 * max(abs(hi), abs(lo) if math.isfinite(lo) else 0.0, 1e-300)
    inside = lo * c[b] - tol * c[b] <= load <= hi * c[b] + tol * c[b]
    after = lo * c[b] - tol * c[b] <= load + d <= hi * c[b] + tol * c[b]
    return bool(inside and not after)


@settings(max_examples=60, deadline=None)
@given(_states(), st.data())
def test_an_accepted_move_never_adds_a_violation(s: GoalState, data: st.DataObject) -> None:
    goal = data.draw(st.sampled_from(FAMILY))
    n = len(s.allowed)
    row = data.draw(st.integers(0, len(s.pos) - 1))
    held = [k for k in range(s.pos.shape[1]) if s.pos[row, k] >= 0]
    slot = data.draw(st.sampled_from(held))
    src = int(s.pos[row, slot])
    free = [b for b in range(n) if s.allowed[b] and not (s.pos[row] == b).any()]
    leader_move = not free or data.draw(st.booleans())
    if leader_move:
        if slot == 0 or len(held) < 2:
            return
        src, dst = int(s.pos[row, 0]), int(s.pos[row, slot])
        d = leader_delta(s, row, goal.resource)
        ok = goal.accepts_leader(s, row, src, dst)
    else:
        dst = data.draw(st.sampled_from(free))
        d = move_delta(s, row, src, goal.resource)
        ok = goal.accepts(s, row, src, dst)
    if s.count_guard:  # refused exactly when a broker in the band leaves it
        leaves = d != 0 and (_leaves(goal, s, dst, d)
                             or (bool(s.allowed[src]) and _leaves(goal, s, src, -d)))
        assert ok == (not leaves)
    before = goal.violations(s)
    if leader_move:
        relocate_leadership(s, row, slot)
    else:
        relocate_replica(s, row, slot, dst)
    if ok:
        assert goal.violations(s) <= before
