"""What a report shows, computed from measures, before anything renders it (pure Python, no
Spark): the layer between the cluster model and the two that read it, :mod:`kpart.spark`
(which measures) and :mod:`kpart.report` (which renders); :mod:`kpart.cli` composes them.

* :mod:`kpart.analysis.report_topology` — the report's topology settled before Spark: seeds
  pinned, the partitioner asked for;
* :mod:`kpart.analysis.layout` — a topology resolved once: replicas, leaders, group assignments,
  the producer's partitioner and null-key rule (one topic, or a cluster of topics);
* :mod:`kpart.analysis.loads` — what the report's Spark job measures for one topic
  (:class:`~kpart.analysis.loads.Loads`) and its null-key records placed;
* :mod:`kpart.analysis.cluster_loads` — what the cluster report's job measures per topic
  (loads, load over time, the partition count);
* :mod:`kpart.analysis.summary` — one topic's ``summary.json`` document;
* :mod:`kpart.analysis.topic_report` — one topic's report from what its job measured;
* :mod:`kpart.analysis.cluster_model` — the cluster model of a cluster report;
* :mod:`kpart.analysis.cluster_windows` — load over time: rates, series, the heat map;
* :mod:`kpart.analysis.cluster_summary` — the cluster report's ``summary.json`` document;
* :mod:`kpart.analysis.cluster_report` — a cluster report from what its job measured (summary,
  windows table, cluster model, groups);
* :mod:`kpart.analysis.version_change` — what changes in the groups at another Kafka version.

Imports go downward only (tests/test_layers.py): this package imports the cores, the topology
and :mod:`kpart.cluster`, and nothing of ``spark``, ``report`` or ``cli``.
"""
