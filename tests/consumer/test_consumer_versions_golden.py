"""Golden vectors of the classic client assignors per Kafka release
(``tests/golden/<version>/assign_*.jsonl.gz``, made by ``tools/golden``; see ``tests/golden/FORMAT.md``,
section "Per-release vectors").

kpart is checked on every case of each (release, assignor) pair it models (``MODELLED``), run as
that release's client computes it (``assign(group, assignor, kafka_version=release)``). The other
pairs' files are present and checked for completeness only: their cases are not collected until
kpart models that pair (move it to ``MODELLED`` then), so no golden case is ever skipped or expected
to fail."""

from __future__ import annotations

import pytest

from golden_vectors import GOLDEN, load_golden
from kpart.consumer import assign
from kpart.consumer.spec import GroupSpec

FILES = ("assign_range", "assign_roundrobin", "assign_sticky", "assign_cooperative_sticky")
RELEASES = ("2.4.1", "2.8.0", "2.8.2", "3.0.2", "3.4.1", "3.6.2", "3.9.0", "4.0.0", "4.1.1", "4.3")
_CLASSIC = ("assign_range", "assign_roundrobin")
_STICKY = ("assign_sticky", "assign_cooperative_sticky")
#: (release, file) pairs checked case by case: every assignor of every release (rules
#: classic_range, classic_round_robin, classic_sticky: the 2.x lines in
#: kpart.consumer.classic.releases, 3.0.0 to 3.7.0 as variations of kpart's port of trunk
#: 2024-10-25, 3.7.1 and later that port).
MODELLED = tuple((r, f) for r in RELEASES for f in FILES)
NOT_YET_MODELLED: tuple[tuple[str, str], ...] = ()


def _versions() -> list[str]:
    return sorted(
        p.name for p in GOLDEN.iterdir() if p.is_dir() and (p / "assign_range.jsonl.gz").exists()
    )


def test_every_release_directory_and_file_is_accounted_for() -> None:
    assert sorted(_versions()) == sorted(RELEASES)
    pairs = MODELLED + NOT_YET_MODELLED
    assert len(set(pairs)) == len(pairs)
    assert sorted(pairs) == sorted((r, f) for r in RELEASES for f in FILES)


@pytest.mark.parametrize("version", RELEASES)
@pytest.mark.parametrize("name", FILES)
def test_release_file_is_complete(version: str, name: str) -> None:
    cases = load_golden(f"{version}/{name}")
    assert len(cases) == 224
    assert {c["kind"] for c in cases} == {"single"}
    assert {c["source"]["kafka_version"] for c in cases} == {version}
    # the inputs are those of the trunk-2024-10-25 file tests/golden/<name>.jsonl.gz, same ids
    assert {c["input_from"] for c in cases} == {f"{name}.jsonl.gz"}
    base = [c["id"] for c in load_golden(name) if c["kind"] == "single"]
    assert [c["id"] for c in cases] == base
    if version == "4.0.0":
        assert not any(c["differs_from_4_0_0"] for c in cases)


def _result(group: GroupSpec, strategy: str, version: str) -> dict:
    try:
        return assign(group, strategy, kafka_version=version).to_json()
    except ValueError as e:  # kpart errors: compare with Kafka's class and message
        return {"error": {"class": getattr(e, "java_class", type(e).__name__), "message": str(e)}}


def _cases() -> list:
    out = []
    inputs: dict[str, dict] = {}
    for version, name in MODELLED:
        if name not in inputs:
            inputs[name] = {c["id"]: c["input"] for c in load_golden(name)}
        for c in load_golden(f"{version}/{name}"):
            out.append(pytest.param({**c, "input": inputs[name][c["id"]]},
                                    id=f"{version}-{c['id']}"))
    return out


@pytest.mark.parametrize("case", _cases())
def test_modelled_release(case: dict) -> None:
    group = GroupSpec.from_json(case["input"])
    version = case["source"]["kafka_version"]
    assert _result(group, case["assignor"], version) == case["expected"]


def test_modelled_releases_are_the_kafka_trunk_answers() -> None:
    """The 4.0.0 files were made from release 4.0.0's classes: they equal the trunk-2024-10-25 set."""
    for name in FILES:
        trunk = {c["id"]: c["expected"] for c in load_golden(name) if c["kind"] == "single"}
        assert {c["id"]: c["expected"] for c in load_golden(f"4.0.0/{name}")} == trunk, name
