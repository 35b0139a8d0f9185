"""Size limits: every count a user gives kpart is bounded here, before anything is allocated.

A typo such as ``partitions = 1000000000`` must cost one line, not the machine's memory. Each
count (partitions, replication factor, brokers, members, topics, records, ...) is checked
against two kinds of limit, and the message says which one and why:

* **Kafka's own limits**, where Kafka has one (the wire protocol's field widths and the
  broker's checks), so kpart refuses nothing Kafka accepts for those reasons:

  ======================================  ==============  ==========================================
  value                                   limit           source
  ======================================  ==============  ==========================================
  partition count, partition id           2,147,483,647   ``NumPartitions``/``PartitionIndex``:
                                                          INT32 in CreateTopics/Metadata
  replication factor                      32,767          ``ReplicationFactor``: INT16 in
                                                          CreateTopicsRequest; and at most the
                                                          number of brokers
  broker id                               0..2,147,483,647 ``BrokerId``/``NodeId``: INT32, ≥ 0
  topic name                              249 characters  ``Topic.MAX_NAME_LENGTH``
  ======================================  ==============  ==========================================

  Hashing a key (``kpart partition``, the partitioners) allocates nothing per partition, so only
  Kafka's INT32 bound applies there (:func:`kpart.producer.clients.check_num_partitions`).

* **kpart's practical limits**, where Kafka has none (or none that a laptop can honour): kpart
  keeps per-partition, per-replica and per-record values in memory, so a count also bounds
  memory. They are chosen so that Kafka's largest published shapes still work: the assignor
  benchmarks (500 topics × 2,000 partitions = 1M partitions, 2,000 members), KIP-848's
  10,000-member benchmarks and a cluster plan of 2.8M replicas over 215 brokers. Per-topic and
  per-group/cluster totals differ for that reason:

  ====================================  ============  =========================================
  limit                                 value         why
  ====================================  ============  =========================================
  :data:`MAX_PARTITIONS_PER_TOPIC`      1,048,576     per-partition loads/replicas in memory
  :data:`MAX_PARTITIONS_TOTAL`          4,194,304     a group's or a cluster's partitions
  :data:`MAX_REPLICAS_TOTAL`            16,777,216    partitions × replication factor
  :data:`MAX_BROKERS`                   65,536        brokers of one cluster
  :data:`MAX_MEMBERS`                   131,072       members of one consumer group
  :data:`MAX_TOPICS`                    65,536        topics of one group or scenario
  :data:`MAX_SIMULATED_RECORDS`         10,000,000    ``kpart simulate`` runs record by record
  :data:`MAX_WHATIF_CELLS`              16,777,216    sum of the partition counts a what-if
                                                      evaluates (6 int64 per partition each)
  :data:`MAX_WHATIF_SEARCH`             4,096         counts in one what-if search range
  ====================================  ============  =========================================

On top of the counts, :func:`check_memory` compares an estimate of the bytes an operation will
allocate with the memory this process may still use (:func:`available_memory`: the smallest
of ``MemAvailable`` in ``/proc/meminfo``, the cgroup's memory limit, and ``RLIMIT_AS``), so
that an allowed size on a small machine fails with one line instead of the OOM killer.

Every error is a :class:`~kpart.errors.KpartError` (``InvalidPartitionsError``,
``InvalidReplicationFactorError`` or ``ConfigError``): the CLI prints it as one line, exit 2.

Each check takes ``what``, the name of the value in the message: a library function passes the
name of its parameter (``num_partitions``; the error then carries it as
:attr:`~kpart.errors.KpartError.parameter`, :meth:`~kpart.errors.KpartError.about`, and the
command line names the flag that sets it) or a description (``partition count of topic 't'``, a
file's field ``topic.partitions``); only callers in :mod:`kpart.cli` pass a flag.

>>> check_partitions(12, "num_partitions")
12
>>> check_partitions(1_000_000_000, "num_partitions")
Traceback (most recent call last):
...
kpart.errors.InvalidPartitionsError: num_partitions: 1000000000 is above kpart's limit of \
1,048,576 partitions per topic (kpart keeps every partition in memory: ~1.9 TiB would be needed)
>>> try:
...     check_replication_factor(40_000)
... except KpartError as e:
...     print(e.parameter)
...     print(e.naming("--replication-factor"))  # what the CLI prints after "kpart: error: "
replication_factor
--replication-factor: 40000 is above Kafka's limit of 32,767 (ReplicationFactor is an INT16 in \
CreateTopicsRequest)
"""

