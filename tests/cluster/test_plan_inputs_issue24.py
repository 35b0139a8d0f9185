"""Issue 24, the inputs of ``kpart plan`` and ``kpart cluster``:

- 4(e): the load-aware plan refuses racks on some brokers only (an added broker without a rack
  on a racked cluster, or the converse), as Kafka and the count-based planner refuse them, and
  names the option that gives racks (``--add-brokers ID:RACK``, ``--brokers ID:RACK``);
- 4(f): a capacity.json written in bytes (capacities beyond any real disk or network card) gets
  one warning line naming the unit Cruise Control reads;
- 9: one capacity.json serves ``kpart cluster`` and ``kpart plan --add-brokers`` (entries for
  brokers the cluster does not have yet are kept for them, as Cruise Control keeps them);
- 12: the count-based plan's rack hint names options ``kpart plan`` has.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from kpart.cli import main
from kpart.cluster.capacity import (
    BYTES_IN_KB,
    BYTES_IN_MB,
    MAX_DISK_MB,
    MAX_NETWORK_KB,
    capacities_for,
    parse_capacity_json,
)
from kpart.errors import AdminOperationError, KpartWarning
from kpart.placement.planner import check_racks
from kpart.placement.spec import Broker

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "docs" / "examples"
DESCRIBE = str(EX / "cluster.describe.txt")
SIZES = str(EX / "cluster.log-dirs.txt")
CAPACITY = str(EX / "capacity.json")
RATES = str(EX / "rates.csv")
SNAPSHOT = str(EX / "outage-cluster.json")
FILES = ["--current", DESCRIBE, "--sizes", SIZES, "--loads", RATES]
RACKED = "1:a,2:b,3:c,4:a"


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert captured.out == "" and "Traceback" not in captured.err
    assert len(lines) == 1 and lines[0].startswith("kpart: error: "), captured.err
    return lines[0]


def _summary(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[dict, str]:
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


# -- 4(e): racks on all brokers or none, in the load-aware mode too ------------------------------
def test_load_aware_refuses_an_added_broker_without_a_rack_on_a_racked_cluster(
        tmp_path: Path, capsys) -> None:
    out = tmp_path / "plan.json"
    err = _error(["plan", *FILES, "--capacity", CAPACITY, "--brokers", RACKED,
                  "--add-brokers", "5", "--out", str(out)], capsys)
    assert "Not all brokers have rack information" in err
    assert "added broker 5 has no rack" in err and "--add-brokers ID:RACK" in err
    assert not out.exists() and list(tmp_path.iterdir()) == []
    racked, _ = _summary(["plan", *FILES, "--capacity", CAPACITY, "--brokers", RACKED,
                          "--add-brokers", "5:b"], capsys)  # as the hint says: planned
    assert racked["added_brokers"] == [5]


def test_load_aware_names_every_added_broker_without_a_rack(capsys) -> None:
    err = _error(["plan", *FILES, "--capacity", CAPACITY, "--brokers", RACKED,
                  "--add-brokers", "5:b,6,7"], capsys)
    assert "added brokers 6, 7 have no rack" in err and "--add-brokers 6:" in err


def test_load_aware_on_a_snapshot_with_racks(capsys) -> None:
    err = _error(["plan", "--snapshot", SNAPSHOT, "--add-brokers", "9"], capsys)
    assert "--add-brokers" in err and "added broker 9 has no rack" in err
    assert "us-east-1a" in err  # the cluster's racks, one of which the hint suggests
    s, _ = _summary(["plan", "--snapshot", SNAPSHOT, "--add-brokers", "9:us-east-1b"], capsys)
    assert {b["broker"]: b["rack"] for b in s["brokers"]}[9] == "us-east-1b"


def test_load_aware_refuses_a_racked_broker_added_to_a_cluster_without_racks(capsys) -> None:
    err = _error(["plan", *FILES, "--capacity", CAPACITY, "--add-brokers", "5:a"], capsys)
    assert "Not all brokers have rack information" in err
    assert "added broker 5 has a rack" in err and "--brokers ID:RACK" in err
    bare, _ = _summary(["plan", *FILES, "--capacity", CAPACITY, "--add-brokers", "5"], capsys)
    assert all(b["rack"] is None for b in bare["brokers"])  # no racks anywhere: planned


def test_load_aware_refuses_racks_on_some_of_the_given_brokers(capsys) -> None:
    err = _error(["plan", *FILES, "--capacity", CAPACITY, "--brokers", "1:a,2:b,3:c,4"],
                 capsys)
    assert err.startswith("kpart: error: --brokers: Not all brokers have rack information")
    assert "broker 4 has no rack" in err


# -- 12: the count-based plan's hint names kpart plan's options ----------------------------------
@pytest.mark.parametrize(("brokers", "added", "option"), [
    (RACKED, "5", "--add-brokers ID:RACK"),
    ("1,2,3,4", "5:a", "--brokers ID:RACK"),
    ("1:a,2:b,3,4", None, "--brokers ID:RACK"),
])
def test_count_based_hint_names_options_kpart_plan_has(brokers, added, option, capsys) -> None:
    argv = ["plan", "--current", DESCRIBE, "--brokers", brokers]
    err = _error([*argv, "--add-brokers", added] if added else argv, capsys)
    assert "Not all brokers have rack information" in err
    assert "--disable-rack-aware" not in err and option in err


def test_check_racks_accepts_all_or_none() -> None:
    check_racks([Broker(1, "a"), Broker(2, "b")], [Broker(3, "a")])
    check_racks([Broker(1), Broker(2)], [Broker(3)])
    with pytest.raises(AdminOperationError, match="added broker 3 has no rack"):
        check_racks([Broker(1, "a"), Broker(2, "b")], [Broker(3)])
    with pytest.raises(AdminOperationError, match="--snapshot: .* broker 2 has no rack"):
        check_racks([Broker(1, "a"), Broker(2)], racks_from="--snapshot")


# -- 4(f): a capacity.json in bytes --------------------------------------------------------------
def _capacity(**resources: object) -> str:
    return json.dumps({"brokerCapacities": [{"brokerId": "-1", "capacity": resources}]})


def _warnings_of(text: str) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parse_capacity_json(text)
    return [str(w.message) for w in caught if issubclass(w.category, KpartWarning)]


def test_disk_in_bytes_warns_naming_cruise_controls_mb() -> None:
    (line,) = _warnings_of(_capacity(DISK="1500000000000", NW_IN="50000", NW_OUT="50000"))
    assert "brokerCapacities[0].capacity.DISK" in line and "1500000000000 MB" in line
    assert "Cruise Control reads DISK in MB (2^20 bytes)" in line
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cfg = parse_capacity_json(_capacity(DISK="1500000000000"))
    assert cfg.default is not None  # the file's value is kept, as Cruise Control reads it
    assert cfg.default.disk_bytes == 1500000000000 * BYTES_IN_MB


def test_network_in_bytes_warns_naming_cruise_controls_kb() -> None:
    (line,) = _warnings_of(_capacity(DISK="200000", NW_IN="50000", NW_OUT="1250000000"))
    assert "capacity.NW_OUT" in line and "KB/s (2^10 bytes/s)" in line and "MB" not in line


def test_every_capacity_in_bytes_is_one_warning() -> None:
    text = json.dumps({"brokerCapacities": [
        {"brokerId": "-1", "capacity": {"DISK": "1500000000000", "NW_IN": "1250000000",
                                        "NW_OUT": "1250000000"}},
        {"brokerId": "4", "capacity": {"DISK": {"/a": "800000000000", "/b": "800000000000"}}}]})
    (line,) = _warnings_of(text)
    assert "3 more capacities" in line and "DISK in MB" in line and "NW_IN/NW_OUT in KB/s" in line


def test_thresholds_and_real_capacities_do_not_warn() -> None:
    assert _warnings_of(Path(CAPACITY).read_text()) == []
    assert _warnings_of(_capacity(DISK=str(MAX_DISK_MB), NW_IN=str(MAX_NETWORK_KB))) == []
    assert len(_warnings_of(_capacity(DISK=str(MAX_DISK_MB + 1)))) == 1
    assert len(_warnings_of(_capacity(NW_IN=str(MAX_NETWORK_KB + 1)))) == 1
    # a JBOD broker's disk is its log dirs' sum
    assert len(_warnings_of(_capacity(DISK={"/a": str(MAX_DISK_MB), "/b": "1"}))) == 1


def test_kpart_cluster_prints_one_warning_line(tmp_path: Path, capsys) -> None:
    cap = tmp_path / "capacity.json"
    cap.write_text(_capacity(DISK="1500000000000", NW_IN="1250000000", NW_OUT="1250000000"))
    assert main(["cluster", "--current", DESCRIBE, "--sizes", SIZES, "--capacity", str(cap)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("kpart: warning: capacity.json:"), err
    assert "DISK in MB" in err[0]


# -- 9: one capacity.json for kpart cluster and kpart plan --add-brokers -------------------------
SHARED = {"brokerCapacities": [
    {"brokerId": "-1", "capacity": {"DISK": "200000", "NW_IN": "50000", "NW_OUT": "50000"}},
    {"brokerId": "4", "capacity": {"DISK": "100000", "NW_IN": "25000", "NW_OUT": "25000"}},
    {"brokerId": "5", "capacity": {"DISK": "400000", "NW_IN": "100000", "NW_OUT": "100000"}},
]}


@pytest.fixture
def shared(tmp_path: Path) -> str:
    path = tmp_path / "capacity.json"
    path.write_text(json.dumps(SHARED))
    return str(path)


def test_kpart_cluster_accepts_entries_for_brokers_not_yet_in_the_cluster(shared, capsys) -> None:
    assert main(["cluster", *FILES, "--capacity", shared, "--brokers", RACKED, "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    rows = {r["broker"]: r for r in json.loads(captured.out)["brokers"]}
    assert sorted(rows) == [1, 2, 3, 4]
    assert rows[4]["disk_capacity_bytes"] == 100_000 * BYTES_IN_MB
    assert rows[1]["nw_in_capacity_bytes_per_s"] == 50_000 * BYTES_IN_KB


def test_plan_with_and_without_the_added_broker_reads_the_same_file(shared, capsys) -> None:
    s, _ = _summary(["plan", *FILES, "--capacity", shared, "--brokers", RACKED], capsys)
    assert [b["broker"] for b in s["brokers"]] == [1, 2, 3, 4]
    s, _ = _summary(["plan", *FILES, "--capacity", shared, "--brokers", RACKED,
                     "--add-brokers", "5:b,6:c"], capsys)
    caps = {b["broker"]: b["capacity"] for b in s["brokers"]}
    assert caps[5]["disk_bytes"] == 400_000 * BYTES_IN_MB  # its own entry
    assert caps[6]["disk_bytes"] == 200_000 * BYTES_IN_MB  # the default
    assert caps[4]["nw_in_bytes_per_s"] == 25_000 * BYTES_IN_KB


def test_plan_on_a_snapshot_accepts_the_same_file(tmp_path: Path, capsys) -> None:
    path = tmp_path / "capacity.json"  # the snapshot has brokers 1-6: entries for 7 and 9
    path.write_text(json.dumps({"brokerCapacities": [
        {**e, "brokerId": {"4": "7", "5": "9"}.get(e["brokerId"], e["brokerId"])}
        for e in SHARED["brokerCapacities"]]}))
    s, _ = _summary(["plan", "--snapshot", SNAPSHOT, "--capacity", str(path),
                     "--add-brokers", "9:us-east-1a"], capsys)
    caps = {b["broker"]: b["capacity"]["disk_bytes"] for b in s["brokers"]}
    assert caps[9] == 400_000 * BYTES_IN_MB and caps[1] == 200_000 * BYTES_IN_MB


def test_a_file_without_default_serves_the_cluster_and_the_broker_it_adds(tmp_path: Path, capsys) -> None:
    path = tmp_path / "capacity.json"
    path.write_text(json.dumps({"brokerCapacities": [
        {"brokerId": str(b), "capacity": {"DISK": "200000"}} for b in (1, 2, 3, 4, 5)]}))
    assert main(["cluster", *FILES, "--capacity", str(path)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    s, _ = _summary(["plan", *FILES, "--capacity", str(path), "--brokers", RACKED,
                     "--add-brokers", "5:b"], capsys)
    assert s["added_brokers"] == [5]
    err = _error(["plan", *FILES, "--capacity", str(path), "--brokers", RACKED,
                  "--add-brokers", "6:b"], capsys)
    assert "no capacity for broker 6 and no default" in err


def test_capacities_for_leaves_other_brokers_entries_unused() -> None:
    cfg = parse_capacity_json(json.dumps(SHARED))
    assert sorted(capacities_for(cfg, [1, 4])) == [1, 4]
    assert capacities_for(cfg, [5])[5].disk_bytes == 400_000 * BYTES_IN_MB
