"""``AbstractStickyAssignor.ConstrainedAssignmentBuilder`` on numpy arrays, for large groups.

The same decisions as :mod:`kpart.consumer.classic._constrained_builder` (which stays the
reference), computed on partition indices instead of per-partition Python objects. It covers
the common case and declines (returns ``None``, the caller then runs the reference builder)
whenever a rarer rule could apply:

- subscriptions differ (general path);
- an owned partition of a topic outside the metadata, a partition number beyond the topic's
  count, or a partition claimed twice (generation conflicts);
- too few partitions to fill every member (Kafka's ``IllegalStateException`` paths);
- topic names whose Java and Python orders differ.

Members with racks (KIP-881) take :mod:`kpart.consumer.classic._constrained_racks` for the
rack parts (owned partitions kept only on a matching rack, unassigned partitions sorted by
same-rack members, the rack-aware round robin); it declines past 62 member racks, or when
its lookup arrays (distinct replica rack sets × members below ``minQuota``) would pass 8M
entries.

The steps on arrays are in :mod:`kpart.consumer.classic._constrained_steps`.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence

import numpy as np

from kpart._java.strings import java_string_key
from kpart.consumer._columns import AssignmentColumns
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.classic._constrained_racks import rack_aware_round_robin, rack_view
from kpart.consumer.classic._constrained_steps import (
    Claims,
    Layout,
    Owned,
    assign_owned_partitions,
    assign_round_robin,
    owned_claims,
    partition_layout,
)
from kpart.consumer.classic.abstract_sticky_assignor import MemberData, subscription_order
from kpart.consumer.spec import GroupSpec, Member

__all__ = ["ARRAY_THRESHOLD", "FastConstrained", "fast_constrained", "try_array_form"]

#: Below this many partitions in the metadata the object-based builder is faster.
ARRAY_THRESHOLD = 2048

TP = tuple[str, int]


class FastConstrained:
    """Result of :func:`fast_constrained`: the canonical assignment (deferred: its tuples are
    built on first use) and, on request, each member's Kafka list order."""

    __slots__ = ("assignment", "lists")

    def __init__(self, assignment: GroupAssignment, lists: dict[str, list[TP]] | None) -> None:
        self.assignment = assignment
        self.lists = lists


def try_array_form(
    group: GroupSpec,
    member_data: Callable[[Member], MemberData],
    cooperative: bool,
    ordered: bool = False,
) -> FastConstrained | None:
    """:func:`fast_constrained` for a group of at least :data:`ARRAY_THRESHOLD` partitions
    (members in subscription-map order, ``member_data`` the assignor's decoding), else
    ``None``: the caller then runs the object-based port."""
    if sum(t.num_partitions for t in group.topics) < ARRAY_THRESHOLD:
        return None
    members = subscription_order(group)
    data = [member_data(m) for m in members]
    return fast_constrained(group, members, data, cooperative, ordered)


def fast_constrained(
    group: GroupSpec,
    members: Sequence[Member],
    data: Sequence[MemberData],
    cooperative: bool,
    ordered: bool = False,
) -> FastConstrained | None:
    """The constrained path for ``group`` (``members``/``data`` in subscription-map order), or
    ``None`` when a case outside the array form applies (see the module docstring).
    ``cooperative``: withhold partitions changing owner and report them as revoked."""
    # Millions of small result tuples would trigger full garbage collections over the input's
    # objects again and again; none of them can form cycles.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _fast_constrained(group, members, data, cooperative, ordered)
    finally:
        if enabled:
            gc.enable()


def _member_lists(
    layout: Layout,
    claims: Claims,
    owned: Owned,
    unassigned: np.ndarray,
    event_member: np.ndarray,
    withheld: np.ndarray | None,
    ids: list[str],
) -> dict[str, list[TP]]:
    """Each member's partitions in the order of Kafka's assignment list: kept owned
    partitions first (sorted), then the round robin's, without the ``withheld`` ones
    (cooperative: changing owner)."""
    by_claim, kept = owned.by_claim, owned.kept
    assert by_claim is not None
    ev_gid = np.concatenate([claims.gid[by_claim][kept[by_claim]], unassigned])
    ev_mem = np.concatenate([claims.mem[by_claim][kept[by_claim]], event_member])
    if withheld is not None:
        stay = np.concatenate([np.ones(int(kept.sum()), dtype=bool), ~withheld])
        ev_gid, ev_mem = ev_gid[stay], ev_mem[stay]
    o = np.argsort(ev_mem, kind="stable")
    ev_gid, ev_mem = ev_gid[o], ev_mem[o]
    offsets, topics = layout.offsets, layout.topics
    tids = np.searchsorted(offsets, ev_gid, side="right") - 1
    pairs = list(
        zip([topics[t] for t in tids.tolist()], (ev_gid - offsets[tids]).tolist(), strict=True)
    )
    lb = np.searchsorted(ev_mem, np.arange(len(ids) + 1)).tolist()
    return {ids[i]: pairs[lb[i] : lb[i + 1]] for i in range(len(ids))}


