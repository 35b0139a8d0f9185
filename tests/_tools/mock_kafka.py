"""librdkafka's mock cluster (``rdkafka_mock.h``), reached through ctypes on the librdkafka
shared library bundled in the ``confluent-kafka`` wheel (``confluent_kafka.libs/librdkafka*.so``).

The mock runs inside this process (librdkafka threads serving real Kafka protocol on loopback
ports), so ``confluent_kafka`` clients and ``kpart snapshot`` talk to it as to a cluster.

What this librdkafka (2.16) mock does, as seen through the Admin API:

- brokers are numbered ``1..N``; ``set_rack`` gives each one a ``broker.rack``;
- ``create_topic(name, partitions, rf)`` places replicas itself, deterministically: partition
  ``p``'s replica ``j`` is broker ``(p * rf + j) % N + 1`` (:func:`mock_replicas`); its leader
  is a random replica until :meth:`MockCluster.set_leader` names one (it accepts a broker outside
  the replicas; this helper refuses that), and the ISR is the replica list;
- ``describe_cluster`` / ``describe_topics`` / ``list_offsets`` answer once
  :meth:`MockCluster.set_controller` names a controller; ``describe_configs`` is refused
  (``_UNSUPPORTED_FEATURE``), and so are ``list_consumer_groups`` / ``describe_consumer_groups``
  (the mock has no ListGroups, DescribeGroups or ConsumerGroupDescribe handler, also at
  librdkafka's HEAD) — while consumer groups themselves work (JoinGroup/SyncGroup/Heartbeat).

>>> with MockCluster(3) as mc:
...     mc.create_topic("t", 2, 2)
...     len(mc.bootstrap_servers.split(","))
3
"""

from __future__ import annotations

import ctypes
import glob
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import Any

__all__ = ["MockCluster", "librdkafka_path", "mock_replicas"]

_P = ctypes.c_void_p
_S = ctypes.c_char_p
_I32 = ctypes.c_int32
_INT = ctypes.c_int
_SIGNATURES: dict[str, tuple[object, list[object]]] = {
    "rd_kafka_conf_new": (_P, []),
    "rd_kafka_conf_set": (_INT, [_P, _S, _S, _S, ctypes.c_size_t]),
    "rd_kafka_new": (_P, [_INT, _P, _S, ctypes.c_size_t]),
    "rd_kafka_destroy": (None, [_P]),
    "rd_kafka_err2str": (_S, [_INT]),
    "rd_kafka_mock_cluster_new": (_P, [_P, _INT]),
    "rd_kafka_mock_cluster_destroy": (None, [_P]),
    "rd_kafka_mock_cluster_bootstraps": (_S, [_P]),
    "rd_kafka_mock_broker_set_rack": (_INT, [_P, _I32, _S]),
    "rd_kafka_mock_topic_create": (_INT, [_P, _S, _INT, _INT]),
    "rd_kafka_mock_partition_set_leader": (_INT, [_P, _S, _I32, _I32]),
    "rd_kafka_mock_set_controller_id": (_INT, [_P, _I32]),
    "rd_kafka_mock_group_initial_rebalance_delay_ms": (_INT, [_P, _I32]),
}


def librdkafka_path() -> str:
    """The path of the librdkafka shared library bundled with ``confluent_kafka``."""
    import confluent_kafka

    site = os.path.dirname(os.path.dirname(os.path.abspath(confluent_kafka.__file__)))
    found = sorted(glob.glob(os.path.join(site, "confluent_kafka.libs", "librdkafka*.so*")) +
                   glob.glob(os.path.join(site, "confluent_kafka", ".dylibs", "librdkafka*")))
    if not found:
        raise RuntimeError(f"no bundled librdkafka under {site}/confluent_kafka.libs")
    return found[0]


def _load() -> ctypes.CDLL:
    lib = ctypes.CDLL(librdkafka_path())
    for name, (restype, argtypes) in _SIGNATURES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


def mock_replicas(partition: int, rf: int, num_brokers: int) -> list[int]:
    """The replicas the mock gives ``partition`` of a topic created with ``rf`` replicas on
    brokers ``1..num_brokers`` (``rd_kafka_mock_partition_assign_replicas``).

    >>> [mock_replicas(p, 3, 6) for p in range(3)]
    [[1, 2, 3], [4, 5, 6], [1, 2, 3]]
    """
    return [(partition * rf + j) % num_brokers + 1 for j in range(min(rf, num_brokers))]


