"""A :class:`~kpart.cluster.model.ClusterModel` from the files an operator already has.

What Cruise Control's ``LoadMonitor.clusterModel`` assembles from Kafka's metadata, its
``BrokerCapacityConfigResolver`` and its partition metric samples, from files instead:

- the current assignment: ``kafka-topics.sh --describe`` output of all topics (brokers seen in
  replicas, ISR and leaders; each topic's ``min.insync.replicas`` from its header's
  ``Configs:`` field when printed), or a ``kafka-reassign-partitions.sh`` JSON / ZooKeeper topic
  node (:func:`kpart.placement.reassign.read_current`), which hold no leader or ISR: the model
  then takes the preferred leader (first replica) as leader and every replica as in sync —
  the steady state a preferred-leader election reaches;
- ``sizes``: ``kafka-log-dirs.sh --describe`` JSON (:func:`kpart.placement.balance.
  parse_partition_sizes`: a partition's size is its largest non-future replica's); it must
  cover exactly the partitions of the assignment, and a log dir reported with an ``error``
  is refused (its sizes are missing);
- ``capacity``: Cruise Control's ``capacity.json`` (:mod:`kpart.cluster.capacity`);
- ``loads``: rates CSVs and ``kpart report`` outputs (:mod:`kpart.cluster.rates`), applied in
  order (a later file's known value replaces an earlier one's; measured sizes from ``sizes``
  always win over a report's estimate);
- ``brokers``: the cluster's brokers with racks (``--brokers ID[:RACK],...``); brokers the
  assignment uses must be among them (``kpart outage``, ``state_now``: one that is not is down
  from the start); without it, the brokers the assignment uses, no racks.

A describe dump must be the whole cluster unless ``partial``; its ``Offline:`` field is read
into :attr:`ClusterModel.offline`, its ``Configs:`` into :attr:`TopicInfo.configs`.

Errors: :class:`~kpart.errors.ConfigError`, one line naming the first bad partition, broker,
line or field.

>>> text = ("Topic: t\\tPartitionCount: 2\\tReplicationFactor: 2\\tConfigs: min.insync.replicas=2\\n"
...         "\\tTopic: t\\tPartition: 0\\tLeader: 1\\tReplicas: 1,2\\tIsr: 1,2\\n"
...         "\\tTopic: t\\tPartition: 1\\tLeader: 2\\tReplicas: 2,1\\tIsr: 2\\n")
>>> m = cluster_from_files(text, sizes='{"t-0": 10, "t-1": 20}')
>>> [b.id for b in m.brokers], m.topics[0].min_insync_replicas, m.size_bytes.tolist()
([1, 2], 2, [10.0, 20.0])
"""

from __future__ import annotations

import contextlib
import gc
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from kpart.cluster.capacity import CapacityConfig, capacities_for
from kpart.cluster.model import LOADS, ClusterBroker, ClusterModel, TopicInfo, padded_ids
from kpart.cluster.rates import PartitionLoads
from kpart.errors import ConfigError
from kpart.placement.formats import (
    DescribeColumns,
    DescribedPartition,
    parse_describe_columns,
    parse_describe_with_configs,
)
from kpart.placement.spec import Broker

__all__ = ["cluster_from_files", "log_dirs_errors"]

_MIN_ISR = re.compile(r"(?:^|,)\s*min\.insync\.replicas\s*=\s*([^,\s]*)")
_ERROR = re.compile(r'"error"\s*:\s*(?!null\b)')


def log_dirs_errors(text: str) -> None:
    """:class:`ConfigError` naming the first broker and log dir that ``kafka-log-dirs.sh``
    reported with an ``error`` (e.g. ``KafkaStorageException``): its partitions' sizes are
    missing from the file. A quick scan; the JSON is parsed only when an error is present."""
    if not _ERROR.search(text):
        return
    body = next((ln for ln in text.splitlines() if ln.lstrip().startswith("{")), "")
    try:
        doc = json.loads(body)
    except json.JSONDecodeError:
        return  # the sizes parser reports malformed JSON
    for broker in doc.get("brokers", []) if isinstance(doc, dict) else []:
        if not isinstance(broker, dict):
            continue
        for log_dir in broker.get("logDirs") or []:
            if isinstance(log_dir, dict) and log_dir.get("error") is not None:
                raise ConfigError(
                    f"log-dirs JSON: broker {broker.get('broker')!r:.20} reports error "
                    f"{log_dir['error']!r:.60} for log dir {log_dir.get('logDir')!r:.80}: its "
                    "partition sizes are missing (fix the broker or leave it out of --sizes)")


