"""``kpart server-assign`` on KIP-848 group files with ``subscribed_topic_regex``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kpart.cli import main

TOPICS = [{"name": "orders-eu", "id": "TiSarLlxTTgvi602tDaz1Q", "partitions": 3},
          {"name": "orders-us", "id": "2RjmLIM4RqSJtk8VdT2LSA", "partitions": 2},
          {"name": "payments", "id": "Lm1QDqF3QHyOcLpS2eRz6g", "partitions": 2}]


def _run(capsys: pytest.CaptureFixture[str], tmp_path: Path, members: list[dict],
         *argv: str) -> tuple[int, str, str]:
    src = tmp_path / "group.json"
    src.write_text(json.dumps({"topics": TOPICS, "members": members}), encoding="utf-8")
    code = main(["server-assign", str(src), *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_regex_members_are_assigned_the_topics_it_matches(capsys, tmp_path) -> None:
    regex = {"subscribed_topic_regex": "orders-.*"}
    code, out, err = _run(capsys, tmp_path, [{"id": "m1", **regex}, {"id": "m2", **regex}])
    assert (code, err) == (0, "")
    got = json.loads(out)["assignment"]
    assert got == {"m1": {"orders-us": [0, 1]}, "m2": {"orders-eu": [0, 1, 2]}}
    code, out, _ = _run(capsys, tmp_path, [{"id": "m1", **regex}, {"id": "m2", **regex}],
                        "--kafka-version", "4.0.0")
    assert json.loads(out)["assignment"] == {"m1": {"orders-us": [0, 1], "orders-eu": [0]},
                                             "m2": {"orders-eu": [1, 2]}}


def test_regex_and_names_is_heterogeneous(capsys, tmp_path) -> None:
    members = [{"id": "m1", "subscribed_topic_regex": "orders-.*"},
               {"id": "m2", "topics": ["orders-eu", "orders-us"]}]
    code, out, err = _run(capsys, tmp_path, members, "--kafka-version", "4.0.0")
    assert (code, err) == (0, "")
    assert json.loads(out)["assignment"] == {"m1": {"orders-eu": [0, 2]},
                                             "m2": {"orders-eu": [1], "orders-us": [0, 1]}}


def test_a_bad_regex_is_one_line_and_nothing_written(capsys, tmp_path) -> None:
    out_file = tmp_path / "out.json"
    code, out, err = _run(capsys, tmp_path, [{"id": "m7", "subscribed_topic_regex": "a\\C"}],
                          "-o", str(out_file))
    assert code == 2 and out == "" and not out_file.exists()
    assert err.count("\n") == 1 and err.startswith("kpart: error: ")
    assert "'m7'" in err and "'a\\\\C'" in err and "RE2/J" in err
