"""The classic group protocol's client-side assignors (``org.apache.kafka.clients.consumer``).

In the classic protocol (``group.protocol=classic``) the group leader, a consumer, computes the
assignment with the ``ConsumerPartitionAssignor`` named by ``partition.assignment.strategy``:
``RangeAssignor`` (:mod:`~kpart.consumer.classic.range_assignor`), ``RoundRobinAssignor``
(:mod:`~kpart.consumer.classic.round_robin_assignor`), ``StickyAssignor``
(:mod:`~kpart.consumer.classic.sticky_assignor`) and ``CooperativeStickyAssignor``
(:mod:`~kpart.consumer.classic.cooperative_sticky_assignor`), the last two over
``AbstractStickyAssignor`` (:mod:`~kpart.consumer.classic.abstract_sticky_assignor`) and its
private builders (``_constrained_*``, ``_general_builder``, ``_balance_index``,
``_partition_movements``, ``_sticky_rack``). Each takes a :class:`~kpart.consumer.spec.GroupSpec`
and returns a :class:`~kpart.consumer.assignment.GroupAssignment`.

Nothing is imported here: run an assignor through :func:`kpart.consumer.assign` (which imports
it on first use), or import its module.
"""
