"""``org.apache.kafka.coordinator.group.modern.consumer.TopicRegexResolver`` (KAFKA-17593, Kafka 4.0+).

A KIP-848 member may subscribe with a regular expression (``subscribe(SubscriptionPattern)``:
ConsumerGroupHeartbeat v1's ``SubscribedTopicRegex``). The group coordinator, not the client,
resolves it: it compiles the regex with Google's RE2/J (``com.google.re2j.Pattern``; a regex
that does not compile is refused with ``INVALID_REGULAR_EXPRESSION``) and keeps every topic name
of the metadata image the regex matches *in full* (``matcher(name).matches()``). Internal topics
(``__consumer_offsets``, ...) are not excluded by the broker; only an authorizer (topics the
member may not ``DESCRIBE``) removes topics, and kpart models none.

kpart evaluates the regex with RE2 (the C++ library RE2/J was ported from, through
``pyarrow.compute``; never Python's ``re``, whose syntax differs) and refuses what RE2/J would
refuse where the two differ, as measured against RE2/J 1.7 and 1.8 (``tests/consumer/
re2j_vectors``):

- ``\\C`` (any byte): RE2 accepts it, RE2/J refuses it (invalid escape sequence);
- two capture groups with the same name: RE2 (as pyarrow builds it) accepts them, RE2/J refuses
  them (duplicate capture group name);
- ``(?<name>re)``: RE2/J 1.7 (Kafka 4.0.x) refuses it, 1.8 (Kafka 4.1+) accepts it (rule
  ``regex_subscription`` of :mod:`kpart.versions`, checked by :func:`check_regex_version`);
- what RE2/J accepts but RE2 cannot run (repetitions nested beyond 1,000 in all, such as
  ``(a{1000}){1000}``, or a program over RE2's size limit) is refused as such: kpart cannot
  give the broker's answer.

Errors: :class:`~kpart.errors.ConfigError`, one line naming the regex (and, from the spec, the
member) and saying whether RE2/J or only kpart's RE2 refuses it.

>>> resolve_regex("orders-.*", ("orders-1", "orders", "xorders-2", "orders-2"))
('orders-1', 'orders-2')
>>> check_regex("a\\\\C")
Traceback (most recent call last):
...
kpart.errors.ConfigError: Invalid subscribed_topic_regex 'a\\\\C': not a valid RE2/J regular expression (the broker refuses it): invalid escape sequence \\C (RE2/J has no \\C, any byte)
"""

from __future__ import annotations

import functools
import re as _python_re  # only to read RE2's error messages, never to match
from collections.abc import Sequence
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from kpart import versions
from kpart.errors import ConfigError
from kpart.versions import KafkaVersion, behaviour

__all__ = ["RegexSyntax", "check_regex", "check_regex_version", "resolve_regex",
           "resolve_regexes"]


@dataclass(frozen=True, slots=True)
class RegexSyntax:
    """What a lexical scan of a regex found (RE2/J's parser's view of escapes, ``\\Q...\\E``
    and character classes): the capture group names in order, whether any uses the
    ``(?<name>`` form, whether it uses ``\\C``, whether a ``\\Q`` is left open, and whether a
    literal ``{`` (one that starts no ``{n}``, ``{n,}``, ``{n,m}``) is followed by a
    repetition operator (``{*``, ``a{{2}``), which RE2/J's parser reports as a nested
    repetition (its ``Parser.parse`` records the ``{`` as a repeat before it falls back to a
    literal) while RE2 reads it as a repeated ``{``."""

    group_names: tuple[str, ...]
    angle_named_group: bool
    any_byte: bool
    open_quote: bool
    brace_then_repeat: bool = False
    #: the regex as RE2 reads it the way RE2/J does: ``\\é`` (an escaped non-ASCII
    #: character, a literal for RE2/J, an error for RE2) without its backslash, a ``\\Q``
    #: left open closed
    re2_form: str = ""