from __future__ import annotations

import os
import resource
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kpart.errors import (
    ConfigError,
    InvalidPartitionsError,
    InvalidReplicationFactorError,
    KpartError,
    Param,
)

__all__ = [
    "BYTES_PER_ASSIGNED_PARTITION",
    "BYTES_PER_PARTITION",
    "BYTES_PER_REPLICA",
    "BYTES_PER_SIMULATED_RECORD",
    "BYTES_PER_WHATIF_CELL",
    "KAFKA_MAX_BROKER_ID",
    "KAFKA_MAX_PARTITIONS",
    "KAFKA_MAX_REPLICATION_FACTOR",
    "KAFKA_MAX_TOPIC_NAME_LENGTH",
    "MAX_BROKERS",
    "MAX_MEMBERS",
    "MAX_PARTITIONS_PER_TOPIC",
    "MAX_PARTITIONS_TOTAL",
    "MAX_REPLICAS_TOTAL",
    "MAX_SIMULATED_RECORDS",
    "MAX_TOPICS",
    "MAX_WHATIF_CELLS",
    "MAX_WHATIF_SEARCH",
    "MEMORY_CHECK_FROM",
    "available_memory",
    "check_assignment",
    "check_broker_id",
    "check_cluster",
    "check_brokers",
    "check_memory",
    "check_group",
    "check_members",
    "check_partitions",
    "check_placement",
    "check_records",
    "check_replication_factor",
    "check_report",
    "check_topics",
    "check_whatif",
    "check_total_partitions",
    "format_bytes",
]

# -- Kafka's limits -----------------------------------------------------------------------------

#: ``NumPartitions`` (CreateTopicsRequest) and ``PartitionIndex`` are INT32 fields.
KAFKA_MAX_PARTITIONS = 2**31 - 1
#: ``ReplicationFactor`` (CreateTopicsRequest) is an INT16 field.
KAFKA_MAX_REPLICATION_FACTOR = 2**15 - 1
#: ``BrokerId``/``NodeId`` are INT32 fields; real broker ids are ≥ 0 (-1 means "none").
KAFKA_MAX_BROKER_ID = 2**31 - 1
#: ``org.apache.kafka.common.internals.Topic.MAX_NAME_LENGTH``.
KAFKA_MAX_TOPIC_NAME_LENGTH = 249

# -- kpart's practical limits (Kafka has none) --------------------------------------------------

#: Partitions of one topic (kpart keeps per-partition loads and replicas in memory).
MAX_PARTITIONS_PER_TOPIC = 1 << 20
#: Partitions of one consumer group's topics, or of one cluster (4× Kafka's 1M-partition
#: assignor benchmark).
MAX_PARTITIONS_TOTAL = 1 << 22
#: Replicas (partitions × replication factor) of one placement or cluster plan (6× a 2.8M-replica
#: cluster).
MAX_REPLICAS_TOTAL = 1 << 24
#: Brokers of one cluster.
MAX_BROKERS = 1 << 16
#: Members of one consumer group (13× KIP-848's 10,000-member benchmark).
MAX_MEMBERS = 1 << 17
#: Topics of one consumer group or rebalance scenario.
MAX_TOPICS = 1 << 16
#: Records ``kpart simulate`` generates or reads (the simulation runs record by record).
MAX_SIMULATED_RECORDS = 10_000_000
#: Sum of the partition counts one what-if evaluates (each keeps six int64 per partition).
MAX_WHATIF_CELLS = 1 << 24
#: Partition counts one what-if search range may hold (``--search 13-48`` holds 36).
MAX_WHATIF_SEARCH = 4096