def _described(current: str, topic: str | None, partial: bool, now: bool,
               ) -> tuple[list[DescribedPartition] | DescribeColumns, dict[str, tuple[int, str]]]:
    """Partition rows and topic configs of a describe dump, reassignment JSON, ``--generate``
    transcript or ZK node; partitions being reassigned as they are ``now``, else as they will
    be once the reassignment completes (one warning names them). A dump as
    ``kafka-topics.sh`` prints it is read into arrays (:func:`parse_describe_columns`: none of
    its partitions is being reassigned), others row by row."""
    from kpart.placement.reassign import generate_transcript_json, read_current, warn_reassigning

    if not current.lstrip().startswith("{"):
        current = generate_transcript_json(current) or current
    if current.lstrip().startswith("{"):
        assignment = read_current(current, topic)
        rows = [DescribedPartition(t, p, r[0], tuple(r), tuple(r))
                for t, parts in assignment.items() for p, r in sorted(parts.items())]
        return rows, {}
    if topic:
        raise ConfigError(f"A topic name ({topic!r}) only goes with a ZooKeeper topic node; "
                          "this input names its topics itself")
    columns = parse_describe_columns(current, partial=partial)
    if columns is not None:
        return columns, columns.configs
    rows, configs = parse_describe_with_configs(current, partial=partial)
    if not rows:
        read_current(current)  # its error, with a hint for a JSON line
    if now:
        warn_reassigning(rows, "read as it is now (the old and new replicas), not completed")
        return rows, configs
    warn_reassigning(rows, "read as it will be once it completes")
    return [d.completed() for d in rows], configs


def _min_isr(topic: str, configs: Mapping[str, tuple[int, str]]) -> int | None:
    found = configs.get(topic)
    match = _MIN_ISR.search(found[1]) if found else None
    if found is None or match is None:
        return None
    value = match.group(1)
    if not (value.isascii() and value.isdigit()) or int(value) < 1:
        raise ConfigError(f"line {found[0]}: invalid min.insync.replicas {value!r:.20} of topic "
                          f"{topic!r}: must be an integer >= 1")
    return int(value)


class _Rows:
    """The assignment as sorted arrays (topic index, partition, replicas, leader, ISR)."""

    def __init__(self, described: list[DescribedPartition] | DescribeColumns) -> None:
        if isinstance(described, DescribeColumns):
            names = list(described.topics)
            topic, partition = described.topic, described.partition
        else:
            names = list(dict.fromkeys(d.topic for d in described))
            index = {t: i for i, t in enumerate(names)}
            topic = np.fromiter((index[d.topic] for d in described), dtype=np.int32,
                                count=len(described))
            partition = np.fromiter((d.partition for d in described), dtype=np.int64,
                                    count=len(described))
        if len(partition) and partition.max() >= 2**31:
            raise ConfigError(f"Invalid partition {int(partition.max())}: larger than int32")
        key = topic.astype(np.int64) << 32 | partition
        perm = np.argsort(key, kind="stable")
        self.names = names
        self.order = {t: i for i, t in enumerate(names)}
        self.key = key[perm]
        self.topic = topic[perm]
        self.partition = partition[perm].astype(np.int32)
        self.offline = self.elr = self.last_known_elr = None
        if isinstance(described, DescribeColumns):  # no Offline / Elr / LastKnownElr ids
            self.replicas = described.replicas[perm]
            self.isr = described.isr[perm]
            self.leader = described.leader[perm]
            return
        rows = described
        self.replicas = padded_ids([d.replicas for d in rows])[perm]
        self.isr = padded_ids([d.isr for d in rows])[perm]
        self.leader = np.fromiter((-1 if d.leader is None else d.leader for d in rows),
                                  dtype=np.int64, count=len(rows))[perm].astype(np.int32)
        offline = [tuple(b for b in d.offline if b in d.replicas) if d.offline else ()
                   for d in rows]
        self.offline = padded_ids(offline)[perm] if any(offline) else None
        elr = [d.elr for d in rows]
        self.elr = padded_ids(elr)[perm] if any(elr) else None
        last = [d.last_known_elr for d in rows]
        self.last_known_elr = padded_ids(last)[perm] if any(last) else None

    def mark_offline(self, brokers: Sequence[int]) -> None:
        """Every replica on ``brokers`` offline for its partition (brokers absent from the
        cluster)."""
        gone = np.isin(self.replicas, np.asarray(brokers, dtype=np.int32)) & (self.replicas >= 0)
        extra = np.where(gone, self.replicas, -1)
        merged = extra if self.offline is None else np.concatenate([self.offline, extra], axis=1)
        self.offline = merged

    def name(self, row: int) -> str:
        return f"{self.names[int(self.topic[row])]}-{int(self.partition[row])}"

    def locate(self, topics: Sequence[str], partitions: np.ndarray,
               what: str, where: Sequence[str] | None = None) -> np.ndarray:
        """Rows of ``(topics[i], partitions[i])``; ConfigError naming the first unknown."""
        import pyarrow as pa

        names = pa.array(topics, type=pa.string()).dictionary_encode()  # one lookup a name
        known = np.array([self.order.get(t, -1) for t in names.dictionary.to_pylist()],
                         dtype=np.int64)
        index: np.ndarray = known[names.indices.to_numpy(zero_copy_only=False)]
        key = index << 32 | partitions.astype(np.int64)
        pos = np.minimum(np.searchsorted(self.key, key), len(self.key) - 1)
        found = (index >= 0) & (self.key[pos] == key)
        if not found.all():
            i = int(np.flatnonzero(~found)[0])
            at = f"{where[i]}: " if where is not None else ""
            raise ConfigError(f"{what}: {at}partition {topics[i]}-{int(partitions[i])} is not in "
                              "the cluster's assignment (--current)")
        return pos


