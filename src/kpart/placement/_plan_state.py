"""The planner's private working state and its three phases (hard goals, replica balance,
leader balance). Only :mod:`kpart.placement.planner` uses it; goals see it read-only."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from kpart._java.strings import java_string_key
from kpart.errors import InvalidReplicationFactorError
from kpart.placement._goals import Goal, LeadershipMove, RackAwareGoal, ReplicaMove
from kpart.placement.spec import Broker


def spread(total: int, brokers: Sequence[int], load: Mapping[int, int]) -> dict[int, int]:
    """``total`` over ``brokers`` as ``q`` or ``q + 1`` each, the ``q + 1`` going to the most
    loaded brokers (fewest moves)."""
    if not brokers:
        return {}
    q, r = divmod(total, len(brokers))
    order = sorted(brokers, key=lambda b: (-load.get(b, 0), b))
    return {b: q + (1 if i < r else 0) for i, b in enumerate(order)}


def replica_targets(
    brokers: Sequence[int],
    rack: Mapping[int, str | None],
    load: Mapping[int, int],
    rfs: Sequence[int],
) -> dict[int, int]:
    """Per-broker replica targets of one pool: racks first (water-filled between what rack
    diversity allows a rack to hold), then ``q``/``q + 1`` inside each rack."""
    total = sum(rfs)
    racks = {rack[b] for b in brokers}
    if None in racks or len(racks) < 2:
        return spread(total, brokers, load)
    nr = len(racks)
    lo = sum(1 for f in rfs if f >= nr)
    hi = sum(f - min(f, nr) + 1 for f in rfs)
    members: dict[str, list[int]] = {}
    for b in brokers:
        members.setdefault(rack[b], []).append(b)  # type: ignore[arg-type]  # racked: no None

    def fill(lam: float) -> dict[str, float]:
        return {x: min(max(lam * len(m), lo), hi) for x, m in members.items()}

    a, z = 0.0, float(hi + 1)
    for _ in range(100):
        mid = (a + z) / 2
        if sum(fill(mid).values()) < total:
            a = mid
        else:
            z = mid
    real = fill(z)
    ints = {x: min(int(v), hi) for x, v in real.items()}
    rack_load = {x: sum(load.get(b, 0) for b in m) for x, m in members.items()}
    order = sorted(members, key=lambda x: (-(real[x] - ints[x]), -rack_load[x], java_string_key(x)))
    left = total - sum(ints.values())
    while left > 0:
        progressed = False
        for x in order:
            if left and ints[x] < hi:
                ints[x] += 1
                left -= 1
                progressed = True
        if not progressed:
            break
    out: dict[int, int] = {}
    for x, m in members.items():
        out.update(spread(ints[x], sorted(m), load))
    return out


def _accepts(goal: Goal, state: State, move: ReplicaMove | LeadershipMove) -> bool:
    """``goal``'s ``accepts`` for a replica move, ``accepts_leader`` for a leadership move."""
    if isinstance(move, ReplicaMove):
        return goal.accepts(state, move)
    return goal.accepts_leader(state, move)


