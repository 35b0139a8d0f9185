"""Fuzzing the inputs that Kafka 4.x's decisions and the version table added (issues 25 and 26):
Kafka version strings, share-group and Streams-group JSON (``kpart share-assign`` /
``kpart streams-assign``). Random and mutated valid inputs give a result or a
:class:`~kpart.errors.KpartError`, never another exception; what a parser accepts, the
assignor takes (at every version the table knows for it). Seeds: the golden vectors' inputs.
Example counts are CI-sized; ``make fuzz`` scales them and draws a fresh seed."""

from __future__ import annotations

import pytest
from fuzz_inputs import docs, refused_or_parsed
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from golden_vectors import load_golden
from kpart.consumer.share import ShareGroupSpec, assign_simple
from kpart.consumer.streams import StreamsGroupSpec
from kpart.consumer.streams import assign as assign_tasks
from kpart.versions import RELEASES, KafkaVersion

pytestmark = pytest.mark.fuzz

FUZZ = settings(
    max_examples=100, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                           HealthCheck.data_too_large],
)


def _inputs(name: str, n: int = 6) -> list[dict]:
    """The smallest single-case inputs of a 4.3 golden file (small enough to assign quickly)."""
    cases = [c["input"] for c in load_golden(f"4.3/{name}") if c["kind"] == "single"]
    return sorted(cases, key=lambda c: len(str(c)))[:n]


# -- Kafka versions -----------------------------------------------------------------------------

VERSION_TEXTS = [str(v) for v in RELEASES][::7] + ["4.3", "3.6", "4.4", "0.10.2", "2.8.2"]


@FUZZ
@given(st.one_of(
    st.sampled_from(VERSION_TEXTS),
    st.sampled_from(VERSION_TEXTS).map(lambda v: v + ".0"),
    st.sampled_from(VERSION_TEXTS).map(lambda v: "0" + v),
    st.text(st.sampled_from("0123456789.x-rcv "), max_size=12),
    st.text(max_size=8),
))
@example("4.3.0.0")
@example("04.1")
@example("4.x")
@example("1" * 40 + ".0")
def test_fuzz_kafka_version(text: str) -> None:
    version = refused_or_parsed(KafkaVersion.parse, text)
    if version is not None:  # what parses is ordered and prints as it parses again
        assert KafkaVersion.parse(str(version)) == version


# -- share groups (KIP-932) ---------------------------------------------------------------------

SHARE = _inputs("share_assignor")
SHARE_FIELDS = ["topics", "members", "assignable", "name", "id", "partitions", "topics",
                "instance_id", "rack", "assignment"]


@FUZZ
@given(docs(SHARE, SHARE_FIELDS), st.sampled_from(["4.0.0", "4.1.0", "4.2.0", "4.3", "3.9.0"]))
def test_fuzz_share_group_json(doc: object, version: str) -> None:
    spec = refused_or_parsed(ShareGroupSpec.from_json, doc)
    if spec is not None:
        refused_or_parsed(assign_simple, spec, version)


# -- Streams groups (KIP-1071) ------------------------------------------------------------------

STREAMS = _inputs("streams_assignor")
STREAMS_FIELDS = ["subtopologies", "num_standby_replicas", "members", "id", "tasks", "stateful",
                  "process_id", "instance_id", "rack", "active", "standby", "warmup"]


@FUZZ
@given(docs(STREAMS, STREAMS_FIELDS), st.sampled_from(["4.1.0", "4.2.0", "4.3", "4.0.0"]))
def test_fuzz_streams_group_json(doc: object, version: str) -> None:
    spec = refused_or_parsed(StreamsGroupSpec.from_json, doc)
    if spec is not None:
        refused_or_parsed(assign_tasks, spec, version)
