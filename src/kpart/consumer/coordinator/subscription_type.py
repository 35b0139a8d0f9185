"""``ConsumerGroup.subscriptionType(...)``: whether a KIP-848 group is homogeneous (``org.apache.kafka.coordinator.group.modern.consumer.ConsumerGroup``).

The group coordinator hands its assignor ``GroupSpec.subscriptionType()``: ``HOMOGENEOUS``
sends the uniform assignor to its homogeneous builder (and sizes the range assignor's result
maps), ``HETEROGENEOUS`` to the balancing one. Rule ``subscription_type`` of
:mod:`kpart.versions`:

- 3.7.0 to 3.9.2 (``same-names``): homogeneous iff every member subscribes to the same topic
  names (the count of members subscribed to each name equals the group's size; names absent
  from the metadata count too). No member can subscribe by regex: ConsumerGroupHeartbeat v0
  has no ``SubscribedTopicRegex``.
- from 4.0.0 (``single-regex``, KAFKA-17593, PR #18020): without regexes, the same; with
  regexes, homogeneous iff every member uses the same single regex and no member subscribes
  by name, even to the topics that regex resolves to (``byRegexCount == 1`` and
  ``byNameCount == 0`` for every subscribed topic). A member subscribing by name and one by
  a regex resolving to the same topics make a heterogeneous group.

An empty regex is no regex (``subscribedTopicRegexOrNull``). Input: each member's subscribed
names and regex (``None`` for none). Output: ``"HOMOGENEOUS"`` or ``"HETEROGENEOUS"``. Errors:
:class:`~kpart.errors.ConfigError` for a version without KIP-848 assignors, or without regex
subscriptions when a member has one (see :func:`subscription_type_at`).

>>> subscription_type([(("t",), None), ((), "t.*")])
'HETEROGENEOUS'
>>> subscription_type([((), "t.*"), ((), "t.*")])
'HOMOGENEOUS'
"""

from __future__ import annotations

from collections.abc import Sequence

from kpart.consumer.coordinator.topic_regex_resolver import check_regex_version
from kpart.versions import KafkaVersion, behaviour

__all__ = ["HETEROGENEOUS", "HOMOGENEOUS", "subscription_type", "subscription_type_at"]

HOMOGENEOUS = "HOMOGENEOUS"
HETEROGENEOUS = "HETEROGENEOUS"

#: One member's subscription: its topic names (any order, repeats allowed) and its regex.
Subscription = tuple[tuple[str, ...], str | None]


def _same_names(names: Sequence[tuple[str, ...]]) -> str:
    # Kafka counts, per name, the members subscribed to it; every count must be the group's
    # size: the members' sets of names are all equal. Members often share one tuple object,
    # and equal tuples are compared once.
    distinct = {id(t): t for t in names}
    first: frozenset[str] | None = None
    for t in set(distinct.values()):
        as_set = frozenset(t)
        if first is None:
            first = as_set
        elif as_set != first:
            return HETEROGENEOUS
    return HOMOGENEOUS


def subscription_type(subscriptions: Sequence[Subscription]) -> str:
    """The subscription type of a group whose members subscribe as ``subscriptions`` (names,
    regex), by the newest rule (``single-regex``, Kafka 4.0.0 to 4.3)."""
    regexes = [r for _, r in subscriptions if r]
    if not regexes:
        return _same_names([names for names, _ in subscriptions])
    # subscribedRegularExpressions is not empty: homogeneous only if its first regex counts
    # every member (then it is the only one) and no topic is subscribed by name.
    if len(regexes) != len(subscriptions) or len(set(regexes)) != 1:
        return HETEROGENEOUS
    return HETEROGENEOUS if any(names for names, _ in subscriptions) else HOMOGENEOUS


def subscription_type_at(subscriptions: Sequence[Subscription],
                         kafka_version: str | KafkaVersion | None = None) -> str:
    """:func:`subscription_type` as the brokers of ``kafka_version`` (default 4.3) compute it
    (rule ``subscription_type``), after checking that they take each member's regex (rule
    ``regex_subscription``: none before 4.0.0; ``(?<name>re)`` not in 4.0.x). Raises
    :class:`~kpart.errors.ConfigError` naming the version otherwise.

    >>> subscription_type_at([((), "t.*")], "3.9.0")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: The regex subscription (subscribed_topic_regex) does not exist in kafka_version '3.9.0': the broker resolves regexes from 4.0.0 (ConsumerGroupHeartbeat v1's SubscribedTopicRegex, KAFKA-17593); kpart supports it for 4.0.0 to 4.3.1
    """
    rule = behaviour("subscription_type", kafka_version)
    for regex in dict.fromkeys(r for _, r in subscriptions if r):
        check_regex_version(regex, kafka_version)
    if rule == "same-names":  # (no regex can reach here: the check above refuses it)
        return _same_names([names for names, _ in subscriptions])
    return subscription_type(subscriptions)
