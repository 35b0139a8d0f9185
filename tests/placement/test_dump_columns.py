"""The column-wise readers of the operator's dumps (issue 27, point 6): on any text,
:func:`~kpart.placement.formats.parse_describe_columns` and the ``kafka-log-dirs.sh`` fast path
of :func:`~kpart.placement.balance.partition_size_columns` either decline or give exactly what
the row readers give, and a dump as Kafka's tools print it takes the fast path."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kpart.cluster.model import padded_ids
from kpart.errors import ConfigError, KpartWarning
from kpart.placement.balance import (
    _fast_log_dirs_sizes,
    _json_body_bytes,
    _sizes_body,
    parse_partition_sizes,
    partition_size_columns,
)
from kpart.placement.formats import (
    format_describe,
    parse_describe_columns,
    parse_describe_with_configs,
)

# -- kafka-topics.sh --describe -----------------------------------------------------------------

_IDS = st.one_of(st.lists(st.integers(0, 6), min_size=0, max_size=4).map(
    lambda ids: ",".join(map(str, ids))), st.sampled_from(["", "1,1", "01", "2147483648", "x",
                                                           "1, 2", "99999999999"]))
_FIELD_TAILS = st.sampled_from(["", "\tElr: N/A\tLastKnownElr: N/A", "\tOffline: ",
                                "\tOffline: 1", "\tElr: 2", "\tAdding Replicas: 3",
                                "\tDirectories: /d,/e", " ", "\t"])


@st.composite
def _dump(draw: st.DrawFn) -> str:
    """A describe dump: as kafka-topics.sh prints it (half of them), or with mutations the row
    reader refuses, warns about or reads field by field."""
    clean = draw(st.booleans())

    def pick(good: list, bad: list) -> object:
        return draw(st.sampled_from(good if clean else good + bad))

    lines = []
    for t in range(draw(st.integers(1, 3))):
        topic = pick([f"t{t}", f"orders{t}", f"a.b-c_d{t}"], ["t:x", "caf\u00e9", "t t"])
        count = draw(st.integers(0, 4))
        declared = pick([count], [count + 1, max(count - 1, 0)])
        if pick([True], [False]):
            head = draw(st.sampled_from([
                "Topic: {t}\tTopicId: AAAAAAAAAAAAAAAAAAAAAQ\tPartitionCount: {n}\t"
                "ReplicationFactor: 2\tConfigs: min.insync.replicas=2,cleanup.policy=compact",
                "Topic: {t}\tPartitionCount: {n}\tReplicationFactor: 2\tConfigs: ",
                "Topic:{t}\tPartitionCount:{n}\tReplicationFactor:2\tConfigs:",
            ]))
            lines.append(head.format(t=topic, n=declared))
        order = draw(st.permutations(range(count)))
        for p in order:
            replicas = draw(st.lists(st.integers(0, 5), min_size=1, max_size=3, unique=True))
            ids = ",".join(map(str, replicas))
            leader = pick([str(replicas[0]), "none", "-1"], ["9", "007"])
            isr = draw(st.one_of(st.just(ids), st.just(ids[:1]), st.just(""),
                                 *([] if clean else [_IDS])))
            rep_text = ids if clean else draw(st.one_of(st.just(ids), _IDS))
            indent = draw(st.sampled_from(["\t", "    ", ""]))
            tail = pick(["", "\tElr: N/A\tLastKnownElr: N/A", "\tOffline: "],
                        ["\tOffline: 1", "\tElr: 2", "\tAdding Replicas: 3",
                         "\tDirectories: /d,/e", " ", "\t"])
            lines.append(f"{indent}Topic: {topic}\tPartition: {p}\tLeader: {leader}\t"
                         f"Replicas: {rep_text}\tIsr: {isr}{tail}")
        if count and not clean and draw(st.integers(0, 4)) == 0:
            lines.append(draw(st.sampled_from(lines)))  # a line twice
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), pick(
            ["", "   "], ["Error while executing topic command", "WARN something: else"]))
    end = draw(st.sampled_from(["\n", "", "\n\n"] if clean else ["\r\n", "\n"]))
    return pick(["\n"], ["\r\n"]).join(lines) + end  # type: ignore[union-attr]


def _slow(text: str) -> tuple[object, bool]:
    """The row reader's (partitions, configs), or its error text; and whether it warned."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: object = parse_describe_with_configs(text)
        except ConfigError as e:
            result = str(e)
    return result, any(issubclass(w.category, KpartWarning) for w in caught)


