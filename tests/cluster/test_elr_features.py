"""The ``--elr/--no-elr`` default from the cluster's finalized ``eligible.leader.replicas.version``
(KIP-966, issue 26): ``kafka-features.sh describe`` output (``--features``), ``cluster.json``
version 3's ``features`` (``kpart snapshot --features``), and ``ElectionRules.for_version``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kpart.cli import main
from kpart.cluster.cluster_json import cluster_from_json, cluster_to_json, features_from_json
from kpart.cluster.features import elr_feature_level, parse_features
from kpart.cluster.from_files import cluster_from_files
from kpart.cluster.partition_change import ElectionRules
from kpart.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
KIP966 = ROOT / "docs/examples/kip966.describe.txt"
EXAMPLE = ["--down", "1", "--down", "2", "--down", "3", "--up", "2"]


def describe(level: int) -> str:
    """``kafka-features.sh describe`` as Kafka 4.3's ``FeatureCommand`` prints it."""
    rows = [("eligible.leader.replicas.version", "0", "1", str(level)),
            ("metadata.version", "3.3-IV3", "4.3-IV0", "4.1-IV1"),
            ("transaction.version", "0", "2", "2")]
    return "".join(f"Feature: {n:<40s}  SupportedMinVersion: {a:<15s}  SupportedMaxVersion: "
                   f"{b:<15s}  FinalizedVersionLevel: {f:<15s}  Epoch: 42\n"
                   for n, a, b, f in rows)


def test_parse_features_reads_the_describe_output():
    f = parse_features("$ kafka-features.sh --bootstrap-server b:9092 describe\n" + describe(1))
    assert f == {"eligible.leader.replicas.version": 1, "metadata.version": "4.1-IV1",
                 "transaction.version": 2}
    assert elr_feature_level(f) == 1 and elr_feature_level(None) is None
    assert elr_feature_level({"metadata.version": "3.9-IV0"}) is None


@pytest.mark.parametrize(("text", "match"), [
    ("nothing here\n", "no 'Feature:' line"),
    ("Feature: a.version  SupportedMinVersion: 0\n", "no FinalizedVersionLevel"),
    ("Feature: a.version  FinalizedVersionLevel: x  Epoch: 1\n", "invalid FinalizedVersion"),
    ("Feature: a  FinalizedVersionLevel: 1\nFeature: a  FinalizedVersionLevel: 1\n", "twice"),
])
def test_parse_features_errors(text, match):
    with pytest.raises(ConfigError, match=match):
        parse_features(text)


def test_election_rules_default_from_the_feature_level():
    assert ElectionRules.for_version("4.3", None, feature_level=0).elr is False
    assert ElectionRules.for_version("4.3", None, feature_level=1).elr is True
    assert ElectionRules.for_version("4.0.1", None).elr is False
    assert ElectionRules.for_version("4.0.1", None, feature_level=1).elr is True
    # 3.7-3.9: gated by the controllers' config, not the feature
    assert ElectionRules.for_version("3.9", None, feature_level=1).elr is False
    # an explicit choice wins
    assert ElectionRules.for_version("4.3", True, feature_level=0).elr is True
    assert ElectionRules.for_version("4.3", False, feature_level=1).elr is False


def test_cluster_json_version_3_records_the_features():
    model = cluster_from_files(KIP966.read_text(), state_now=True)
    assert cluster_to_json(model)["version"] in (1, 2)
    doc = cluster_to_json(model, features=parse_features(describe(0)))
    assert doc["version"] == 3
    assert doc["features"]["eligible.leader.replicas.version"] == 0
    back = json.loads(json.dumps(doc))
    assert features_from_json(back) == parse_features(describe(0))
    assert cluster_from_json(back).num_partitions == 1
    back["version"] = 2
    with pytest.raises(ConfigError, match="cluster.features: unknown field"):
        cluster_from_json(back)
    back["version"] = 3
    back["features"] = {"eligible.leader.replicas.version": -1}
    with pytest.raises(ConfigError, match="cluster.features.eligible.leader.replicas.version"):
        cluster_from_json(back)


def _steps(argv: list[str], capsys) -> dict:
    assert main(["outage", *argv, *EXAMPLE, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("level", "elr", "last_leader"), [(0, False, None), (1, True, 2)])
def test_outage_features_file_sets_the_default(tmp_path, capsys, level, elr, last_leader):
    f = tmp_path / "features.txt"
    f.write_text(describe(level))
    doc = _steps(["--current", str(KIP966), "--features", str(f)], capsys)
    assert doc["elr"] is elr and doc["elr_feature_level"] == level
    assert doc["steps"][-1]["partitions"][0]["leader"] == last_leader


def test_outage_snapshot_features_set_the_default(tmp_path, capsys):
    model = cluster_from_files(KIP966.read_text(), state_now=True)
    snap = tmp_path / "cluster.json"
    snap.write_text(json.dumps(cluster_to_json(model, features=parse_features(describe(0)))))
    doc = _steps(["--snapshot", str(snap)], capsys)
    assert doc["elr"] is False and doc["steps"][-1]["offline_partitions"] == [["orders", 0]]
    # --elr asked of a cluster where the feature is not finalized: done, with a warning
    assert main(["outage", "--snapshot", str(snap), *EXAMPLE, "--elr", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["elr"] is True
    assert captured.err.startswith("kpart: warning: --elr: ") and captured.err.count("\n") == 1
    # a --features file wins over the snapshot's
    f = tmp_path / "features.txt"
    f.write_text(describe(1))
    assert _steps(["--snapshot", str(snap), "--features", str(f)], capsys)["elr"] is True


def test_outage_features_before_4_0_do_not_change_the_default(tmp_path, capsys):
    f = tmp_path / "features.txt"
    f.write_text(describe(1))
    doc = _steps(["--current", str(KIP966), "--features", str(f), "--kafka-version", "3.9"],
                 capsys)
    assert doc["elr"] is False and "elr_feature_level" not in doc


def test_snapshot_records_the_features(tmp_path, monkeypatch, capsys):
    import kpart.cluster.snapshot as snapshot

    model = cluster_from_files(KIP966.read_text(), state_now=True)
    monkeypatch.setattr(snapshot, "connect", lambda conf, source="": object())
    monkeypatch.setattr(snapshot, "take_snapshot", lambda admin, **kw: snapshot.Snapshot(
        model, None, 1, ()))
    f = tmp_path / "features.txt"
    f.write_text(describe(1))
    out = tmp_path / "cluster.json"
    assert main(["snapshot", "--bootstrap-server", "b:9092", "--out", str(out),
                 "--features", str(f)]) == 0
    doc = json.loads(out.read_text())
    assert doc["version"] == 3 and doc["features"]["eligible.leader.replicas.version"] == 1
    capsys.readouterr()
    f.write_text("not the describe output\n")
    out.unlink()
    assert main(["snapshot", "--bootstrap-server", "b:9092", "--out", str(out),
                 "--features", str(f)]) == 2
    assert "no 'Feature:' line" in capsys.readouterr().err and not out.exists()
