"""A live, read-only snapshot of a cluster through Kafka's Admin API (``Admin`` /
``KafkaAdminClient``, here confluent-kafka's ``AdminClient`` over librdkafka): brokers and
racks (``describeCluster``), replicas in order, leaders and ISR (``describeTopics``: its
Metadata request),
``min.insync.replicas`` (``describeConfigs``), messages per partition (``listOffsets``
latest − earliest) and consumer groups (``listConsumerGroups`` + ``describeConsumerGroups``).

Only ``Describe*``/``List*`` requests are sent: nothing on the cluster changes.

Every topic is recorded, internal ones (``__consumer_offsets``, ``__transaction_state``)
included: their replicas hold bytes and leaders like any other, and a planner or a failure
what-if that left them out would misjudge the brokers. What the cluster cannot answer is
recorded as unknown (``None``/``NaN``) and named in :attr:`Snapshot.warnings`, one line per kind
(e.g. a broker refusing ``DescribeConfigs``). ``messages`` is the offset span, an upper bound of
the records a partition holds (transaction markers and compacted records count).

Errors: :class:`~kpart.errors.AdminOperationError` when the cluster cannot be reached or the
cluster/topic description fails within the timeout; :class:`~kpart.errors.ConfigError` for a bad
``--command-config`` line (:func:`parse_command_config`).
"""

from __future__ import annotations

import importlib
import logging
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from kpart.cluster.groups import ConsumerGroup, GroupMember
from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState, TopicInfo
from kpart.errors import AdminOperationError, ConfigError

__all__ = ["Admin", "Snapshot", "admin_config", "connect", "parse_command_config", "take_snapshot"]

#: Java-client keys of a Kafka CLI ``--command-config`` librdkafka has no equivalent for.
_JAVA_ONLY = {
    "ssl.truststore.location": "ssl.ca.location (a PEM file)",
    "ssl.truststore.password": "ssl.ca.location (a PEM file)",
    "ssl.truststore.type": "ssl.ca.location (a PEM file)",
    "ssl.keystore.location": "ssl.certificate.location and ssl.key.location (PEM), or "
                             "ssl.keystore.location with a PKCS#12 file",
    "ssl.keystore.type": "PEM or PKCS#12 files",
    "sasl.login.callback.handler.class": "sasl.oauthbearer.* settings",
    "sasl.client.callback.handler.class": "sasl.oauthbearer.* settings",
}
#: Partitions per ListOffsets call.
_BATCH = 500
_JAAS = re.compile(r'^\s*\S+\s+required\b(?P<opts>.*?);?\s*$', re.S)
_JAAS_OPT = re.compile(r'(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"')


class Admin(Protocol):
    """The Admin API calls a snapshot makes (confluent-kafka's ``AdminClient``; tests may
    pass a small fake)."""

    def describe_cluster(self, **kwargs: Any) -> Any: ...
    def list_topics(self, *args: Any, **kwargs: Any) -> Any: ...
    def describe_configs(self, resources: Any, **kwargs: Any) -> Any: ...
    def list_offsets(self, requests: Any, **kwargs: Any) -> Any: ...
    def list_consumer_groups(self, **kwargs: Any) -> Any: ...
    def describe_consumer_groups(self, group_ids: Any, **kwargs: Any) -> Any: ...


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What :func:`take_snapshot` read: the :class:`ClusterModel` (sizes and rates unknown;
    ``messages`` from the offsets), the consumer groups (``None`` when the cluster would not
    list them), the controller's broker id and one warning line per kind of unknown."""

    model: ClusterModel
    groups: tuple[ConsumerGroup, ...] | None
    controller: int | None
    warnings: tuple[str, ...]


def parse_command_config(text: str, source: str = "--command-config") -> dict[str, tuple[int, str]]:
    """A Java ``.properties`` file as Kafka's CLI tools read it (``key=value`` or ``key: value``
    lines, ``#``/``!`` comments, blank lines, ``\\`` continuations) → ``{key: (line, value)}``.

    Raises :class:`ConfigError` naming ``source`` and the line for a line without a separator,
    an empty key, or a key given twice.

    >>> parse_command_config("# TLS\\nsecurity.protocol=SSL\\nsasl.mechanism: PLAIN\\n")
    {'security.protocol': (2, 'SSL'), 'sasl.mechanism': (3, 'PLAIN')}
    """
    out: dict[str, tuple[int, str]] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        number, line = i + 1, lines[i].lstrip()  # java.util.Properties keeps trailing blanks
        i += 1
        while (len(line) - len(line.rstrip("\\"))) % 2 == 1 and i < len(lines):
            line = line[:-1] + lines[i].lstrip()  # an odd run of backslashes continues
            i += 1
        if not line or line[0] in "#!":
            continue
        m = re.match(r"^([^=:\s]+)\s*[=:]\s*(.*)$", line)
        if m is None:
            raise ConfigError(f"{source} line {number}: expected key=value, got {line!r:.60}.")
        key, value = m.group(1), m.group(2)
        if key in out:
            raise ConfigError(f"{source} line {number}: {key} is already set on line "
                              f"{out[key][0]}.")
        out[key] = (number, value)
    return out


