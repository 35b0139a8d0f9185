"""Inputs for ``java/producer/NullKeyDriver.java``: the default partitioners' null-key paths
(2.3 ``DefaultPartitioner`` round robin, 2.4+ KIP-480 sticky, ``UniformStickyPartitioner``), one
JSON line each, written to stdout (fixed seed).

    python tools/golden/nullkey_inputs.py > /tmp/nullkey_inputs.jsonl

The cases of ``rr_inputs.py`` (same clusters and send order; ids ``nk-...``), each with a
``tlr_seed`` (the ThreadLocalRandom state the driver installs) and a key per send: ``null`` for
most records, a hex key for about one in five in half of the cases (a keyed record's partition
is hashed, and with ``DefaultPartitioner`` 2.4+ its new batch still calls ``onNewBatch``). A send
is ``[topic, cluster_index, new_batch, key hex or null]``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rr_inputs import cases as rr_cases  # noqa: E402


def cases() -> list[dict]:
    rng = random.Random(480)
    out = []
    for case in rr_cases():
        keyed = rng.random() < 0.5
        sends = [[t, c, nb, (f"{rng.getrandbits(32):08x}" if keyed and rng.random() < 0.2
                             else None)] for t, c, nb in case["sends"]]
        out.append({"id": "nk-" + case["id"][3:], "tlr_seed": rng.getrandbits(63) - (1 << 62),
                    "clusters": case["clusters"], "sends": sends})
    return out


def main() -> int:
    for case in cases():
        sys.stdout.write(json.dumps(case, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
