"""Option conventions of every ``kpart`` command (:mod:`kpart.cli._options`), found by walking
the click commands typer builds from ``kpart.cli.app``: an option writing a file is
``-o/--out`` (a second output ``--<what>-out``), a partition count is ``-p/--partitions``, every
``--serializer`` lists the same names, help texts carry no internal words and name the format
page of a file they read; old spellings still work as hidden aliases."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer

from kpart.cli import _register, app, main
from kpart.cli._options import SERIALIZER_NAMES
from kpart.producer.serializers import SERIALIZERS

ROOT = Path(__file__).resolve().parent.parent

#: Path-typed options and arguments that *read* a file, with the docs page of their format.
INPUTS = {
    ("report", "topology"): "docs/formats/topology.md",
    ("report", "data"): None,
    ("report", "capacity"): "docs/cluster.md",
    ("report", "current"): "docs/formats/current.md",
    ("report", "snapshot"): "docs/outage.md",
    ("compat", "data"): None,
    ("whatif", "data"): None,
    ("simulate", "input_path"): None,
    ("plan", "current"): "docs/formats/current.md",
    ("pools", "current"): "docs/formats/current.md",
    ("describe", "current"): "docs/formats/current.md",
    ("plan", "pools_path"): "docs/formats/pools.md",
    ("pools", "pools_path"): "docs/formats/pools.md",
    ("describe", "pools_path"): "docs/formats/pools.md",
    ("plan", "sizes"): "docs/formats/sizes.md",
    ("pools", "sizes"): "docs/formats/sizes.md",
    ("assign", "file"): "docs/formats/group.md",
    ("server-assign", "file"): "docs/formats/kip848-group.md",
    ("share-assign", "file"): "docs/share-groups.md",
    ("streams-assign", "file"): "docs/streams-groups.md",
    ("rebalance", "scenario_file"): "docs/formats/scenario.md",
    ("upgrade", "file"): "docs/formats/kip848-group.md",
    ("upgrade", "keys"): "docs/versions.md",
    ("upgrade", "dataset"): None,
    ("migrate", "file"): "docs/formats/group.md",
    ("outage", "current"): "docs/formats/current.md",
    ("outage", "plan"): "docs/formats/current.md",
    ("outage", "snapshot"): "docs/outage.md",
    ("outage", "groups_file"): "docs/coordinators.md",
    ("outage", "features"): "docs/outage.md",
    ("snapshot", "features"): "docs/snapshot.md",
    ("coordinator", "snapshot"): "docs/snapshot.md",
    ("snapshot", "command_config"): "docs/snapshot.md",
    ("snapshot-group", "cluster"): "docs/snapshot.md",
    ("cluster", "current"): "docs/formats/current.md",
    ("cluster", "sizes"): "docs/formats/sizes.md",
    ("cluster", "capacity"): "docs/cluster.md",
    ("plan", "capacity"): "docs/cluster.md",
    ("plan", "snapshot"): "docs/outage.md",
}


def _commands():
    _register()
    return typer.main.get_command(app).commands


def _visible(cmd):
    return [p for p in cmd.params if not getattr(p, "hidden", False)]


def _is_path(param) -> bool:
    return getattr(getattr(param, "type_descriptor", None), "annotation", None) is Path


def test_every_file_option_is_an_input_or_named_out() -> None:
    writers = set()
    for name, cmd in _commands().items():
        outs = []
        for p in _visible(cmd):
            if not _is_path(p):
                continue
            if (name, p.name) in INPUTS:
                continue
            outs.append(p)
            long = [o for o in p.opts if o.startswith("--")]
            assert long and (long[0] == "--out" or long[0].endswith("-out")), (name, p.opts)
            if long[0] == "--out":
                assert "-o" in p.opts, (name, p.opts)
        if outs:
            writers.add(name)
            assert any("--out" in p.opts and "-o" in p.opts for p in outs), (name, "no -o/--out")
    assert writers == {"compat", "whatif", "simulate", "place", "plan", "pools", "assign",
                       "server-assign", "share-assign", "rebalance", "report", "outage",
                       "snapshot", "snapshot-group", "cluster", "upgrade", "migrate",
                       "streams-assign"}


def test_inputs_listed_here_exist() -> None:
    commands = _commands()
    for (name, dest), page in INPUTS.items():
        assert any(p.name == dest and _is_path(p) for p in commands[name].params), (name, dest)
        if page is not None:
            assert (ROOT / page).is_file(), page


def test_help_of_a_file_input_names_its_format_page() -> None:
    commands = _commands()
    for (name, dest), page in INPUTS.items():
        if page is None:
            continue
        param = next(p for p in commands[name].params if p.name == dest)
        assert page in (param.help or ""), (name, dest, param.help)


def test_partition_counts_are_p_partitions() -> None:
    seen = 0
    for name, cmd in _commands().items():
        for p in _visible(cmd):
            if "--partitions" in p.opts:
                seen += 1
                assert sorted(p.opts) == ["--partitions", "-p"], (name, p.opts)
    assert seen >= 5


def test_serializer_lists_agree() -> None:
    from kpart.spark.transforms import SERIALIZERS as SPARK_SERIALIZERS
    from kpart.topology import KEY_SERIALIZERS

    # one list: the command line, a topology's key_serializer and the Spark layer
    assert set(SERIALIZER_NAMES) == set(SERIALIZERS) == set(KEY_SERIALIZERS) == set(
        SPARK_SERIALIZERS)
    # ... and one source: producer.serializers (issue 11), which the others import
    from kpart.producer._keys import VALUE_SERIALIZERS as ARROW_SERIALIZERS
    from kpart.spark._keys import SERIALIZERS as KEY_CONTRACT_SERIALIZERS

    assert SERIALIZER_NAMES is SERIALIZERS is KEY_SERIALIZERS is SPARK_SERIALIZERS
    assert KEY_CONTRACT_SERIALIZERS is SERIALIZERS
    assert tuple(s for s in SERIALIZERS if s != "hex") == ARROW_SERIALIZERS
    seen = set()
    for name, cmd in _commands().items():
        for p in _visible(cmd):
            if "--serializer" not in p.opts:
                continue
            seen.add(name)
            listed = set(re.findall(r"\b(" + "|".join(SERIALIZERS) + r")\b", p.help or ""))
            assert listed == set(SERIALIZERS), (name, p.help)
    assert {"partition", "compat", "whatif", "report"} <= seen


def test_no_internal_words_in_help() -> None:
    for name, cmd in _commands().items():
        texts = [cmd.help or ""] + [getattr(p, "help", None) or "" for p in cmd.params]
        for text in texts:
            assert not re.search(r"\bseed 00\d|FORMAT\.md|golden", text), (name, text)


@pytest.mark.parametrize("argv", [
    ["partition", "my_key_1", "-n", "6"],
    ["compat", "--keys", "a,b", "-n", "6", "--json"],
    ["whatif", "--keys", "a,b", "-n", "6", "--to", "8", "--json"],
])
def test_old_n_alias_still_works(argv, capsys) -> None:
    assert main(argv) == 0
    with_n = capsys.readouterr().out
    assert main([a if a != "-n" else "-p" for a in argv]) == 0
    assert capsys.readouterr().out == with_n


def test_old_output_aliases_still_work(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    place = ["place", "--brokers", "0,1,2", "--partitions", "3", "--replication-factor", "2",
             "--seed", "7"]
    assert main([*place, "--output", "a.txt"]) == 0
    assert main([*place, "-o", "b.txt"]) == 0
    assert Path("a.txt").read_text() == Path("b.txt").read_text() != ""
    sim = ["simulate", "--seed", "1", "-n", "200", "-s", "sticky"]
    assert main([*sim, "--output", "a.json"]) == 0
    assert main([*sim, "--out", "b.json"]) == 0
    assert json.loads(Path("a.json").read_text()) == json.loads(Path("b.json").read_text())
    describe = (ROOT / "docs/examples/topic-test4.describe.txt")
    plan = ["plan", "--current", str(describe), "--add-brokers", "3", "--seed", "1"]
    assert main([*plan, "--rollback", "r1.json"]) == 0
    assert main([*plan, "--rollback-out", "r2.json"]) == 0
    assert Path("r1.json").read_text() == Path("r2.json").read_text() != ""
    assert main([*place, "--out", "c.txt", "--output", "d.txt"]) == 2
    assert "--out is given twice" in capsys.readouterr().err


def test_hex_keys_on_the_command_line_agree(capsys) -> None:
    # hex = the raw bytes: what `partition` gives for them equals compat's reference client
    assert main(["partition", "00ff", "c3a9", "-p", "12", "--serializer", "hex"]) == 0
    parts = [int(line.split("\t")[1]) for line in capsys.readouterr().out.splitlines()]
    assert main(["partition", "é", "-p", "12"]) == 0  # c3a9 is the UTF-8 of é
    assert int(capsys.readouterr().out.split("\t")[1]) == parts[1]
    assert main(["whatif", "--keys", "00ff,c3a9", "-p", "12", "--to", "12", "--serializer",
                 "hex", "--json"]) == 0
    loads = json.loads(capsys.readouterr().out)["whatif"]["loads"][0]["records"]
    assert [p for p, n in enumerate(loads) for _ in range(n)] == sorted(parts)



@pytest.mark.parametrize("command", ["compat", "whatif", "report"])
def test_hex_on_a_dataset_is_checked_before_spark(command, tmp_path, capsys) -> None:
    # the first keys of a dataset are checked by the rule of --keys before Spark starts
    # ("record 2": resolve_input's line); a number column is no hex text
    import pyarrow as pa
    import pyarrow.parquet as pq

    extra = {"whatif": ["--to", "16"], "report": ["--out", str(tmp_path / "out")]}.get(
        command, [])
    csv = tmp_path / "keys.csv"
    csv.write_text("k,v\n00ff,1\n0x1f,2\n")
    assert main([command, str(csv), "--key", "k", "-p", "12", "--serializer", "hex",
                 *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("kpart: error:") == 1 and "'0x1f'" in err and "record 2" in err, err
    ints = tmp_path / "ints.parquet"
    pq.write_table(pa.table({"k": pa.array([1, 2], pa.int64())}), ints)
    assert main([command, str(ints), "--key", "k", "-p", "12", "--serializer", "hex",
                 *extra]) == 2
    err = capsys.readouterr().err
    assert "'hex' cannot serialize column 'k' of type bigint" in err
    assert "takes text of hex digits" in err
    assert not (tmp_path / "out").exists()