class State:
    """Mutable working copy of the assignment (private to the planner)."""

    def __init__(
        self,
        tps: list[tuple[str, int]],
        reps: list[list[int]],
        cluster: Sequence[Broker],
        removed: frozenset[int],
        allowed_of: Mapping[str, frozenset[int]],
        goals: Sequence[Goal],
        cordoned: frozenset[int] = frozenset(),
    ) -> None:
        self.tps = tps
        self.cordoned = cordoned  # KIP-1066: keep their replicas, take no new one
        self.index = {tp: i for i, tp in enumerate(tps)}
        self.reps = reps
        self.rf = [len(r) for r in reps]
        self.removed = removed
        self._rack = {b.id: b.rack for b in cluster}
        self.allowed_of = dict(allowed_of)
        self.hard = [g for g in goals if g.hard]
        self.soft = [g for g in goals if not g.hard]
        self.moved: set[tuple[int, int]] = set()
        self._scope: list[tuple[str, int]] | None = None
        self.soft_moves = 0
        # groups: topics sharing one allowed broker set are balanced together
        self.group_of: dict[str, int] = {}
        groups: dict[frozenset[int], int] = {}
        for t, allowed in self.allowed_of.items():
            self.group_of[t] = groups.setdefault(allowed, len(groups))
        self.groups = [sorted(g) for g in sorted(groups, key=groups.__getitem__)]
        self.parts_of: list[list[int]] = [[] for _ in self.groups]
        for i, (t, _) in enumerate(tps):
            self.parts_of[self.group_of[t]].append(i)
        self._req: dict[str, int] = {}
        for t, allowed in self.allowed_of.items():
            racks = {self._rack[b] for b in allowed}
            self._req[t] = 0 if None in racks else len(racks)
        self._load: dict[int, int] = {b: 0 for b in self._rack}
        self.topic_count: dict[tuple[str, int], int] = {}
        for i, (t, _) in enumerate(tps):
            allowed = self.allowed_of[t]
            for b in reps[i]:
                if b in allowed:
                    self._load[b] += 1
                key = (t, b)
                self.topic_count[key] = self.topic_count.get(key, 0) + 1
        self._target: dict[int, int] = {b: 0 for b in self._rack}
        for g, brokers in enumerate(self.groups):
            rfs = [self.rf[i] for i in self.parts_of[g]]
            self._target.update(replica_targets(brokers, self._rack, self._load, rfs))
        for b in cordoned:  # a cordoned broker takes nothing: its target is at most its load
            self._target[b] = min(self._target.get(b, 0), self._load.get(b, 0))
        self.sinks: list[set[int]] = [
            {b for b in brokers if self._load[b] < self._target[b]} for brokers in self.groups
        ]
        self._leaders: dict[int, int] = {}
        self._leader_target: dict[int, int] = {}

    # ----- the read-only view goals use (PlanState) -----
    def partitions(self) -> Sequence[tuple[str, int]]:
        if self._scope is not None:
            return self._scope
        return self.tps

    def replicas(self, topic: str, partition: int) -> Sequence[int]:
        return self.reps[self.index[(topic, partition)]]

    def original_replication_factor(self, topic: str, partition: int) -> int:
        return self.rf[self.index[(topic, partition)]]

    def allowed(self, topic: str) -> frozenset[int]:
        return self.allowed_of[topic]

    def rack(self, broker: int) -> str | None:
        return self._rack.get(broker)

    def required_racks(self, topic: str, partition: int) -> int:
        return min(self._req[topic], self.rf[self.index[(topic, partition)]])

    def load(self, broker: int) -> int:
        return self._load.get(broker, 0)

    def target(self, broker: int) -> int:
        return self._target.get(broker, 0)

    def leaders(self, broker: int) -> int:
        return self._leaders.get(broker, 0)

    def leader_target(self, broker: int) -> int:
        return self._leader_target.get(broker, 0)

    # ----- moves -----
    def _hard_ok(self, move: ReplicaMove | LeadershipMove, skip_rack: bool = False) -> bool:
        if isinstance(move, ReplicaMove) and move.to_broker in self.cordoned:
            return False
        for g in self.hard:
            if skip_rack and isinstance(g, RackAwareGoal):
                continue
            if not _accepts(g, self, move):
                return False
        return True

    def _soft_ok(self, move: ReplicaMove | LeadershipMove) -> bool:
        return all(_accepts(g, self, move) for g in self.soft)

    def _apply(self, i: int, pos: int, d: int) -> None:
        t = self.tps[i][0]
        s = self.reps[i][pos]
        allowed = self.allowed_of[t]
        g = self.group_of[t]
        if s in allowed:
            self._load[s] -= 1
            if self._load[s] < self._target[s]:
                self.sinks[g].add(s)
        self._load[d] += 1
        if self._load[d] >= self._target[d]:
            self.sinks[g].discard(d)
        self.topic_count[(t, s)] -= 1
        self.topic_count[(t, d)] = self.topic_count.get((t, d), 0) + 1
        self.reps[i][pos] = d
        self.moved.add((i, pos))

    def _best(self, i: int, pos: int, candidates: Iterable[int], *, soft: bool,
              skip_rack: bool = False) -> int | None:
        """The candidate destination every hard goal (and, with ``soft``, every soft goal)
        accepts for slot ``pos`` of partition ``i``: fewest replicas of the topic, then
        furthest below target, then lowest id. Candidates are tried in that order."""
        t, p = self.tps[i]
        s = self.reps[i][pos]
        tc, load, target = self.topic_count, self._load, self._target
        ranked = sorted(candidates, key=lambda d: (tc.get((t, d), 0), load[d] - target[d], d))
        for d in ranked:
            move = ReplicaMove(t, p, s, d)
            if self._hard_ok(move, skip_rack) and (not soft or self._soft_ok(move)):
                return d
        return None

    # ----- phase 1: hard goals -----
    def fix_hard_goals(self) -> int:
        """Move every replica breaking a hard goal (removed broker, outside its pool, rack
        diversity short); returns the number of replicas moved."""
        log: list[tuple[int, int]] = []
        for i, (t, p) in enumerate(self.tps):
            allowed = self.allowed_of[t]
            reps = self.reps[i]
            if len(allowed) < len(reps):
                raise InvalidReplicationFactorError(
                    f"Replication factor: {len(reps)} larger than available brokers: "
                    f"{len(allowed)} (topic {t})."
                )
            free = [k for k, b in enumerate(reps) if b not in allowed]
            req = self.required_racks(t, p)
            if req > 1:
                while True:
                    kept = [b for k, b in enumerate(reps) if k not in free]
                    if len({self._rack[b] for b in kept}) + len(free) >= req:
                        break
                    seen: dict[str | None, int] = {}
                    for b in kept:
                        seen[self._rack[b]] = seen.get(self._rack[b], 0) + 1
                    dup = [k for k, b in enumerate(reps) if k not in free and seen[self._rack[b]] > 1]
                    free.append(max(dup, key=lambda k: (self._load[reps[k]] - self._target[reps[k]], k)))
            placed: set[int] = set()
            for n, k in enumerate(free):
                flt = None
                if req > 1:  # rack checked here: the free slots together must reach req
                    fixed = {self._rack[b] for q, b in enumerate(reps) if q not in free or q in placed}
                    flt = fixed if len(fixed) + len(free) - n - 1 < req else set()
                self._place(i, k, log, flt)
                placed.add(k)
        return len(log)

    def _place(self, i: int, k: int, log: list[tuple[int, int]],
               flt: set[str | None] | None) -> None:
        """Place free slot ``k`` of partition ``i``; ``flt``: racks the destination must avoid
        (``None``: the rack goal decides)."""
        t, p = self.tps[i]
        g = self.group_of[t]
        sk = flt is not None

        def ok(brokers: Iterable[int]) -> list[int]:
            return [b for b in brokers if not flt or self._rack[b] not in flt]

        d = self._best(i, k, ok(sorted(self.sinks[g])), soft=False, skip_rack=sk)
        if d is None and self.sinks[g] and not flt:
            d = self._augment(i, k, log, sk)
            if d == -1:
                return
        if d is None and self.sinks[g]:
            # a broker at a q target may take the +1 of a sink at q + 1 (same rack)
            movable = [b for b in ok(self.groups[g]) if self._donor(g, b) is not None]
            d = self._best(i, k, movable, soft=False, skip_rack=sk)
            if d is not None:
                donor = self._donor(g, d)
                assert donor is not None
                self._target[d] += 1
                self._target[donor] -= 1
                if self._load[donor] >= self._target[donor]:
                    self.sinks[g].discard(donor)
        if d is None:
            d = self._best(i, k, ok(self.groups[g]), soft=False, skip_rack=sk)
        if d is None:
            d = self._best(i, k, self.groups[g], soft=False, skip_rack=True)
        if d is None and self.cordoned:  # the brokers left hold it already or are cordoned
            raise InvalidReplicationFactorError(
                f"No broker can take a replica of {t}-{p}: the brokers it may use hold it "
                f"already or are cordoned ({','.join(map(str, sorted(self.cordoned)))}).")
        if d is None:  # pragma: no cover - RF <= pool size is checked first
            raise InvalidReplicationFactorError(f"No broker can take a replica of {t}-{p}.")
        self._apply(i, k, d)
        log.append((i, k))

    def _donor(self, g: int, b: int) -> int | None:
        """A sink of group ``g`` whose target is one above ``b``'s (full) target, same rack."""
        if self._load[b] != self._target[b]:
            return None
        for s in sorted(self.sinks[g]):
            if self._target[s] == self._target[b] + 1 and self._rack[s] == self._rack[b]:
                return s
        return None

    def _augment(self, i: int, k: int, log: list[tuple[int, int]], sk: bool) -> int | None:
        """Swap destinations with an earlier hard-goal move so that both land on brokers
        below target (no extra move). Returns -1 when done, ``None`` when impossible."""
        t, p = self.tps[i]
        g = self.group_of[t]
        s = self.reps[i][k]
        for j, kj in reversed(log[-400:]):
            tj, pj = self.tps[j]
            if self.group_of[tj] != g:
                continue
            dj = self.reps[j][kj]
            if not self._hard_ok(ReplicaMove(t, p, s, dj), skip_rack=sk):
                continue
            d = self._best(j, kj, sorted(self.sinks[g]), soft=False)
            if d is None:
                continue
            # move j's replica from dj to d (still one move of j's slot), then i's to dj
            self.moved.discard((j, kj))
            self._apply(j, kj, d)
            self._apply(i, k, dj)
            log.append((i, k))
            return -1
        return None

    # ----- phase 2: replica distribution -----
    def balance_replicas(self, budget: int | None, order: Sequence[int]) -> None:
        """Move replicas from brokers above target to brokers below it (never a replica
        already moved), at most ``budget`` moves."""
        slots = self._source_slots(order)
        for g, brokers in enumerate(self.groups):
            sources = sorted(
                (b for b in brokers if b in slots),
                key=lambda b: (-(self._load[b] - self._target[b]), b),
            )
            for s in sources:
                if not self._drain(g, s, slots[s], budget):
                    return

    def _source_slots(self, order: Sequence[int]) -> dict[int, list[int]]:
        """``{source broker: partitions holding a replica on it, in ``order``}`` for every
        broker above its target in a group that has a broker below target."""
        slots: dict[int, list[int]] = {}
        for g, brokers in enumerate(self.groups):
            if self.sinks[g]:
                for b in brokers:
                    if self._load[b] > self._target[b]:
                        slots[b] = []
        if slots:
            for i in order:
                for b in self.reps[i]:
                    lst = slots.get(b)
                    if lst is not None:
                        lst.append(i)
        return slots

    def _drain(self, g: int, s: int, parts: Sequence[int], budget: int | None) -> bool:
        """Move replicas of ``parts`` off source ``s`` (group ``g``) to the group's sinks
        until ``s`` reaches its target; ``False`` once ``budget`` is spent."""
        for i in parts:
            if self._load[s] <= self._target[s] or not self.sinks[g]:
                break
            if budget is not None and self.soft_moves >= budget:
                return False
            reps = self.reps[i]
            if s not in reps:
                continue
            k = reps.index(s)
            if (i, k) in self.moved:
                continue
            d = self._best(i, k, sorted(self.sinks[g]), soft=True)
            if d is not None:
                self._apply(i, k, d)
                self.soft_moves += 1
        return True

    # ----- phase 3: leader distribution -----
    def balance_leaders(self, order: Sequence[int]) -> None:
        """Swap preferred leaders inside partitions (no data moves) from brokers above their
        leader target to replicas below theirs; partitions already moving first."""
        for g, brokers in enumerate(self.groups):
            parts = self.parts_of[g]
            lead = {b: 0 for b in brokers}
            for i in parts:
                lead[self.reps[i][0]] = lead.get(self.reps[i][0], 0) + 1
            self._leaders.update(lead)
            self._leader_target.update(spread(len(parts), brokers, lead))
        moving = {i for i, _ in self.moved}
        led_by: dict[int, list[int]] = {}
        for i in sorted(order, key=lambda i: i not in moving):
            led_by.setdefault(self.reps[i][0], []).append(i)
        for _ in range(2):
            over = sorted(
                (b for b in self._leaders if self._leaders[b] > self._leader_target.get(b, 0)),
                key=lambda b: (-(self._leaders[b] - self._leader_target[b]), b),
            )
            for s in over:
                kept: list[int] = []
                for i in led_by.get(s, []):
                    if self._leaders[s] <= self._leader_target[s] or self.reps[i][0] != s:
                        kept.append(i)
                        continue
                    t, p = self.tps[i]
                    best, best_def = 0, 0
                    for k in range(1, len(self.reps[i])):
                        d = self.reps[i][k]
                        if self._soft_ok(LeadershipMove(t, p, s, d)):
                            deficit = self._leader_target[d] - self._leaders[d]
                            if deficit > best_def:
                                best, best_def = k, deficit
                    if best:
                        reps = self.reps[i]
                        d = reps[best]
                        reps[0], reps[best] = d, s
                        self._leaders[s] -= 1
                        self._leaders[d] += 1
                        led_by.setdefault(d, []).append(i)
                    else:
                        kept.append(i)
                led_by[s] = kept

    def violations(self) -> dict[str, int]:
        """Hard-goal violations left. Only partitions with a moved replica can hold one: the
        input was validated, phase 1 moved a replica of every partition breaking a goal, and
        every later move was accepted by all hard goals."""
        self._scope = [self.tps[i] for i in sorted({i for i, _ in self.moved})]
        try:
            return {g.name: g.violations(self) for g in self.hard}
        finally:
            self._scope = None