class MockCluster:
    """A librdkafka mock cluster of ``num_brokers`` brokers (ids ``1..num_brokers``) on loopback.

    Use as a context manager (or call :meth:`close`). Errors from the mock raise
    :class:`RuntimeError` naming the call and librdkafka's error string.
    """

    def __init__(self, num_brokers: int) -> None:
        self._lib = _load()
        self.num_brokers = num_brokers
        self.topics: dict[str, tuple[int, int]] = {}
        conf = self._lib.rd_kafka_conf_new()
        errstr = ctypes.create_string_buffer(512)
        # log_level 3: no notice that the helper handle has no bootstrap.servers.
        if self._lib.rd_kafka_conf_set(conf, b"log_level", b"3", errstr, 512) != 0:
            raise RuntimeError(f"rd_kafka_conf_set: {errstr.value.decode()}")
        # The mock cluster needs an rd_kafka_t to live in (librdkafka's tests use a producer).
        self._rk = self._lib.rd_kafka_new(0, conf, errstr, 512)
        if not self._rk:
            raise RuntimeError(f"rd_kafka_new: {errstr.value.decode()}")
        self._mc = self._lib.rd_kafka_mock_cluster_new(self._rk, num_brokers)
        if not self._mc:
            self._lib.rd_kafka_destroy(self._rk)
            raise RuntimeError("rd_kafka_mock_cluster_new failed")
        self.bootstrap_servers: str = self._lib.rd_kafka_mock_cluster_bootstraps(
            self._mc).decode()

    def _check(self, call: str, err: int) -> None:
        if err != 0:
            raise RuntimeError(f"{call}: {self._lib.rd_kafka_err2str(err).decode()}")

    def set_rack(self, broker: int, rack: str) -> None:
        """``broker.rack`` of ``broker``."""
        self._check("rd_kafka_mock_broker_set_rack",
                    self._lib.rd_kafka_mock_broker_set_rack(self._mc, broker, rack.encode()))

    def set_controller(self, broker: int) -> None:
        """Name the controller (``describe_cluster`` and ``describe_topics`` need one)."""
        self._check("rd_kafka_mock_set_controller_id",
                    self._lib.rd_kafka_mock_set_controller_id(self._mc, broker))

    def create_topic(self, name: str, partitions: int, rf: int) -> None:
        """A topic whose replicas are :func:`mock_replicas`."""
        self._check("rd_kafka_mock_topic_create",
                    self._lib.rd_kafka_mock_topic_create(self._mc, name.encode(), partitions, rf))
        self.topics[name] = (partitions, rf)

    def replicas(self, topic: str, partition: int) -> list[int]:
        """The replicas the mock gave ``topic``-``partition``."""
        return mock_replicas(partition, self.topics[topic][1], self.num_brokers)

    def set_leader(self, topic: str, partition: int, broker: int) -> None:
        """Make ``broker`` (one of the partition's replicas) its leader."""
        if broker not in self.replicas(topic, partition):
            raise ValueError(f"broker {broker} is not a replica of {topic}-{partition}")
        self._check("rd_kafka_mock_partition_set_leader",
                    self._lib.rd_kafka_mock_partition_set_leader(
                        self._mc, topic.encode(), partition, broker))

    def set_initial_rebalance_delay(self, ms: int) -> None:
        """``group.initial.rebalance.delay.ms`` of the mock's group coordinator."""
        self._check("rd_kafka_mock_group_initial_rebalance_delay_ms",
                    self._lib.rd_kafka_mock_group_initial_rebalance_delay_ms(self._mc, ms))

    def close(self) -> None:
        """Destroy the mock cluster and its handle (idempotent)."""
        if self._mc:
            self._lib.rd_kafka_mock_cluster_destroy(self._mc)
            self._mc = None
        if self._rk:
            self._lib.rd_kafka_destroy(self._rk)
            self._rk = None

    def __enter__(self) -> MockCluster:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


