"""A KIP-848 ``GroupSpec`` as arrays, for the array paths of the server-side assignors.

What the array paths of ``UniformAssignor`` and the coordinator's ``RangeAssignor``
(``org.apache.kafka.coordinator.group.assignor``) read from a
:class:`~kpart.consumer.coordinator.server_spec.ServerGroupSpec`, computed once per spec and
kept on it (a spec is frozen):

- the canonical partition layout of
  :class:`~kpart.consumer._columns.AssignmentColumns` (topic names sorted by code point;
  partition ``(topics[t], p)`` is index ``offsets[t] + p``);
- the members grouped into *subscription classes* (members listing the same topic names share
  one class: a group of 10,000 members has a handful), so that subscriptions are resolved once
  per class, not once per member;
- ``GroupSpec.memberIds()`` order: the iteration order of the coordinator's member
  ``HashMap<String, ...>``, from the member ids' ``String.hashCode`` computed on arrays
  (:func:`kpart._java.arrays.hashmap_key_order`, the same bucket model as
  :meth:`~kpart.consumer.coordinator.server_spec.ServerGroupSpec.members_in_map_order`).

``ARRAY_THRESHOLD``: groups with fewer partitions take the object paths (tests set it to 0
to force the array paths on the golden vectors).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from itertools import chain
from operator import attrgetter

import numpy as np

from kpart._java.arrays import hashmap_key_order
from kpart._java.uuid import uuid_compare_key
from kpart.consumer._columns import AssignmentColumns
from kpart.consumer.coordinator.server_spec import (
    DELETED_PREFIX,
    ServerGroupSpec,
)

__all__ = [
    "ARRAY_THRESHOLD",
    "SpecArrays",
    "spec_arrays",
    "use_arrays",
]

_MASK64 = (1 << 64) - 1
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


def _uuid_words(ids: Sequence[str]) -> np.ndarray | None:
    """Topic ids (``Uuid.toString``: 22 URL-safe base64 characters each) as an ``(n, 2)``
    uint64 array of (most, least) significant bits, decoded in one call: each id padded with
    ``"AA"`` to 24 characters (18 bytes, the first 16 the id's); ``None`` when an id is not
    in that form."""
    text = "AA".join(ids) + "AA"
    if len(text) != 24 * len(ids) or not _BASE64URL.fullmatch(text):
        return None
    raw = np.frombuffer(base64.urlsafe_b64decode(text), dtype=np.uint8)
    words: np.ndarray = raw.reshape(len(ids), 18)[:, :16].copy().view(">u8").astype(np.uint64)
    return words

#: Total partitions from which :func:`use_arrays` picks the array paths.
ARRAY_THRESHOLD = 2000


def use_arrays(spec: ServerGroupSpec) -> bool:
    """Whether ``spec`` is large enough for the array paths (``ARRAY_THRESHOLD``)."""
    return bool(spec.members) and sum([t.num_partitions for t in spec.topics]) >= ARRAY_THRESHOLD


class SpecArrays:
    """The spec-derived arrays of the server-side array paths (see the module docstring).

    - ``member_ids`` (spec order); ``topics``/``counts``/``offsets``/``index``: the canonical
      layout (``index``: topic name → position in ``topics``);
    - ``member_class``: int array, each member's subscription class (spec order);
      ``class_names``: each class's topic-name tuple (as its first member lists it);
      ``class_topics``: each class's subscribed topics present in the metadata, as sorted
      positions in ``topics``; ``holders``: spec positions of the members holding a current
      assignment;
    - ``uuid_rank``: each topic's rank in ``Uuid.compareTo`` order; ``uuid_hash_codes``:
      each topic id's ``Uuid.hashCode`` (as uint32 values).
    """

    __slots__ = (
        "_map_order",
        "_topic_ids",
        "_uuid_hash_codes",
        "_uuid_rank",
        "class_names",
        "class_topics",
        "counts",
        "holders",
        "index",
        "member_class",
        "member_ids",
        "offsets",
        "spec",
        "topics",
    )

    def __init__(self, spec: ServerGroupSpec) -> None:
        self.spec = spec
        members = spec.members
        # (comprehensions: their attribute loads are specialised, faster than attrgetter's)
        self.member_ids = tuple([m.member_id for m in members])
        held = [m.assignment for m in members]
        self.holders = [] if held.count(()) == len(held) else [  # () is one object: no compare
            i for i, a in enumerate(held) if a]
        by_name = sorted(spec.topics, key=attrgetter("name"))
        self.topics = tuple(map(attrgetter("name"), by_name))
        self._topic_ids = tuple(map(attrgetter("topic_id"), by_name))
        self.index = dict(zip(self.topics, range(len(self.topics)), strict=True))
        self.counts = np.fromiter(map(attrgetter("num_partitions"), by_name), dtype=np.int64,
                                  count=len(by_name))
        self.offsets = np.zeros(len(self.topics) + 1, dtype=np.int64)
        np.cumsum(self.counts, out=self.offsets[1:])
        self._classes([spec.subscribed_names(m) for m in members] if spec.has_regex
                      else [m.topics for m in members])
        self._map_order: np.ndarray | None = None
        self._uuid_rank: np.ndarray | None = None
        self._uuid_hash_codes: np.ndarray | None = None

    def _classes(self, tuples: list[tuple[str, ...]]) -> None:
        """Members listing equal tuples share a class (members sharing one tuple object, the
        usual case, are not compared element by element). Classes are numbered by their first member (spec order)."""
        names: list[tuple[str, ...]] = []
        # one tuple (list.count compares by identity first: one object costs no compare)
        if not tuples or tuples.count(tuples[0]) == len(tuples):
            names = tuples[:1]
            self.member_class = np.zeros(len(tuples), dtype=np.int64)
        else:
            objects = np.fromiter(map(id, tuples), dtype=np.uint64, count=len(tuples))
            _, first, inverse = np.unique(objects, return_index=True, return_inverse=True)
            by_tuple: dict[tuple[str, ...], int] = {}
            class_of = np.empty(len(first), dtype=np.int64)
            for j in np.argsort(first).tolist():  # one tuple object at a time, in spec order
                t = tuples[first[j]]
                c = class_of[j] = by_tuple.setdefault(t, len(by_tuple))
                if c == len(names):
                    names.append(t)
            self.member_class = class_of[inverse.reshape(-1)]
        self.class_names = names
        index = self.index
        self.class_topics = [
            np.array(sorted({index[n] for n in ts if n in index}), dtype=np.int64) for ts in names
        ]
        if self.spec.has_regex:  # the type depends on how members subscribe, not only on what
            self.spec.subscription_type  # noqa: B018 (computed and kept in the memo)
            return
        homogeneous = len({frozenset(ts) for ts in names}) <= 1
        self.spec.memo().setdefault("subscription_type",
                                    "HOMOGENEOUS" if homogeneous else "HETEROGENEOUS")

    @property
    def uuid_rank(self) -> np.ndarray:
        """Each topic's rank in ``Uuid.compareTo`` order (positions as ``topics``)."""
        if self._uuid_rank is None:
            by_name = sorted(self.spec.topics, key=lambda t: t.name)
            ranked = sorted(range(len(by_name)), key=lambda i: uuid_compare_key(by_name[i].uuid))
            self._uuid_rank = np.empty(len(by_name), dtype=np.int64)
            self._uuid_rank[ranked] = np.arange(len(by_name))
        return self._uuid_rank

    @property
    def uuid_hash_codes(self) -> np.ndarray:
        """Each topic id's ``Uuid.hashCode`` (positions as ``topics``), as uint32 values in
        an int64 array (:func:`kpart._java.uuid.uuid_hash_code` on arrays)."""
        if self._uuid_hash_codes is None:
            words = _uuid_words(self._topic_ids)
            if words is None:  # an id not in the canonical 22-character form
                uuids = np.array(list(map(self.spec.topic_uuid, self.topics)), dtype=object)
                x = (uuids >> 64) ^ (uuids & _MASK64)
                self._uuid_hash_codes = (((x >> 32) ^ x) & 0xFFFFFFFF).astype(np.int64)
            else:
                x = words[:, 0] ^ words[:, 1]
                self._uuid_hash_codes = ((x >> np.uint64(32)) ^ x).astype(np.uint32).astype(
                    np.int64)
        return self._uuid_hash_codes

    @property
    def total(self) -> int:
        """Partitions of the metadata."""
        return int(self.offsets[-1])

    def map_order(self) -> np.ndarray:
        """``GroupSpec.memberIds()`` order: spec positions of the members in the iteration
        order of the coordinator's member ``HashMap``."""
        if self._map_order is None:
            self._map_order = hashmap_key_order(self.member_ids)
        return self._map_order

    def columns(self, owner: np.ndarray) -> AssignmentColumns:
        """The result: ``owner`` holds spec positions (``-1``: nobody)."""
        return AssignmentColumns(self.member_ids, self.topics, self.counts, owner)

    def current_owned(
        self, order: np.ndarray, subscribed: Sequence[np.ndarray] | None
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """Every member's current assignment flattened: ``(member, partition index)`` in
        ``order`` (member positions, and partitions in each member's Java iteration order),
        keeping topics the member's class subscribes to (``subscribed``: per class, a sorted
        array of topic positions; ``None``: every topic of the metadata). ``None`` when the
        arrays cannot hold it exactly: a partition owned twice, or a deleted-topic reference
        (``"id:<uuid>"``) naming a topic of the metadata."""
        if not self.holders:  # nobody owns anything (a fresh group)
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        spec, index = self.spec, self.index
        offsets = self.offsets.tolist()
        known = {t.uuid for t in spec.topics}
        sets = None if subscribed is None else [set(s.tolist()) for s in subscribed]
        chunks: list[tuple[int, ...]] = []  # partition tuples kept, in order
        bases: list[int] = []
        owners: list[int] = []
        position = np.empty(len(order), dtype=np.int64)
        position[order] = np.arange(len(order))
        walk = sorted(zip(position[self.holders].tolist(), self.holders, strict=True))
        classes = self.member_class.tolist() if walk else []
        for pos, m in walk:
            member = spec.members[m]
            allowed = None if sets is None else sets[classes[m]]
            for topic, ps in member.assignment:
                t = index.get(topic)
                if t is None:
                    if topic.startswith(DELETED_PREFIX) and spec.topic_uuid(topic) in known:
                        return None
                    continue
                if allowed is None or t in allowed:
                    chunks.append(ps)
                    bases.append(offsets[t])
                    owners.append(pos)
        lengths = np.fromiter(map(len, chunks), dtype=np.int64, count=len(chunks))
        count = int(lengths.sum())
        owned = np.fromiter(chain.from_iterable(chunks), dtype=np.int64, count=count)
        owned += np.repeat(np.array(bases, dtype=np.int64), lengths)
        if count and int(np.bincount(owned).max()) > 1:
            return None
        return np.repeat(np.array(owners, dtype=np.int64), lengths), owned


def spec_arrays(spec: ServerGroupSpec) -> SpecArrays:
    """The :class:`SpecArrays` of ``spec`` (computed once, kept on the spec)."""
    memo = spec.memo()
    found = memo.get("arrays")
    if not isinstance(found, SpecArrays):
        found = SpecArrays(spec)
        memo["arrays"] = found
    return found
