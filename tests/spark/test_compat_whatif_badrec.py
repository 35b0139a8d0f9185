"""Issue 24 point 4(b) for ``kpart compat`` / ``kpart whatif`` on a JSON dataset: a malformed
line is refused by default (one line naming the file and line, exit 2), and with
``--bad-records count`` it is counted apart (``malformed_records``), never as a null-key record."""

from __future__ import annotations

import json

import pytest

from kpart.cli import main

pytestmark = pytest.mark.spark

_COMMANDS = {"compat": ["compat", "-p", "6"], "whatif": ["whatif", "-p", "6", "--to", "8"]}
_NULLS = {"compat": "null_key_records", "whatif": "unkeyed_records"}


def _dataset(tmp_path):
    path = tmp_path / "e.jsonl"
    good = "".join(json.dumps({"user": f"u{i % 7}" if i % 5 else None, "v": i}) + "\n"
                   for i in range(20))  # 4 records without key
    path.write_text(good + '{"user": "u1", "v"\n')
    return path


@pytest.mark.parametrize("command", sorted(_COMMANDS))
def test_a_malformed_json_line_is_refused_by_default(spark, tmp_path, capsys, command):
    path = _dataset(tmp_path)
    assert main([*_COMMANDS[command], str(path), "--key", "user", "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kpart: error: ")
    assert f"{str(path)!r}, line 21: malformed JSON record" in err[0]
    assert "Traceback" not in err[0]


@pytest.mark.parametrize("command", sorted(_COMMANDS))
def test_bad_records_count_counts_malformed_lines_apart(spark, tmp_path, capsys, command):
    path = _dataset(tmp_path)
    argv = [*_COMMANDS[command], str(path), "--key", "user", "--quiet", "--bad-records", "count"]
    assert main([*argv, "--json"]) == 0
    section = json.loads(capsys.readouterr().out)[command]
    assert section["malformed_records"] == 1
    assert section[_NULLS[command]] == 4 and section["records"] == 16  # keyed records only
    assert main(argv) == 0
    assert "1 malformed JSON record left out" in capsys.readouterr().out
