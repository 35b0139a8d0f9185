"""``org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor`` (KIP-1071): the
group coordinator's task assignor for Streams groups (``group.streams.assignors``, default
``sticky``), as ``TargetAssignmentBuilder.build()`` calls it.

``assign(spec, kafka_version=None) -> StreamsGroupAssignment``: each member's active and
standby tasks. Versions (rule ``streams_sticky_assignor`` of :mod:`kpart.versions`): Streams
groups do not exist before 4.1.0; 4.1's early-access assignor is not modelled (an error naming
the version); 4.2.0 and later are KAFKA-19478/KAFKA-19661's assignor (heaps, range-style
order, below-quota standbys) with KAFKA-20899's fix of how a previous standby owner is chosen,
as branches 4.2 and 4.3 hold it (the fix came after 4.2.1 and 4.3.1; the code before it is kept
as ``_find_prev_member_before_kafka_20899`` for the day the table knows 4.3.2: on the 119
inputs of the 4.3 vectors it gives the same assignments as Kafka's classes just before the fix,
``7b9d8474eb~1``, compiled and run on 2026-11-28). Default: the newest release line, ``4.3``.

The algorithm, in Kafka's order:

1. active tasks sorted by (partition, subtopology); each goes back to its previous active
   owner, then to the least-loaded previous standby owner, while the member is under the active
   quota (``ceil(remaining tasks / remaining members)``, recomputed as members fill up);
2. the rest, sorted by (subtopology, partition), go to the least-loaded process (a Java
   ``PriorityQueue`` on ``tasks / members``) and its least-loaded member;
3. with ``num_standby_replicas`` > 0, each replica of each stateful task (sorted by
   (partition, subtopology) descending) goes to its previous active owner, then its previous
   standby owner, under the total quota and never to a process already holding the task; the
   rest go to the least-loaded processes not holding it (not enough processes: fewer
   replicas, as Kafka warns).

Ties follow Java: member order is the coordinator's ``HashMap`` of member ids, processes and a
process's members are ``HashMap`` orders too, and both heaps break ties by heap position
(:mod:`kpart._java`). Current tasks that no longer exist are ignored.

>>> from kpart.consumer.streams.group_spec import StreamsGroupSpec
>>> spec = StreamsGroupSpec.from_json({"subtopologies": [{"id": "0", "tasks": 4,
...     "stateful": True}], "num_standby_replicas": 1, "members": [
...     {"id": "a", "process_id": "p1"}, {"id": "b", "process_id": "p2"}]})
>>> assign(spec).to_json()["assignment"]
{'a': {'active': {'0': [0, 2]}, 'standby': {'0': [1, 3]}}, 'b': {'active': {'0': [1, 3]}, 'standby': {'0': [0, 2]}}}
"""

from __future__ import annotations

from dataclasses import dataclass

from kpart._java.collections import JavaHashMap
from kpart._java.priority_queue import JavaPriorityQueue
from kpart._java.strings import java_sorted
from kpart.consumer.streams.group_assignment import MemberAssignment, StreamsGroupAssignment
from kpart.consumer.streams.group_spec import StreamsGroupSpec, Tasks
from kpart.consumer.streams.process_state import ProcessState, TaskId
from kpart.errors import AssignmentError
from kpart.versions import KafkaVersion, behaviour

__all__ = ["NAME", "assign"]

#: ``StickyTaskAssignor.name()``.
NAME = "sticky"

_RULE = "streams_sticky_assignor"


@dataclass(frozen=True, slots=True)
class _Member:
    process_id: str
    member_id: str


def member_order(spec: StreamsGroupSpec) -> list[str]:
    """Member ids in the iteration order of the coordinator's ``memberSpecs`` (a
    ``new HashMap<>()`` filled in the spec's order)."""
    m: JavaHashMap[str, None] = JavaHashMap()
    for member in spec.members:
        m.put(member.member_id, None)
    return [k for k, _ in m.items()]


def assign(spec: StreamsGroupSpec,
           kafka_version: str | KafkaVersion | None = None) -> StreamsGroupAssignment:
    """The target assignment of ``spec`` (see the module docstring). Raises
    :class:`~kpart.errors.ConfigError` for a version without the assignor or one kpart does
    not model, :class:`~kpart.errors.AssignmentError` where Kafka throws."""
    rule = behaviour(_RULE, kafka_version)
    if not spec.members:
        return StreamsGroupAssignment(())
    return _Builder(spec, fixed_standby_search=(rule == "kafka-20899")).build()


