"""kpart's regex resolution (``TopicRegexResolver``) against RE2/J 1.7 and 1.8 themselves.

``re2j/re2j_vectors.jsonl.gz`` (see its README) holds what the JVM's RE2/J says of each regex;
kpart must refuse exactly the regexes RE2/J refuses (or say it cannot evaluate one RE2/J takes)
and match exactly the topics RE2/J matches in full, for Kafka 4.0.x (RE2/J 1.7) and 4.1+
(1.8).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from kpart.consumer.coordinator.topic_regex_resolver import (
    check_regex,
    check_regex_version,
    resolve_regex,
    resolve_regexes,
)
from kpart.errors import ConfigError

VECTORS = Path(__file__).resolve().parent / "re2j" / "re2j_vectors.jsonl.gz"


def _load() -> tuple[list[str], list[dict]]:
    with gzip.open(VECTORS, "rt", encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    return lines[0]["topics"], lines[1:]


def _kpart(regex: str, topics: list[str], version: str) -> tuple[str, list[str] | str]:
    try:
        got = resolve_regex(regex, topics)
        check_regex_version(regex, version)
    except ConfigError as e:
        return ("cannot" if "kpart cannot evaluate" in str(e) else "error"), str(e)
    return "ok", list(got)


@pytest.mark.parametrize(("key", "version"), [("re2j_1_7", "4.0.1"), ("re2j_1_8", "4.3")])
def test_resolution_matches_re2j(key: str, version: str) -> None:
    topics, rows = _load()
    assert len(rows) > 8000
    wrong, cannot = [], []
    for row in rows:
        want = row[key]
        status, got = _kpart(row["regex"], topics, version)
        if status == "cannot":
            cannot.append(row["regex"])
            assert want["ok"], (row["regex"], got)  # only where RE2/J takes what RE2 cannot
        elif (status == "ok") != want["ok"] or (status == "ok" and got != want["matches"]):
            wrong.append((row["regex"], got, want))
    assert not wrong, wrong[:5]
    assert cannot == ["(a{1000}){1000}"]


def test_the_differences_refused_say_which() -> None:
    for regex, words in [("a\\C", "\\C"), ("(?P<n>a)(?P<n>b)", "duplicate capture group name"),
                         ("{*x", "literal '{'"), ("(", "missing )")]:
        with pytest.raises(ConfigError, match="not a valid RE2/J") as e:
            check_regex(regex)
        assert words in str(e.value) and repr(regex) in str(e.value)
    with pytest.raises(ConfigError, match="kpart cannot evaluate it"):
        check_regex("(a{1000}){1000}")
    with pytest.raises(ConfigError, match=r"RE2/J 1\.7 \(Kafka 4\.0\.x\)"):
        check_regex_version("(?<n>o)rders", "4.0.0")
    check_regex_version("(?<n>o)rders", "4.1.0")
    with pytest.raises(ConfigError, match="does not exist in kafka_version '3.9.0'"):
        check_regex_version("orders-.*", "3.9.0")


def test_full_match_and_metadata_order() -> None:
    topics = ["orders-2", "__consumer_offsets", "orders-1", "orders", "xorders-3"]
    assert resolve_regex("orders-.*", topics) == ("orders-2", "orders-1")
    assert resolve_regex(".*", topics) == tuple(topics)  # internal topics are not excluded
    assert resolve_regex("\\Qorders", topics) == ("orders",)  # an open \Q quotes to the end
    assert resolve_regex("orders\\é?", topics) == ("orders",)  # \é is é for RE2/J
    assert resolve_regexes(["a", "a", "orders"], topics) == {"a": (), "orders": ("orders",)}
    assert resolve_regex("o.*", []) == ()


def test_text_re2_cannot_read_is_refused_as_such() -> None:
    with pytest.raises(ConfigError, match="kpart cannot evaluate it: a lone UTF-16 surrogate"):
        check_regex("[\ud800]")
    with pytest.raises(ConfigError, match="Topic name '\\\\ud800'"):
        resolve_regex(".*", ["t", "\ud800"])