def _apply_sizes(rows: _Rows, sizes: tuple[list[str], np.ndarray, np.ndarray]) -> np.ndarray:
    topics, parts, values = sizes
    at = rows.locate(topics, parts, "--sizes")
    out = np.full(len(rows.key), np.nan)
    out[at] = values.astype(np.float64)
    missing = np.isnan(out)
    if missing.any():
        raise ConfigError(f"--sizes: no size for partition {rows.name(int(np.flatnonzero(missing)[0]))}"
                          " of the assignment (--current)")
    return out


def _absent(rows: _Rows, racks: Mapping[int, str | None]) -> list[int]:
    """Brokers the assignment names but ``--brokers`` does not (sorted); ConfigError for one
    that leads a partition (a leader must be a live broker of the cluster)."""
    ids = np.concatenate([rows.replicas.ravel(), rows.isr.ravel()])
    named = np.unique(ids[ids >= 0])
    absent = named[~np.isin(named, np.fromiter(racks, dtype=np.int64, count=len(racks)))]
    leading = np.isin(rows.leader, absent)
    if leading.any():
        row = int(np.flatnonzero(leading)[0])
        raise ConfigError(f"--brokers: broker {int(rows.leader[row])}, the leader of partition "
                          f"{rows.name(row)}, is not one of the cluster's brokers")
    return [int(b) for b in absent]


def _brokers(rows: _Rows, brokers: Sequence[Broker] | None,
             capacity: CapacityConfig | None, absent_down: bool) -> list[ClusterBroker]:
    racks: dict[int, str | None]
    absent: list[int] = []
    if brokers:
        racks = {}
        for b in brokers:
            if b.id in racks:
                raise ConfigError(f"--brokers: broker {b.id} is listed twice")
            racks[b.id] = b.rack
        absent = _absent(rows, racks) if absent_down else []
        if absent:
            from kpart._warnings import kpart_warn

            kpart_warn(f"--brokers: broker {absent[0]}"
                       f"{f' (and {len(absent) - 1} more)' if len(absent) > 1 else ''} of the "
                       "assignment is not one of the cluster's brokers: taken as down from the "
                       "start (its replicas offline)")
            rows.mark_offline(absent)
            racks.update(dict.fromkeys(absent))
    else:
        ids = np.concatenate([rows.replicas.ravel(), rows.isr.ravel(), rows.leader])
        racks = dict.fromkeys(int(b) for b in np.unique(ids[ids >= 0]))
    live = [b for b in racks if b not in set(absent)]
    caps = capacities_for(capacity, live) if capacity is not None else {}
    return [ClusterBroker(b, rack, caps.get(b)) for b, rack in racks.items()]


