"""Loader of the golden vectors: ``tests/golden/*.jsonl.gz``, produced by Apache Kafka's own
classes (trunk 2024-10-25; see ``tests/golden/FORMAT.md``). Import as ``from golden_vectors
import load_golden`` (``tests/`` is on ``sys.path`` through its conftest)."""

from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"


@functools.cache
def load_golden(name: str) -> tuple[dict, ...]:
    """All cases of ``tests/golden/<name>.jsonl.gz`` (e.g. ``load_golden("murmur2")``)."""
    with gzip.open(GOLDEN / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


def case_ids(cases: tuple[dict, ...]) -> list[str]:
    return [c["id"] for c in cases]
