"""Catalogue cases of issue 25's regex subscriptions (ids ``regex-*``): ``kpart server-assign``
on a KIP-848 group file whose ``subscribed_topic_regex`` the broker's RE2/J would refuse (each
difference from RE2 that kpart refuses), that kpart's RE2 cannot evaluate, that the version's
brokers do not take, or that matches no topic (a warning)."""

from __future__ import annotations

import json

from bad_inputs.case import Case

TOPICS = [{"name": "orders-eu", "id": "TiSarLlxTTgvi602tDaz1Q", "partitions": 3},
          {"name": "orders-us", "id": "2RjmLIM4RqSJtk8VdT2LSA", "partitions": 2}]


def _group(regex: object) -> str:
    return json.dumps({"topics": TOPICS, "members": [
        {"id": "m1", "topics": ["orders-eu"]},
        {"id": "bad-member", "subscribed_topic_regex": regex}]})


def _case(cid: str, regex: object, names: str, *extra: str, expect: str = "error") -> Case:
    return Case(id=f"regex-{cid}", names=names, files={"group.json": _group(regex)},
                argv=("server-assign", "group.json", "-o", "out.json", *extra), expect=expect,
                quiet_ok=True)


CASES = [
    # RE2/J and RE2 both refuse it
    _case("unclosed", "orders-(", "'orders-('"),
    _case("lookahead", "(?=orders).*", "'(?=orders).*'"),
    _case("member-named", "orders-(", "bad-member"),
    # RE2 takes these, RE2/J does not: refused, saying so
    _case("any-byte", "orders\\C", "\\C (RE2/J has no"),
    _case("duplicate-group", "(?P<r>eu)|(?P<r>us)", "duplicate capture group name 'r'"),
    _case("brace-repeat", "orders{*", "after a literal '{'"),
    # RE2/J takes it, kpart's RE2 cannot run it
    _case("nested-repeat", "(o{1000}){1000}", "kpart cannot evaluate it"),
    # the version's brokers do not take it
    _case("angle-group-4.0", "(?<r>orders)-.*", "'4.0.1'", "--kafka-version", "4.0.1"),
    _case("angle-group-range-4.0", "(?<r>orders)-.*", "'4.0.0'", "-a", "range",
          "--kafka-version", "4.0.0"),
    _case("not-a-string", 5, "subscribed_topic_regex: expected a string"),
    _case("no-match", "Orders-.*", "'Orders-.*'", expect="warning"),
]
