"""``--kafka-version`` of ``kpart assign`` and ``kpart rebalance``: it binds the KIP-848
strategies (uniform, server-range) to the brokers' version and the classic ones to the
consumers'; a version without the assignor, or where kpart does not model it, is an error rather
than another version's answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kpart.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SCENARIO = str(EXAMPLES / "sticky-four-topics.json")


def _rebalance_step0(capsys, *extra: str) -> dict:
    assert main(["rebalance", SCENARIO, "-s", "uniform", "--json", *extra]) == 0
    doc = json.loads(capsys.readouterr().out)
    return doc["steps"][0]


def test_rebalance_uniform_follows_the_kafka_version(capsys):
    """The docs' scenario, step 0 (8 partitions, 3 members): 4.0.0 gives the two extra
    partitions to the first members (C0, C1), 4.0.1+ to the last ones (C1, C2)."""
    new = _rebalance_step0(capsys)["results"]["uniform"]["assignment"]
    assert new == _rebalance_step0(capsys, "--kafka-version", "4.3")["results"]["uniform"][
        "assignment"]
    assert new == {"C0": {"t0": [0, 1]}, "C1": {"t1": [0], "t2": [0, 1]},
                   "C2": {"t1": [1], "t3": [0, 1]}}
    old = _rebalance_step0(capsys, "--kafka-version", "4.0.0")["results"]["uniform"]["assignment"]
    assert old == {"C0": {"t0": [0, 1], "t2": [0]}, "C1": {"t1": [0, 1], "t2": [1]},
                   "C2": {"t3": [0, 1]}}


def test_assign_uniform_follows_the_kafka_version(tmp_path, capsys):
    group = {"topics": {"t": 3}, "members": [{"id": "m1", "topics": ["t"]},
                                              {"id": "m2", "topics": ["t"]}]}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(group))
    assert main(["assign", str(path), "-s", "uniform"]) == 0
    assert json.loads(capsys.readouterr().out)["assignment"] == {
        "m1": {"t": [0]}, "m2": {"t": [1, 2]}}
    assert main(["assign", str(path), "-s", "uniform", "--kafka-version", "4.0.0"]) == 0
    assert json.loads(capsys.readouterr().out)["assignment"] == {
        "m1": {"t": [0, 1]}, "m2": {"t": [2]}}


@pytest.mark.parametrize(("argv", "says"), [
    (["rebalance", SCENARIO, "-s", "range", "-s", "cooperative-sticky", "--kafka-version", "2.3"],
     "The cooperative-sticky assignor does not exist in --kafka-version '2.3'"),
    (["assign", str(EXAMPLES / "uneven.json"), "-s", "range", "--kafka-version", "0.10.0"],
     "The range assignor is not known to kpart for --kafka-version '0.10.0'"),
])
def test_kafka_version_without_the_classic_assignor_is_one_line_exit_2(capsys, argv, says):
    assert main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert captured.out == "" and len(err) == 1
    assert err[0].startswith(f"kpart: error: {says}")


def test_library_assign_takes_kafka_version():
    from kpart.consumer import assign
    from kpart.consumer.spec import GroupSpec
    from kpart.errors import ConfigError

    g = GroupSpec.from_json({"topics": {"t": 3}, "members": [{"id": "m1", "topics": ["t"]},
                                                              {"id": "m2", "topics": ["t"]}]})
    assert assign(g, "uniform").as_dict() == {"m1": {"t": [0]}, "m2": {"t": [1, 2]}}
    assert assign(g, "uniform", kafka_version="4.0.0").as_dict() == {
        "m1": {"t": [0, 1]}, "m2": {"t": [2]}}
    with pytest.raises(ConfigError, match=r"sticky assignor.* kafka_version '0\.11\.0\.0'"):
        assign(g, "sticky", kafka_version="0.11.0.0")


def test_bad_kafka_version_on_rebalance_is_one_line_exit_2(capsys):
    assert main(["rebalance", SCENARIO, "-s", "uniform", "--kafka-version", "04.1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [err[0]] and "Invalid --kafka-version '04.1'" in err[0]
