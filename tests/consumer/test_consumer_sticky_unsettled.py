"""Issue 10, point 14: a cooperative-sticky group whose follow-up rebalances never settle.

Hypothesis found the case (``test_properties_many``): rack-aware assignment (KIP-881) with
partial replica racks. ``000`` and ``0000`` share ``t0``/``t1``; then ``0000`` leaves and
``A`` (rack ``r0``, ``t0``+``t1``) and ``00`` (rack ``r1``, ``t0`` only) join. From the
third round on, each round's sticky target is balanced (4/4/4) but hands out the partitions
revoked in the round before by rack first: ``t0-2`` (replica on ``r0``) goes to ``A``, which
must then give up ``t1-0``; the round after, ``A`` takes ``t1-0`` back and gives up ``t0-2``
and ``00`` gives up ``t0-3``; and so on, with period 2.

This is Kafka's behaviour, not a port deviation: ``KAFKA_ROUNDS`` are the rounds of Kafka's
own ``CooperativeStickyAssignor`` (trunk commit ``1eb7644349cb07139d6a3c1ad1986979647cac99``,
2024-10-25, the golden vectors' commit), compiled from source with stubs for slf4j and the
user-data ``Struct`` (unused: generations go in ``Subscription.generationId``), driven through
the simulation rules of ``tests/golden/FORMAT.md`` (owned partitions sorted by topic and
partition, generation = the group's generation of the previous round, members in step order
in the leader's ``HashMap``). The same driver reproduces all 733 exact cooperative-sticky
golden rounds. Kafka's source is not in this repository, so its rounds are data here.
``SECOND`` is another such loop, found by a random search and checked the same way.
"""

from __future__ import annotations

import json

import pytest
from test_consumer_sticky_properties import _check

from kpart.cli import main
from kpart.consumer.rebalance import MAX_ROUNDS_PER_STEP, simulate, simulate_rounds
from kpart.consumer.spec import GroupSpec

#: The hypothesis case of the issue, in ``test_consumer_sticky_properties.scenarios`` form.
CASE = {
    "topics": {"t0": 6, "t1": 6, "t2": 1},
    "partition_racks": {
        "t0": [["r0"], [], ["r0"], [], [], ["r1"], []],
        "t1": [[], ["r0"], ["r0"], [], ["r0"], [], []],
        "t2": [[], []],
    },
    "uniform": False,
    "racks": True,
    "before": ["000", "0000"],
    "now": ["000", "A", "00"],
    "subs": {
        "0": ["t0"], "1": ["t0"], "A": ["t0", "t1"], "B": ["t0"], "00": ["t0"],
        "000": ["t0", "t1"], "0000": ["t0", "t1"],
    },
    "rack": {"0": "r0", "1": "r0", "A": "r0", "B": "r0", "00": "r1", "000": None, "0000": "r1"},
    "grow": False,
}

RACKS = {
    "t0": [["r0"], [], ["r0"], [], [], ["r1"]],
    "t1": [[], ["r0"], ["r0"], [], ["r0"], []],
    "t2": [[]],
}
#: The same group as a rebalance scenario: the first two members, then ``0000`` leaves and
#: ``A`` and ``00`` join (members in the order ``000``, ``A``, ``00``).
SCENARIO = {
    "topics": CASE["topics"],
    "partition_racks": RACKS,
    "steps": [
        {
            "join": [
                {"id": "000", "topics": ["t0", "t1"]},
                {"id": "0000", "topics": ["t0", "t1"], "rack": "r1"},
            ]
        },
        {
            "leave": ["0000"],
            "join": [
                {"id": "A", "topics": ["t0", "t1"], "rack": "r0"},
                {"id": "00", "topics": ["t0"], "rack": "r1"},
            ],
        },
    ],
}