# -- memory estimates (measured on CPython 3.12, 64-bit; rounded up) ----------------------------

#: Estimates below this many bytes are not checked (no /proc reads for small work).
MEMORY_CHECK_FROM = 64 << 20
#: A partition in a report (per-partition rows, JSON, page), excluding replicas (``kpart
#: report`` measured ~2.2 KB per partition at RF 3 in the driver: 274 MB with 12 partitions,
#: 495 MB with 100,000).
BYTES_PER_PARTITION = 2048
#: A replica in a placement or plan (``{partition: (broker, ...)}`` and its text output;
#: ``kpart place`` measured ~740 B per partition at RF 3 for 1,048,576 partitions).
BYTES_PER_REPLICA = 256
#: A partition in a consumer group assignment (measured ~300 B with 1M partitions).
BYTES_PER_ASSIGNED_PARTITION = 512
#: A record of ``kpart simulate`` (measured ~300 B).
BYTES_PER_SIMULATED_RECORD = 512
#: A (partition count, partition) cell of a what-if tally: 6 int64, twice while merging.
BYTES_PER_WHATIF_CELL = 96


def format_bytes(n: float) -> str:
    """``1536`` → ``'1.5 KiB'``: binary (IEC) units, as every kpart output names sizes
    (:mod:`kpart.report._format`).

    >>> format_bytes(3 * 2**30), format_bytes(512), format_bytes(954.4 * 2**30)
    ('3.0 GiB', '512 B', '954 GiB')
    """
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            v = n / size
            return f"{v:.0f} {unit}" if v >= 100 else f"{v:.1f} {unit}"
    return f"{int(n)} B"


#: The default names of the checked values: library parameters (the CLI names its flags).
_NUM_PARTITIONS = Param("num_partitions")
_REPLICATION_FACTOR = Param("replication_factor")
_BROKERS = Param("brokers")
_MEMBERS = Param("members")
_TOPICS = Param("topics")
_RECORDS = Param("records")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _named(error: type[KpartError], what: str, template: str, **values: Any) -> KpartError:
    """``error`` whose ``template`` names the value as ``{param}`` (:meth:`KpartError.naming_value`:
    a :class:`~kpart.errors.Param` ``what`` is a library parameter, a plain string is printed)."""
    return error.naming_value(what, template, **values)


def _kpart(what: str, value: int, limit: int, unit: str, why: str, error: type[KpartError],
           bytes_each: int | None = None) -> KpartError:
    need = "" if bytes_each is None else f": ~{format_bytes(value * bytes_each)} would be needed"
    return _named(error, what, "{param}: {value} is above kpart's limit of {limit:,} {unit} "
                  "({why}{need})", value=value, limit=limit, unit=unit, why=why, need=need)


def _kafka(what: str, value: int, limit: int, why: str, error: type[KpartError]) -> KpartError:
    return _named(error, what, "{param}: {value} is above Kafka's limit of {limit:,} ({why})",
                  value=value, limit=limit, why=why)


def check_partitions(n: Any, what: str = _NUM_PARTITIONS, *,
                     error: type[KpartError] = InvalidPartitionsError,
                     bytes_each: int = BYTES_PER_PARTITION) -> Any:
    """``n`` if it is at most :data:`MAX_PARTITIONS_PER_TOPIC` (and Kafka's INT32); otherwise
    ``error`` naming ``what``, the value, the limit and the memory it would need. Values that are
    not integers, or ≤ 0, are returned unchanged: the caller's own check words those.

    >>> check_partitions(MAX_PARTITIONS_PER_TOPIC)
    1048576
    """
    if not _is_int(n) or n <= MAX_PARTITIONS_PER_TOPIC:
        return n
    if n > KAFKA_MAX_PARTITIONS:
        raise _kafka(what, n, KAFKA_MAX_PARTITIONS, "NumPartitions is an INT32 in "
                     "CreateTopicsRequest", error)
    raise _kpart(what, n, MAX_PARTITIONS_PER_TOPIC, "partitions per topic",
                 "kpart keeps every partition in memory", error, bytes_each)


