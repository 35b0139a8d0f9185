"""``kpart.versions``: strict parsing of Kafka versions, the known releases, and the rule table."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kpart.errors import ConfigError
from kpart.versions import (
    DEFAULT_KAFKA_VERSION,
    RELEASES,
    RULES,
    KafkaVersion,
    behaviour,
    kafka_version,
)


@pytest.mark.parametrize("text", ["4.3", "4.3.0", "4.3.1", "3.9.1", "0.10.2.1", "0.10.0",
                                  "1.0", "2.8.2", "4.4"])
def test_parses_known_versions(text):
    assert str(KafkaVersion.parse(text)) == text


@pytest.mark.parametrize("text", ["4.x", "04.1", "4.3.0.0", "4", "0.10", "0.10.2.1.0", "",
                                  " 4.3", "4.3 ", "4..3", "v4.3", "4.3-IV0", "1.0.00", "4.3.+1"])
def test_refuses_unparseable_versions_naming_them(text):
    with pytest.raises(ConfigError) as info:
        KafkaVersion.parse(text)
    message = str(info.value)
    assert message.startswith(f"Invalid kafka_version {text!r}: ") and "\n" not in message
    assert info.value.parameter == "kafka_version"
    assert info.value.naming("--kafka-version").startswith(f"Invalid --kafka-version {text!r}")


@pytest.mark.parametrize("text", ["5.0", "4.0.9", "0.9.0.1", "0.8.2", "4.5", "3.3.3", "4.4.1"])
def test_refuses_unknown_versions_naming_them_and_the_range(text):
    with pytest.raises(ConfigError, match=rf"^Unknown kafka_version '{text}': kpart knows "
                       r"Kafka 0\.10\.0\.0 to 4\.3\.1 \(4\.4 unreleased\)$"):
        KafkaVersion.parse(text)


def test_releases_are_ordered_and_lines_stand_for_their_releases():
    versions = [KafkaVersion(r) for r in RELEASES]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert KafkaVersion.parse("0.11.0.3") < KafkaVersion.parse("1.0.0")
    assert KafkaVersion.parse("3.9.2") < KafkaVersion.parse("4.0") < KafkaVersion.parse("4.0.0")
    assert [str(r) for r in KafkaVersion.parse("3.9").releases] == ["3.9.0", "3.9.1", "3.9.2"]
    assert [str(r) for r in KafkaVersion.parse("0.10.2").releases] == [
        "0.10.2.0", "0.10.2.1", "0.10.2.2"]
    assert KafkaVersion.parse("4.4").released is False
    assert KafkaVersion.parse("4.4.0") == KafkaVersion.parse("4.4")


def test_default_is_the_newest_release_line():
    assert DEFAULT_KAFKA_VERSION == "4.3"
    assert kafka_version(None) == KafkaVersion.parse("4.3")
    assert kafka_version(None).releases[-1] == KafkaVersion(RELEASES[-1])


def test_uniform_homogeneous_rule_by_version():
    assert behaviour("uniform_homogeneous", "4.0.0") == "extra-to-first"
    for v in ("4.0.1", "4.1", "4.1.0", "4.2", "4.3", "4.3.1", None):
        assert behaviour("uniform_homogeneous", v) == "extra-to-last"
    assert behaviour("uniform_homogeneous", KafkaVersion.parse("4.0.0")) == "extra-to-first"


def test_a_line_whose_releases_differ_is_ambiguous():
    with pytest.raises(ConfigError, match=r"^kafka_version '4\.0' is ambiguous for the KIP-848 "
                       r"uniform assignor: 4\.0\.0 extra-to-first, 4\.0\.1 extra-to-last "):
        behaviour("uniform_homogeneous", "4.0")
    assert behaviour("uniform_heterogeneous", "4.0") == "kafka-17710"


@pytest.mark.parametrize("v", ["3.6.2", "2.4", "0.10.0.0"])
def test_a_feature_the_version_lacks_is_an_error(v):
    with pytest.raises(ConfigError, match=rf"^The KIP-848 uniform assignor does not exist in "
                       rf"kafka_version '{v}': .*3\.7\.0; kpart supports it for 4\.0\.0 to 4\.3\.1$"):
        behaviour("uniform_homogeneous", v)


@pytest.mark.parametrize("v", ["3.7.0", "3.8", "3.9.1", "4.4"])
def test_a_behaviour_kpart_does_not_know_is_an_error_not_a_fallback(v):
    with pytest.raises(ConfigError, match=rf"^The KIP-848 uniform assignor is not known to kpart "
                       rf"for kafka_version '{v}': kpart supports it for 4\.0\.0 to 4\.3\.1$"):
        behaviour("uniform_homogeneous", v)


def test_rule_spans_are_ordered_known_and_disjoint():
    for rule in RULES.values():
        assert rule.side in ("broker", "client")
        previous = None
        for span in rule.spans:
            first = KafkaVersion.parse(span.first)
            last = KafkaVersion.parse(span.last) if span.last else KafkaVersion(RELEASES[-1])
            assert (not first.is_line or not first.released) and first <= last, (rule.name, span)
            assert previous is None or previous < first, (rule.name, span)
            assert span.ref, (rule.name, span)
            previous = last


def test_nothing_else_compares_kafka_versions():
    """Only ``kpart.versions`` relates versions to behaviour: no other module builds a
    :class:`KafkaVersion` from its parts or reads ``.parts``."""
    src = Path(__file__).parents[1] / "src" / "kpart"
    offenders = []
    for path in src.rglob("*.py"):
        if path.name == "versions.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("parts", "releases") and \
                    "KafkaVersion" in path.read_text(encoding="utf-8"):
                offenders.append(f"{path.relative_to(src)}:{node.lineno}")
    assert offenders == []


# -- docs/versions.md is checked against the table ----------------------------------------


def _span_text(span) -> str:
    last = span.last or ".".join(map(str, RELEASES[-1]))
    releases = span.first if span.first == last else f"{span.first} to {last}"
    return f"{releases}: {span.behaviour or 'does not exist'}"


def doc_rows() -> list[str]:
    """The rule table of ``docs/versions.md`` as it must read, one row per rule."""
    rows = []
    for rule in RULES.values():
        spans = "; ".join(_span_text(s) for s in rule.spans)
        refs = "; ".join(dict.fromkeys(s.ref for s in rule.spans))
        side = {"broker": "brokers", "client": "client"}[rule.side]
        rows.append(f"| `{rule.name}` | {rule.decision} | {side} | {spans} | {refs} |")
    return rows


def test_the_versions_page_lists_every_rule_as_the_table_holds_it():
    page = (Path(__file__).parents[1] / "docs" / "versions.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert rows == doc_rows()
    assert f"default is `{DEFAULT_KAFKA_VERSION}`" in page


@pytest.mark.parametrize("value", [4.3, 43, ["4.3"], b"4.3"])
def test_a_version_that_is_not_a_string_is_an_error_naming_it(value):
    with pytest.raises(ConfigError, match=r"^Invalid kafka_version "):
        behaviour("uniform_homogeneous", value)