_REPEAT = _python_re.compile(r"\{(\d+)(?:,(\d*))?\}")
_COUNT = _REPEAT


def _class_end(regex: str, i: int, drop: list[int]) -> int:
    """The index just past the character class opening at ``regex[i]`` (``[``): a ``]``
    first (after ``^``) is a literal, ``[:alpha:]`` a named class, ``\\x`` an escape
    (an escaped non-ASCII character's backslash is recorded in ``drop``)."""
    n = len(regex)
    i += 1
    if regex.startswith("^", i):
        i += 1
    if regex.startswith("]", i):
        i += 1
    while i < n:
        c = regex[i]
        if c == "\\":
            if i + 1 < n and ord(regex[i + 1]) >= 0x80:
                drop.append(i)
            i += 2
        elif regex.startswith("[:", i) and regex.find(":]", i + 2) >= 0:
            i = regex.find(":]", i + 2) + 2
        elif c == "]":
            return i + 1
        else:
            i += 1
    return n


def _scan(regex: str) -> RegexSyntax:
    names: list[str] = []
    angle = any_byte = open_quote = brace_repeat = False
    drop: list[int] = []
    i, n = 0, len(regex)
    while i < n:
        c = regex[i]
        if c == "\\":
            d = regex[i + 1:i + 2]
            if d == "Q":
                end = regex.find("\\E", i + 2)
                open_quote = end < 0
                i = n if open_quote else end + 2
                continue
            any_byte = any_byte or d == "C"
            if d and ord(d) >= 0x80:
                drop.append(i)
            i += 2
            continue
        if c == "[":
            i = _class_end(regex, i, drop)
            continue
        if c == "{" and not _REPEAT.match(regex, i):
            nxt = regex[i + 1:i + 2]
            brace_repeat = brace_repeat or nxt in ("*", "+", "?") or bool(
                nxt == "{" and _REPEAT.match(regex, i + 1))
        if c == "(" and (regex.startswith("(?P<", i) or regex.startswith("(?<", i)):
            start = i + (4 if regex.startswith("(?P<", i) else 3)
            end = regex.find(">", start)
            if end >= 0 and regex[start:start + 1] not in ("=", "!"):
                names.append(regex[start:end])
                angle = angle or regex[i + 2] == "<"
        i += 1
    form = regex
    for j in reversed(drop):
        form = form[:j] + form[j + 1:]
    return RegexSyntax(tuple(names), angle, any_byte, open_quote, brace_repeat,
                       form + "\\E" if open_quote else form)


def _re2_error(regex: str) -> str | None:
    """RE2's error compiling ``regex`` alone, or ``None`` when it compiles."""
    try:
        pc.match_substring_regex(pa.array([""]), regex)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        return str(e).removeprefix("Invalid regular expression: ")
    return None




def _refusal(regex: str) -> str | None:
    """Why RE2/J, or kpart's RE2, refuses ``regex`` (RE2/J 1.8's syntax; see
    :func:`check_regex_version` for 1.7), or ``None``."""
    syntax = _scan(regex)
    error = _re2_error(syntax.re2_form)
    if error is not None:
        too_big = error.startswith("pattern too large") or (
            error.startswith("invalid repetition size") and all(
                int(a) <= 1000 and (not b or int(a) <= int(b) <= 1000)
                for a, b in _COUNT.findall(regex)))
        if too_big:
            return (f"kpart cannot evaluate it: RE2 refuses it ({error}) where RE2/J may "
                    "accept it, so kpart cannot give the broker's answer")
        return f"not a valid RE2/J regular expression (the broker refuses it): {error}"
    if syntax.any_byte:
        return ("not a valid RE2/J regular expression (the broker refuses it): invalid escape "
                "sequence \\C (RE2/J has no \\C, any byte)")
    if syntax.brace_then_repeat:
        return ("not a valid RE2/J regular expression (the broker refuses it): invalid nested "
                "repetition operator after a literal '{' (RE2/J's reading; escape it: \\{)")
    dup = next((g for i, g in enumerate(syntax.group_names) if g in syntax.group_names[:i]),
               None)
    if dup is not None:
        return ("not a valid RE2/J regular expression (the broker refuses it): duplicate "
                f"capture group name {dup!r}")
    return None