def _compute_tasks_per_member(tasks: int, members: int) -> int:
    if members == 0:
        return 0
    return -(-tasks // members)


class _Builder:
    """``StickyTaskAssignor``'s ``LocalState`` and methods, named after Kafka's."""

    def __init__(self, spec: StreamsGroupSpec, *, fixed_standby_search: bool) -> None:
        self.spec = spec
        self.fixed = fixed_standby_search
        self.subtopologies = java_sorted(spec.subtopologies, key=lambda s: s.id)
        # Tasks are (rank of the subtopology id in String order, partition): tuples of ints
        # sort as Java's comparators on (subtopologyId, partition) do.
        self.ids = [s.id for s in self.subtopologies]
        self.rank = {sid: i for i, sid in enumerate(self.ids)}
        by_id = {m.member_id: m for m in spec.members}
        self.members = [by_id[mid] for mid in member_order(spec)]
        self._initialize()

    def _initialize(self) -> None:
        n = self.spec.num_standby_replicas
        self.num_standby_replicas = n
        self.total_active_tasks = 0
        self.total_tasks = 0
        for s in self.subtopologies:
            self.total_tasks += s.tasks
            self.total_active_tasks += s.tasks
            if s.stateful:
                self.total_tasks += s.tasks * n
        members = len(self.members)
        self.members_with_active_capacity = members
        self.members_with_task_capacity = members
        self.active_tasks_per_member = _compute_tasks_per_member(self.total_active_tasks, members)
        self.total_tasks_per_member = _compute_tasks_per_member(self.total_tasks, members)

        processes: JavaHashMap[str, ProcessState] = JavaHashMap(members)
        self.active_to_prev: dict[TaskId, _Member] = {}
        self.standby_to_prev: dict[TaskId, list[_Member]] = {}
        for spec in self.members:
            member = _Member(spec.process_id, spec.member_id)
            state = processes.get(spec.process_id)
            if state is None:
                state = ProcessState(spec.process_id)
                processes.put(spec.process_id, state)
            state.add_member(spec.member_id)
            for sub, parts in spec.active:
                r = self.rank.get(sub)  # (a task of an unknown subtopology is never looked up)
                if r is not None:
                    for p in parts:
                        self.active_to_prev[(r, p)] = member
            for sub, parts in spec.standby:
                r = self.rank.get(sub)
                if r is not None:
                    for p in parts:
                        self.standby_to_prev.setdefault((r, p), []).append(member)
        self.process_order = [state for _, state in processes.items()]
        self.processes = {state.process_id: state for state in self.process_order}

    def _name(self, task: TaskId) -> str:
        """``TaskId.toString()``: ``subtopology_partition``."""
        return f"{self.ids[task[0]]}_{task[1]}"

    def _compact(self, tasks: list[TaskId] | tuple[()]) -> Tasks:
        by_sub: dict[int, list[int]] = {}
        for r, p in tasks:
            by_sub.setdefault(r, []).append(p)
        return tuple((self.ids[r], tuple(sorted(by_sub[r]))) for r in sorted(by_sub))

    def _task_ids(self, active: bool) -> list[TaskId]:
        return [(r, i) for r, s in enumerate(self.subtopologies) if active or s.stateful
                for i in range(s.tasks)]

    def build(self) -> StreamsGroupAssignment:
        self._assign_active(self._task_ids(True))
        if self.num_standby_replicas > 0:
            self._assign_standby(self._task_ids(False))
        out = []
        for m in self.spec.members:
            state = self.processes[m.process_id]
            out.append((m.member_id, MemberAssignment(
                self._compact(state.assigned_active.get(m.member_id, ())),
                self._compact(state.assigned_standby.get(m.member_id, ())))))
        return StreamsGroupAssignment(tuple(out))

    # -- quotas -------------------------------------------------------------------------------

    def _maybe_update_active_tasks_per_member(self, n: int) -> None:
        if n == self.active_tasks_per_member:
            self.members_with_active_capacity -= 1
            self.total_active_tasks -= n
            self.active_tasks_per_member = _compute_tasks_per_member(
                self.total_active_tasks, self.members_with_active_capacity)

    def _maybe_update_total_tasks_per_member(self, n: int) -> None:
        if n == self.total_tasks_per_member:
            self.members_with_task_capacity -= 1
            self.total_tasks -= n
            self.total_tasks_per_member = _compute_tasks_per_member(
                self.total_tasks, self.members_with_task_capacity)

    def _has_unfulfilled_active_quota(self, p: ProcessState, m: _Member) -> bool:
        return p.member_to_task_counts[m.member_id] < self.active_tasks_per_member

    def _has_unfulfilled_quota(self, p: ProcessState, m: _Member) -> bool:
        return p.member_to_task_counts[m.member_id] < self.total_tasks_per_member

    # -- active -------------------------------------------------------------------------------

    def _assign_active(self, tasks: list[TaskId]) -> None:
        tasks.sort(key=lambda t: (t[1], t[0]))
        remaining: list[TaskId] = []
        for task in tasks:  # 1. previous active owner
            prev = self.active_to_prev.get(task)
            if prev is not None:
                p = self.processes[prev.process_id]
                if self._has_unfulfilled_active_quota(p, prev):
                    n = p.add_task(prev.member_id, task, True)
                    self._maybe_update_active_tasks_per_member(n)
                    self._maybe_update_total_tasks_per_member(n)
                    continue
            remaining.append(task)
        tasks = remaining
        remaining = []
        for task in tasks:  # 2. previous standby owner
            prev = self._find_prev_member_with_least_load(self.standby_to_prev.get(task), None)
            if prev is not None:
                p = self.processes[prev.process_id]
                if self._has_unfulfilled_active_quota(p, prev):
                    n = p.add_task(prev.member_id, task, True)
                    self._maybe_update_active_tasks_per_member(n)
                    self._maybe_update_total_tasks_per_member(n)
                    continue
            remaining.append(task)
        remaining.sort()
        queue: JavaPriorityQueue[ProcessState] = JavaPriorityQueue(key=lambda s: s.load)
        queue.add_all(self.process_order)
        for task in remaining:  # 3. least-loaded process
            head = queue.poll()
            if head is None:
                raise AssignmentError(
                    f"No process available to assign active task {self._name(task)}.")
            p = head
            n = p.add_task_to_least_loaded_member(task, True)
            if n == -1:
                raise AssignmentError(
                    f"No member available to assign active task {self._name(task)}.")
            self._maybe_update_active_tasks_per_member(n)
            self._maybe_update_total_tasks_per_member(n)
            queue.add(p)

    def _find_prev_member_with_least_load(self, members: list[_Member] | None,
                                          standby_task: TaskId | None) -> _Member | None:
        if not members:
            return None
        if not self.fixed:
            return self._find_prev_member_before_kafka_20899(members, standby_task)
        candidate: _Member | None = None
        c_process = c_member = float("inf")
        for m in members:
            p = self.processes[m.process_id]
            if standby_task is not None and p.has_task(standby_task):
                continue
            load = p.load
            member_load = p.member_to_task_counts[m.member_id]
            if candidate is None or (load < c_process and member_load < c_member):
                c_process, c_member, candidate = load, member_load, m
        return candidate

    def _find_prev_member_before_kafka_20899(self, members: list[_Member],
                                             task: TaskId | None) -> _Member | None:
        candidate = members[0]
        first = self.processes[candidate.process_id]
        c_process = first.load
        c_member = first.member_to_task_counts[candidate.member_id]
        for m in members[1:]:
            p = self.processes[m.process_id]
            if p.load < c_process and (task is None or not p.has_task(task)):
                member_load = p.member_to_task_counts[m.member_id]
                if member_load < c_member:
                    c_process, c_member, candidate = p.load, member_load, m
        if task is None or not first.has_task(task):
            return candidate  # (Kafka checks the first member's process, not the candidate's)
        return None

    # -- standby ------------------------------------------------------------------------------

    def _assign_standby(self, tasks: list[TaskId]) -> None:
        n_replicas = self.num_standby_replicas
        tasks.sort(key=lambda t: (t[1], t[0]), reverse=True)
        to_least_loaded: list[tuple[TaskId, int]] = []
        for task in tasks:
            for i in range(n_replicas):
                prev = self.active_to_prev.get(task)
                if prev is not None:
                    p = self.processes[prev.process_id]
                    if not p.has_task(task) and self._has_unfulfilled_quota(p, prev):
                        self._maybe_update_total_tasks_per_member(
                            p.add_task(prev.member_id, task, False))
                        continue
                prevs = self.standby_to_prev.get(task)
                if prevs:
                    prev = self._find_prev_member_with_least_load(prevs, task)
                    if prev is not None:
                        p = self.processes[prev.process_id]
                        if self._has_unfulfilled_quota(p, prev):
                            self._maybe_update_total_tasks_per_member(
                                p.add_task(prev.member_id, task, False))
                            continue
                to_least_loaded.append((task, n_replicas - i))
                break
        to_least_loaded.sort(key=lambda x: x[0], reverse=True)
        queue: JavaPriorityQueue[ProcessState] = JavaPriorityQueue(key=lambda s: s.load)
        queue.add_all(self.process_order)
        for task, remaining in to_least_loaded:
            for _ in range(remaining):
                if not self._assign_standby_to_member_with_least_load(queue, task):
                    break  # Kafka logs "There is not enough available capacity"

    def _assign_standby_to_member_with_least_load(
            self, queue: JavaPriorityQueue[ProcessState], task: TaskId) -> bool:
        # Kafka recurses: poll until a process without the task, then re-add the polled
        # processes innermost first. The same moves, iteratively.
        polled: list[ProcessState] = []
        found = False
        while True:
            p = queue.poll()
            if p is None:
                break
            polled.append(p)
            if not p.has_task(task):
                n = p.add_task_to_least_loaded_member(task, False)
                if n != -1:
                    found = True
                    self._maybe_update_total_tasks_per_member(n)
                break
            if len(queue) == 0:
                break
        for p in reversed(polled):
            queue.add(p)
        return found


