"""``org.apache.kafka.coordinator.group.assignor.UniformAssignor`` (KIP-848 server-side "uniform").

The group coordinator's default assignor. It balances partition counts across members (at
most one apart when every member could take every partition), then keeps as much of each
member's current target assignment as balance allows. It dispatches on the subscription
type:

- ``HOMOGENEOUS`` (every member subscribes to the same topic names):
  ``UniformHomogeneousAssignmentBuilder`` (:mod:`kpart.consumer.coordinator._uniform_homogeneous`);
- ``HETEROGENEOUS``: ``UniformHeterogeneousAssignmentBuilder``
  (:mod:`kpart.consumer.coordinator._uniform_heterogeneous`).

Java order matters. Member order is ``GroupSpec.memberIds()``: the iteration order of the
coordinator's ``HashMap`` of members, emulated from the member ids' ``String.hashCode``
(``spec.members`` is the insertion order). Each member's ``assignment`` is an input listed in
``HashMap``/``HashSet`` iteration order. The homogeneous builder walks the subscribed topics in
``HashSet<Uuid>`` order (``Uuid.hashCode``, filled from the member's ``HashSet<String>`` of
names); the heterogeneous one breaks ties with the signed ``Uuid.compareTo``. Racks have no
effect.

The broker's Kafka version is an input (``kafka_version=``, default the newest release, 4.3;
rules ``uniform_homogeneous`` and ``uniform_heterogeneous`` of :mod:`kpart.versions`): Kafka
4.0.1 changed which members of a homogeneous group take the extra partitions (KAFKA-18688,
PR #19677: the last ones in order, and a member already filling an extra slot keeps it; up to
4.0.0, the first ones). Versions before 3.7.0 have no server-side assignor, and kpart knows
the uniform assignor from 4.0.0 on; other versions are a :class:`~kpart.errors.ConfigError`.

:func:`kpart.consumer.server_assign` runs it by name (``"uniform"``), like every assignor.
Groups of ``_spec_arrays.ARRAY_THRESHOLD`` partitions or more take the array forms of both
builders (:func:`uniform_columns`: one owner per partition, a columnar result); the object
builders stay the reference, and give the raw Java-ordered target (:func:`uniform_target`).

>>> from kpart.consumer.coordinator.server_spec import ServerGroupSpec
>>> g = ServerGroupSpec.from_json({
...     "topics": [{"name": "t0", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 4}],
...     "members": [{"id": "A", "topics": ["t0"], "assignment": [["t0", [0, 1, 2, 3]]]},
...                 {"id": "B", "topics": ["t0"]}]})
>>> assign_uniform(g).as_dict()
{'A': {'t0': [0, 1]}, 'B': {'t0': [2, 3]}}
>>> g3 = ServerGroupSpec.from_json({
...     "topics": [{"name": "t0", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
...     "members": [{"id": "m1", "topics": ["t0"]}, {"id": "m2", "topics": ["t0"]}]})
>>> assign_uniform(g3).as_dict(), assign_uniform(g3, kafka_version="4.0.0").as_dict()
({'m1': {'t0': [0]}, 'm2': {'t0': [1, 2]}}, {'m1': {'t0': [0, 1]}, 'm2': {'t0': [2]}})
"""

from __future__ import annotations

from kpart.consumer._columns import AssignmentColumns, no_gc
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator import _spec_arrays
from kpart.consumer.coordinator._uniform_heterogeneous import build_heterogeneous
from kpart.consumer.coordinator._uniform_heterogeneous_arrays import heterogeneous_columns
from kpart.consumer.coordinator._uniform_homogeneous import build_homogeneous
from kpart.consumer.coordinator._uniform_homogeneous_arrays import homogeneous_columns
from kpart.consumer.coordinator.server_spec import ServerGroupSpec, Target
from kpart.versions import KafkaVersion, behaviour

__all__ = ["UniformAssignor", "assign_uniform", "uniform_columns", "uniform_target"]


class UniformAssignor:
    """Name holder mirroring Kafka's class: ``UniformAssignor.name == "uniform"``."""

    name = "uniform"

    @staticmethod
    def assign(spec: ServerGroupSpec,
               kafka_version: str | KafkaVersion | None = None) -> GroupAssignment:
        """KIP-848's ``UniformAssignor.assign(GroupSpec, SubscribedTopicDescriber)``: here
        ``spec`` carries both (the members with their subscriptions and current assignment,
        and the subscribed topics' partition counts). Same as :func:`assign_uniform`: every
        member of ``spec``, in ``spec.members`` order, with its partitions by topic name, as
        the brokers' ``kafka_version`` computes it (default 4.3). Errors:
        :class:`~kpart.errors.PartitionAssignorError` where Kafka throws
        ``PartitionAssignorException``; :class:`~kpart.errors.ConfigError` for a version
        without a known uniform assignor.

        >>> g = ServerGroupSpec.from_json({
        ...     "topics": [{"name": "t0", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
        ...     "members": [{"id": "A", "topics": ["t0"]}, {"id": "B", "topics": ["t0"]}]})
        >>> UniformAssignor.assign(g) == assign_uniform(g)
        True
        >>> sorted(len(ps["t0"]) for ps in UniformAssignor.assign(g).as_dict().values())
        [1, 2]
        """
        return assign_uniform(spec, kafka_version=kafka_version)


