"""``org.apache.kafka.coordinator.group.assignor.UniformAssignor`` (KIP-848 server-side "uniform").

The group coordinator's default assignor. It balances partition counts across members (at
most one apart when every member could take every partition), then keeps as much of each
member's current target assignment as balance allows. It dispatches on the subscription
type:

- ``HOMOGENEOUS`` (every member subscribes to the same topic names):
  ``UniformHomogeneousAssignmentBuilder`` (:mod:`kpart.consumer._uniform_homogeneous`);
- ``HETEROGENEOUS``: ``UniformHeterogeneousAssignmentBuilder``
  (:mod:`kpart.consumer._uniform_heterogeneous`).

Java order matters. Member order is ``GroupSpec.memberIds()``: the iteration order of the
coordinator's ``HashMap`` of members, emulated from the member ids' ``String.hashCode``
(``spec.members`` is the insertion order). Each member's ``assignment`` is an input listed in
``HashMap``/``HashSet`` iteration order. The homogeneous builder walks the subscribed topics in
``HashSet<Uuid>`` order (``Uuid.hashCode``, filled from the member's ``HashSet<String>`` of
names); the heterogeneous one breaks ties with the signed ``Uuid.compareTo``. Racks have no
effect (Kafka trunk 2024-10-25).

:func:`server_assign` is the public entry point for both KIP-848 assignors.

>>> from kpart.consumer.server_spec import ServerGroupSpec
>>> g = ServerGroupSpec.from_json({
...     "topics": [{"name": "t0", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 4}],
...     "members": [{"id": "A", "topics": ["t0"], "assignment": [["t0", [0, 1, 2, 3]]]},
...                 {"id": "B", "topics": ["t0"]}]})
>>> server_assign(g, "uniform").as_dict()
{'A': {'t0': [0, 1]}, 'B': {'t0': [2, 3]}}
"""

from __future__ import annotations

from kpart.consumer._uniform_heterogeneous import build_heterogeneous
from kpart.consumer._uniform_homogeneous import build_homogeneous
from kpart.consumer.server_spec import ServerGroupSpec
from kpart.consumer.spec import GroupAssignment
from kpart.errors import ConfigError
from kpart.limits import check_assignment

__all__ = [
    "SERVER_ASSIGNORS",
    "UniformAssignor",
    "assign_uniform",
    "server_assign",
    "server_target",
]

#: Names of the KIP-848 server-side assignors (``group.consumer.assignors``).
SERVER_ASSIGNORS = ("uniform", "range")


class UniformAssignor:
    """Name holder mirroring Kafka's class: ``UniformAssignor.name == "uniform"``."""

    name = "uniform"

    @staticmethod
    def assign(spec: ServerGroupSpec) -> GroupAssignment:
        return assign_uniform(spec)


def target_assignment(spec: ServerGroupSpec) -> dict[str, list[tuple[int, list[int]]]]:
    """The uniform assignor's raw result: member id → ``[(topic id, [partitions])]``."""
    if not spec.members:
        return {}
    if spec.subscription_type == "HOMOGENEOUS":
        return build_homogeneous(spec)
    return build_heterogeneous(spec)


def assign_uniform(spec: ServerGroupSpec) -> GroupAssignment:
    """Assign ``spec``'s partitions as the group coordinator's ``UniformAssignor`` does.

    Output: every member of ``spec`` (in ``spec.members`` order), its partitions by topic
    name. Errors: :class:`~kpart.errors.PartitionAssignorError` where Kafka throws
    ``PartitionAssignorException``.
    """
    return spec.to_group_assignment(target_assignment(spec))


def server_target(
    spec: ServerGroupSpec, assignor: str = "uniform", *, java_order: bool = True
) -> dict[str, list[tuple[int, list[int]]]]:
    """The raw target of a KIP-848 server-side assignor, ``"uniform"`` or ``"range"``:
    member id → ``[(topic id, [partitions])]``, in the Java iteration order of Kafka's result
    maps (``java_order=False`` lets the range assignor skip that ordering when only the
    canonical assignment is wanted). Raises :class:`~kpart.errors.ConfigError` naming an
    unknown ``assignor``; ``PartitionAssignorError`` as Kafka's assignors throw it."""
    if assignor == "uniform":
        return target_assignment(spec)
    if assignor == "range":
        from kpart.consumer.server_range_assignor import range_target

        return range_target(spec, java_order=java_order)
    raise ConfigError(
        f"Unknown server-side assignor {assignor!r}: expected one of {list(SERVER_ASSIGNORS)}."
    )


def server_assign(spec: ServerGroupSpec, assignor: str = "uniform") -> GroupAssignment:
    """Run a KIP-848 server-side assignor: ``"uniform"`` (default) or ``"range"``; every
    member of ``spec`` in order, topics by name, sorted. Errors: see :func:`server_target`.
    """
    check_assignment(sum(t.num_partitions for t in spec.topics),
                     f"assigning {len(spec.topics):,} topics to {len(spec.members):,} members")
    return spec.to_group_assignment(server_target(spec, assignor, java_order=False))