def _jaas(value: str, where: str) -> dict[str, str]:
    m = _JAAS.match(value)
    opts = dict(_JAAS_OPT.findall(m.group("opts"))) if m else {}
    if "username" not in opts or "password" not in opts:
        raise ConfigError(f"{where}: sasl.jaas.config: kpart reads the username and password "
                          "of a PlainLoginModule/ScramLoginModule entry; set sasl.username and "
                          "sasl.password instead.")
    return {"sasl.username": opts["username"], "sasl.password": opts["password"]}


def admin_config(bootstrap: str, command_config: Mapping[str, tuple[int, str]] | None = None,
                 source: str = "--command-config") -> dict[str, tuple[int | None, str]]:
    """The librdkafka configuration of the snapshot's ``AdminClient``: ``bootstrap.servers``
    plus the ``--command-config`` keys (``{key: (line, value)}``), with the Java client's
    ``sasl.jaas.config`` (PLAIN/SCRAM) turned into ``sasl.username``/``sasl.password``.
    librdkafka accepts Kafka's names for the common keys (``security.protocol``,
    ``sasl.mechanism``, ``ssl.endpoint.identification.algorithm``, ...); a key with no
    librdkafka equivalent (JKS trust/key stores, callback classes) is a :class:`ConfigError`
    naming its line; librdkafka itself rejects the keys it does not know (see
    :func:`take_snapshot`)."""
    conf: dict[str, tuple[int | None, str]] = {}
    for key, (line, value) in (command_config or {}).items():
        where = f"{source} line {line}"
        if key in _JAVA_ONLY and not (key.startswith("ssl.keystore.") and
                                      value.strip().upper() == "PKCS12"):
            raise ConfigError(f"{where}: {key} is a Java client setting librdkafka does not "
                              f"read; use {_JAVA_ONLY[key]}.")
        if key == "bootstrap.servers":
            continue  # --bootstrap-server wins, as in Kafka's tools
        if key == "sasl.jaas.config":
            conf.update({k: (line, v) for k, v in _jaas(value, where).items()})
            continue
        conf[key] = (line, value)
    conf["bootstrap.servers"] = (None, bootstrap)
    return conf


# -- reading --------------------------------------------------------------------------------
class _Clock:
    def __init__(self, timeout: float) -> None:
        self.end = time.monotonic() + timeout

    def left(self) -> float:
        return max(self.end - time.monotonic(), 0.05)


def _module(name: str) -> Any:
    # confluent_kafka.admin's names are untyped re-exports: reached as Any.
    return importlib.import_module(name)


def _reason(e: BaseException) -> str:
    err: Any = e.args[0] if e.args else None
    text = err.str() if hasattr(err, "str") else str(e)
    return str(text).rstrip(".") or type(e).__name__


def _results(futures: Mapping[Any, Any], clock: _Clock) -> tuple[dict[Any, Any], dict[Any, str]]:
    done: dict[Any, Any] = {}
    failed: dict[Any, str] = {}
    for key, future in futures.items():
        try:
            done[key] = future.result(timeout=clock.left())
        except Exception as e:  # noqa: BLE001 - librdkafka errors arrive as KafkaException
            failed[key] = _reason(e)
    return done, failed


def _brokers(admin: Admin, clock: _Clock, bootstrap: str) -> tuple[list[ClusterBroker], int | None]:
    try:
        desc = admin.describe_cluster(request_timeout=clock.left()).result(timeout=clock.left())
    except Exception as e:  # noqa: BLE001
        raise AdminOperationError(f"Cannot describe the cluster at --bootstrap-server "
                                  f"{bootstrap}: {_reason(e)}.") from None
    brokers = [ClusterBroker(int(n.id), n.rack or None) for n in desc.nodes]
    controller = None if desc.controller is None else int(desc.controller.id)
    return brokers, controller


