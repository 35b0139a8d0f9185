"""Regenerate ``re2j_vectors.jsonl.gz``: what RE2/J 1.7 and 1.8 (Kafka 4.0.x's and 4.1+'s) say
of each regex (compiles or not, and which of ``TOPICS`` it matches in full).

Usage (see README.md): ``python generate.py RE2J_1_7_CLASSPATH RE2J_1_8_CLASSPATH``, each a
classpath holding ``com.google.re2j`` and the compiled ``Re2jVectors`` driver.
"""

from __future__ import annotations

import base64
import gzip
import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOPICS = ["orders-1", "orders-2", "orders", "payments", "__consumer_offsets", "Orders-3", "a.b",
          "a_b", "x", "aaa", "orders-10", "é-topic"]
TOKENS = ["(", ")", "[", "]", "{", "}", "\\", "?", "*", "+", "|", ".", "^", "$", "a", "-", ":",
          "0", "1", ",", "Q", "E", "C", "P", "<", ">", "=", "!", "p", "d", "w", "b", "z", "x", "i",
          "s", "U", "m", "n", "{2}", "{1,3}", "{3,}", "(?", "(?P<n>", "(?<n>", "(?P<m>", "\\Q",
          "\\E", "[:alpha:]", "[[:digit:]]", "\\p{L}", "\\pN", "o", "r", "_", "(?i)", "(?i:",
          "[^", "\\x{41}", "\\\\", "\\.", "\\{", "é", "\\é", "Σ", "\\b", "(?:", "{,2}", "\\z",
          "\\A"]


def regexes() -> list[str]:
    hand = (HERE / "hand_regexes.txt").read_text(encoding="utf-8").splitlines()
    rng = random.Random(2024)
    fuzz: set[str] = set()
    while len(fuzz) < 8000:
        fuzz.add("".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 9))))
    return list(dict.fromkeys(hand + sorted(fuzz)))


def run(classpath: str, rx: list[str]) -> list[dict[str, object]]:
    b64 = lambda s: base64.b64encode(s.encode()).decode()  # noqa: E731
    stdin = b64("\n".join(TOPICS)) + "\n" + "\n".join(b64(r) for r in rx) + "\n"
    out = subprocess.run(["java", "-cp", classpath, "Re2jVectors"], input=stdin,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    rows = []
    for _regex, line in zip(rx, out, strict=True):
        _, status, detail = line.split("\t")
        rows.append({"ok": status == "ok",
                     "matches": [TOPICS[int(i)] for i in detail.split(",") if i]
                     if status == "ok" else None,
                     "error": None if status == "ok" else detail})
    return rows


def main() -> None:
    rx = regexes()
    v17, v18 = run(sys.argv[1], rx), run(sys.argv[2], rx)
    lines = [json.dumps({"topics": TOPICS})] + [
        json.dumps({"regex": regex, "re2j_1_7": a, "re2j_1_8": b}, ensure_ascii=False)
        for regex, a, b in zip(rx, v17, v18, strict=True)]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with gzip.GzipFile(HERE / "re2j_vectors.jsonl.gz", "wb", mtime=0) as f:  # reproducible
        f.write(data)


if __name__ == "__main__":
    main()
