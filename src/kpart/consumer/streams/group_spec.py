"""``org.apache.kafka.coordinator.group.streams.assignor.GroupSpec`` (KIP-1071): a Streams
group's topology and members as the group coordinator hands them to its task assignor.

- :class:`Subtopology`: ``id`` (str), ``tasks`` (int ≥ 0, the number of tasks:
  ``TopologyDescriber.maxNumInputPartitions``), ``stateful`` (has changelog topics: standby
  replicas are placed only for those).
- :class:`AssignmentMemberSpec`: ``member_id``, ``process_id``, ``instance_id``, ``rack`` and
  the member's current target assignment: ``active`` / ``standby`` as tuples of
  ``(subtopology_id, (partition, ...))``. A current assignment may name tasks that no longer
  exist (a removed subtopology, a partition beyond the count): Kafka ignores them, and so does
  :func:`~kpart.consumer.streams.sticky_task_assignor.assign`.
- :class:`StreamsGroupSpec`: ``subtopologies`` (Kafka sees them in ``String`` order),
  ``num_standby_replicas`` (int ≥ 0) and ``members`` in the order the coordinator put them in
  its ``HashMap`` (that order decides ties).

:meth:`StreamsGroupSpec.from_json` reads a golden case's ``input`` as written (see
``tests/golden/4.3/FORMAT.md``). Errors: :class:`~kpart.errors.ConfigError` naming the field
and value (a duplicate member id, a negative partition or task count, members of one process
on different racks, task offsets, which kpart does not model).

>>> spec = StreamsGroupSpec.from_json({"subtopologies": [{"id": "0", "tasks": 2,
...     "stateful": True}], "num_standby_replicas": 1, "members": [
...     {"id": "m1", "process_id": "p1", "active": {"0": [0]}}]})
>>> spec.members[0].active, spec.task_count("0")
((('0', (0,)),), 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kpart.errors import ConfigError

__all__ = ["AssignmentMemberSpec", "StreamsGroupSpec", "Subtopology", "Tasks"]

#: ``(subtopology_id, (partition, ...))`` pairs: a member's tasks, subtopologies and
#: partitions sorted as a target-assignment record lists them.
Tasks = tuple[tuple[str, tuple[int, ...]], ...]


@dataclass(frozen=True, slots=True)
class Subtopology:
    """One subtopology: its id, number of tasks and whether it is stateful."""

    id: str
    tasks: int
    stateful: bool

    def __post_init__(self) -> None:
        if not isinstance(self.id, str):
            raise ConfigError(f"Invalid subtopology id {self.id!r}: must be a string")
        if isinstance(self.tasks, bool) or not isinstance(self.tasks, int) or self.tasks < 0:
            raise ConfigError(
                f"Invalid task count {self.tasks!r} of subtopology {self.id!r}: must be an "
                "integer >= 0")


@dataclass(frozen=True, slots=True)
class AssignmentMemberSpec:
    """A member: ids, rack and its current active and standby tasks (:data:`Tasks`)."""

    member_id: str
    process_id: str
    instance_id: str | None = None
    rack: str | None = None
    active: Tasks = ()
    standby: Tasks = ()


@dataclass(frozen=True, slots=True)
class StreamsGroupSpec:
    """The assignor's input (see the module docstring)."""

    subtopologies: tuple[Subtopology, ...]
    num_standby_replicas: int
    members: tuple[AssignmentMemberSpec, ...]

    def __post_init__(self) -> None:
        n = self.num_standby_replicas
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ConfigError(f"Invalid num.standby.replicas {n!r}: must be an integer >= 0")
        seen: set[str] = set()
        for s in self.subtopologies:
            if s.id in seen:
                raise ConfigError(f"Duplicate subtopology id {s.id!r}")
            seen.add(s.id)
        ids: set[str] = set()
        racks: dict[str, tuple[str, str | None]] = {}
        for m in self.members:
            if m.member_id in ids:
                raise ConfigError(f"Duplicate member id {m.member_id!r}")
            ids.add(m.member_id)
            first = racks.setdefault(m.process_id, (m.member_id, m.rack))
            if first[1] != m.rack:
                raise ConfigError(
                    f"Process id {m.process_id!r} is shared by members with conflicting "
                    f"racks: {first[0]!r} on {first[1]!r}, {m.member_id!r} on {m.rack!r}")

    def task_count(self, subtopology_id: str) -> int | None:
        """The number of tasks of ``subtopology_id`` (``None``: no such subtopology)."""
        return next((s.tasks for s in self.subtopologies if s.id == subtopology_id), None)

    def stale_tasks(self) -> list[tuple[str, str, str, int]]:
        """Current tasks that no longer exist, as ``(member_id, kind, subtopology, partition)``
        (``kind``: ``"active"`` or ``"standby"``); Kafka ignores them."""
        counts = {s.id: s.tasks for s in self.subtopologies}
        out: list[tuple[str, str, str, int]] = []
        for m in self.members:
            for kind, tasks in (("active", m.active), ("standby", m.standby)):
                for sub, parts in tasks:
                    out.extend((m.member_id, kind, sub, p) for p in parts
                               if p >= counts.get(sub, 0))
        return out

    @classmethod
    def from_json(cls, doc: Any) -> StreamsGroupSpec:
        """The spec from a golden case's ``input`` object (or one round: a step's
        ``subtopologies`` and ``num_standby_replicas`` with the round's ``members``)."""
        if not isinstance(doc, Mapping):
            raise ConfigError("A Streams group must be a JSON object with 'subtopologies', "
                              "'num_standby_replicas' and 'members'")
        for key in ("subtopologies", "members"):
            if not isinstance(doc.get(key), list):
                raise ConfigError(f"Invalid {key!r}: expected a list, got {doc.get(key)!r}")
        subs = []
        for s in doc["subtopologies"]:
            if not isinstance(s, Mapping) or "id" not in s or "tasks" not in s:
                raise ConfigError(f"Invalid subtopology {s!r}: expected {{\"id\", \"tasks\", "
                                  "\"stateful\"}")
            stateful = s.get("stateful", False)
            if not isinstance(stateful, bool):
                raise ConfigError(f"Invalid 'stateful' {stateful!r} of subtopology "
                                  f"{s['id']!r}: must be true or false")
            subs.append(Subtopology(s["id"], s["tasks"], stateful))
        members = [_member(m) for m in doc["members"]]
        return cls(tuple(subs), doc.get("num_standby_replicas", 0), tuple(members))


