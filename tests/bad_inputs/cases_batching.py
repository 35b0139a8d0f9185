"""Catalogue cases of KIP-1263's target assignment batching in ``kpart rebalance`` (ids
``batching-*``): a step time that is not milliseconds, steps out of time order, times on some
steps only, and a positive assignment interval at a Kafka version without KIP-1263."""

from __future__ import annotations

import json

from bad_inputs.case import Case


def _scenario(times: list[object] | None, interval: object = None) -> str:
    steps = [{"join": [{"id": m, "topics": ["t"]}]} for m in ("A", "B", "C")]
    for step, at in zip(steps, times or [], strict=False):
        if at is not None:
            step["at_ms"] = at
    doc: dict = {"topics": {"t": 6}, "steps": steps}
    if interval is not None:
        doc["assignment_interval_ms"] = interval
    return json.dumps(doc)


def _case(cid: str, names: str, scenario: str, *extra: str) -> Case:
    return Case(id=f"batching-{cid}", names=names,
                argv=("rebalance", "s.json", "-s", "uniform", *extra),
                files={"s.json": scenario})


CASES = [
    _case("negative-time", "steps[1].at_ms", _scenario([0, -5, 10])),
    _case("text-time", "steps[0].at_ms", _scenario(["0", 5, 10])),
    _case("out-of-order", "steps[2].at_ms", _scenario([0, 500, 100])),
    _case("some-steps-only", "steps[2].at_ms", _scenario([0, 100, None])),
    _case("interval-not-ms", "scenario.assignment_interval_ms", _scenario([0, 1, 2], 1.5)),
    _case("interval-before-4-3", "--assignment-interval-ms 200",
          _scenario([0, 100, 200]), "--kafka-version", "4.2.0", "--assignment-interval-ms", "200"),
    _case("scenario-interval-before-4-3", "scenario.assignment_interval_ms 200",
          _scenario([0, 100, 200], 200), "--kafka-version", "4.2.0"),
]
