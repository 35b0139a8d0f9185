"""The guide in docs/: every ``$ kpart ...`` line of a ```console block runs, output as shown.

Convention (docs/index.md): in a fenced ``console`` block, a line ``$ kpart ARGS`` is a command
and the lines up to the next ``$`` line (or the end of the block) are its expected output:
stdout then stderr, compared line by line with trailing spaces removed. An expected output that
starts with ``kpart: error:`` means exit code 2; otherwise the command must exit 0. Commands
run in-process (``kpart.cli.main``) from the repository root.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import struct
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
DECISION_PAGES = (
    "producer-partitioning.md", "consumer-assignment.md", "replica-placement.md", "pipeline.md",
)
_FENCE = re.compile(r"^```(\w*)\s*$")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@dataclass(frozen=True)
class Example:
    page: str
    line: int  # 1-based line of the `$ kpart` line
    command: str
    expected: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def parse_blocks(text: str) -> list[tuple[str, int, list[str]]]:
    """Fenced blocks as (language, first content line number, lines)."""
    blocks, lang, start, body = [], None, 0, []
    for no, line in enumerate(text.splitlines(), 1):
        m = _FENCE.match(line)
        if lang is None and m:
            lang, start, body = m.group(1), no + 1, []
        elif lang is not None and line.strip() == "```":
            blocks.append((lang, start, body))
            lang = None
        elif lang is not None:
            body.append(line)
    assert lang is None, "unclosed code fence"
    return blocks


def examples_of(page: Path) -> list[Example]:
    out = []
    for lang, start, body in parse_blocks(page.read_text(encoding="utf-8")):
        if lang != "console":
            continue
        current: list | None = None
        for offset, line in enumerate(body):
            if line.startswith("$ "):
                if current is not None:
                    out.append(Example(page.name, current[0], current[1], tuple(current[2])))
                current = [start + offset, line[2:], []]
            else:
                assert current is not None, f"{page.name}:{start + offset}: output before a command"
                current[2].append(line)
        if current is not None:
            out.append(Example(page.name, current[0], current[1], tuple(current[2])))
    return out


EXAMPLES = [ex for page in PAGES for ex in examples_of(page)]


def run_kpart(command: str) -> tuple[int, list[str]]:
    from kpart.cli import main

    argv = shlex.split(command)
    assert argv[0] == "kpart", f"not a kpart command: {command!r}"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv[1:])
    text = _ANSI.sub("", out.getvalue() + err.getvalue())
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return code, lines


def normalise(lines: tuple[str, ...]) -> list[str]:
    got = [line.rstrip() for line in lines]
    while got and not got[-1]:
        got.pop()
    return got


@pytest.mark.parametrize("example", EXAMPLES, ids=[ex.id for ex in EXAMPLES])
def test_command_output_matches_the_page(example: Example, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "200")
    code, got = run_kpart(example.command)
    expected = normalise(example.expected)
    assert got == expected, f"{example.id}: `{example.command}` printed something else"
    failing = bool(expected) and expected[0].startswith("kpart: error:")
    assert code == (2 if failing else 0), f"{example.id}: exit code {code}"


def test_one_page_per_decision_each_with_checked_commands() -> None:
    names = {p.name for p in PAGES}
    assert {"index.md", *DECISION_PAGES} <= names
    per_page = {name: sum(ex.page == name for ex in EXAMPLES) for name in names}
    for name in ("producer-partitioning.md", "consumer-assignment.md", "replica-placement.md"):
        assert per_page[name] >= 4, f"{name} shows too few checked commands"
    assert len(EXAMPLES) >= 25


def test_no_unchecked_kpart_command_outside_text_blocks() -> None:
    # a `$ kpart` line in a block that is neither console (checked) nor text (declared
    # unchecked on the page) would look checked to a reader without being so
    for page in PAGES:
        for lang, start, body in parse_blocks(page.read_text(encoding="utf-8")):
            if lang not in ("console", "text"):
                assert not any(line.startswith("$ kpart") for line in body), f"{page.name}:{start}"


def test_seed_examples_are_on_the_pages() -> None:
    text = {p.name: p.read_text(encoding="utf-8") for p in PAGES}
    place = text["replica-placement.md"]
    assert "0:3:1,3:1:5,1:5:4,5:4:2,4:2:0,2:0:3,0:4:2" in place  # rack list 0,3,1,5,4,2; p6
    for replicas in ("2,0,1", "0,1,2", "1,2,0", "2,1,0", "0,2,1", "1,0,2"):  # topic-test4
        assert f"Replicas: {replicas}\tIsr: {replicas}" in place
    assert '{"version":1,"partitions":{"0":[0,1],"1":[1,0],"2":[0,1],"3":[1,0]}}' in place
    consumer = text["consumer-assignment.md"]
    assert "C0: [t0p0, t0p1, t1p1, t3p0], C2: [t1p0, t2p0, t2p1, t3p1]" in consumer
    assert "t0[0,1] t1[1] t3[0]" in consumer and "t1[0] t2[0,1] t3[1]" in consumer
    producer = text["producer-partitioning.md"]
    assert "my_key_1\t0\nmy_key_2\t4\nmy_key_3\t5\nmy_key_4\t2" in producer


def test_links_and_screenshot_exist() -> None:
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#]+)\)", page.read_text(encoding="utf-8")):
            if not target.startswith(("http://", "https://")):
                assert (DOCS / target).exists(), f"{page.name}: broken link {target}"
    png = (DOCS / "img" / "report.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert width == 1280 and height > 1500
