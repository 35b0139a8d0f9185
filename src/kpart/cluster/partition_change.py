"""``org.apache.kafka.controller.PartitionChangeBuilder`` (KRaft, branch 4.3; KIP-966 eligible
leader replicas): one partition's new leader, ISR, ELR and LastKnownElr when the controller
removes or re-admits a broker, applied as ``PartitionRegistration.merge`` applies the
``PartitionChangeRecord``.

- :class:`PartitionRegistration`: one partition's state (``replicas`` in replica order,
  ``leader`` ``None`` = Kafka's ``NO_LEADER`` -1, ``isr`` in the order Kafka keeps it,
  ``elr``/``last_known_elr`` in ``HashSet<Integer>`` stream order, ``leader_recovery_state``
  ``"RECOVERED"`` or ``"RECOVERING"``).
- :class:`ElectionRules`: what the controller does, by version (:mod:`kpart.versions` rules
  ``eligible_leader_replicas``, ``unclean_shutdown_detection``, ``last_known_leader``) and
  whether ELR is on.
- :func:`build_partition_change`: ``PartitionChangeBuilder.build()`` then ``merge``, with
  ``Election.ONLINE`` (unclean leader election disabled), no reassignment in progress,
  ``useLastKnownLeaderInBalancedRecovery`` at its default ``true``.

What it reproduces (``maybePopulateTargetElr``, ``electAnyLeader``, ``tryElection``,
``maybeUpdateRecordElr``, ``maybeUpdateLastKnownLeader``): with ELR on the ISR may become
empty (with ELR off the last ISR member stays in the ISR of a leaderless partition); while the
target ISR is below the effective ``min.insync.replicas``, replicas leaving the ISR join the
ELR unless they shut down uncleanly, and ELR/LastKnownElr are cleared once it is back at or
above it; the leader stays if still valid, else the first replica (replica order) in the ISR,
or in the ELR when the ISR is empty, that is an acceptable leader (elected from the ELR: ISR :=
``[it]``, removed from the ELR); with ISR and ELR empty and exactly one member in LastKnownElr,
that last leader is elected when acceptable (KAFKA-19522; before 4.1.0 even while fenced) as an
unclean election: ISR := ``[it]``, ``RECOVERING``, ELR and LastKnownElr cleared; a partition
becoming leaderless with ELR on records ``[previous leader]`` as its LastKnownElr.

>>> p = PartitionRegistration(replicas=(1, 2, 3), leader=3, isr=(3,), elr=(2,))
>>> alive = {2}                                   # broker 3 fails: fenced, removed
>>> q = build_partition_change(p, lambda r: r in alive and r != 3, 2, ElectionRules(elr=True),
...                            target_isr=(), )
>>> q.leader, q.isr, q.elr, q.last_known_elr
(2, (2,), (3,), ())
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from kpart._java.collections import JavaHashSet
from kpart.errors import ConfigError
from kpart.versions import KafkaVersion, behaviour

__all__ = ["ElectionRules", "PartitionRegistration", "build_partition_change"]

RECOVERED = "RECOVERED"
RECOVERING = "RECOVERING"
_NO_LEADER = -1
_NO_LEADER_CHANGE = -2
_LAST_KNOWN = ("leaderless", "isr-emptied", "isr-emptied-even-if-fenced")


@dataclass(frozen=True, slots=True)
class PartitionRegistration:
    """One partition's registration (Kafka's ``PartitionRegistration``, the fields elections
    touch). ``leader``: a broker id or ``None`` (no leader). Every list holds broker ids.

    >>> PartitionRegistration((1, 2), leader=None, isr=(2,)).leader is None
    True
    """

    replicas: tuple[int, ...]
    leader: int | None
    isr: tuple[int, ...]
    elr: tuple[int, ...] = ()
    last_known_elr: tuple[int, ...] = ()
    leader_recovery_state: str = RECOVERED

    def __post_init__(self) -> None:
        if self.leader_recovery_state not in (RECOVERED, RECOVERING):
            raise ConfigError(f"Invalid leader_recovery_state {self.leader_recovery_state!r}: "
                              f"expected {RECOVERED} or {RECOVERING}")
        if self.leader is not None and self.leader not in self.replicas:
            raise ConfigError(f"Invalid leader {self.leader}: not one of the replicas "
                              f"{list(self.replicas)}")


@dataclass(frozen=True, slots=True)
class ElectionRules:
    """How the controller elects: ``elr`` (KIP-966 on), ``unclean_shutdown_detection`` (a
    broker back after an unclean shutdown leaves every ISR and ELR; else it counts as clean),
    ``last_known_leader`` (``"leaderless"`` from 4.1.1, ``"isr-emptied"`` in 4.1.0,
    ``"isr-emptied-even-if-fenced"`` before: :mod:`kpart.versions` rule ``last_known_leader``).
    Build it for a version with :meth:`for_version`."""

    elr: bool
    unclean_shutdown_detection: bool = True
    last_known_leader: str = "leaderless"

    def __post_init__(self) -> None:
        if self.last_known_leader not in _LAST_KNOWN:
            raise ConfigError(f"Invalid last_known_leader {self.last_known_leader!r}: expected "
                              f"one of {', '.join(_LAST_KNOWN)}")

    @classmethod
    def for_version(cls, version: str | KafkaVersion | None, elr: bool | None,
                    what: str = "kafka_version", *,
                    feature_level: int | None = None) -> ElectionRules:
        """The rules of Kafka ``version`` (default 4.3) with ELR ``elr`` (``None``: the
        default. Without ``feature_level``: the version's default, on for 4.1+, a cluster
        created at 4.1 or later; off before, and off for versions without ELR. With
        ``feature_level``, the cluster's finalized ``eligible.leader.replicas.version``
        (:mod:`kpart.cluster.features`): from 4.0 on, on exactly when it is 1 or more — an
        upgraded cluster has ELR off until the feature is finalized; 3.7–3.9 gate ELR by the
        controllers' ``eligible.leader.replicas.enable`` instead, so the level does not change
        their default, off). Raises :class:`~kpart.errors.ConfigError` naming the
        version when ``elr=True`` is asked of a version without eligible leader replicas
        (before 3.7.0), or a version kpart does not know.

        >>> ElectionRules.for_version("4.3", None)
        ElectionRules(elr=True, unclean_shutdown_detection=True, last_known_leader='leaderless')
        >>> ElectionRules.for_version("3.9", None).elr, ElectionRules.for_version("3.6", False).elr
        (False, False)
        >>> ElectionRules.for_version("4.3", None, feature_level=0).elr
        False
        >>> ElectionRules.for_version("4.0", None, feature_level=1).elr
        True
        """
        try:
            gate = behaviour("eligible_leader_replicas", version, what)
        except ConfigError as e:  # a version without ELR: plain elections unless ELR asked
            if elr or "does not exist" not in str(e):
                raise
            return cls(elr=False)
        if elr is None:
            if feature_level is not None and gate in ("feature-gated", "on-for-new-clusters"):
                elr = feature_level >= 1
            else:
                elr = gate == "on-for-new-clusters"
        if not elr:
            return cls(elr=False)
        return cls(
            elr=True,
            unclean_shutdown_detection=behaviour("unclean_shutdown_detection", version,
                                                 what) == "detected",
            last_known_leader=behaviour("last_known_leader", version, what))


def build_partition_change(
    partition: PartitionRegistration,
    is_acceptable_leader: Callable[[int], bool],
    min_isr: int,
    rules: ElectionRules,
    *,
    target_isr: Iterable[int],
    unclean_shutdown_replicas: Iterable[int] = (),
) -> PartitionRegistration:
    """The partition after ``PartitionChangeBuilder(partition, ..., isAcceptableLeader,
    minISR, rules.elr).setTargetIsr(target_isr).setUncleanShutdownReplicas(...).build()`` and
    ``partition.merge(record)`` (the partition itself when the record is a no-op).
    ``min_isr``: the topic's effective ``min.insync.replicas`` (``min(config, RF)``, what
    ``ReplicationControlManager.getTopicEffectiveMinIsr`` passes); ``is_acceptable_leader``:
    Kafka's predicate (alive, not the broker being removed). Pure; no errors."""
    return _Builder(partition, is_acceptable_leader, min_isr, rules, list(target_isr),
                    set(unclean_shutdown_replicas)).build()