def check_total_partitions(total: int, what: str, *,
                           error: type[KpartError] = InvalidPartitionsError,
                           bytes_each: int = BYTES_PER_ASSIGNED_PARTITION) -> int:
    """``total`` (a group's or a cluster's partitions, summed over topics) if at most
    :data:`MAX_PARTITIONS_TOTAL`, else ``error``.

    >>> check_total_partitions(500 * 2_000, "group.topics")   # Kafka's assignor benchmark
    1000000
    """
    if total > MAX_PARTITIONS_TOTAL:
        raise _kpart(what, total, MAX_PARTITIONS_TOTAL, "partitions in total",
                     "kpart keeps every partition in memory", error, bytes_each)
    return total


def check_replication_factor(rf: Any, what: str = _REPLICATION_FACTOR, *,
                             num_partitions: int | None = None,
                             error: type[KpartError] = InvalidReplicationFactorError) -> Any:
    """``rf`` if it fits Kafka's INT16 and, with ``num_partitions``, the replicas
    (``num_partitions × rf``) stay within :data:`MAX_REPLICAS_TOTAL`; otherwise
    ``InvalidReplicationFactorError``. (``rf`` ≤ the broker count is Kafka's own check, made
    by the placers with Kafka's message.)

    >>> check_replication_factor(3, num_partitions=1_000_000)
    3
    """
    if not _is_int(rf):
        return rf
    if rf > KAFKA_MAX_REPLICATION_FACTOR:
        raise _kafka(what, rf, KAFKA_MAX_REPLICATION_FACTOR,
                     "ReplicationFactor is an INT16 in CreateTopicsRequest", error)
    if num_partitions is not None and _is_int(num_partitions) and num_partitions > 0 and rf > 0:
        replicas = num_partitions * rf
        if replicas > MAX_REPLICAS_TOTAL:
            raise _named(
                error, what, "{param}: {rf} × {num_partitions} partitions = {replicas:,} replicas "
                "is above kpart's limit of {limit:,} replicas (kpart keeps every replica in "
                "memory: ~{need} would be needed)", rf=rf, num_partitions=num_partitions,
                replicas=replicas, limit=MAX_REPLICAS_TOTAL,
                need=format_bytes(replicas * BYTES_PER_REPLICA))
    return rf


def check_brokers(count: int, what: str = _BROKERS) -> int:
    """``count`` brokers if at most :data:`MAX_BROKERS`, else ``ConfigError``.

    >>> check_brokers(215)
    215
    """
    if count > MAX_BROKERS:
        raise _kpart(what, count, MAX_BROKERS, "brokers", "brokers of one cluster", ConfigError)
    return count


def check_broker_id(broker_id: Any, what: str = "broker id") -> Any:
    """``broker_id`` if it fits Kafka's INT32 (≥ 0 is the caller's check), else ``ConfigError``.

    >>> check_broker_id(1001)
    1001
    """
    if _is_int(broker_id) and broker_id > KAFKA_MAX_BROKER_ID:
        raise _kafka(what, broker_id, KAFKA_MAX_BROKER_ID, "BrokerId is an INT32", ConfigError)
    return broker_id


def check_members(count: int, what: str = _MEMBERS) -> int:
    """``count`` members of one group if at most :data:`MAX_MEMBERS`, else ``ConfigError``
    (Kafka's ``group.max.size``/``group.consumer.max.size`` default to ``Integer.MAX_VALUE``).

    >>> check_members(10_000)
    10000
    """
    if count > MAX_MEMBERS:
        raise _kpart(what, count, MAX_MEMBERS, "members per group",
                     "Kafka's largest benchmarks use 10,000", ConfigError)
    return count