# -- the standard test cluster ----------------------------------------------------------------
#: 6 brokers in 3 racks: broker b is in rack "rack-{(b - 1) % 3}".
NUM_BROKERS = 6
RACKS = ("rack-0", "rack-1", "rack-2")
#: name → (partitions, replication factor)
TOPICS = {"orders": (6, 3), "events": (4, 2), "audit": (1, 1)}


def rack_of(broker: int) -> str:
    """The rack of ``broker`` in the standard cluster."""
    return RACKS[(broker - 1) % len(RACKS)]


def leader_of(topic: str, partition: int) -> int:
    """The leader the standard cluster sets: the replica at position ``partition % rf``."""
    partitions, rf = TOPICS[topic]
    return mock_replicas(partition, rf, NUM_BROKERS)[partition % min(rf, NUM_BROKERS)]


@contextmanager
def standard_cluster() -> Iterator[MockCluster]:
    """6 brokers in 3 racks, controller 1, :data:`TOPICS` with :func:`leader_of` leaders."""
    with MockCluster(NUM_BROKERS) as mc:
        for b in range(1, NUM_BROKERS + 1):
            mc.set_rack(b, rack_of(b))
        mc.set_controller(1)
        mc.set_initial_rebalance_delay(200)  # 0 stalls a 3-member group ~5 s; 200: ~0.3 s
        for name, (partitions, rf) in TOPICS.items():
            mc.create_topic(name, partitions, rf)
            for p in range(partitions):
                mc.set_leader(name, p, leader_of(name, p))
        yield mc


def produce_keyed(bootstrap: str, topic: str, keys: Sequence[bytes],
                  timeout: float = 10.0) -> dict[int, int]:
    """Produce one record per key to ``topic`` (librdkafka's partitioner, acks=all) and return
    the number of records delivered per partition (from the delivery reports)."""
    from confluent_kafka import Producer

    counts: dict[int, int] = {}
    failed: list[str] = []

    def report(err: object, msg: object) -> None:
        if err is not None:
            failed.append(str(err))
        else:
            p = msg.partition()  # type: ignore[attr-defined]
            counts[p] = counts.get(p, 0) + 1

    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5})
    for k in keys:
        producer.produce(topic, key=k, value=b"v" * 10, on_delivery=report)
    if producer.flush(timeout) != 0 or failed:
        raise RuntimeError(f"produce to {topic}: {failed[:1] or 'flush timed out'}")
    return counts


def form_group(bootstrap: str, group: str, topics: Sequence[str], members: int,
               strategy: str = "range", timeout: float = 20.0) -> list[Any]:
    """``members`` confluent_kafka Consumers (``group.instance.id`` ``inst-{i}``, ``client.id``
    ``client-{i}``) subscribed to ``topics``, polled until each holds partitions and together
    all of them; the caller closes them. ``RuntimeError`` if the group is not stable in
    ``timeout`` seconds."""
    import time

    from confluent_kafka import Consumer

    total = sum(TOPICS[t][0] for t in topics)
    consumers = [Consumer({
        "bootstrap.servers": bootstrap, "group.id": group, "group.instance.id": f"inst-{i}",
        "client.id": f"client-{i}", "partition.assignment.strategy": strategy,
        "session.timeout.ms": 6000, "max.poll.interval.ms": 10000,
        "heartbeat.interval.ms": 100, "enable.auto.commit": False, "log_level": 3,
    }) for i in range(members)]
    for c in consumers:
        c.subscribe(list(topics))
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for c in consumers:
            c.poll(0.02)
        held = [len(c.assignment()) for c in consumers]
        if all(held) and sum(held) == total:
            return consumers
    for c in consumers:
        c.close()
    raise RuntimeError(f"group {group!r} not stable within {timeout} s")


def serve() -> None:  # pragma: no cover - a manual tool (measuring `kpart snapshot`)
    """``python tests/_tools/mock_kafka.py``: start the standard cluster with 1000 keyed records
    in ``orders``, print its bootstrap servers, and run until stdin closes."""
    with standard_cluster() as mc:
        produce_keyed(mc.bootstrap_servers, "orders", [b"key-%d" % i for i in range(1000)])
        print(mc.bootstrap_servers, flush=True)
        sys.stdin.read()


if __name__ == "__main__":  # pragma: no cover
    serve()
