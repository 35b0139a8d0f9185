"""The load of a topology's share groups (KIP-932) and Streams groups (KIP-1071): who reads
which partitions, and how many records that is, from the records the report measured per
partition (the same per-partition totals as the consumer groups', null-key records placed).

Share groups (``[[share_groups]]``): the group coordinator's ``SimpleAssignor`` at the brokers'
version (:func:`kpart.consumer.share.assign_simple`; every partition's share state taken as
initialized, no member holding anything yet, members in the order the topology lists them,
topic ids :func:`~kpart.consumer.coordinator.server_spec.derived_topic_id` of the names). A
partition may be assigned to ``k`` members: each is counted ``records / k`` of it, the
**expected** share. Kafka hands each batch of records it fetches to one member, whichever asks
first, so the real split depends on the consumers' speed: records/k is what members of equal
speed get on average, not a guarantee.

Streams groups (``[[streams_groups]]``): a subtopology has as many tasks as its source topics'
largest partition count (``InternalTopicManager.computeNumberOfTasks``); the coordinator's
``StickyTaskAssignor`` at the brokers' version gives each member its active and standby tasks
(:func:`kpart.consumer.streams.assign`, nobody holding a task yet). Active task ``i`` of a
subtopology reads partition ``i`` of each of its source topics that has one: a member's
``records`` are those of its active tasks (a standby replays a changelog, not the source
topics, and reads none of them). A source topic the topology lacks: the coordinator refuses
the group's topology (``Source topics ... are missing``), and no member gets a task
(``missing_source_topics`` lists them).

Units: records and bytes as the report's (``kpart.analysis.summary.BYTES_DEFINITION``); a share
group's ``expected_records``/``expected_bytes`` are fractional (rounded to 6 decimals).

>>> from kpart.topology import parse_topology
>>> t = parse_topology('''
... [topic]
... name = "t"
... partitions = 2
... key = "k"
... [[share_groups]]
... name = "w"
... members = ["a", "b", "c"]
... [[streams_groups]]
... name = "app"
... subtopologies = [{ source_topics = ["t"] }]
... members = [{ id = "x", process_id = "p1" }, { id = "y", process_id = "p2" }]
... ''')
>>> rows = share_group_rows(t, {"t": (10, 30)}, {"t": (100, 300)})
>>> [(m["member"], [(p["partition"], p["shared_by"]) for p in m["partitions"]],
...   m["expected_records"]) for m in rows[0]["members"]]
[('a', [(0, 2), (1, 2)], 20.0), ('b', [(1, 2)], 15.0), ('c', [(0, 2)], 5.0)]
>>> rows = streams_group_rows(t, {"t": (10, 30)}, {"t": (100, 300)})
>>> [(m["member"], m["active_tasks"], m["records"]) for m in rows[0]["members"]]
[('x', [{'subtopology': '0', 'partition': 0}], 10), ('y', [{'subtopology': '0', 'partition': 1}], 30)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from kpart._skew import skew_stats

if TYPE_CHECKING:  # pragma: no cover
    from kpart.consumer.assignment import GroupAssignment
    from kpart.consumer.streams import StreamsGroupAssignment
    from kpart.topology import ShareGroupConfig, StreamsGroupConfig, Topology

#: One topic's totals per partition: a sequence (or NumPy array) of integers.
PartitionTotals = Sequence[int] | Any

__all__ = [
    "share_assignment",
    "share_group_rows",
    "share_streams_sections",
    "streams_assignment",
    "streams_group_rows",
    "streams_task_counts",
]

#: The label the pages put on a share group's records (``docs/formats/topology.md``).
EXPECTED_SHARE_NOTE = (
    "expected share: a partition read by k members counts records/k for each; Kafka hands "
    "each fetched batch to one member, so the real split is not guaranteed")


def _partition_counts(topology: Topology) -> dict[str, int]:
    return {t.name: t.partitions for t in topology.topics}


def share_subscriptions(topology: Topology, group: ShareGroupConfig) -> list[tuple[str, ...]]:
    """Each member's subscribed topic names (its own ``topics``, else the group's, else every
    topic of the topology), in member order."""
    default = topology.topic_names if group.topics is None else group.topics
    return [default if m.topics is None else m.topics for m in group.members]


def share_assignment(topology: Topology, group: ShareGroupConfig) -> GroupAssignment:
    """``group``'s target assignment as the topology's brokers compute it (see the module
    docstring): a :class:`~kpart.consumer.assignment.GroupAssignment` where a partition may
    appear under several members. Errors: ``ConfigError`` for brokers without share groups
    (the topology refuses them first), the assignor's where Kafka throws."""
    from kpart.consumer.coordinator.server_spec import (
        ServerGroupSpec,
        ServerMember,
        ServerTopic,
        derived_topic_id,
    )
    from kpart.consumer.share import ShareGroupSpec, assign_simple

    topics = tuple(ServerTopic(t.name, derived_topic_id(t.name), t.partitions)
                   for t in topology.topics)
    members = tuple(ServerMember(m.id, tuple(sorted(subs)), None, m.rack)
                    for m, subs in zip(group.members, share_subscriptions(topology, group),
                                       strict=True))
    return assign_simple(ShareGroupSpec(ServerGroupSpec(topics, members)),
                         kafka_version=topology.brokers_version)