def check_topics(count: int, what: str = _TOPICS) -> int:
    """``count`` topics of one group or scenario if at most :data:`MAX_TOPICS`, else
    ``ConfigError``."""
    if count > MAX_TOPICS:
        raise _kpart(what, count, MAX_TOPICS, "topics", "topics of one group or scenario",
                     ConfigError)
    return count


def check_records(count: Any, what: str = _RECORDS) -> Any:
    """``count`` simulated records if at most :data:`MAX_SIMULATED_RECORDS`, else ``ConfigError``.

    >>> check_records(10_000)
    10000
    """
    if _is_int(count) and count > MAX_SIMULATED_RECORDS:
        raise _kpart(what, count, MAX_SIMULATED_RECORDS, "simulated records",
                     "the simulation runs record by record in Python", ConfigError,
                     BYTES_PER_SIMULATED_RECORD)
    if _is_int(count) and count > 0:
        check_memory(count * BYTES_PER_SIMULATED_RECORD, f"{what}: simulating {count:,} records")
    return count


def check_placement(num_partitions: Any, replication_factor: Any, *,
                    partitions_what: str = _NUM_PARTITIONS,
                    rf_what: str = _REPLICATION_FACTOR) -> None:
    """The bounds of one placement (``num_partitions`` per topic, replication factor, replicas)
    and its memory estimate; the Kafka checks (> 0, RF ≤ brokers) stay with the placers.

    >>> check_placement(MAX_PARTITIONS_PER_TOPIC, 3)   # allowed: ~768 MiB
    """
    rf = replication_factor if _is_int(replication_factor) and replication_factor > 0 else 1
    check_partitions(num_partitions, partitions_what, bytes_each=BYTES_PER_REPLICA * rf)
    check_replication_factor(replication_factor, rf_what, num_partitions=num_partitions)
    if (_is_int(num_partitions) and _is_int(replication_factor) and num_partitions > 0
            and replication_factor > 0):
        check_memory(num_partitions * replication_factor * BYTES_PER_REPLICA,
                     f"placing {num_partitions:,} partitions with replication factor "
                     f"{replication_factor}", error=InvalidPartitionsError)


def check_group(partitions: Iterable[int], num_members: int, what: str = "group") -> int:
    """The bounds of one consumer group: its topics (:data:`MAX_TOPICS`), members
    (:data:`MAX_MEMBERS`) and partitions summed over its topics (:data:`MAX_PARTITIONS_TOTAL`;
    each topic's own count is checked with :func:`check_partitions`). Returns the total.

    >>> check_group([2_000] * 500, 2_000)   # Kafka's assignor benchmark
    1000000
    """
    counts = list(partitions)
    check_topics(len(counts), f"{what} topics")
    check_members(num_members, f"{what} members")
    return check_total_partitions(sum(counts), f"{what} partitions")


def check_assignment(total_partitions: int, doing: str) -> None:
    """The memory estimate of assigning ``total_partitions`` partitions (consumer groups)."""
    check_memory(total_partitions * BYTES_PER_ASSIGNED_PARTITION, doing)


def check_whatif(counts: Iterable[int], what: str = "what-if") -> int:
    """The partition counts one what-if evaluates (each already within
    :func:`check_partitions`): their sum within :data:`MAX_WHATIF_CELLS`, and its memory.
    Returns the sum.

    >>> check_whatif(range(13, 49))
    1098
    """
    total = sum(counts)
    if total > MAX_WHATIF_CELLS:
        raise _kpart(what, total, MAX_WHATIF_CELLS, "partitions summed over the counts "
                     "evaluated", "each keeps six counters per partition", InvalidPartitionsError,
                     BYTES_PER_WHATIF_CELL)
    check_memory(total * BYTES_PER_WHATIF_CELL,
                 f"{what}: evaluating {total:,} partitions over all counts",
                 error=InvalidPartitionsError)
    return total


