"""The cluster wing's public API (issue 27, point 4): ``kpart.cluster`` exports the model, its
loaders, the planner, the verifier and the failure what-ifs, lazily; ``kpart`` exposes them;
the producer's metadata class has its own name."""

from __future__ import annotations

import importlib
import subprocess
import sys

import kpart
import kpart.cluster


def test_every_exported_name_resolves_to_its_module_s_object() -> None:
    for name in kpart.cluster.__all__:
        value = getattr(kpart.cluster, name)
        home = kpart.cluster._LAZY.get(name)
        if home is not None:
            assert value is getattr(importlib.import_module(home), name), name
    assert set(kpart.cluster._LAZY) <= set(kpart.cluster.__all__)


def test_outage_is_the_function_even_after_its_module_is_imported() -> None:
    importlib.import_module("kpart.cluster.broker_outage")
    assert callable(kpart.cluster.outage) and kpart.cluster.outage.__name__ == "outage"
    from kpart.cluster import outage

    assert outage is kpart.outage


def test_kpart_exposes_the_planner_and_the_cluster_model() -> None:
    from kpart.cluster.model import ClusterModel
    from kpart.cluster.optimizer import ClusterPlan, plan_cluster
    from kpart.cluster.verifier import verify

    assert (kpart.ClusterModel, kpart.plan_cluster, kpart.ClusterPlan, kpart.verify) == (
        ClusterModel, plan_cluster, ClusterPlan, verify)


def test_the_producer_cluster_has_an_unambiguous_name_and_keeps_its_old_one() -> None:
    assert kpart.Cluster is kpart.ProducerCluster
    assert kpart.ProducerCluster.__qualname__ == "ProducerCluster"
    assert kpart.ClusterModel is not kpart.ProducerCluster


def test_import_kpart_cluster_does_not_import_the_planner() -> None:
    code = ("import sys, kpart.cluster; "
            "print(any(m in sys.modules for m in ('kpart.cluster.optimizer', 'scipy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"
