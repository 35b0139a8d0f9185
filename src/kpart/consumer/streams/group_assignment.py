"""``org.apache.kafka.coordinator.group.streams.assignor.GroupAssignment`` /
``MemberAssignment`` (KIP-1071): the sticky task assignor's result.

:class:`MemberAssignment`: ``active`` and ``standby`` tasks as
:data:`~kpart.consumer.streams.group_spec.Tasks` (subtopologies in ``String`` order, partitions
ascending, subtopologies without a task omitted; warm-up tasks are always empty).
:class:`StreamsGroupAssignment`: ``members``, ``(member_id, MemberAssignment)`` pairs in the
spec's member order, every member present. :meth:`StreamsGroupAssignment.to_json` is the shape
of a golden case's ``expected``.

>>> a = StreamsGroupAssignment((("m1", MemberAssignment((("0", (0, 1)),), ())),))
>>> a.to_json()
{'assignment': {'m1': {'active': {'0': [0, 1]}, 'standby': {}}}}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kpart.consumer.streams.group_spec import Tasks

__all__ = ["MemberAssignment", "StreamsGroupAssignment"]


@dataclass(frozen=True, slots=True)
class MemberAssignment:
    """One member's active and standby tasks."""

    active: Tasks
    standby: Tasks


@dataclass(frozen=True, slots=True)
class StreamsGroupAssignment:
    """Every member's tasks (see the module docstring)."""

    members: tuple[tuple[str, MemberAssignment], ...]

    def member(self, member_id: str) -> MemberAssignment:
        """The tasks of ``member_id`` (``KeyError`` when it is not in the group)."""
        for mid, a in self.members:
            if mid == member_id:
                return a
        raise KeyError(member_id)

    def to_json(self) -> dict[str, Any]:
        """``{"assignment": {member: {"active": {sub: [p, ...]}, "standby": {...}}}}``."""
        return {"assignment": {
            mid: {"active": {s: list(ps) for s, ps in a.active},
                  "standby": {s: list(ps) for s, ps in a.standby}}
            for mid, a in self.members}}