def _build(  # noqa: PLR0913 - the inputs of Kafka's builder
    group: GroupSpec,
    members: Sequence[Member],
    ids: list[str],
    layout: Layout,
    claims: Claims,
    ordered: bool,
) -> tuple[Claims, Owned, np.ndarray, np.ndarray] | None:
    """``ConstrainedAssignmentBuilder.build`` up to the result: the claims considered for
    keeping (rack-matching ones when rack-aware), step 1's outcome, and every newly assigned
    partition with its member in Kafka's order (step 2, then step 3); ``None`` to decline."""
    n, total = len(members), layout.total
    try:
        view = rack_view(group, members, layout.topics, total)
    except ValueError:
        return None
    mismatch = None if view is None else view.mismatch(claims.mem, claims.gid)
    mine = claims if mismatch is None or not mismatch.any() else claims.take(~mismatch)
    owned = assign_owned_partitions(layout, mine, n, ordered)
    if mine is not claims and mismatch is not None:
        owned.maybe_revoked[claims.gid[mismatch]] = claims.mem[mismatch]
    under = sorted(owned.under, key=lambda i: java_string_key(ids[i]))
    exact = sorted(owned.exact, key=lambda i: java_string_key(ids[i]))
    unassigned = np.flatnonzero(owned.owner < 0)
    count = owned.keep.copy()
    first = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if view is not None:  # sortPartitionsByRackConsumers (stable; radix sort on small keys)
        key = view.consumers[unassigned]
        if len(key) and key.max() < 1 << 16:
            key = key.astype(np.uint16)
        unassigned = unassigned[np.argsort(key, kind="stable")]
        if view.aware:
            quota = (total // n, -(-total // n), total % n, owned.current_over)
            try:
                two = rack_aware_round_robin(view, unassigned, under, exact, count, quota)
            except ValueError:
                return None
            first, unassigned, under, exact = (two.gid, two.mem), two.left, two.under, two.exact
    rest = assign_round_robin(under, exact, count, len(unassigned), total // n)
    if rest is None:
        return None
    if len(first[0]):
        unassigned, rest = np.concatenate([first[0], unassigned]), np.concatenate([first[1], rest])
    return mine, owned, unassigned, rest


def _fast_constrained(
    group: GroupSpec,
    members: Sequence[Member],
    data: Sequence[MemberData],
    cooperative: bool,
    ordered: bool = False,
) -> FastConstrained | None:
    layout = partition_layout(group, members)
    claims = None if layout is None else owned_claims(layout, data)
    if layout is None or claims is None:
        return None
    n = len(members)
    ids = [m.member_id for m in members]
    built = _build(group, members, ids, layout, claims, ordered)
    if built is None:
        return None
    mine, owned, unassigned, event_member = built
    owner = owned.owner
    owner[unassigned] = event_member
    if len(claims):
        previous = owned.maybe_revoked[unassigned]
        moving = (previous >= 0) & (previous != event_member)
    else:  # nothing owned: nothing moves
        moving = np.zeros(len(unassigned), dtype=bool)

    # -- outputs: cooperative assignors withhold partitions changing owner (revoked first) --
    final = owner
    rev_mem = rev_gid = None
    if cooperative and len(claims):
        if moving.any():
            final = owner.copy()
            final[unassigned[moving]] = -1
        lost = final[claims.gid] != claims.mem
        if lost.any():
            rev_mem, rev_gid = claims.mem[lost], claims.gid[lost]
    out_index = {mid: i for i, mid in enumerate(ids)}
    out_order = [out_index[m.member_id] for m in group.members]
    position = np.full(n + 1, -1, dtype=np.int32)  # subscription-map index -> output position
    position[out_order] = np.arange(n)  # (and -1 -> -1: position[-1] is the extra entry)
    out_owner = position[final]
    out_ids = [ids[i] for i in out_order]
    revoked = None
    if rev_mem is not None and rev_gid is not None:
        rev_owner = np.full(layout.total, -1, dtype=np.int64)
        rev_owner[rev_gid] = position[rev_mem]
        revoked = AssignmentColumns(out_ids, layout.topics, layout.counts, rev_owner)
    result = GroupAssignment.from_columns(
        AssignmentColumns(out_ids, layout.topics, layout.counts, out_owner), revoked
    )
    lists = None
    if ordered:
        lists = _member_lists(layout, mine, owned, unassigned, event_member,
                              moving if cooperative else None, ids)
    return FastConstrained(result, lists)
