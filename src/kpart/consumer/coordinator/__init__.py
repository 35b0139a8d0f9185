"""KIP-848's server-side assignors (``org.apache.kafka.coordinator.group.assignor``).

With ``group.protocol=consumer`` (KIP-848) the group coordinator, a broker, computes each
member's target assignment with the assignor named by ``group.remote.assignor``:
``UniformAssignor`` (:mod:`~kpart.consumer.coordinator.uniform_assignor`, with its homogeneous and
heterogeneous builders) and ``RangeAssignor``
(:mod:`~kpart.consumer.coordinator.server_range_assignor`), on the coordinator's view of the group
(:mod:`~kpart.consumer.coordinator.server_spec`: ``GroupSpec``, ``SubscribedTopicDescriber``,
``GroupAssignment`` of ``org.apache.kafka.coordinator.group.api.assignor``; members' regex
subscriptions resolved as :mod:`~kpart.consumer.coordinator.topic_regex_resolver` does, the
group's homogeneous/heterogeneous type by :mod:`~kpart.consumer.coordinator.subscription_type`,
KAFKA-17593). Successive targets
(``TargetAssignmentBuilder``) are :mod:`~kpart.consumer.coordinator.server_simulation`; the
rebalance simulator runs KIP-848 groups through ``_server_rebalance``.

Large groups (``_spec_arrays.ARRAY_THRESHOLD`` partitions and more) take array paths with the
same results: ``_uniform_homogeneous_arrays``, ``_uniform_heterogeneous_arrays`` and
``_server_range_arrays``, on the spec's arrays (``_spec_arrays``: partition layout,
subscription classes, member ``HashMap`` order), returning a columnar
:class:`~kpart.consumer.assignment.GroupAssignment` (``to_arrow()`` read from the arrays). The
object builders stay the reference, and give the raw Java-ordered targets the simulation reads.

Nothing is imported here: run an assignor through :func:`kpart.consumer.server_assign` or
:func:`kpart.consumer.assign` (which import it on first use), or import its module.
"""