class _Builder:
    """``PartitionChangeBuilder.build()`` step by step (method names as Java's); the record's
    fields are ``rec_*`` (``None`` = not set; ``rec_leader`` -2 = ``NO_LEADER_CHANGE``)."""

    def __init__(self, p: PartitionRegistration, acceptable: Callable[[int], bool],
                 min_isr: int, rules: ElectionRules, target_isr: list[int],
                 unclean: set[int]) -> None:
        self.p, self.acceptable, self.min_isr, self.rules = p, acceptable, min_isr, rules
        self.unclean = unclean
        self.t_isr, self.t_elr, self.t_lkelr = target_isr, list(p.elr), list(p.last_known_elr)
        self.cur = _NO_LEADER if p.leader is None else p.leader
        self.rec_leader = _NO_LEADER_CHANGE
        self.rec_isr: list[int] | None = None
        self.rec_elr: list[int] | None = None
        self.rec_lkelr: list[int] | None = None
        self.recovery = p.leader_recovery_state

    def build(self) -> PartitionRegistration:
        self.maybe_populate_target_elr()
        self.try_election()
        self.maybe_update_record_elr()
        if (self.rec_isr is None and (self.t_isr or self.rules.elr)
                and self.t_isr != list(self.p.isr)):
            self.rec_isr = self.t_isr
        self.maybe_update_last_known_leader()
        return self.merge()

    def maybe_populate_target_elr(self) -> None:
        if not self.rules.elr:
            return
        if len(self.t_isr) >= self.min_isr:
            self.t_elr, self.t_lkelr = [], []
            return
        isr_set = set(self.t_isr)
        candidates = JavaHashSet.copy_of(self.t_elr)
        for r in self.p.isr:
            candidates.add(r)
        self.t_elr = [r for r in candidates if r not in isr_set and r not in self.unclean]
        for r in self.t_lkelr:
            candidates.add(r)
        elr_now = set(self.t_elr)
        self.t_lkelr = [r for r in candidates if r not in isr_set and r not in elr_now]

    def is_valid_new_leader(self, r: int) -> bool:
        return (r in self.t_isr or (not self.t_isr and r in self.t_elr)) and self.acceptable(r)

    def can_elect_last_known_leader(self) -> bool:
        lk = self.p.last_known_elr
        if not self.rules.elr or self.t_elr or self.t_isr or len(lk) != 1:
            return False
        return (self.rules.last_known_leader == "isr-emptied-even-if-fenced"
                or self.acceptable(lk[0]))

    def elect_any_leader(self) -> tuple[int, bool]:
        if self.cur != _NO_LEADER and self.is_valid_new_leader(self.cur):
            return self.cur, False
        node = next((r for r in self.p.replicas if self.is_valid_new_leader(r)), _NO_LEADER)
        if node == _NO_LEADER and self.can_elect_last_known_leader():
            return self.p.last_known_elr[0], True
        return node, False

    def try_election(self) -> None:
        node, unclean = self.elect_any_leader()
        if node == self.cur:
            return
        if node in self.t_elr:
            self.t_isr = [node]
            self.t_elr = [r for r in self.t_elr if r != node]
        self.rec_leader = node
        if unclean:
            self.rec_isr = [node]
            self.recovery = RECOVERING

    def maybe_update_record_elr(self) -> None:
        # useLastKnownLeaderInBalancedRecovery = true: LastKnownElr is only set by
        # maybe_update_last_known_leader
        if self.rec_isr is not None or not self.rules.elr:
            self.t_elr = []
        if self.t_elr != list(self.p.elr):
            self.rec_elr = self.t_elr

    def maybe_update_last_known_leader(self) -> None:
        if not self.rules.elr:
            return
        lk, cur, leader = self.p.last_known_elr, self.cur, self.rec_leader
        if self.rules.last_known_leader == "leaderless":
            if leader == _NO_LEADER and not lk:
                self.rec_lkelr = [cur]
            elif leader >= 0 and lk:
                self.rec_lkelr = []
        elif (self.rec_isr is not None and not self.rec_isr
              and (len(lk) != 1 or lk[0] != cur)):  # before PR #20655 (4.1.1)
            self.rec_lkelr = [cur]
        elif (leader >= 0 or (cur != _NO_LEADER and leader != _NO_LEADER)) and lk:
            self.rec_lkelr = []

    def merge(self) -> PartitionRegistration:
        """``PartitionRegistration.merge(record)``."""
        p, leader = self.p, self.rec_leader
        return replace(
            p, leader=p.leader if leader == _NO_LEADER_CHANGE else (
                None if leader == _NO_LEADER else leader),
            isr=p.isr if self.rec_isr is None else tuple(self.rec_isr),
            elr=p.elr if self.rec_elr is None else tuple(self.rec_elr),
            last_known_elr=(p.last_known_elr if self.rec_lkelr is None
                            else tuple(self.rec_lkelr)),
            leader_recovery_state=self.recovery)
