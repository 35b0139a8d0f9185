"""Catalogue cases of issue 24, points 4(e), 4(f) and 12 for ``kpart plan`` and
``kpart cluster`` (ids ``plan-*``).

* Racks on some brokers only (an added broker without a rack on a racked cluster, a racked one
  on a cluster without racks, racks on some of ``--brokers``), in both modes of ``kpart plan``:
  refused as Kafka refuses them, naming the brokers and the option that gives racks.
* A ``capacity.json`` written in bytes: one warning naming the unit Cruise Control reads.
"""

from __future__ import annotations

import json
from pathlib import Path

from bad_inputs.case import Case

_EX = Path(__file__).resolve().parents[2] / "docs" / "examples"
_FILES = {name: (_EX / name).read_text(encoding="utf-8")
          for name in ("cluster.describe.txt", "cluster.log-dirs.txt", "capacity.json",
                       "rates.csv", "outage-cluster.json")}
_LOAD = ("plan", "--current", "cluster.describe.txt", "--sizes", "cluster.log-dirs.txt",
         "--loads", "rates.csv", "--capacity", "capacity.json", "--out", "plan.json")
_COUNT = ("plan", "--current", "cluster.describe.txt", "--out", "plan.json")
_RACKED = ("--brokers", "1:a,2:b,3:c,4:a")


def _capacity(**resources: str) -> str:
    return json.dumps({"brokerCapacities": [{"brokerId": "-1", "capacity": resources}]})


CASES = [
    # 4(e): the load-aware plan refuses racks on some brokers only
    Case(id="plan-load-added-broker-without-rack", files=_FILES,
         argv=(*_LOAD, *_RACKED, "--add-brokers", "5"), names="added broker 5 has no rack"),
    Case(id="plan-load-added-brokers-without-rack-hint", files=_FILES,
         argv=(*_LOAD, *_RACKED, "--add-brokers", "5:b,6"), names="--add-brokers 6:"),
    Case(id="plan-load-added-broker-with-rack-on-rackless", files=_FILES,
         argv=(*_LOAD, "--add-brokers", "5:a"), names="added broker 5 has a rack"),
    Case(id="plan-load-brokers-partial-racks", files=_FILES,
         argv=(*_LOAD, "--brokers", "1:a,2:b,3:c,4"), names="--brokers: Not all brokers have "
         "rack information: broker 4 has no rack"),
    Case(id="plan-snapshot-added-broker-without-rack", files=_FILES,
         argv=("plan", "--snapshot", "outage-cluster.json", "--add-brokers", "9", "--out",
               "plan.json"), names="--add-brokers ID:RACK (e.g. --add-brokers 9:us-east-1a)"),
    # 12: the count-based plan's hint names options kpart plan has
    Case(id="plan-count-added-broker-without-rack", files=_FILES,
         argv=(*_COUNT, *_RACKED, "--add-brokers", "5"), names="give each its rack as "
         "--add-brokers ID:RACK"),
    Case(id="plan-count-brokers-partial-racks", files=_FILES,
         argv=(*_COUNT, "--brokers", "1:a,2,3,4"), names="give every broker its rack as "
         "--brokers ID:RACK"),
    # 4(f): capacity.json in bytes
    Case(id="plan-capacity-disk-in-bytes", expect="warning",
         files={**_FILES, "capacity.json": _capacity(DISK="1500000000000", NW_IN="50000",
                                                      NW_OUT="50000")},
         argv=("cluster", "--current", "cluster.describe.txt", "--capacity", "capacity.json"),
         names="Cruise Control reads DISK in MB (2^20 bytes)"),
    Case(id="plan-capacity-network-in-bytes", expect="warning",
         files={**_FILES, "capacity.json": _capacity(DISK="200000", NW_IN="1250000000",
                                                      NW_OUT="1250000000")},
         argv=("cluster", "--current", "cluster.describe.txt", "--capacity", "capacity.json"),
         names="NW_IN/NW_OUT in KB/s (2^10 bytes/s)"),
    Case(id="plan-capacity-in-bytes-load-aware", expect="warning",
         files={**_FILES, "capacity.json": _capacity(DISK="1500000000000", NW_IN="1250000000",
                                                      NW_OUT="1250000000")},
         argv=("plan", "--current", "cluster.describe.txt", "--sizes", "cluster.log-dirs.txt",
               "--capacity", "capacity.json", *_RACKED, "--add-brokers", "5:b"),
         names="brokerCapacities[0].capacity.DISK is 1500000000000 MB"),
]
