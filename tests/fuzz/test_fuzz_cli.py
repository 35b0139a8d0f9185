"""Fuzzing every ``kpart`` command (issue 10, point 12): random arguments on random and
mutated input files exit 0 or 2 through ``kpart.cli.main``, never with a traceback or another
exception; an exit 2 prints exactly one ``kpart: error:`` line.

Each example runs in a scratch directory (the working directory) holding freshly written input
files (each a valid example or a mutation of one); paths on the command line name only files in
it. Options and their valid values come from the commands themselves (so options added later
are fuzzed too), mixed with junk values. Spark never starts: the session factory is replaced by
one that stops the command (a command that reaches Spark passed every check before it, which
is all this test can say about it). Numbers stay small here (sizes are the business of the size
limits and of the parser fuzz tests): a valid huge count would only make a command slow.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
import typer
import typer.main
from fuzz_inputs import STRINGS, mutated_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kpart.spark.session
from kpart.cli import _register, app, main
from kpart_hypothesis import fuzz_scale, scale_examples

pytestmark = pytest.mark.fuzz

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

_register()
CLICK = typer.main.get_command(app)
COMMANDS = CLICK.commands  # type: ignore[attr-defined]
_GET_COMMAND = typer.main.get_command


def _cached_get_command(typer_app: typer.Typer) -> object:
    # typer rebuilds the click command tree on every call (~40 ms); one tree serves every run
    return CLICK if typer_app is app else _GET_COMMAND(typer_app)


def _example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


#: the scratch directory's files: name -> a valid content (written valid or mutated)
FILES: dict[str, str] = {
    "group.json": _example("range-roundrobin.json"),
    "uneven.json": _example("uneven.json"),
    "kip848.json": json.dumps({
        "topics": [{"name": "t0", "id": "UgDYw3tMnaKH7I4nNbX4gw", "partitions": 4}],
        "members": [{"id": "a", "topics": ["t0"], "assignment": [["t0", [0, 1]]]},
                    {"id": "b", "topics": ["t0"], "rack": "r1"}],
    }),
    "scenario.json": _example("sticky-four-topics.json"),
    "scenario.toml": 'topics = { t0 = 2, t1 = 2 }\n[[steps]]\njoin = [{ id = "C0", topics = '
                     '["t0", "t1"] }, { id = "C1", topics = ["t0"] }]\n[[steps]]\nleave = '
                     '["C0"]\n',
    "topology.toml": '[cluster]\nbrokers = [0, 1, 2]\n[topic]\nname = "t"\npartitions = 3\n'
                     'replication_factor = 2\nkey = "k"\n[[groups]]\nname = "g"\nstrategy = '
                     '"range"\nmembers = ["a", "b"]\n',
    "describe.txt": _example("topic-test4.describe.txt"),
    "current.json": '{"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[1,2]},'
                    '{"topic":"foo","partition":1,"replicas":[2,1]},{"topic":"bar","partition":0,'
                    '"replicas":[3]}]}',
    "zk.json": '{"version":1,"partitions":{"0":[0,1],"1":[1,0]}}',
    "pools.json": '{"pools": {"a": {"brokers": [1, 2], "topics": ["foo"]}, "b": {"brokers": '
                  '[3], "topics": ["bar"]}}}',
    "sizes.json": '{"foo-0": 10, "foo-1": 20, "bar": {"0": 5}}',
    "records.csv": "timestamp_ms,size,key\n0,100,a\n5,200,b\n10,100,\n12,50,c\n",
    "records.jsonl": '{"timestamp_ms": 0, "size": 10, "key": "a"}\n{"timestamp_ms": 3, "size": 7}\n',
    "keys.csv": "k,v\na,1\nb,2\n",
    "share.json": json.dumps({
        "topics": [{"name": "t0", "id": "UgDYw3tMnaKH7I4nNbX4gw", "partitions": 3}],
        "members": [{"id": "a", "topics": ["t0"]}, {"id": "b", "topics": ["t0"]}]}),
    "streams.json": json.dumps({
        "subtopologies": [{"id": "s0", "tasks": 4, "stateful": True}], "num_standby_replicas": 1,
        "members": [{"id": "m0", "process_id": "p0"}, {"id": "m1", "process_id": "p1"}]}),
    "keys.txt": "a\nb\n\nc\n",  # kpart upgrade --keys (producer side)
    # kpart plan's load-aware mode (its PlanRequest: --capacity, --loads, --sizes, --goals)
    "cluster.describe.txt": _example("cluster.describe.txt"),
    "log-dirs.txt": _example("cluster.log-dirs.txt"),
    "capacity.json": _example("capacity.json"),
    "rates.csv": _example("rates.csv"),
    "timed.json": json.dumps({"topics": {"t": 6}, "steps": [  # KIP-1263 batching
        {"at_ms": t, "join": [{"id": m, "topics": ["t"]}]} for t, m in ((0, "A"), (200, "B"))]}),
}
FILE_ARGS = [*FILES, "bad.bin", "empty.json", "dir", "missing.json", "dir/missing.toml"]
OUT_ARGS = ["out.json", "out", "dir", "dir/out.txt", "new/out.json", "group.json"]
if importlib.util.find_spec("kpart._files") is not None:  # the one output writer (point 2):
    OUT_ARGS.append(".")  # before it, `-o .` was an OSError traceback (EBUSY) in every command
#: numbers as a user types them, small enough that a valid one runs quickly
NUMBERS = ["0", "1", "2", "3", "6", "12", "-1", "-0", "1.5", "1e3", "0x10", "", " 3", "007",
           "abc", "99999999999999999999", "²", "٣"]
#: valid values of options, by option name (any option also gets junk values)
VALUES: dict[str, list[str]] = {
    "--partitions": ["1", "3", "6", "12"],
    "-n": ["1", "3", "6", "12"],
    "-p": ["1", "3", "6"],
    "--to": ["4", "7,9", "3", "4.3", "4.0.0"],
    "--from": ["4.0.0", "4.1.0", "3.6"],
    "--to-protocol": ["consumer", "classic", "share"],
    "--kafka-version": ["4.3", "4.0.0", "4.0", "3.6", "4.1", "2.4.1", "4.4", "0.10.0.0", "2.3",
                        "3.3.1"],
    "--down": ["1", "2", "1,2", "9"],
    "--up": ["1", "2", "9"],
    "--up-unclean": ["1", "2"],
    "--group": ["g", "polygenelubricants", ""],
    "--transactional-id": ["t", "tx-1"],
    "--client-rack": ["a", "", " "],
    "--limit": ["0", "3"],
    "--assignment-interval-ms": ["0", "300", "1000"],
    "--search": ["2-8", "3-3", "8-2"],
    "--serializer": ["string", "bytes", "uuid", "int", "long", "short", "hex", "double"],
    "--partitioner": ["java:default", "librdkafka:consistent", "sarama:default",
                      "kafkajs:legacy", "builtin", "sticky", "round-robin", "nope"],
    "--partitioners": ["java:default,sarama:default", "all"],
    "--strategy": ["range", "roundrobin", "sticky", "cooperative-sticky", "uniform",
                   "server-range", "round-robin", "random", "generate", "minimal", "legacy"],
    "-s": ["range", "sticky", "cooperative-sticky", "round-robin", "random"],
    "--assignor": ["uniform", "range"],
    "-a": ["uniform", "range"],
    "--format": ["json", "table", "csv", "parquet", "text", "describe", "zk"],
    "-f": ["json", "table"],
    "--brokers": ["0,1,2", "0:r1,1:r1,2-5", "1,2,3", "1-3", "3"],
    "--racks": ["a,b,c", "a,,b", "a"],
    "--fenced": ["1", "0,1"],
    "--keys": ["a,b,c", "1,2,3", "e4d1a0a6-5b63-4a55-9e5c-5f9b7c2a1d3e", "ff00", ""],
    "--key": ["k", "key", "tailnum", "v"],
    "--seed": ["0", "42", "-1"],
    "--replication-factor": ["1", "2", "3"],
    "--start-index": ["0", "1", "-1"],
    "--topic": ["foo", "t", "topic-test4", "t0"],
    "--add-brokers": ["4", "3,4"],
    "--remove-brokers": ["1", "3"],
    "--max-moves": ["1", "10"],
    "--max-concurrent-moves-per-broker": ["1", "2"],
    "--records": ["10", "100"],
    "--rate": ["100", "0.5"],
    "--size": ["100"],
    "--size-jitter": ["0.1", "0"],
    "--batch-size": ["100", "16384"],
    "--linger-ms": ["0", "5"],
    "--latency-ms": ["1", "0"],
    "--availability-timeout-ms": ["0", "10"],
    "--max-in-flight": ["1", "5"],
    "--broker-latency": ["0=5,1=10", "0=x"],
    "--unavailable": ["0,1", "1"],
    "--rack": ["0=a", "a"],
    "--config": ["batch.size=100", "linger.ms=5", "partitioner.ignore.keys=true", "x"],
    "-c": ["linger.ms=5"],
    "--null-keys": ["client", "random", "sticky", "round-robin"],
    "--whatif": ["6,12", "4"],
    "--compat": ["java:default,sarama:default"],
    "--examples": ["3", "0"],
    "--master": ["local[1]", "spark://127.0.0.1:1"],
    "--goals": ["RackAwareGoal", "RackAwareGoal,ReplicaCapacityGoal", "DiskUsageDistributionGoal",
                "RackAware", "", "RackAwareGoal,RackAwareGoal"],
    "--capacity-threshold": ["0.8", "1", "0", "1.5", "nan", "inf"],
    "--balance-threshold": ["1.1", "1", "0.5", "inf", "nan"],
    "--max-replicas-per-broker": ["1", "100", "0"],
    "--throttle": ["1000000", "1"],
}
_SAFE_TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="/\\"), max_size=8
).filter(lambda s: s not in ("..", "~"))
JUNK = st.one_of(
    st.sampled_from(NUMBERS),
    st.sampled_from([s for s in STRINGS if "\ud800" not in s]),
    _SAFE_TEXT,
    # what a shell passes for bytes that are not UTF-8 (point 6)
    st.binary(min_size=1, max_size=4).map(os.fsdecode).filter(lambda s: "/" not in s),
    st.sampled_from(["--nope", "-x", "-", "--", "--json", "--help"]),
)
_OUTPUT_OPTS = {"--out", "-o", "--output", "--rollback", "--describe-out", "--topics-out",
                "--summary-out", "--html-out"}
_INPUT_OPTS = {"--current", "--pools", "--sizes", "--topology", "--input", "-i", "--capacity",
               "--loads", "--snapshot"}


def _value(draw: st.DrawFn, opt: str) -> str:
    if opt in _OUTPUT_OPTS:
        return draw(st.sampled_from(OUT_ARGS))
    if opt in _INPUT_OPTS:
        return draw(st.one_of(st.sampled_from(FILE_ARGS), JUNK))
    return draw(st.one_of(st.sampled_from(VALUES.get(opt) or NUMBERS), JUNK))


#: valid command lines (quick ones) that the fuzz mutates: most random lines die as usage errors
TEMPLATES: dict[str, list[list[str]]] = {
    "version": [["version"]],
    "partitioners": [["partitioners"]],
    "partition": [["partition", "a", "b", "-n", "6"],
                  ["partition", "1", "-n", "3", "--serializer", "int"]],
    "compat": [["compat", "--keys", "a,b,c", "-n", "6"],
               ["compat", "--keys", "1,2", "-n", "12", "--serializer", "long", "--json"]],
    "whatif": [["whatif", "--keys", "a,b,c", "-n", "6", "--to", "12"],
               ["whatif", "--keys", "a,b", "-n", "6", "--to", "8", "--search", "2-8", "--json"]],
    "simulate": [["simulate", "--records", "40"], ["simulate", "-i", "records.csv", "-p", "3"],
                 ["simulate", "-i", "records.jsonl", "--strategy", "sticky", "--json"],
                 ["simulate", "--records", "40", "--kafka-version", "2.8", "--strategy",
                  "default,sticky"],
                 ["simulate", "--records", "40", "--kafka-version", "4.4", "--rack", "0=a",
                  "--rack-aware", "--client-rack", "a"]],
    "place": [["place", "--brokers", "0,1,2", "--partitions", "6", "--replication-factor", "2"],
              ["place", "--brokers", "0,1,2,3", "--racks", "a,b,a,b", "--partitions", "4",
               "--replication-factor", "2", "--format", "json", "-o", "out.json"]],
    "plan": [["plan", "--current", "current.json", "--add-brokers", "4"],
             ["plan", "--current", "describe.txt", "--add-brokers", "3", "--json"],
             ["plan", "--current", "zk.json", "--topic", "foo", "--add-brokers", "3"],
             ["plan", "--current", "cluster.describe.txt", "--sizes", "log-dirs.txt", "--loads",
              "rates.csv", "--capacity", "capacity.json", "--brokers", "1:a,2:b,3:c,4:d",
              "--add-brokers", "5:b", "--goals", "RackAwareGoal,DiskCapacityGoal", "--json"]],
    "pools": [["pools", "--current", "current.json", "--pools", "pools.json"]],
    "describe": [["describe", "--current", "describe.txt"],
                 ["describe", "--current", "current.json", "--pools", "pools.json", "--json"]],
    "assign": [["assign", "group.json", "-s", "sticky"],
               ["assign", "uneven.json", "-s", "cooperative-sticky", "-f", "table"]],
    "server-assign": [["server-assign", "kip848.json", "-a", "range"]],
    "upgrade": [["upgrade", "kip848.json", "--from", "4.0.0", "--to", "4.3"],
                ["upgrade", "--keys", "keys.txt", "-p", "4", "--from", "3.9.0", "--to", "4.3",
                 "--partitioner", "round-robin", "--limit", "2"],
                ["upgrade", "--keys", "keys.txt", "-p", "3", "--from", "2.3", "--to", "4.3",
                 "--json"]],
    "migrate": [["migrate", "group.json", "--to-protocol", "consumer", "-a", "sticky"]],
    "rebalance": [["rebalance", "scenario.json", "-s", "range", "-s", "sticky"],
                  ["rebalance", "timed.json", "-s", "uniform", "--assignment-interval-ms", "300"],
                  ["rebalance", "scenario.toml", "--json"]],
    "share-assign": [["share-assign", "share.json"],
                     ["share-assign", "share.json", "--kafka-version", "4.1", "--json"]],
    "streams-assign": [["streams-assign", "streams.json", "--json"]],
    "coordinator": [["coordinator", "--group", "g", "--partitions", "50", "--json"],
                    ["coordinator", "--transactional-id", "t", "--kafka-version", "3.6"]],
    "outage": [["outage", "--current", "describe.txt", "--down", "1"],
               ["outage", "--current", "describe.txt", "--down", "1", "--down", "2", "--up",
                "1", "--json"],
               ["outage", "--current", "describe.txt", "--down", "2", "--up-unclean", "2",
                "--no-elr", "--kafka-version", "4.1"]],
    "report": [["report", "keys.csv", "--topology", "topology.toml", "--key", "k",
                "--out", "out"]],
}


@st.composite
def mutated_argv(draw: st.DrawFn, name: str) -> list[str]:
    """A valid command line of ``kpart NAME`` with zero to three mutations: a value replaced
    (junk, or another option's valid value), a token dropped, duplicated or swapped, an option
    added."""
    argv = list(draw(st.sampled_from(TEMPLATES.get(name) or [[name]])))
    options = [o for p in COMMANDS[name].params if p.param_type_name == "option" for o in p.opts]
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(1, len(argv))) if len(argv) > 1 else 1
        op = draw(st.sampled_from(["value", "value", "drop", "dup", "swap", "add"]))
        if op == "add" or i == len(argv):
            opt = draw(st.sampled_from(options or ["--nope"]))
            argv[i:i] = [opt, _value(draw, opt)]
        elif op == "value":
            argv[i] = draw(st.one_of(JUNK, st.sampled_from(sorted({v for vs in VALUES.values()
                                                                    for v in vs}))))
        elif op == "drop":
            del argv[i]
        elif op == "dup":
            argv.insert(i, argv[i])
        else:
            j = draw(st.integers(1, len(argv) - 1))
            argv[i], argv[j] = argv[j], argv[i]
    return argv


def any_argv(name: str) -> st.SearchStrategy[list[str]]:
    """Mutated valid command lines (mostly) and random ones (``simulate``: 40 records unless
    the line says how many; its default of 10,000 takes seconds)."""
    lines = st.one_of(mutated_argv(name), mutated_argv(name), mutated_argv(name), argv_for(name))
    if name == "simulate":
        return lines.map(lambda a: a if {"--records", "-n"} & set(a) else [*a, "-n", "40"])
    return lines


@st.composite
def argv_for(draw: st.DrawFn, name: str) -> list[str]:
    """A random command line for ``kpart NAME``: its arguments and options, valid or not."""
    cmd = COMMANDS[name]
    options = [(o, p) for p in cmd.params if p.param_type_name == "option" for o in p.opts]
    arguments = [p for p in cmd.params if p.param_type_name == "argument"]
    argv = [name]
    for p in arguments:
        for _ in range(draw(st.integers(0, 3 if p.nargs == -1 else 1))):
            argv.append(draw(st.one_of(st.sampled_from(FILE_ARGS), JUNK)))
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["option", "option", "option", "junk"] if options
                                    else ["junk"]))
        if kind == "junk":
            argv.insert(draw(st.integers(1, len(argv))), draw(JUNK))
            continue
        opt, param = draw(st.sampled_from(options))
        argv.append(opt)
        if not getattr(param, "is_flag", False) and draw(st.integers(0, 9)):
            argv.append(_value(draw, opt))
    return argv


class ReachedSpark(BaseException):
    """Raised instead of starting Spark: the command passed every check before it."""


def _no_spark(*args: object, **kwargs: object) -> object:
    raise ReachedSpark


@st.composite
def scratch_files(draw: st.DrawFn) -> dict[str, bytes]:
    """The scratch directory's files: each valid or mutated (``bad.bin``: invalid UTF-8)."""
    files = {}
    for name, text in FILES.items():
        if draw(st.integers(0, 3)) == 0:
            text = draw(mutated_text([text], huge=False))
        files[name] = text.encode("utf-8", "surrogatepass")
    files["bad.bin"] = b'{"topics": \xff\xfe}\n'
    files["empty.json"] = b""
    return files


def run_cli(argv: list[str], files: dict[str, bytes], where: Path) -> tuple[int | None, str, str]:
    """``kpart.cli.main(argv)`` in ``where`` (emptied, then filled with ``files``): the exit
    code (``None`` when the command reached Spark), stdout and stderr."""
    shutil.rmtree(where, ignore_errors=True)
    (where / "dir").mkdir(parents=True)
    for name, data in files.items():
        (where / name).write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    saved = kpart.spark.session.get_or_create_session
    stdin = sys.stdin
    kpart.spark.session.get_or_create_session = _no_spark  # type: ignore[assignment]
    typer.main.get_command = _cached_get_command  # type: ignore[assignment]
    sys.stdin = io.StringIO("")
    try:
        with contextlib.chdir(where), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err):
            try:
                code: int | None = main(argv)
            except ReachedSpark:
                code = None
    finally:
        kpart.spark.session.get_or_create_session = saved  # type: ignore[assignment]
        typer.main.get_command = _GET_COMMAND  # type: ignore[assignment]
        sys.stdin = stdin
    return code, out.getvalue(), err.getvalue()


def check_cli(argv: list[str], files: dict[str, bytes], where: Path) -> None:
    code, out, err = run_cli(argv, files, where)
    assert "Traceback" not in err + out, (argv, err)
    if code is None:
        return
    assert code in (0, 2), (argv, code, err)
    errors = [line for line in err.splitlines() if line.startswith("kpart: error: ")]
    if code == 2:
        assert len(errors) == 1, (argv, err)
    else:
        assert not errors, (argv, err)


FUZZ_CLI = settings(
    max_examples=20, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                           HealthCheck.data_too_large],
)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_fuzz_command(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    where = tmp_path_factory.mktemp(f"fuzz-{name}") / "cwd"

    @FUZZ_CLI
    @given(any_argv(name), scratch_files())
    def fuzz(argv: list[str], files: dict[str, bytes]) -> None:
        check_cli(argv, files, where)

    scale_examples(fuzz, fuzz_scale())  # not a collected test: make fuzz scales it here
    fuzz()
