"""``LeaderReplicaDistributionGoal``'s last step (``move_leadership_in``, Cruise Control's
``rebalanceByMovingLeadershipIn``): a broker under the leader-count band takes the leadership
of the partitions it follows, the lightest first, and when its leader bytes-in has no room,
first hands on its heaviest leadership — every pass accepted by every goal of the plan."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import goal_state, goals_by_name
from kpart.cluster.goals.goal import Guards
from kpart.cluster.goals.leader_replica_distribution import move_leadership_in

CAP = Capacity(disk_bytes=1e9, network_in=1e9, network_out=1e9)


def _state(rates: list[float], leaders: list[int], followers: list[int]):  # noqa: ANN202
    """Partition ``i`` led by ``leaders[i]``, followed by ``followers[i]``, ``rates[i]``
    bytes/s in (and out)."""
    brokers = [ClusterBroker(i, None, CAP) for i in range(3)]
    parts = [PartitionState("t", i, (a, f), size_bytes=1.0, bytes_in_per_s=r,
                            bytes_out_per_s=r)
             for i, (r, a, f) in enumerate(zip(rates, leaders, followers, strict=True))]
    model = ClusterModel.from_partitions(brokers, parts)
    return goal_state(model, model.replicas, np.ones(3, bool))


def test_a_broker_under_the_band_takes_the_lightest_leaderships() -> None:
    # brokers 0 and 1 lead five partitions each, broker 2 two (band [3, 5]); broker 2
    # follows six of theirs, of different weights
    rates = [6.0, 2.0, 5.0, 1.0, 4.0, 3.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    leaders = [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 2]
    followers = [2, 2, 2, 2, 2, 2, 1, 0, 1, 0, 0, 1]
    s = _state(rates, leaders, followers)
    goals = goals_by_name("LeaderReplicaDistributionGoal")
    goal = goals[0]
    assert goal.band(s)[:2] == (3, 5) and goal.violations(s) == 1
    made = move_leadership_in(s, goal, Guards(goals))  # type: ignore[arg-type]
    assert goal.violations(s) == 0 and made == 1 and s.leaders[2] == 3
    assert s.pos[3, 0] == 2  # the lightest partition it followed (1 byte/s)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_goal_gets_worse(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 30))
    leaders = rng.choice(3, n, p=[0.45, 0.45, 0.1]).tolist()
    followers = [int((a + rng.integers(1, 3)) % 3) for a in leaders]
    rates = rng.choice([0.1, 1.0, 5.0, 20.0], n).tolist()
    s = _state(rates, leaders, followers)
    goals = goals_by_name("NetworkOutboundUsageDistributionGoal,LeaderReplicaDistributionGoal,"
                          "LeaderBytesInDistributionGoal")
    before = [g.violations(s) for g in goals]
    move_leadership_in(s, goals[1], Guards(goals))  # type: ignore[arg-type]
    after = [g.violations(s) for g in goals]
    assert all(a <= b for a, b in zip(after, before, strict=True)), (before, after)
    assert (np.sort(s.pos, axis=1) == np.sort(_state(rates, leaders, followers).pos,
                                              axis=1)).all()  # leaderships only