def _topics(admin: Admin, clock: _Clock) -> list[Any]:
    """Every topic's ``TopicMetadata`` (replicas in order, leader, ISR per partition), by name.

    One Metadata request for all topics: the request librdkafka's ``describe_topics`` sends too
    (``rd_kafka_admin_DescribeTopicsRequest`` is a MetadataRequest), without its per-topic
    futures (8x faster on 10,000 partitions)."""
    try:
        metadata = admin.list_topics(timeout=clock.left())
    except Exception as e:  # noqa: BLE001
        raise AdminOperationError(f"Cannot describe the topics: {_reason(e)}.") from None
    topics = [metadata.topics[n] for n in sorted(metadata.topics)]
    for t in topics:
        if t.error is not None:
            raise AdminOperationError(f"Cannot describe topic {t.topic!r}: {_reason(Exception(t.error))}.")
    return topics


def _min_isr(admin: Admin, names: list[str], clock: _Clock,
             warn: list[str]) -> dict[str, int | None]:
    ck = _module("confluent_kafka.admin")
    out: dict[str, int | None] = dict.fromkeys(names)
    if not names:
        return out
    try:
        futures = admin.describe_configs([ck.ConfigResource(ck.ResourceType.TOPIC, n) for n in names],
                                         request_timeout=clock.left())
        done, failed = _results(futures, clock)
    except Exception as e:  # noqa: BLE001
        done, failed = {}, {None: _reason(e)}
    for resource, entries in done.items():
        entry = entries.get("min.insync.replicas")
        value = getattr(entry, "value", None)
        if value is not None and str(value).isdigit() and int(value) >= 1:
            out[resource.name] = int(value)
    if failed:
        why = next(iter(failed.values()))
        warn.append(f"min.insync.replicas of {len(failed) if None not in failed else len(names)}"
                    f" topic(s) recorded as null: describe_configs failed ({why}).")
    return out


def _messages(admin: Admin, rows: list[PartitionState], clock: _Clock,
              warn: list[str]) -> dict[tuple[str, int], float]:
    from confluent_kafka import TopicPartition

    ck = _module("confluent_kafka.admin")
    spans: dict[str, dict[tuple[str, int], int]] = {"earliest": {}, "latest": {}}
    failures: dict[Any, str] = {}
    if not rows:
        return {}
    pending: list[tuple[str, Any]] = []
    for kind, spec in (("earliest", ck.OffsetSpec.earliest()),
                       ("latest", ck.OffsetSpec.latest())):
        # Every batch in flight at once; batches of _BATCH partitions, as librdkafka's
        # list_offsets slows down more than linearly with the partitions of one call.
        for start in range(0, len(rows), _BATCH):
            try:
                pending.append((kind, admin.list_offsets(
                    {TopicPartition(r.topic, r.partition): spec
                     for r in rows[start:start + _BATCH]}, request_timeout=clock.left())))
            except Exception as e:  # noqa: BLE001
                failures[None] = _reason(e)
    for kind, futures in pending:
        done, failed = _results(futures, clock)
        spans[kind].update({(tp.topic, tp.partition): int(info.offset)
                            for tp, info in done.items()})
        failures.update(failed)
    out: dict[tuple[str, int], float] = {}
    for key, first in spans.get("earliest", {}).items():
        last = spans["latest"].get(key)
        if last is not None and first >= 0 and last >= first:
            out[key] = float(last - first)
    if rows and len(out) < len(rows):
        why = next(iter(failures.values()), "no offsets returned")
        warn.append(f"messages of {len(rows) - len(out)} partition(s) recorded as null: "
                    f"list_offsets failed ({why}).")
    return out


def _name(value: Any) -> str | None:
    if value is None:
        return None
    name = getattr(value, "name", value)
    return None if str(name).upper() == "UNKNOWN" else str(name)


def _group(desc: Any) -> ConsumerGroup:
    members = []
    for m in desc.members:
        by_topic: dict[str, list[int]] = {}
        tps = m.assignment.topic_partitions if m.assignment is not None else []
        for tp in tps or []:
            by_topic.setdefault(tp.topic, []).append(int(tp.partition))
        members.append(GroupMember(
            str(m.member_id), m.group_instance_id or None, m.client_id or None, m.host or None,
            getattr(m, "rack", None) or None,
            tuple((t, tuple(sorted(ps))) for t, ps in sorted(by_topic.items()))))
    coordinator = getattr(desc, "coordinator", None)
    kind = _name(getattr(desc, "type", None))
    return ConsumerGroup(
        str(desc.group_id), kind.lower() if kind else None, _name(desc.state),
        desc.partition_assignor or None, bool(desc.is_simple_consumer_group),
        None if coordinator is None else int(coordinator.id), tuple(members))