def streams_task_counts(topology: Topology, group: StreamsGroupConfig
                        ) -> tuple[dict[str, int], list[str]]:
    """Subtopology id → its task count (its source topics' largest partition count), and the
    source topics the topology lacks (sorted; then every count is 0: the coordinator refuses
    the topology)."""
    counts = _partition_counts(topology)
    missing = sorted({x for s in group.subtopologies for x in s.source_topics
                      if x not in counts})
    tasks = {s.id: 0 if missing else max(counts[x] for x in s.source_topics)
             for s in group.subtopologies}
    return tasks, missing


def streams_assignment(topology: Topology, group: StreamsGroupConfig) -> StreamsGroupAssignment:
    """``group``'s active and standby tasks as the topology's brokers compute them (see the
    module docstring). Errors: ``ConfigError`` for brokers without the assignor (the topology
    refuses them first), ``AssignmentError`` where Kafka throws."""
    from kpart.consumer.streams import (
        AssignmentMemberSpec,
        StreamsGroupSpec,
        Subtopology,
        assign,
    )

    tasks, _ = streams_task_counts(topology, group)
    spec = StreamsGroupSpec(
        tuple(Subtopology(s.id, tasks[s.id], s.stateful) for s in group.subtopologies),
        group.num_standby_replicas,
        tuple(AssignmentMemberSpec(m.id, m.process_id, m.instance_id, m.rack)
              for m in group.members))
    return assign(spec, kafka_version=topology.brokers_version)


def _load(loads: Mapping[str, PartitionTotals], topic: str, p: int) -> int:
    return int(loads[topic][p])


def share_group_rows(topology: Topology, records: Mapping[str, PartitionTotals],
                     bytes_: Mapping[str, PartitionTotals]) -> list[dict[str, Any]]:
    """The ``share_groups`` section: per group (topology order) ``{"group", "assignor",
    "kafka_version", "members": [{"member", "rack", "topics", "partitions": [{"topic",
    "partition", "shared_by"}], "expected_records", "expected_bytes"}], "unassigned":
    [{"topic", "partition"}], "skew"}`` (``skew`` of the members' expected records).
    ``records[topic][p]``/``bytes_[topic][p]``: partition ``p``'s totals, every topology topic.
    """
    order = {n: i for i, n in enumerate(topology.topic_names)}
    rows = []
    for g in topology.share_groups:
        ga = share_assignment(topology, g)
        sharers: dict[tuple[str, int], int] = {}
        for _, owned in ga.assignment:
            for t, ps in owned:
                for p in ps:
                    sharers[(t, p)] = sharers.get((t, p), 0) + 1
        members = []
        for m, subs in zip(g.members, share_subscriptions(topology, g), strict=True):
            parts = sorted(ga.partitions_of(m.id), key=lambda tp: (order.get(tp[0], -1), tp[1]))
            parts = [tp for tp in parts if tp[0] in order]
            members.append({
                "member": m.id, "rack": m.rack, "topics": list(subs),
                "partitions": [{"topic": t, "partition": p, "shared_by": sharers[(t, p)]}
                               for t, p in parts],
                "expected_records": round(sum(_load(records, t, p) / sharers[(t, p)]
                                              for t, p in parts), 6),
                "expected_bytes": round(sum(_load(bytes_, t, p) / sharers[(t, p)]
                                            for t, p in parts), 6),
            })
        read = sorted({t for subs in share_subscriptions(topology, g) for t in subs
                       if t in order}, key=order.__getitem__)
        unassigned = [{"topic": t, "partition": p} for t in read
                      for p in range(topology.topics[order[t]].partitions)
                      if (t, p) not in sharers]
        rows.append({"group": g.name, "assignor": g.assignor,
                     "kafka_version": str(topology.brokers_version),
                     "members": members, "unassigned": unassigned,
                     "skew": _skew(m["expected_records"] for m in members)})
    return rows


