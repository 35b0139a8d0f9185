"""Every command takes ``--kafka-version`` (issue 25: "every command takes --kafka-version"),
``kpart upgrade`` its ``--from``/``--to``; where a command's output depends on the version it
follows it (``partitioners``: the Java producer's null-key strategy), elsewhere the version is
checked and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from kpart.cli import _register, app, main

runner = CliRunner()


def _commands() -> dict[str, Any]:
    _register()
    return dict(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def test_every_command_takes_the_kafka_version() -> None:
    missing = [name for name, cmd in _commands().items()
               if not any("--kafka-version" in p.opts for p in cmd.params)]
    assert sorted(missing) == ["upgrade", "version"], missing  # upgrade: --from and --to;
    # version prints the default
    upgrade = _commands()["upgrade"]
    assert {"--from", "--to"} <= {o for p in upgrade.params for o in p.opts}


@pytest.mark.parametrize(("version", "strategy"), [
    ("2.3", "legacy"), ("2.4.1", "sticky"), ("3.2", "sticky"), ("3.3", "builtin"),
    ("4.3", "builtin")])
def test_partitioners_describe_the_java_producer_of_the_version(version: str,
                                                                strategy: str) -> None:
    result = runner.invoke(app, ["partitioners", "--kafka-version", version])
    assert result.exit_code == 0, result.output
    java = next(line for line in result.output.splitlines() if line.startswith("java:default"))
    assert f"Java producer {version}" in java and f"null key -> {strategy} " in java


def test_whatif_and_compat_give_the_same_answer_in_every_java_version() -> None:
    argv = ["whatif", "--keys", "a,b,c,d,e", "-p", "3", "--to", "4", "--json"]
    base = runner.invoke(app, argv)
    assert base.exit_code == 0, base.output
    for v in ("0.10.2", "2.4", "3.9.0", "4.3"):
        assert runner.invoke(app, [*argv, "--kafka-version", v]).output == base.output
    argv = ["compat", "--keys", "a,b,c,d,e", "-p", "3", "--json"]
    base = runner.invoke(app, argv)
    assert runner.invoke(app, [*argv, "--kafka-version", "2.8"]).output == base.output


@pytest.mark.parametrize("command", [
    ["describe", "--current", "/nonexistent/d.txt"],
    ["cluster", "--current", "/nonexistent/d.txt"],
    ["snapshot-group", "/nonexistent/c.json", "g"],
    ["snapshot", "--bootstrap-server", "127.0.0.1:1", "--out", "/nonexistent/c.json"],
])
def test_the_version_is_checked_before_anything_else(command: list[str],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--kafka-version", "4.x"]) == 2
    err = capsys.readouterr().err
    assert "'4.x'" in err and "nonexistent" not in err and len(err.splitlines()) == 1