def _same_as_rows(text: str) -> bool:
    """``parse_describe_columns(text)`` declines, or equals the row reader's result."""
    fast = parse_describe_columns(text)
    slow, warned = _slow(text)
    if fast is None:
        return False
    assert not isinstance(slow, str), slow
    assert not warned
    rows, configs = slow  # type: ignore[misc]
    assert fast.configs == configs
    assert fast.topics == tuple(dict.fromkeys(d.topic for d in rows))
    assert [fast.topics[i] for i in fast.topic.tolist()] == [d.topic for d in rows]
    assert fast.partition.tolist() == [d.partition for d in rows]
    assert fast.leader.tolist() == [-1 if d.leader is None else d.leader for d in rows]
    assert np.array_equal(fast.replicas, padded_ids([d.replicas for d in rows]))
    assert np.array_equal(fast.isr, padded_ids([d.isr for d in rows]))
    assert fast.replicas.dtype == fast.isr.dtype == fast.leader.dtype == np.int32
    assert not any(d.offline or d.elr or d.last_known_elr or d.reassigning for d in rows)
    return True


@given(_dump())
@example("Topic: t\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n"
         "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n")
@example("Topic: t\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n"
         "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\x0b\n")
@example("Topic: t\x1f\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n"
         "\tTopic: t\x1f\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n")
def test_describe_columns_decline_or_agree(text: str) -> None:
    _same_as_rows(text)


def test_a_dump_as_kafka_prints_it_takes_the_fast_path() -> None:
    assignment = {p: ((p + i) % 5 for i in range(3)) for p in range(40)}
    text = format_describe({p: tuple(r) for p, r in assignment.items()}, "orders") + \
        format_describe({0: (1, 2), 1: (2, 3)}, "audit", elr=True)
    assert _same_as_rows(text)


@pytest.mark.parametrize("text", [
    # a partition listed twice, a leader outside its replicas, a partial dump, ELR ids
    "Topic: t\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n"
    "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n" * 2,
    "Topic: t\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n"
    "\tTopic: t\tPartition: 0\tLeader: 2\tReplicas: 1\tIsr: 1\n",
    "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n",
    "Topic: t\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n"
    "\tTopic: t\tPartition: 0\tLeader: none\tReplicas: 1,2\tIsr: \tElr: 2\tLastKnownElr: 1\n",
])
def test_what_the_row_reader_refuses_or_reads_field_by_field_is_declined(text: str) -> None:
    assert parse_describe_columns(text) is None


# -- kafka-log-dirs.sh --describe ---------------------------------------------------------------

_SIZES = st.one_of(st.integers(0, 10**12), st.sampled_from(
    [-1, 1.0, True, None, "5", 2**63, float("nan")]))
_NAMES = st.one_of(st.sampled_from(["t-0", "t-1", "a-b-2", "t-01", "orders-7", "t\n-3"]),
                   st.sampled_from(["t", "-1", "t-", "t-x", None, 5, "t-\u0661", "t-99999999999999999999"]))