def _skew(values: Any) -> dict[str, Any]:
    """:func:`kpart._skew.skew_stats` of fractional loads (scaled to integers exactly enough:
    millionths, the rounding of the figures), then back in records."""
    scaled = [round(v * 1_000_000) for v in values]
    s = skew_stats(scaled)
    return {**s, "min": s["min"] / 1_000_000, "max": s["max"] / 1_000_000,
            "mean": round(s["mean"] / 1_000_000, 6)}


def _task_list(tasks: Sequence[tuple[str, Sequence[int]]]) -> list[dict[str, Any]]:
    return [{"subtopology": s, "partition": p} for s, ps in tasks for p in ps]


def streams_group_rows(topology: Topology, records: Mapping[str, PartitionTotals],
                       bytes_: Mapping[str, PartitionTotals]) -> list[dict[str, Any]]:
    """The ``streams_groups`` section: per group (topology order) ``{"group", "assignor",
    "kafka_version", "num_standby_replicas", "subtopologies": [{"id", "source_topics",
    "stateful", "tasks"}], "missing_source_topics", "members": [{"member", "process_id",
    "rack", "instance_id", "active_tasks": [{"subtopology", "partition"}], "standby_tasks",
    "records", "bytes"}], "skew"}`` (``records``/``bytes``: what the member's active tasks
    read; ``skew`` of the members' records). Arguments as :func:`share_group_rows`."""
    counts = _partition_counts(topology)
    rows = []
    for g in topology.streams_groups:
        tasks, missing = streams_task_counts(topology, g)
        result = streams_assignment(topology, g)
        sources = {s.id: s.source_topics for s in g.subtopologies}
        members: list[dict[str, Any]] = []
        for m in g.members:
            a = result.member(m.id)
            read = [(t, p) for s, ps in a.active for p in ps for t in sources[s]
                    if p < counts.get(t, 0)]
            members.append({
                "member": m.id, "process_id": m.process_id, "rack": m.rack,
                "instance_id": m.instance_id,
                "active_tasks": _task_list(a.active), "standby_tasks": _task_list(a.standby),
                "records": sum(_load(records, t, p) for t, p in read),
                "bytes": sum(_load(bytes_, t, p) for t, p in read),
            })
        rows.append({
            "group": g.name, "assignor": g.assignor,
            "kafka_version": str(topology.brokers_version),
            "num_standby_replicas": g.num_standby_replicas,
            "subtopologies": [{"id": s.id, "source_topics": list(s.source_topics),
                               "stateful": s.stateful, "tasks": tasks[s.id]}
                              for s in g.subtopologies],
            "missing_source_topics": missing,
            "members": members,
            "skew": skew_stats(m["records"] for m in members),
        })
    return rows


def share_streams_sections(topology: object, records: Mapping[str, PartitionTotals],
                           bytes_: Mapping[str, PartitionTotals]) -> dict[str, Any]:
    """The report's ``share_groups`` and ``streams_groups`` sections, each only when the
    topology has such groups (``{}`` when it has neither, or is a stand-in without the
    fields): what the summaries add. ``topology``: a :class:`~kpart.topology.Topology`."""
    out: dict[str, Any] = {}
    if getattr(topology, "share_groups", ()):
        out["share_groups"] = share_group_rows(cast("Topology", topology), records, bytes_)
    if getattr(topology, "streams_groups", ()):
        out["streams_groups"] = streams_group_rows(cast("Topology", topology), records, bytes_)
    return out
