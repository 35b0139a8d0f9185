"""Golden vectors of the classic client assignors per Kafka release
(``tests/golden/<version>/assign_*.jsonl.gz``, made by ``tools/golden``; see ``tests/golden/FORMAT.md``,
section "Per-release vectors").

kpart is checked on every case of the releases whose classic-assignor behaviour it models
(``MODELLED``). The other releases' files are present and checked for completeness only: their
cases are not collected until kpart models that release (add it to ``MODELLED`` then), so no golden
case is ever skipped or expected to fail."""

from __future__ import annotations

import pytest

from golden_vectors import GOLDEN, load_golden
from kpart.consumer import assign
from kpart.consumer.spec import GroupSpec

FILES = ("assign_range", "assign_roundrobin", "assign_sticky", "assign_cooperative_sticky")
MODELLED = ("4.0.0",)  # kpart's classic assignors = trunk 2024-10-25 = 4.0.0 (same assignor files)
NOT_YET_MODELLED = ("2.4.1", "2.8.0", "2.8.2", "3.0.2", "3.4.1", "3.6.2", "3.9.0", "4.1.1")


def _versions() -> list[str]:
    return sorted(
        p.name for p in GOLDEN.iterdir() if p.is_dir() and (p / "assign_range.jsonl.gz").exists()
    )


def test_every_release_directory_is_accounted_for() -> None:
    assert sorted(_versions()) == sorted(MODELLED + NOT_YET_MODELLED)


@pytest.mark.parametrize("version", sorted(MODELLED + NOT_YET_MODELLED))
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


def _result(group: GroupSpec, strategy: str) -> dict:
    try:
        return assign(group, strategy).to_json()
    except ValueError as e:  # kpart errors: compare with Kafka's class and message
        return {"error": {"class": getattr(e, "java_class", type(e).__name__), "message": str(e)}}


def _cases() -> list:
    out = []
    for version in MODELLED:
        for name in FILES:
            inputs = {c["id"]: c["input"] for c in load_golden(name)}
            for c in load_golden(f"{version}/{name}"):
                out.append(pytest.param({**c, "input": inputs[c["id"]]}, id=f"{version}-{c['id']}"))
    return out


@pytest.mark.parametrize("case", _cases())
def test_modelled_release(case: dict) -> None:
    assert _result(GroupSpec.from_json(case["input"]), case["assignor"]) == case["expected"]


def test_modelled_releases_are_the_kafka_trunk_answers() -> None:
    """The 4.0.0 files were made from release 4.0.0's classes: they equal the trunk-2024-10-25 set."""
    for name in FILES:
        trunk = {c["id"]: c["expected"] for c in load_golden(name) if c["kind"] == "single"}
        assert {c["id"]: c["expected"] for c in load_golden(f"4.0.0/{name}")} == trunk, name