def _member(m: Any) -> AssignmentMemberSpec:
    if not isinstance(m, Mapping) or not isinstance(m.get("id"), str):
        raise ConfigError(f"Invalid member {m!r}: expected an object with a string 'id'")
    mid = m["id"]
    pid = m.get("process_id")
    if not isinstance(pid, str):
        raise ConfigError(f"Invalid process_id {pid!r} of member {mid!r}: must be a string")
    for key in ("instance_id", "rack"):
        if m.get(key) is not None and not isinstance(m[key], str):
            raise ConfigError(f"Invalid {key} {m[key]!r} of member {mid!r}: string or null")
    if m.get("task_offsets") or m.get("taskOffsets"):
        raise ConfigError(f"Member {mid!r} has task offsets: they arrive with Kafka 4.4, "
                          "which kpart does not model")
    if any(m.get("warmup") or {}):
        raise ConfigError(f"Member {mid!r} has warm-up tasks: the sticky assignor never "
                          "assigns them, and kpart does not model them")
    return AssignmentMemberSpec(mid, pid, m.get("instance_id"), m.get("rack"),
                                _tasks(m.get("active"), mid, "active"),
                                _tasks(m.get("standby"), mid, "standby"))


def _tasks(doc: Any, mid: str, kind: str) -> Tasks:
    if doc is None:
        return ()
    if not isinstance(doc, Mapping):
        raise ConfigError(f"Invalid {kind} tasks {doc!r} of member {mid!r}: expected "
                          "{\"subtopologyId\": [partition, ...]}")
    out = []
    for sub, parts in doc.items():
        if not isinstance(parts, list) or not all(
                isinstance(p, int) and not isinstance(p, bool) for p in parts):
            raise ConfigError(f"Invalid {kind} tasks {parts!r} of subtopology {sub!r} of "
                              f"member {mid!r}: expected a list of partitions")
        bad = [p for p in parts if p < 0 or p > 0x7FFFFFFF]
        if bad:
            raise ConfigError(f"Invalid {kind} task {sub}_{bad[0]} of member {mid!r}: "
                              "partition must be between 0 and 2147483647")
        out.append((sub, tuple(sorted(set(parts)))))
    return tuple(out)