def _groups(admin: Admin, clock: _Clock, warn: list[str]) -> tuple[ConsumerGroup, ...] | None:
    try:
        listing = admin.list_consumer_groups(request_timeout=clock.left()).result(
            timeout=clock.left())
    except Exception as e:  # noqa: BLE001
        warn.append(f"consumer groups not recorded (\"groups\": null): list_consumer_groups "
                    f"failed ({_reason(e)}).")
        return None
    ids = sorted(g.group_id for g in listing.valid)
    if listing.errors and not ids:
        warn.append(f"consumer groups not recorded (\"groups\": null): list_consumer_groups "
                    f"failed ({_reason(Exception(listing.errors[0]))}).")
        return None
    if listing.errors:
        warn.append(f"consumer groups of {len(listing.errors)} broker(s) not listed: "
                    f"{_reason(Exception(listing.errors[0]))}.")
    if not ids:
        return ()
    done, failed = _results(admin.describe_consumer_groups(ids, request_timeout=clock.left()),
                            clock)
    if failed:
        gid, why = sorted(failed.items())[0]
        warn.append(f"{len(failed)} consumer group(s) not described, e.g. {gid!r}: {why}.")
    return tuple(_group(done[g]) for g in ids if g in done)


def _rows(topics: Iterable[Any]) -> list[PartitionState]:
    rows = []
    for t in topics:
        for p in sorted(t.partitions.values(), key=lambda p: p.id):
            rows.append(PartitionState(
                str(t.topic), int(p.id), tuple(int(r) for r in p.replicas),
                None if p.leader < 0 else int(p.leader), tuple(int(r) for r in p.isrs)))
    return rows


def take_snapshot(admin: Admin, *, timeout: float = 10.0, bootstrap: str = "",
                  groups: bool = True) -> Snapshot:
    """Read the cluster behind ``admin`` within ``timeout`` seconds (see the module docstring).

    Brokers holding replicas that ``describe_cluster`` does not list (offline brokers) are
    recorded with an unknown rack, and named in a warning. ``groups=False`` skips the consumer
    groups (``Snapshot.groups`` is then ``None``).
    """
    clock = _Clock(timeout)
    warn: list[str] = []
    brokers, controller = _brokers(admin, clock, bootstrap)
    topics = _topics(admin, clock)
    rows = _rows(topics)
    live = {b.id for b in brokers}
    offline = sorted({r for row in rows for r in row.replicas} - live)
    if offline:
        warn.append(f"broker(s) {', '.join(map(str, offline))} hold replicas but are not live "
                    "(describe_cluster does not list them): recorded without a rack.")
        brokers += [ClusterBroker(b) for b in offline]
    names = [str(t.topic) for t in topics]
    min_isr = _min_isr(admin, names, clock, warn)
    messages = _messages(admin, rows, clock, warn)
    rows = [PartitionState(r.topic, r.partition, r.replicas, r.leader, r.isr,
                           messages=messages.get((r.topic, r.partition)))
            for r in rows]
    model = ClusterModel.from_partitions(brokers, rows,
                                         [TopicInfo(n, min_isr[n]) for n in names])
    found = _groups(admin, clock, warn) if groups else None
    return Snapshot(model, found, controller, tuple(warn))


def _silent_logger() -> logging.Logger:
    # librdkafka's own log lines (connection refused, ...) stay out of the user's terminal:
    # the failing Admin call reports the reason, as one line.
    log = logging.getLogger("kpart.snapshot.librdkafka")
    log.propagate = False
    if not log.handlers:
        log.addHandler(logging.NullHandler())
    return log


def connect(conf: Mapping[str, tuple[int | None, str]], source: str = "--command-config") -> Any:
    """confluent-kafka's ``AdminClient`` for ``conf`` (from :func:`admin_config`). A key or value
    librdkafka rejects is a :class:`ConfigError` naming its ``--command-config`` line; without
    confluent-kafka installed, a :class:`ConfigError` saying how to install it."""
    try:
        from confluent_kafka import KafkaException
        from confluent_kafka.admin import AdminClient
    except ImportError:
        raise ConfigError("kpart snapshot needs confluent-kafka (pip install "
                          "'kpart[kafka]').") from None
    settings: dict[str, Any] = {k: v for k, (_, v) in conf.items()}
    settings["logger"] = _silent_logger()
    try:
        return AdminClient(settings)
    except (KafkaException, ValueError, TypeError) as e:
        why = _reason(e)
        for key, (line, _) in conf.items():
            if line is not None and key in why:
                raise ConfigError(f"{source} line {line}: {why}.") from None
        raise ConfigError(f"{source}: {why}.") from None