@st.composite
def _log_dirs(draw: st.DrawFn) -> str:
    if draw(st.booleans()):  # as kafka-log-dirs.sh prints them
        return json.dumps({"version": 1, "brokers": [
            {"broker": b, "logDirs": [{"logDir": "/k", "error": None, "partitions": [
                {"partition": f"{t}-{p}", "size": n, "offsetLag": 0, "isFuture": f}
                for t, p, n, f in rows]}]}
            for b, rows in enumerate(draw(st.lists(st.lists(st.tuples(
                st.sampled_from(["t", "a-b", "orders"]), st.integers(0, 3),
                st.integers(0, 10**12), st.booleans()), max_size=5), max_size=3)))]},
            separators=(",", ":"))
    brokers = []
    for b in range(draw(st.integers(0, 3))):
        dirs = []
        for _ in range(draw(st.integers(0, 2))):
            rows = []
            for _ in range(draw(st.integers(0, 4))):
                row: dict = {"partition": draw(_NAMES), "size": draw(_SIZES), "offsetLag": 0,
                             "isFuture": draw(st.sampled_from([False, False, True, None, 1]))}
                for key in draw(st.lists(st.sampled_from(["isFuture", "size", "offsetLag"]),
                                         max_size=1)):
                    del row[key]
                rows.append(row if draw(st.integers(0, 19)) else draw(st.sampled_from([None, 3])))
            dirs.append({"logDir": "/k", "error": None,
                         "partitions": rows if draw(st.integers(0, 19)) else None})
        brokers.append({"broker": b, "logDirs": dirs})
    doc = json.dumps({"version": 1, "brokers": brokers})
    if draw(st.integers(0, 9)) == 0:
        doc = doc.replace('"size"', '"size":1,"size"', 1)  # a key twice
    head = draw(st.sampled_from(["", "Querying brokers for log directories information\n"
                                 "Received log directory information from brokers 0\n"]))
    return head + doc + draw(st.sampled_from(["", "\n"]))


@given(_log_dirs())
def test_log_dirs_fast_path_declines_or_agrees(text: str) -> None:
    try:
        slow: object = parse_partition_sizes(text)
    except ConfigError as e:
        slow = str(e)
    fast = _fast_log_dirs_sizes(text)
    if fast is not None:
        assert not isinstance(slow, str), slow
        topics, parts, sizes = fast
        assert dict(zip(zip(topics, parts.tolist(), strict=True), sizes.tolist(),
                        strict=True)) == slow
        assert len(topics) == len(slow)  # type: ignore[arg-type]
    try:
        topics, parts, sizes = partition_size_columns(text)
    except ConfigError as e:
        if isinstance(slow, dict):  # read, but beyond what the arrays hold
            assert any(p > 2**31 - 1 or n > 2**63 - 1 for (_, p), n in slow.items()), e
        else:
            assert str(e) == slow
    else:
        assert dict(zip(zip(topics, parts.tolist(), strict=True), sizes.tolist(),
                        strict=True)) == slow


def test_log_dirs_as_kafka_prints_them_take_the_fast_path() -> None:
    row = '{{"partition":"{}","size":{},"offsetLag":0,"isFuture":{}}}'
    parts = ",".join([row.format("t-0", 5, "false"), row.format("t-0", 9, "true"),
                      row.format("t-1", 3, "false"), row.format("a-b-2", 4, "false")])
    text = ("Querying brokers for log directories information\n"
            '{"version":1,"brokers":[{"broker":0,"logDirs":[{"logDir":"/k","error":null,'
            f'"partitions":[{parts}]}}]}}]}}\n')
    fast = _fast_log_dirs_sizes(text)
    assert fast is not None
    assert dict(zip(zip(fast[0], fast[1].tolist(), strict=True), fast[2].tolist(),
                    strict=True)) == \
        parse_partition_sizes(text) == {("t", 0): 5, ("t", 1): 3, ("a-b", 2): 4}


_BODY_TEXT = st.lists(st.sampled_from([
    "Querying brokers for log directories information", "", "  ", "\t{", "x{",
    '{"brokers":[]}', ' {"version":1,"brokers":[]} ', '{"a":1}', "\r", "\x0b", "\x1c", "é",
    '{"brokers": "\u3000"}']), max_size=5).map("\n".join)


@given(_BODY_TEXT, st.sampled_from(["", "\n", " \n ", "\x1f"]))
def test_the_json_line_read_as_bytes_is_the_row_readers(text: str, tail: str) -> None:
    text += tail
    view = _json_body_bytes(text)
    if view is None:
        return
    body = _sizes_body(text)
    assert bytes(view) == body.encode("utf-8")
    assert '"brokers"' in body and "\n" not in body


def test_kafka_log_dirs_output_is_read_as_bytes() -> None:
    text = ("Querying brokers for log directories information\n"
            "Received log directory information from brokers 0\n"
            '{"version":1,"brokers":[]}\n')
    view = _json_body_bytes(text)
    assert view is not None and bytes(view) == b'{"version":1,"brokers":[]}'
