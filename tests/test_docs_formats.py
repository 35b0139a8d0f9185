"""The input-format reference (``docs/formats/*.md``) cannot drift from the loaders.

Each page holds example blocks (a fenced block after ``<!-- example: FORMAT -->``) and field
tables (after ``<!-- fields FORMAT: PATH [PATH ...] -->``; ``.`` is the document itself, ``[]``
any element of a list, ``.*`` any value of an object keyed by name). For every format:

- every example loads with the real loader (the ``kpart`` command reading it, or its parser);
- the fields documented for a path are exactly the fields the loader accepts there: its own
  allowed-field tuple where it has one (topology: the list its unknown-field error gives;
  scenario: its key tuples; ``--describe``: its field names), else exactly the fields it reads,
  recorded while it loads the examples (every JSON/TOML object is handed to the loader as a
  dict that records the keys looked up);
- every object path the loader reads is documented;
- a field documented as ``required`` is: the loader refuses the first example without it;
- every row gives the five columns: field, type, required / default, meaning, Kafka.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kpart.errors import KpartError

ROOT = Path(__file__).resolve().parent.parent
FORMATS_DIR = ROOT / "docs" / "formats"
_EXAMPLE = re.compile(r"^<!-- example: ([\w-]+) -->\s*$")
_FIELDS = re.compile(r"^<!-- fields ([\w-]+): (.+?) -->\s*$")
_ROW = re.compile(r"^\| `([^`]+)` \|([^|]*)\|([^|]*)\|")


class Refused(Exception):
    """The loader refused the input (its one-line error)."""


# -- recording dicts ------------------------------------------------------------------------------


class _Recording(dict):
    """A dict that logs every key looked up (``get``, ``[]``, ``in``) under its document path."""

    def __init__(self, items: dict, path: str, log: dict[str, set[str]]) -> None:
        super().__init__(items)
        self._path, self._log = path, log

    def _seen(self, key: object) -> None:
        if isinstance(key, str):
            self._log.setdefault(self._path, set()).add(key)

    def get(self, key, default=None):  # type: ignore[no-untyped-def]
        self._seen(key)
        return super().get(key, default)

    def __getitem__(self, key):  # type: ignore[no-untyped-def]
        self._seen(key)
        return super().__getitem__(key)

    def __contains__(self, key) -> bool:  # type: ignore[no-untyped-def]
        self._seen(key)
        return super().__contains__(key)


def _child(path: str, key: str, maps: tuple[str, ...]) -> str:
    if path in maps:
        return f"{path}.*"
    return key if path == "." else f"{path}.{key}"


def _wrap(obj: Any, path: str, log: dict[str, set[str]], maps: tuple[str, ...]) -> Any:
    if isinstance(obj, dict):
        return _Recording({k: _wrap(v, _child(path, k, maps), log, maps)
                           for k, v in obj.items()}, path, log)
    if isinstance(obj, list):
        return [_wrap(v, f"{path}[]" if path != "." else "[]", log, maps) for v in obj]
    return obj


# -- the formats and their real loaders -----------------------------------------------------------


def _main(argv: list[str]) -> None:
    from kpart.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    if code != 0:
        raise Refused(err.getvalue().strip())


def _file(tmp: Path, text: str, name: str) -> str:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _topology_allowed(example: dict, path: str) -> set[str]:
    """The allowed fields ``kpart.topology`` lists in its unknown-field error at ``path``."""
    from kpart.topology import topology_from_dict

    doc = copy.deepcopy(example)
    _target(doc, path)["zz_probe"] = 1
    with pytest.raises(KpartError) as e:
        topology_from_dict(doc)
    m = re.search(r"zz_probe: unknown field \(expected one of ([^)]*)\)", str(e.value))
    assert m, str(e.value)
    return set(m.group(1).split(", "))


def _scenario_allowed(example: dict, path: str) -> set[str]:
    from kpart.consumer import _scenario as sc

    return {
        ".": set(sc._SCENARIO_KEYS),
        "steps[]": set(sc._EVENT_KEYS) | set(sc._ABSOLUTE_KEYS),
        "steps[].join[]": set(sc._MEMBER_KEYS),
        "steps[].members[]": set(sc._MEMBER_KEYS),
    }[path]


def _describe_allowed(example: Any, path: str) -> set[str]:
    from kpart.placement import formats

    return set(formats._KEYS)


def _parse_sizes(text: str, tmp: Path) -> None:
    from kpart.placement.balance import parse_partition_sizes

    parse_partition_sizes(text)


def _parse_pools(text: str, tmp: Path) -> None:
    from kpart.placement.pools import parse_pools

    parse_pools(text)


@dataclass(frozen=True)
class Format:
    page: str
    lang: str  # toml, json or text
    load_text: Callable[[str, Path], None]  # raises KpartError or Refused when refused
    load_doc: Callable[[Any, Path], None] | None = None  # default: load_text(json.dumps(doc))
    allowed: Callable[[Any, str], set[str]] | None = None  # the loader's own field list
    maps: tuple[str, ...] = ()  # object paths keyed by names, not fields
    extra: dict[str, str] = field(default_factory=dict)


def _topology_doc(doc: Any, tmp: Path) -> None:
    from kpart.topology import topology_from_dict

    topology_from_dict(doc)


def _scenario_doc(doc: Any, tmp: Path) -> None:
    from kpart.consumer._scenario import parse_scenario

    parse_scenario(doc)


FORMATS = {
    "topology": Format(
        "topology.md", "toml",
        lambda text, tmp: _main(["report", "--topology", _file(tmp, text, "t.toml"),
                                 "--show-topology"]),
        _topology_doc, _topology_allowed),
    "group": Format(
        "group.md", "json",
        lambda text, tmp: _main(["assign", _file(tmp, text, "g.json")]),
        maps=("topics", "partition_racks", "input.topics", "input.partition_racks")),
    "kip848": Format(
        "kip848-group.md", "json",
        lambda text, tmp: _main(["server-assign", _file(tmp, text, "g.json")])),
    "scenario-json": Format(
        "scenario.md", "json",
        lambda text, tmp: _main(["rebalance", _file(tmp, text, "s.json"), "--json"]),
        _scenario_doc, _scenario_allowed,
        maps=("topics", "partition_racks", "topic_ids", "steps[].create_topics",
              "steps[].add_partitions", "steps[].partition_racks", "steps[].subscribe",
              "steps[].topics")),
    "scenario-toml": Format(
        "scenario.md", "toml",
        lambda text, tmp: _main(["rebalance", _file(tmp, text, "s.toml"), "--json"]),
        _scenario_doc, _scenario_allowed,
        maps=("topics", "partition_racks", "topic_ids", "steps[].create_topics",
              "steps[].add_partitions", "steps[].partition_racks", "steps[].subscribe",
              "steps[].topics")),
    "pools": Format("pools.md", "json", _parse_pools, maps=("pools", "topics")),
    "describe": Format(
        "current.md", "text",
        lambda text, tmp: _main(["describe", "--current", _file(tmp, text, "d.txt")]),
        allowed=_describe_allowed),
    "reassignment": Format(
        "current.md", "json",
        lambda text, tmp: _main(["describe", "--current", _file(tmp, text, "r.json")])),
    "zk": Format(
        "current.md", "json",
        lambda text, tmp: _main(["describe", "--current", _file(tmp, text, "zk.json"),
                                 "--topic", "t"]),
        maps=("partitions",)),
    "sizes": Format("sizes.md", "json", _parse_sizes),
}


# -- the pages --------------------------------------------------------------------------------


@dataclass
class Page:
    examples: dict[str, list[str]]  # format -> example texts
    fields: dict[tuple[str, str], dict[str, str]]  # (format, path) -> {field: required text}


def parse_page(text: str) -> Page:
    examples: dict[str, list[str]] = {}
    fields: dict[tuple[str, str], dict[str, str]] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _EXAMPLE.match(lines[i])
        if m:
            assert lines[i + 1].startswith("```"), f"example {m.group(1)} without a block"
            end = lines.index("```", i + 2)
            examples.setdefault(m.group(1), []).append("\n".join(lines[i + 2:end]) + "\n")
            i = end
        m = _FIELDS.match(lines[i])
        if m:
            rows: dict[str, str] = {}
            j = i + 1
            while j < len(lines) and not lines[j].startswith("|"):
                j += 1
            while j < len(lines) and lines[j].startswith("|"):
                row = _ROW.match(lines[j])
                if row:
                    cells = [c.strip() for c in lines[j].strip().strip("|").split(" | ")]
                    assert len(cells) == 5 and all(cells), f"incomplete row: {lines[j]}"
                    assert row.group(1) not in rows, f"{row.group(1)} documented twice"
                    rows[row.group(1)] = row.group(3).strip()
                j += 1
            assert rows, f"fields {m.group(1)}: {m.group(2)}: no table"
            for path in m.group(2).split():
                fields[(m.group(1), path)] = rows
            i = j
            continue
        i += 1
    return Page(examples, fields)


PAGES = {p.name: parse_page(p.read_text(encoding="utf-8")) for p in FORMATS_DIR.glob("*.md")}


def _examples(name: str) -> list[str]:
    fmt = FORMATS[name]
    found = PAGES[fmt.page].examples.get(name, [])
    assert found, f"{fmt.page}: no example of {name}"
    return found


def _parse(fmt: Format, text: str) -> Any:
    return tomllib.loads(text) if fmt.lang == "toml" else json.loads(text)


def _target(doc: Any, path: str, key: str | None = None) -> Any:
    """The first object at ``path`` in ``doc`` (holding ``key`` if given; ``None`` when the
    document has none)."""
    node = [doc]
    for part in re.findall(r"[^.\[\]]+|\[\]", path):
        nxt = []
        for n in node:
            if part == "[]" and isinstance(n, list):
                nxt.extend(n)
            elif part == "*" and isinstance(n, dict):
                nxt.extend(n.values())
            elif isinstance(n, dict) and part in n:
                nxt.append(n[part])
        node = nxt
    return next((n for n in node if isinstance(n, dict) and (key is None or key in n)), None)


def _recorded_reads(name: str, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, set]:
    fmt = FORMATS[name]
    log: dict[str, set[str]] = {}
    real_json, real_toml = json.loads, tomllib.loads
    monkeypatch.setattr(json, "loads", lambda s, *a, **k: _wrap(real_json(s, *a, **k), ".",
                                                                log, fmt.maps))
    monkeypatch.setattr(tomllib, "loads", lambda s, *a, **k: _wrap(real_toml(s, *a, **k), ".",
                                                                   log, fmt.maps))
    try:
        for text in _examples(name):
            fmt.load_text(text, tmp)
    finally:
        monkeypatch.undo()
    return {path: keys for path, keys in log.items() if path not in fmt.maps}


def _family_examples(name: str) -> list[Any]:
    """Parsed examples of every format sharing ``name``'s field tables (scenario JSON/TOML)."""
    family = name.split("-")[0]
    return [_parse(f, text) for n, f in FORMATS.items() if n.split("-")[0] == family
            for text in _examples(n)]