def check_cluster(num_partitions: int, num_replicas: int, num_brokers: int,
                  what: str = "cluster") -> None:
    """The bounds of one cluster plan: partitions (:data:`MAX_PARTITIONS_TOTAL`), replicas
    (:data:`MAX_REPLICAS_TOTAL`), brokers (:data:`MAX_BROKERS`), and the memory of holding the
    current and the target assignment.

    >>> check_cluster(933_334, 2_800_002, 215)   # 2.8M replicas over 215 brokers
    """
    check_brokers(num_brokers, f"{what} brokers")
    check_total_partitions(num_partitions, f"{what} partitions", bytes_each=BYTES_PER_PARTITION)
    if num_replicas > MAX_REPLICAS_TOTAL:
        raise _kpart(f"{what} replicas", num_replicas, MAX_REPLICAS_TOTAL, "replicas",
                     "kpart keeps every replica in memory", InvalidReplicationFactorError,
                     2 * BYTES_PER_REPLICA)
    check_memory(2 * num_replicas * BYTES_PER_REPLICA,
                 f"planning {num_replicas:,} replicas on {num_brokers:,} brokers")


def check_report(num_partitions: int, replication_factor: int) -> None:
    """The memory estimate of a report on ``num_partitions`` partitions (per-partition rows,
    replicas, JSON and page), checked before Spark starts; bounds are checked by the topology.

    >>> check_report(12, 3)
    """
    check_memory(num_partitions * (BYTES_PER_PARTITION + replication_factor * BYTES_PER_REPLICA),
                 f"a report of {num_partitions:,} partitions with replication factor "
                 f"{replication_factor}", error=InvalidPartitionsError)


# -- memory -------------------------------------------------------------------------------------


def _meminfo_available() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _read_int(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _inactive_file(stat: Path, field: str) -> int:
    """Reclaimable page cache of a cgroup (``memory.stat``), as ``docker stats`` subtracts it."""
    try:
        for line in stat.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == field and value.strip().isdigit():
                return int(value)
    except OSError:
        pass
    return 0


def _cgroup_available(root: Path = Path("/sys/fs/cgroup")) -> int | None:
    """Room left under this process's cgroup memory limit (v2, else v1), if it has one: the
    limit minus the usage, page cache that can be reclaimed not counted as used."""
    for limit_file, usage_file, stat_file, field in (
            ("memory.max", "memory.current", "memory.stat", "inactive_file"),
            ("memory/memory.limit_in_bytes", "memory/memory.usage_in_bytes",
             "memory/memory.stat", "total_inactive_file")):
        limit, usage = _read_int(root / limit_file), _read_int(root / usage_file)
        if limit is not None and usage is not None and limit < 2**60:
            return max(0, limit - usage + _inactive_file(root / stat_file, field))
    return None


def _rlimit_available() -> int | None:
    """Address space left under ``RLIMIT_AS`` (``ulimit -v``), if one is set."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return max(0, soft - int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    return soft


def available_memory() -> int | None:
    """Bytes this process may still allocate: the smallest of ``MemAvailable``
    (``/proc/meminfo``, else ``sysconf(SC_AVPHYS_PAGES)``), the room under the cgroup's memory
    limit and under ``RLIMIT_AS``; ``None`` when none is known (no check is made then)."""
    known = [v for v in (_meminfo_available(), _cgroup_available(), _rlimit_available())
             if v is not None]
    return min(known) if known else None


def check_memory(estimate: int, doing: str, *, error: type[KpartError] = ConfigError) -> int:
    """Refuse an operation whose ``estimate`` (bytes) exceeds :func:`available_memory`, with
    ``error("<doing> needs ~X of memory, more than the Y available")``. Returns ``estimate``.

    >>> check_memory(1024, "placing 4 partitions")
    1024
    """
    if estimate < MEMORY_CHECK_FROM:
        return estimate
    free = available_memory()
    if free is not None and estimate > free:
        raise error(f"{doing} needs ~{format_bytes(estimate)} of memory, more than the "
                    f"{format_bytes(free)} available")
    return estimate