#: What :func:`_side_inputs` reads: the ``--sizes`` columns (or ``None``) and the load tables.
_Side = tuple["tuple[list[str], np.ndarray, np.ndarray] | None", list[PartitionLoads]]


def _side_inputs(sizes: str | None, loads: Sequence[PartitionLoads | Callable[[], PartitionLoads]],
                 ) -> _Side:
    """The sizes read into columns, then each load table (a callable is called here): what
    :func:`cluster_from_files` reads beside the dump, in a worker thread."""
    columns = None
    if sizes is not None:
        from kpart.placement.balance import partition_size_columns

        log_dirs_errors(sizes)
        columns = partition_size_columns(sizes)
    return columns, [table() if callable(table) else table for table in loads]


def _columns(rows: _Rows, sizes: tuple[list[str], np.ndarray, np.ndarray] | None,
             loads: Sequence[PartitionLoads]) -> dict[str, np.ndarray]:
    """The load columns: ``loads`` in order, then measured ``sizes`` (as
    :func:`~kpart.placement.balance.partition_size_columns` reads them)."""
    n = len(rows.key)
    columns = {name: np.full(n, np.nan) for name in LOADS}
    for table in loads:
        at = rows.locate(table.topics, table.partition, table.source, table.where)
        for name, values in table.columns.items():
            if name in columns:
                known = ~np.isnan(values)
                columns[name][at[known]] = values[known]
    if sizes is not None:
        columns["size_bytes"] = _apply_sizes(rows, sizes)
    return columns


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while millions of acyclic rows (tuples, dicts,
    strings) are built: its full collections would rescan them again and again."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def cluster_from_files(  # noqa: PLR0913
    current: str,
    *,
    topic: str | None = None,
    sizes: str | None = None,
    capacity: CapacityConfig | None = None,
    loads: Sequence[PartitionLoads | Callable[[], PartitionLoads]] = (),
    brokers: Sequence[Broker] | None = None,
    partial: bool = False,
    state_now: bool = False,
) -> ClusterModel:
    """The cluster of ``current`` (the text of a describe dump, reassignment JSON,
    ``kafka-reassign-partitions.sh --generate`` transcript or ZooKeeper topic node with
    ``topic``), weighed by ``sizes`` (the text of a ``kafka-log-dirs.sh`` JSON), ``capacity``
    and ``loads``, on ``brokers`` (see the module docstring).

    ``partial``: read a dump that is not the whole cluster (else refused, see
    :func:`kpart.placement.formats.parse_describe_with_configs`). ``state_now`` (``kpart
    outage``): the state as the dump has it, for a what-if from that state: a partition being
    reassigned keeps Kafka's union of its old and new replicas, and a broker the dump names
    but ``brokers`` lacks is down from the start (its replicas offline; a warning names it);
    else (planning) a partition being reassigned is taken as it will be once the reassignment
    completes, and such a broker is an error. The ``Offline:`` field is read into
    :attr:`ClusterModel.offline` either way. Errors: :class:`ConfigError` naming the first
    bad partition, broker, line or field, the files taken in the order dump, sizes, loads.

    ``sizes`` and ``loads`` are read in a worker thread while the dump is (their parsers
    spend most of their time in Arrow and numpy, which release the GIL: on #1592, 2.8M
    replicas, the three files in about the time of the two largest); a callable in ``loads``
    is called there to read its table."""
    with _gc_paused(), ThreadPoolExecutor(1, thread_name_prefix="kpart-read") as pool:
        side = pool.submit(_side_inputs, sizes, loads)
        described, configs = _described(current, topic, partial, state_now)
        rows = _Rows(described)
        del described
        size_columns, tables = side.result()
        columns = _columns(rows, size_columns, tables)
    topics = tuple(TopicInfo(t, _min_isr(t, configs),
                             configs[t][1] if t in configs else None) for t in rows.names)
    cluster = tuple(_brokers(rows, brokers, capacity, state_now))
    return ClusterModel(
        cluster, topics, topic=rows.topic,
        partition=rows.partition, replicas=rows.replicas, leader=rows.leader, isr=rows.isr,
        offline=rows.offline, elr=rows.elr, last_known_elr=rows.last_known_elr, **columns,
    )