_R2 = {"000": {"t0": [4], "t1": [3, 5]}, "A": {"t0": [2], "t1": [1, 2, 4]},
       "00": {"t0": [0, 1, 3, 5]}}  # rounds 2, 4, 6, 8 of step 1
_R3 = {"000": {"t0": [4], "t1": [3, 5]}, "A": {"t1": [0, 1, 2, 4]},
       "00": {"t0": [0, 1, 5]}}  # rounds 1, 3, 5, 7, 9 of step 1
_REV2 = {"A": {"t1": [0]}}
_REV3 = {"A": {"t0": [2]}, "00": {"t0": [3]}}

#: Kafka's rounds: (step, round, generation, assignment, revoked), partitions sorted.
KAFKA_ROUNDS = [
    (0, 0, 1, {"000": {"t0": [0, 2, 4], "t1": [1, 3, 5]},
               "0000": {"t0": [1, 3, 5], "t1": [0, 2, 4]}}, {}),
    (1, 0, 2, {"000": {"t0": [2, 4], "t1": [3, 5]}, "A": {"t1": [0, 2, 4]},
               "00": {"t0": [1, 3, 5]}}, {"000": {"t0": [0], "t1": [1]}}),
    (1, 1, 3, _R3, {"000": {"t0": [2]}, "00": {"t0": [3]}}),
    (1, 2, 4, _R2, _REV2),
    (1, 3, 5, _R3, _REV3),
    (1, 4, 6, _R2, _REV2),
    (1, 5, 7, _R3, _REV3),
    (1, 6, 8, _R2, _REV2),
    (1, 7, 9, _R3, _REV3),
    (1, 8, 10, _R2, _REV2),
    (1, 9, 11, _R3, _REV3),
]


def _by_topic(pairs) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for t, p in pairs:
        out.setdefault(t, []).append(p)
    return {t: sorted(ps) for t, ps in sorted(out.items())}


def test_issue14_rounds_are_kafkas() -> None:
    """kpart's simulator gives Kafka's assignment and revocations in every round."""
    steps = [
        GroupSpec.from_json({
            "topics": SCENARIO["topics"], "partition_racks": RACKS,
            "members": [{"id": "000", "topics": ["t0", "t1"]},
                        {"id": "0000", "topics": ["t0", "t1"], "rack": "r1"}],
        }),
        GroupSpec.from_json({
            "topics": SCENARIO["topics"], "partition_racks": RACKS,
            "members": [{"id": "000", "topics": ["t0", "t1"]},
                        {"id": "A", "topics": ["t0", "t1"], "rack": "r0"},
                        {"id": "00", "topics": ["t0"], "rack": "r1"}],
        }),
    ]
    got = [
        (
            r.step, r.round, r.generation,
            {m: {t: ps for t, ps in d.items() if ps} for m, d in r.assignment.as_dict().items()},
            {m: _by_topic(lost) for m, lost in r.revoked},
        )
        for r in simulate_rounds(steps, "cooperative-sticky")
    ]
    assert len(KAFKA_ROUNDS) == 1 + MAX_ROUNDS_PER_STEP
    assert got == KAFKA_ROUNDS


def test_issue14_property_case() -> None:
    """The property test's own rounds on the case: the per-round guarantees hold, the group
    does not settle, and that is allowed because rack-aware assignment is in use."""
    _check(CASE, cooperative=True)
    _check(dict(CASE, racks=False, partition_racks=None), cooperative=True)  # settles


def test_issue14_simulator_reports_unsettled() -> None:
    sim = simulate(SCENARIO, "cooperative-sticky")
    first, second = sim.steps
    assert (first.settled, first.pending, first.cycle) == (True, 0, None)
    assert (second.rounds, second.settled, second.pending, second.cycle) == (10, False, 2, 2)
    # the last round's assignment, with t0-2 and t0-3 owned by nobody
    assert second.assignment.as_dict() == {m: d for m, d in _R3.items()}
    # without racks the same membership change settles in two rounds
    plain = simulate(dict(SCENARIO, partition_racks={}), "cooperative-sticky").steps[1]
    assert (plain.rounds, plain.settled, plain.pending, plain.cycle) == (2, True, 0, None)