def _homogeneous_rules(spec: ServerGroupSpec,
                       kafka_version: str | KafkaVersion | None) -> tuple[bool, bool]:
    """``(extra_to_last, copied_names)`` of the homogeneous builder in ``kafka_version``
    (rules ``uniform_homogeneous`` and ``subscription_names_set`` of :mod:`kpart.versions`);
    checks that the uniform assignor exists and is known in ``kafka_version`` for the builder
    ``spec`` uses, and that its brokers take the members' regexes
    (:class:`~kpart.errors.ConfigError` otherwise)."""
    if spec.has_regex:
        spec.subscription_type_at(kafka_version)
    if spec.members and spec.subscription_type == "HOMOGENEOUS":
        extra_to_last = behaviour("uniform_homogeneous", kafka_version) == "extra-to-last"
        copied = behaviour("subscription_names_set", kafka_version) == "copied"
        return extra_to_last, copied
    behaviour("uniform_heterogeneous", kafka_version)
    return False, False


def uniform_target(spec: ServerGroupSpec, java_order: bool = True,
                   kafka_version: str | KafkaVersion | None = None) -> Target:
    """The uniform assignor's raw result: member id → ``[(topic id, [partitions])]``, each
    member's topics in the iteration order of the map Kafka returns (the builders always
    produce it: ``java_order`` is accepted for the registry's common signature), as the
    brokers' ``kafka_version`` computes it (default 4.3). Errors:
    :class:`~kpart.errors.PartitionAssignorError` where Kafka throws
    ``PartitionAssignorException``; :class:`~kpart.errors.ConfigError` for a version without
    a known uniform assignor (see :mod:`kpart.versions`)."""
    extra_to_last, copied_names = _homogeneous_rules(spec, kafka_version)
    if not spec.members:
        return {}
    if spec.subscription_type == "HOMOGENEOUS":
        return build_homogeneous(spec, extra_to_last, copied_names)
    return build_heterogeneous(spec)


def uniform_columns(spec: ServerGroupSpec,
                    kafka_version: str | KafkaVersion | None = None) -> AssignmentColumns | None:
    """The array path: every partition's owner (members in ``spec.members`` order, topics in
    sorted order, see :class:`~kpart.consumer._columns.AssignmentColumns`), computed without
    a per-partition Python object; ``None`` when it declines (a partition owned by two
    members, a deleted-topic reference ``"id:<uuid>"`` naming a topic of the metadata, no
    members): the object path (:func:`uniform_target`) then gives the result. Errors: as
    :func:`assign_uniform`."""
    with no_gc():  # no cycles are made; full collections over the input's objects would run
        # (the arrays first: they find the subscription type the rules ask for in one pass)
        arrays = _spec_arrays.spec_arrays(spec) if spec.members else None
        extra_to_last, copied_names = _homogeneous_rules(spec, kafka_version)
        if arrays is None:
            return None
        if spec.subscription_type == "HOMOGENEOUS":
            return homogeneous_columns(arrays, extra_to_last, copied_names)
        return heterogeneous_columns(arrays)


def assign_uniform(spec: ServerGroupSpec,
                   kafka_version: str | KafkaVersion | None = None) -> GroupAssignment:
    """Assign ``spec``'s partitions as the group coordinator's ``UniformAssignor`` of the
    brokers' ``kafka_version`` does (default: the newest release, 4.3).

    Output: every member of ``spec`` (in ``spec.members`` order), its partitions by topic
    name. Groups of ``_spec_arrays.ARRAY_THRESHOLD`` partitions or more take the array path
    (:func:`uniform_columns`; a columnar result, ``to_arrow()`` read from the arrays: Kafka's
    JMH shape of 10,000 members and 100,000 partitions in milliseconds), smaller ones
    the object path; both give the same assignment. Errors:
    :class:`~kpart.errors.PartitionAssignorError` where Kafka throws
    ``PartitionAssignorException``; :class:`~kpart.errors.ConfigError` for a version without
    a known uniform assignor (see :mod:`kpart.versions`).
    """
    if _spec_arrays.use_arrays(spec):
        columns = uniform_columns(spec, kafka_version)
        if columns is not None:
            return GroupAssignment.from_columns(columns)
    return spec.to_group_assignment(uniform_target(spec, kafka_version=kafka_version))
