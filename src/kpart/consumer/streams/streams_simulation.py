"""A Streams group (KIP-1071) over successive states: the group coordinator's sticky task
assignor, one target after another, as ``TargetAssignmentBuilder`` runs it.

Each step is one target computation (a group-state document, as
:meth:`~kpart.consumer.streams.group_spec.StreamsGroupSpec.from_json` reads it: ``subtopologies``,
``num_standby_replicas``, ``members``; the members' own ``active``/``standby`` are ignored). A
member's current tasks are its target of the previous step; a member absent from a step has
left; a new member starts empty, except a static member rejoining with a new member id (its
``instance_id`` belonged to a member of the previous step that is gone: KIP-345's
replacement), which starts with that member's target. A step where the assignor fails keeps
every target as it was. This is the simulation rule of Kafka 4.3's golden sequences
(``tests/golden/4.3/FORMAT.md``), all of whose rounds it reproduces, inputs included.

>>> subs = [{"id": "s", "tasks": 2, "stateful": False}]
>>> one = {"subtopologies": subs, "num_standby_replicas": 0,
...        "members": [{"id": "A", "process_id": "p1"}]}
>>> two = {**one, "members": [{"id": "A", "process_id": "p1"}, {"id": "B", "process_id": "p2"}]}
>>> [r.assignment.to_json()["assignment"]["A"]["active"] for r in simulate_streams_group([one, two])]
[{'s': [0, 1]}, {'s': [0]}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kpart.consumer.streams.group_assignment import StreamsGroupAssignment
from kpart.consumer.streams.group_spec import StreamsGroupSpec
from kpart.consumer.streams.sticky_task_assignor import assign
from kpart.errors import ConfigError, KpartError
from kpart.versions import KafkaVersion

__all__ = ["StreamsRound", "simulate_streams_group"]


@dataclass(frozen=True, slots=True)
class StreamsRound:
    """One target computation: the ``step`` index, the ``spec`` the assignor saw (members with
    their current tasks) and its ``assignment``, or the ``error`` it raised."""

    step: int
    spec: StreamsGroupSpec
    assignment: StreamsGroupAssignment | None
    error: KpartError | None = None


def simulate_streams_group(
    steps: Iterable[Mapping[str, Any]], kafka_version: str | KafkaVersion | None = None,
) -> tuple[StreamsRound, ...]:
    """Run Kafka ``kafka_version``'s sticky task assignor (default 4.3) over successive
    group-state documents (see the module docstring): one :class:`StreamsRound` per step.
    Errors: :class:`~kpart.errors.ConfigError` naming the step of a bad document or a version
    without Streams groups; an assignor error is recorded in its round."""
    targets: dict[Any, dict[str, Any]] = {}
    instance_of: dict[Any, Any] = {}
    rounds: list[StreamsRound] = []
    for i, step in enumerate(steps):
        if not isinstance(step, Mapping) or not isinstance(step.get("members"), list):
            raise ConfigError(f"steps[{i}]: expected a group state with 'members'")
        present = {m.get("id") for m in step["members"] if isinstance(m, Mapping)}
        by_instance = {instance_of[mid]: mid for mid in targets
                       if instance_of.get(mid) is not None and mid not in present}
        members = []
        for m in step["members"]:
            if not isinstance(m, Mapping):
                raise ConfigError(f"steps[{i}].members: expected member objects")
            prev = targets.get(m.get("id"))
            if prev is None and m.get("instance_id") is not None:
                gone = by_instance.get(m["instance_id"])
                prev = targets.get(gone) if gone is not None else None
            prev = prev or {"active": {}, "standby": {}}
            members.append({**m, "active": prev["active"], "standby": prev["standby"]})
        try:
            spec = StreamsGroupSpec.from_json({**step, "members": members})
        except KpartError as e:
            raise ConfigError(f"steps[{i}]: {e}") from None
        try:
            result = assign(spec, kafka_version)
        except ConfigError:
            raise
        except KpartError as e:
            rounds.append(StreamsRound(i, spec, None, e))
            continue
        rounds.append(StreamsRound(i, spec, result))
        got = result.to_json()["assignment"]
        targets = {mid: got[mid] for mid in present if mid in got}
        instance_of = {m.get("id"): m.get("instance_id") for m in step["members"]}
    return tuple(rounds)