def test_issue14_cli(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "s.json"
    p.write_text(json.dumps(SCENARIO), encoding="utf-8")
    assert main(["rebalance", str(p), "-s", "cooperative-sticky", "-s", "sticky", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    coop = doc["steps"][1]["results"]["cooperative-sticky"]
    assert (coop["rounds"], coop["settled"], coop["pending"], coop["cycle"]) == (10, False, 2, 2)
    eager = doc["steps"][1]["results"]["sticky"]
    assert (eager["settled"], eager["pending"], eager["cycle"]) == (True, 0, None)
    assert main(["rebalance", str(p), "-s", "cooperative-sticky"]) == 0
    out = " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert "settled NO after 10 rounds: 2 partitions unowned; loops every 2 rounds" in out


#: A second loop, found by a random search of rack-aware scenarios (and run the same way
#: through Kafka's assignor): ``m0`` (rack ``r0``) keeps trading ``t0-0`` and ``t0-4``.
SECOND = {
    "topics": {"t0": 5, "t1": 7, "t2": 2},
    "partition_racks": {
        "t0": [["r1", "r0"], [], ["r1", "r0"], ["r2", "r0"], ["r1"]],
        "t1": [["r1"], [], ["r2", "r1"], ["r2"], [], [], ["r0", "r1"]],
        "t2": [["r2"], ["r0"]],
    },
    "steps": [
        {
            "join": [
                {"id": "m0", "topics": ["t0"], "rack": "r0"},
                {"id": "m1", "topics": ["t1", "t2"], "rack": "r1"},
            ]
        },
        {
            "join": [
                {"id": "m2", "topics": ["t0", "t1"], "rack": "r1"},
                {"id": "m3", "topics": ["t0", "t2"], "rack": "r1"},
                {"id": "m4", "topics": ["t2"]},
            ]
        },
    ],
}
_REST = {"m1": {"t1": [0, 2, 4, 6]}, "m2": {"t1": [1, 3, 5]}, "m3": {"t0": [1]},
         "m4": {"t2": [0, 1]}}
_ODD = ({"m0": {"t0": [0, 2, 3]}, **_REST}, {"m0": {"t0": [4]}})  # rounds 1, 3, 5, 7, 9
_EVEN = ({"m0": {"t0": [2, 3, 4]}, **_REST}, {"m0": {"t0": [0]}})  # rounds 2, 4, 6, 8
SECOND_KAFKA_ROUNDS = [
    (0, 0, 1, {"m0": {"t0": [0, 1, 2, 3, 4]}, "m1": {"t1": [0, 1, 2, 3, 4, 5, 6], "t2": [0, 1]}},
     {}),
    (1, 0, 2, {"m0": {"t0": [2, 3, 4]}, "m1": {"t1": [0, 2, 4, 6]}},
     {"m0": {"t0": [0, 1]}, "m1": {"t1": [1, 3, 5], "t2": [0, 1]}}),
] + [(1, r, r + 2, *(_ODD if r % 2 else _EVEN)) for r in range(1, MAX_ROUNDS_PER_STEP)]


def test_second_loop_rounds_are_kafkas() -> None:
    sim = simulate(SECOND, "cooperative-sticky")
    got = [
        (
            r.step, r.round, r.generation,
            {m: {t: ps for t, ps in d.items() if ps} for m, d in r.assignment.as_dict().items()
             if any(d.values())},
            {m: _by_topic(lost) for m, lost in r.revoked},
        )
        for r in sim.rounds
    ]
    assert got == SECOND_KAFKA_ROUNDS
    step = sim.steps[1]
    assert (step.rounds, step.settled, step.pending, step.cycle) == (10, False, 1, 2)
