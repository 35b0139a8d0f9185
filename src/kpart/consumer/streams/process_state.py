"""``org.apache.kafka.coordinator.group.streams.assignor.ProcessState`` (KIP-1071, Kafka 4.2+):
one Streams process (the members sharing a ``process_id``) while the sticky task assignor
fills it.

State: ``capacity`` (number of members), ``load`` (``tasks / capacity`` as a Java ``double``),
``member_to_task_counts`` (a ``HashMap<String,Integer>`` in Java's iteration order: it orders
the heap of members), the tasks assigned per member (active, standby) and the set of all its
tasks. A task is ``(subtopology_id, partition)``.

>>> p = ProcessState("p1")
>>> p.add_member("m1"); p.add_member("m2")
>>> p.add_task_to_least_loaded_member((0, 0), True), p.load
(1, 0.5)
>>> p.add_task_to_least_loaded_member((0, 1), True), p.has_task((0, 1))
(1, True)
"""

from __future__ import annotations

from kpart._java.collections import JavaHashMap
from kpart._java.priority_queue import JavaPriorityQueue
from kpart.errors import AssignmentError

__all__ = ["ProcessState", "TaskId"]

#: ``TaskId``: ``(subtopology, partition)``; the assignor uses the subtopology's rank in
#: ``String`` order in place of its id.
TaskId = tuple[int, int]


class ProcessState:
    """Mutable, private to one assignment (as in Java); see the module docstring."""

    __slots__ = ("_counts_map", "assigned_active", "assigned_standby", "assigned_tasks",
                 "capacity", "load", "member_to_task_counts", "members_by_load",
                 "process_id", "task_count")

    def __init__(self, process_id: str) -> None:
        self.process_id = process_id
        self.capacity = 0
        self.load = float("inf")  # Double.MAX_VALUE until the first member; never compared
        self.task_count = 0
        self._counts_map: JavaHashMap[str, int] = JavaHashMap()
        self.member_to_task_counts: dict[str, int] = {}
        self.assigned_active: dict[str, list[TaskId]] = {}
        self.assigned_standby: dict[str, list[TaskId]] = {}
        self.assigned_tasks: set[TaskId] = set()
        self.members_by_load: JavaPriorityQueue[list[object]] | None = None

    def add_member(self, member_id: str) -> None:
        """``addMember``: a member with no task; capacity + 1."""
        self._counts_map.put(member_id, 0)
        self.member_to_task_counts[member_id] = 0
        self.capacity += 1
        self._compute_load()

    def _compute_load(self) -> None:
        self.load = -1.0 if self.capacity <= 0 else self.task_count / self.capacity

    def has_task(self, task: TaskId) -> bool:
        """Whether a member of this process already has ``task`` (active or standby)."""
        return task in self.assigned_tasks

    def add_task(self, member_id: str, task: TaskId, is_active: bool) -> int:
        """``addTask``: give ``task`` to ``member_id``; drops the members' heap. Returns the
        member's new task count."""
        n = self._add_task_internal(member_id, task, is_active)
        self.members_by_load = None
        return n

    def _add_task_internal(self, member_id: str, task: TaskId, is_active: bool) -> int:
        self.task_count += 1
        self.assigned_tasks.add(task)
        target = self.assigned_active if is_active else self.assigned_standby
        target.setdefault(member_id, []).append(task)
        n = self.member_to_task_counts[member_id] + 1
        self.member_to_task_counts[member_id] = n
        self._compute_load()
        return n

    def add_task_to_least_loaded_member(self, task: TaskId, is_active: bool) -> int:
        """``addTaskToLeastLoadedMember``: the member with the fewest tasks (Java's heap over
        ``memberToTaskCounts`` in its ``HashMap`` order) takes ``task``; returns its new
        task count (``-1``: the process has no member)."""
        counts = self.member_to_task_counts
        if not counts:
            return -1
        if len(counts) == 1:
            return self._add_task_internal(next(iter(counts)), task, is_active)
        heap = self.members_by_load
        if heap is None:
            heap = JavaPriorityQueue(key=lambda entry: entry[1])
            heap.add_all([[m, counts[m]] for m, _ in self._counts_map.items()])
            self.members_by_load = heap
        entry = heap.poll()
        if entry is None:
            raise AssignmentError(f"No members available to assign task {task[0]}_{task[1]}")
        n = self._add_task_internal(str(entry[0]), task, is_active)
        entry[1] = n
        heap.add(entry)
        return n
