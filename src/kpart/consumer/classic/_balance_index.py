"""Incremental form of ``GeneralAssignmentBuilder.isBalanced`` (``AbstractStickyAssignor``).

Kafka rebuilds a partition → owner map and scans every subscribed partition of every member
on each call, i.e. O(partitions) per call and O(partitions²) per rebalance. The answer is the
same as: "no topic has an owner with at least two more partitions than one of its subscribers
that is not yet at its maximum", because

- a member owning a partition of a topic with 2+ subscribers is never fixed, and a subscriber
  of such a topic is never fixed either (a fixed member owns all its partitions and all its
  topics have one subscriber), so both sides are in the balanced set;
- without duplicate claims, "the other member owns it" is implied by the size gap.

So the index keeps, per topic, a histogram of subscriber sizes (those below their maximum, and
all of them) and of owner sizes, and a set of topics whose gap is ≥ 2. Topics holding a
partition claimed twice (possible after "shrunk" owned partitions, as in Kafka) are checked
literally, with Kafka's "last owner in map order wins" rule; partition numbers beyond a
topic's count count in sizes only (Kafka's scan never visits them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

__all__ = ["BalanceIndex"]

TP = tuple[str, int]


def _add(h: Counter[Any], s: Hashable) -> None:
    h[s] += 1


def _remove(h: Counter[Any], s: Hashable) -> None:
    n = h[s] - 1
    if n:
        h[s] = n
    else:
        del h[s]


class BalanceIndex:
    """Sizes of the balanced members and, per topic with 2+ subscribers, the min subscriber /
    max owner sizes. ``current``: member → partitions (map order = Kafka's iteration order)."""

    def __init__(
        self,
        current: Mapping[str, list[TP]],
        topic_consumers: Mapping[str, Sequence[str]],
        consumer_topics: Mapping[str, Sequence[str]],
        max_size: Mapping[str, int],
        partitions_per_topic: Mapping[str, int],
    ) -> None:
        self.current = current
        self.ppt = partitions_per_topic
        self.size = {c: len(v) for c, v in current.items()}
        self.max_size = dict(max_size)
        multi = {t for t, cs in topic_consumers.items() if len(cs) >= 2}
        self.subscribers = {
            t: [c for c in dict.fromkeys(topic_consumers[t]) if c in current] for t in multi
        }
        self.ctopics = {
            c: [t for t in dict.fromkeys(consumer_topics.get(c, ())) if t in multi] for c in current
        }
        self.sub_hist: dict[str, Counter[int]] = {t: Counter() for t in multi}
        self.all_hist: dict[str, Counter[int]] = {t: Counter() for t in multi}
        for t, cs in self.subscribers.items():
            for c in cs:
                s = self.size[c]
                _add(self.all_hist[t], s)
                if s != self.max_size[c]:
                    _add(self.sub_hist[t], s)
        # holders and effective owners ("last holder in map order")
        position = {c: i for i, c in enumerate(current)}
        self.position = position
        holders: dict[TP, list[str]] = {}
        for c, tps in current.items():
            for tp in tps:
                if tp[0] in multi and tp[1] < partitions_per_topic[tp[0]]:
                    holders.setdefault(tp, []).append(c)
        self.dup_holders = {tp: hs for tp, hs in holders.items() if len(hs) > 1}
        self.dirty = {tp[0] for tp in self.dup_holders}
        self.eff: dict[TP, str] = {}  # effective owner, only for partitions of dirty topics
        self.owned: dict[str, Counter[str]] = {c: Counter() for c in current}
        self.own_count: dict[str, Counter[str]] = {t: Counter() for t in multi}  # owner → #eff
        self.own_hist: dict[str, Counter[int]] = {t: Counter() for t in multi}
        for tp, hs in holders.items():
            owner = max(hs, key=position.__getitem__)
            if tp[0] in self.dirty:
                self.eff[tp] = owner
            self._own_inc(tp[0], owner)
        self.candidates: set[str] = set()
        for t in multi:
            self._check(t)

    # -- per-topic bookkeeping ------------------------------------------------------------
    def _own_inc(self, t: str, c: str) -> None:
        counts = self.own_count[t]
        counts[c] += 1
        if counts[c] == 1:
            _add(self.own_hist[t], self.size[c])
            self.owned[c][t] += 1

    def _own_dec(self, t: str, c: str) -> None:
        counts = self.own_count[t]
        _remove(counts, c)
        if not counts[c]:
            _remove(self.own_hist[t], self.size[c])
            _remove(self.owned[c], t)

    def _check(self, t: str) -> None:
        own, sub = self.own_hist[t], self.sub_hist[t]
        if own and sub and max(own) - min(sub) >= 2:
            self.candidates.add(t)
        else:
            self.candidates.discard(t)

    def _resize(self, c: str, delta: int) -> None:
        s = self.size[c]
        s2 = s + delta
        self.size[c] = s2
        mx = self.max_size[c]
        touched = set(self.ctopics[c])
        for t in self.ctopics[c]:
            h = self.all_hist[t]
            _remove(h, s)
            _add(h, s2)
            h = self.sub_hist[t]
            if s != mx:
                _remove(h, s)
            if s2 != mx:
                _add(h, s2)
        for t in self.owned[c]:
            h = self.own_hist[t]
            _remove(h, s)
            _add(h, s2)
            touched.add(t)
        for t in touched:
            self._check(t)

    # -- queries and updates --------------------------------------------------------------
    def min_subscriber_size(self, t: str) -> int:
        """Smallest current size among all subscribers of ``t``."""
        smallest: int = min(self.all_hist[t])
        return smallest

    def move(self, tp: TP, old: str, new: str, removed: bool = True) -> None:
        """``tp`` was appended to ``new``'s list and (when ``removed``) left ``old``'s."""
        t = tp[0]
        if t not in self.own_count or tp[1] >= self.ppt[t]:
            # not a partition of the metadata ("shrunk" claim): only sizes change
            if removed:
                self._resize(old, -1)
            self._resize(new, +1)
            return
        hs = self.dup_holders.get(tp)
        if hs is None:
            before, after = (old, new) if removed else (None, new)
        else:
            before = max(hs, key=self.position.__getitem__)
            if removed and old in hs:
                hs.remove(old)
            hs.append(new)
            after = max(hs, key=self.position.__getitem__)
        if t in self.dirty:
            self.eff[tp] = after
        if before != after:
            if before is not None:
                self._own_dec(t, before)
            self._own_inc(t, after)
        if removed:
            self._resize(old, -1)
        self._resize(new, +1)

    def is_balanced(self) -> bool:
        """``isBalanced()`` of the current state."""
        if not self.candidates:
            return True
        dirty = self.dirty
        if any(t not in dirty for t in self.candidates):
            return False
        return not any(self._literal_violation(t) for t in self.candidates)

    def _literal_violation(self, t: str) -> bool:
        size = self.size
        for c in self.subscribers[t]:
            s = size[c]
            if s == self.max_size[c]:
                continue
            held = {tp for tp in self.current[c] if tp[0] == t}
            for p in range(self.ppt[t]):
                tp = (t, p)
                owner = self.eff.get(tp)
                if owner is not None and tp not in held and size[owner] >= s + 2:
                    return True
        return False
