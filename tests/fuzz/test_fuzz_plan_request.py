"""``kpart plan``'s request value (:class:`kpart.cluster.plan_request.PlanRequest`) under random
options: :meth:`~kpart.cluster.plan_request.PlanRequest.from_options` either refuses with one
:class:`~kpart.errors.KpartError` line or returns a frozen value that gives itself back
(``from_options(**r.options()) == r``) and chooses the mode its options choose."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.cluster.plan_request import PlanRequest
from kpart.errors import KpartError

pytestmark = pytest.mark.fuzz

_PATHS = st.one_of(st.none(), st.sampled_from([Path("d.txt"), Path("c.json"), Path("-")]))
_TEXT = st.one_of(st.none(), st.text(max_size=6), st.sampled_from(["1,2", "5:b", "3-4"]))
_GOALS = st.one_of(st.none(), st.sampled_from(
    ["RackAwareGoal", "RackAwareGoal,DiskCapacityGoal", "", "RackAware", "A,A",
     "ReplicaDistributionGoal, LeaderReplicaDistributionGoal", "RackAwareGoal,RackAwareGoal"]))
_FLOATS = st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from([0.8, 1.0, 1.1, 1.5]))
_INTS = st.one_of(st.none(), st.integers(-3, 10**6))
_BOOLS = st.one_of(st.none(), st.booleans())

OPTIONS = st.fixed_dictionaries({}, optional={
    "current": _PATHS, "snapshot": _PATHS, "topic": _TEXT, "brokers": _TEXT,
    "add_brokers": _TEXT, "remove_brokers": _TEXT, "pools": _PATHS, "sizes": _PATHS,
    "capacity": _PATHS, "loads": st.lists(st.sampled_from([Path("r.csv"), Path("s.csv")]),
                                          max_size=2).map(tuple),
    "goals": _GOALS, "max_replicas": _INTS, "capacity_threshold": _FLOATS,
    "balance_threshold": _FLOATS, "verify": st.booleans(), "failures": st.booleans(),
    "max_moves": _INTS, "max_moves_per_broker": _INTS, "seed": _INTS, "leaders": _BOOLS,
    "rebalance": _BOOLS, "throttle": _INTS, "out": _PATHS,
    "fmt": st.sampled_from(["json", "parquet", "arrow", "xml"]), "rollback": _PATHS,
    "describe_out": _PATHS, "topics_out": _PATHS, "summary_out": _PATHS, "html": _PATHS,
    "as_json": st.booleans(), "partial": st.booleans(),
    "kafka_version": st.one_of(st.none(), st.sampled_from(["4.3", "x"])), "cordoned": _TEXT,
})


@settings(max_examples=300, deadline=None)
@given(OPTIONS)
def test_from_options_refuses_in_one_line_or_round_trips(options: dict[str, object]) -> None:
    try:
        request = PlanRequest.from_options(**options)  # type: ignore[arg-type]
    except KpartError as e:
        assert str(e) and "\n" not in str(e), e
        return
    assert PlanRequest.from_options(**request.options()) == request
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.fmt = "json"  # type: ignore[misc]
    chooses = (options.get("goals") is not None or options.get("capacity") is not None
               or bool(options.get("loads")) or options.get("snapshot") is not None
               or bool(options.get("verify")))
    assert request.load_aware == chooses
    th = request.thresholds
    if request.load_aware:
        assert request.max_moves is None and request.seed is None and request.leaders is None
        t = th.to_thresholds()  # a request holds thresholds Cruise Control accepts
        assert 0 < t.capacity <= 1 and math.isfinite(t.disk_balance)
    else:
        assert request.current is not None and request.goals is None
        assert (th.max_replicas_per_broker, th.capacity, th.balance) == (None, None, None)
