"""Streams groups (KIP-1071): the group coordinator's sticky task assignor.

- :class:`StreamsGroupSpec` (subtopologies, ``num_standby_replicas``, members with process ids
  and current tasks; :meth:`StreamsGroupSpec.from_json` reads a golden case's ``input``);
- :func:`assign` → :class:`StreamsGroupAssignment` (each member's active and standby tasks);
- :func:`simulate_streams_group`: the group over successive states, one target after another.

See :mod:`kpart.consumer.streams.sticky_task_assignor` for the algorithm and its versions.
"""

from kpart.consumer.streams.group_assignment import MemberAssignment, StreamsGroupAssignment
from kpart.consumer.streams.group_spec import AssignmentMemberSpec, StreamsGroupSpec, Subtopology
from kpart.consumer.streams.sticky_task_assignor import assign
from kpart.consumer.streams.streams_simulation import StreamsRound, simulate_streams_group

__all__ = ["AssignmentMemberSpec", "MemberAssignment", "StreamsGroupAssignment",
           "StreamsGroupSpec", "StreamsRound", "Subtopology", "assign", "simulate_streams_group"]
