"""``kpart plan``'s request value (kpart.cluster.plan_request): one frozen PlanRequest, typed
thresholds, the mode rule, and plan_command taking the request."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from kpart.cli.plan import plan_command
from kpart.cluster.plan_request import GoalThresholds, PlanRequest
from kpart.errors import ConfigError

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_thresholds_are_a_typed_frozen_value() -> None:
    th = GoalThresholds(max_replicas_per_broker=5, capacity=0.7, balance=1.2)
    t = th.to_thresholds()
    assert (t.max_replicas_per_broker, t.capacity) == (5, 0.7)
    assert {t.replica_balance, t.leader_balance, t.disk_balance, t.network_in_balance,
            t.network_out_balance} == {1.2}
    assert t.topic_balance == 3.0  # --balance-threshold is not the topic goal's
    with pytest.raises(dataclasses.FrozenInstanceError):
        th.capacity = 0.5  # type: ignore[misc]
    with pytest.raises(ConfigError):
        GoalThresholds(max_replicas_per_broker=0)


def test_the_options_choose_the_mode() -> None:
    count = PlanRequest.from_options(current=Path("d.txt"), max_moves=3, seed=1)
    assert not count.load_aware and count.goals is None
    load = PlanRequest.from_options(current=Path("d.txt"), capacity=Path("c.json"),
                                    balance_threshold=1.3)
    assert load.load_aware and load.goals is None and load.thresholds.balance == 1.3
    assert PlanRequest.from_options(snapshot=Path("s.json")).load_aware
    with pytest.raises(ConfigError, match="^--max-replicas-per-broker only goes with"):
        PlanRequest.from_options(current=Path("d.txt"), max_replicas=3)
    with pytest.raises(ConfigError, match="^Missing option '--current'"):
        PlanRequest.from_options()


def test_plan_command_takes_the_request(tmp_path: Path, capsys) -> None:
    out = tmp_path / "plan.json"
    plan_command(PlanRequest.from_options(
        current=EXAMPLES / "topic-test4.describe.txt", add_brokers="4,5,6", out=out))
    capsys.readouterr()
    assert json.loads(out.read_text())["partitions"]


def test_a_bad_broker_list_is_refused_before_current_is_read(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"  # never read: the broker list is refused first
    with pytest.raises(ConfigError, match="--add-brokers"):
        plan_command(PlanRequest.from_options(current=missing, add_brokers="x:y:z"))