@functools.lru_cache(maxsize=1024)
def _checked(regex: str) -> str | None:
    return _refusal(regex)


def check_regex(regex: str) -> None:
    """Raise :class:`~kpart.errors.ConfigError` when the broker's RE2/J (1.8) would refuse
    ``regex``, or when kpart's RE2 cannot evaluate it; the message names the regex and says
    which. A non-string is refused too."""
    if not isinstance(regex, str):
        raise ConfigError(f"Invalid subscribed_topic_regex {regex!r}: expected a string.")
    if _has_surrogate(regex):
        raise ConfigError(f"Invalid subscribed_topic_regex {regex!r}: kpart cannot evaluate "
                          "it: a lone UTF-16 surrogate is not text RE2 can read")
    why = _checked(regex)
    if why is not None:
        raise ConfigError(f"Invalid subscribed_topic_regex {regex!r}: {why}")


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def check_regex_version(regex: str, kafka_version: str | KafkaVersion | None = None) -> None:
    """Raise :class:`~kpart.errors.ConfigError` when the brokers of ``kafka_version`` do not
    take ``regex`` (rule ``regex_subscription`` of :mod:`kpart.versions`): no regex
    subscriptions before 4.0.0; ``(?<name>re)`` refused by RE2/J 1.7 (Kafka 4.0.x).

    >>> check_regex_version("(?<n>orders)-.*", "4.1.0")
    >>> check_regex_version("(?<n>orders)-.*", "4.0.1")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: Invalid subscribed_topic_regex '(?<n>orders)-.*' for kafka_version '4.0.1': RE2/J 1.7 (Kafka 4.0.x) refuses (?<name>re): write (?P<name>re)
    """
    if behaviour("regex_subscription", kafka_version) == "re2j-1.7" and _scan(
            regex).angle_named_group:
        raise ConfigError.about(
            "kafka_version", "Invalid subscribed_topic_regex {regex!r} for {param} {value!r}: "
            "RE2/J 1.7 (Kafka 4.0.x) refuses (?<name>re): write (?P<name>re)",
            regex=regex, value=str(versions.kafka_version(kafka_version)))


def _full_match_pattern(regex: str) -> str:
    """``regex`` in RE2's form (see :class:`RegexSyntax`) anchored at both ends of the
    text (RE2/J's ``matches()``)."""
    return f"\\A(?:{_scan(regex).re2_form})\\z"


def resolve_regexes(regexes: Sequence[str],
                    topic_names: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Each regex (checked by :func:`check_regex`) → the names in ``topic_names`` it matches
    in full, in ``topic_names`` order (the order the coordinator walks the metadata image).
    One vectorised RE2 pass over the names per regex."""
    bad = next((t for t in topic_names if _has_surrogate(t)), None)
    if bad is not None and regexes:
        raise ConfigError(f"Topic name {bad!r}: kpart cannot match regex subscriptions against "
                          "it: a lone UTF-16 surrogate is not text RE2 can read")
    names = pa.array(list(topic_names), pa.string())
    out: dict[str, tuple[str, ...]] = {}
    for regex in dict.fromkeys(regexes):
        check_regex(regex)
        if len(names) == 0:
            out[regex] = ()
            continue
        hits = pc.match_substring_regex(names, _full_match_pattern(regex))
        out[regex] = tuple(pc.filter(names, hits).to_pylist())
    return out


def resolve_regex(regex: str, topic_names: Sequence[str]) -> tuple[str, ...]:
    """The names in ``topic_names`` ``regex`` matches in full (see :func:`resolve_regexes`)."""
    return resolve_regexes((regex,), topic_names)[regex]