def _documented(name: str) -> dict[str, dict[str, str]]:
    fmt = FORMATS[name]
    family = name.split("-")[0]
    return {path: rows for (f, path), rows in PAGES[fmt.page].fields.items() if f == family}


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_example_loads_with_the_real_loader(name: str, tmp_path: Path) -> None:
    for text in _examples(name):
        FORMATS[name].load_text(text, tmp_path)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_documented_fields_are_exactly_the_loaders(name: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    fmt = FORMATS[name]
    documented = _documented(name)
    assert documented, f"{fmt.page}: no field table for {name}"
    if fmt.lang == "text":
        for path, rows in documented.items():
            assert set(rows) == fmt.allowed(None, path), (name, path)  # type: ignore[misc]
        return
    reads = _recorded_reads(name, tmp_path, monkeypatch)
    for path in reads:
        assert path in documented, f"{fmt.page}: the loader reads fields of {path!r}: " \
                                   f"{sorted(reads[path])}, not documented"
    examples = _family_examples(name)
    for path, rows in documented.items():
        doc = next((d for d in examples if _target(d, path) is not None), None)
        assert doc is not None, f"{fmt.page}: no example has {name} {path!r}"
        if fmt.allowed is not None:
            expected = fmt.allowed(doc, path)
            assert reads.get(path, set()) <= expected, (path, reads.get(path))
        else:
            expected = reads.get(path, set())
        assert set(rows) == expected, (
            f"{fmt.page} {name} {path!r}: documented {sorted(rows)}, loader {sorted(expected)}")


@pytest.mark.parametrize("name", sorted(n for n, f in FORMATS.items() if f.lang != "text"))
def test_required_fields_are_required(name: str, tmp_path: Path) -> None:
    fmt = FORMATS[name]
    examples = _family_examples(name)
    checked = 0
    for path, rows in _documented(name).items():
        for key, required in rows.items():
            if not required.startswith("required"):
                continue
            doc = next((copy.deepcopy(d) for d in examples
                        if _target(d, path, key) is not None), None)
            assert doc is not None, f"{fmt.page}: no example shows required {path}.{key}"
            del _target(doc, path, key)[key]
            load = fmt.load_doc or (lambda d, tmp: fmt.load_text(json.dumps(d), tmp))
            with pytest.raises((KpartError, Refused)):
                load(doc, tmp_path)
            checked += 1
    assert checked


def test_every_page_is_linked_from_the_index() -> None:
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    for page in FORMATS_DIR.glob("*.md"):
        assert f"(formats/{page.name})" in index, page.name
    assert {f.page for f in FORMATS.values()} == {p.name for p in FORMATS_DIR.glob("*.md")}


#: The files shipped in docs/examples/ and the format each one is in.
SHIPPED = {
    "my-cluster.toml": "topology",
    "versions-topology.toml": "topology",
    "share-streams-topology.toml": "topology",  # docs/share-groups.md, docs/streams-groups.md
    "versions-producer-topology.toml": "topology",  # docs/versions.md (--compare-version)
    "range-roundrobin.json": "group",
    "uneven.json": "group",
    "sticky-four-topics.json": "scenario-json",
    "kip1263-joins.json": "scenario-json",  # docs/consumer-assignment.md (KIP-1263)
    "share-steps.json": None,  # docs/share-groups.md: kpart share-assign, a sequence (run there)
    "kip848-three-partitions.json": "kip848",  # docs/versions.md
    "kip848-already-balanced.json": "kip848",  # docs/versions.md
    "migrate-two-topics.json": "group",  # docs/versions.md (kpart migrate)
    "classic-static-racks.json": "group",  # docs/versions.md (classic assignors by version)
    "kip848-regex.json": "kip848",  # docs/formats/kip848-group.md
    "kip848-regex-names.json": "kip848",  # docs/formats/kip848-group.md, docs/versions.md
    "share-group.json": None,  # docs/share-groups.md: kpart share-assign (tests/consumer)
    "sticky-uneven.json": "scenario-json",
    "cooperative-racks-loop.json": "scenario-json",
    "pools.json": "pools",
    "pools-current.json": "reassignment",
    "topic-test4.describe.txt": "describe",
    "kip966.describe.txt": "describe",
    "kip966.features.txt": None,  # kafka-features.sh describe output: docs/outage.md (--features)
    "flights-sample.csv": None,  # a dataset (kpart report, compat, whatif), not a format
    "outage-cluster.json": None,  # a cluster.json (kpart.cluster.cluster_json), read in docs/outage.md
    "coordinator-cluster.json": None,  # a cluster.json, read in docs/coordinators.md
    "cluster.describe.txt": "describe",
    "cluster.log-dirs.txt": "sizes",
    "capacity.json": None,  # kpart cluster --capacity: checked by tests/cluster (docs/cluster.md)
    "rates.csv": None,  # kpart cluster --loads: checked by tests/cluster (docs/cluster.md)
    "streams-group.json": None,  # kpart streams-assign: run by docs/streams-groups.md
    "producer-keys.txt": None,  # kpart upgrade --keys: run by docs/versions.md
}


def test_every_shipped_example_file_loads(tmp_path: Path) -> None:
    examples = ROOT / "docs" / "examples"
    assert {p.name for p in examples.iterdir()} == set(SHIPPED)
    for name, fmt in SHIPPED.items():
        if fmt is not None:
            FORMATS[fmt].load_text((examples / name).read_text(encoding="utf-8"), tmp_path)


def test_links_of_the_format_pages_exist() -> None:
    for page in FORMATS_DIR.glob("*.md"):
        for target in re.findall(r"\]\(([^)#]+)\)", page.read_text(encoding="utf-8")):
            if not target.startswith(("http://", "https://")):
                assert (page.parent / target).exists(), f"{page.name}: broken link {target}"


def _choices() -> list[tuple[str, str, tuple[str, ...]]]:
    from kpart.consumer import ASSIGNORS
    from kpart.topology import KEY_SERIALIZERS, NULL_KEY_STRATEGIES

    return [("topology.md", "key_serializer", tuple(KEY_SERIALIZERS)),
            ("topology.md", "null_key_strategy", tuple(NULL_KEY_STRATEGIES)),
            ("topology.md", "strategy", tuple(ASSIGNORS))]


@pytest.mark.parametrize(("page", "name", "choices"), _choices(), ids=lambda v: str(v)[:20])
def test_documented_choices_are_the_loaders(page: str, name: str,
                                            choices: tuple[str, ...]) -> None:
    rows = [line for line in (FORMATS_DIR / page).read_text(encoding="utf-8").splitlines()
            if line.startswith(f"| `{name}` |")]
    assert len(rows) == 1, rows
    type_cell = rows[0].strip().strip("|").split(" | ")[1]
    assert tuple(re.findall(r"`([^`]+)`", type_cell)) == choices
