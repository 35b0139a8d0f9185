"""Broker capacities from Cruise Control's ``capacity.json``, read as Cruise Control's
``com.linkedin.kafka.cruisecontrol.config.BrokerCapacityConfigFileResolver`` reads it.

The file::

    {"brokerCapacities": [
      {"brokerId": "-1", "capacity": {"DISK": "500000", "CPU": "100",
                                      "NW_IN": "50000", "NW_OUT": "50000"},
       "doc": "the default for brokers not listed"},
      {"brokerId": "7", "capacity": {"DISK": {"/data/a": "250000", "/data/b": "250000"},
                                     "CPU": {"num.cores": "16"},
                                     "NW_IN": "50000", "NW_OUT": "50000"}}]}

Units, as Cruise Control's: ``DISK`` in MB, ``NW_IN`` / ``NW_OUT`` in KB/s, ``CPU`` in percent
(0-100) of the broker. Cruise Control compares them with its metrics after
``HolderUtils.convertUnit``, which divides a partition's size in bytes by ``1024 * 1024`` and
byte rates by ``1024``: its MB is 2^20 bytes and its KB 2^10 bytes. So here
``disk_bytes = DISK × 1,048,576`` and ``network_in = NW_IN × 1,024`` (bytes/s), exactly.

- ``brokerId`` ``-1`` is the default capacity of every broker the file does not list; a broker
  of the cluster that is neither listed nor covered by a default is an error (Cruise Control
  refuses it too unless capacity estimation is allowed). An entry for a broker the cluster
  does not have is kept for it, as Cruise Control keeps it (its resolver reads the whole file
  and is asked per broker): one file serves the cluster now and the brokers a plan adds.
- JBOD: ``DISK`` may be an object ``{log dir: MB}`` (absolute paths); the broker's disk is
  their sum, as Cruise Control's total disk capacity.
- ``CPU`` as ``{"num.cores": N}``: Cruise Control then takes the CPU capacity as 100 (percent
  of all N cores); ``num.cores`` must be given for all brokers or none.
- Values are strings (as Cruise Control requires) or JSON numbers (accepted); each must be a
  finite number > 0. A resource left out is unknown (``None``).

Errors: :class:`~kpart.errors.ConfigError` naming the entry and field
(``brokerCapacities[2].capacity.NW_IN``), e.g. a capacity of zero, an unknown resource, a broker
listed twice, or — in :func:`capacities_for` — a broker of the cluster without a capacity.

Warning (one :class:`~kpart.errors.KpartWarning` per file, from :func:`parse_capacity_json`):
a capacity beyond any real broker, most likely written in bytes instead of Cruise Control's
units — a broker's ``DISK`` over :data:`MAX_DISK_MB` (10^9 MB, about 1 PB: a 1.5 TB disk
written in bytes is ``1500000000000``) or an ``NW_IN``/``NW_OUT`` over :data:`MAX_NETWORK_KB`
(10^8 KB/s, about 800 Gbit/s: a 10 Gbit/s NIC written in bytes/s is ``1250000000``). Such a
capacity is kept (it is the file's), but every use of it would read about 0 %.

>>> cfg = parse_capacity_json('{"brokerCapacities": [{"brokerId": "-1", "capacity": '
...     '{"DISK": "500000", "CPU": "100", "NW_IN": "50000", "NW_OUT": "50000"}}]}')
>>> cap = capacities_for(cfg, [1, 2])[1]
>>> cap.disk_bytes == 500000 * 2**20, cap.network_in == 50000 * 1024, cap.cpu
(True, True, 100.0)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kpart._json_fields import json_object
from kpart.cluster.model import Capacity
from kpart.errors import ConfigError

__all__ = ["BYTES_IN_KB", "BYTES_IN_MB", "MAX_DISK_MB", "MAX_NETWORK_KB", "CapacityConfig",
           "capacities_for", "parse_capacity_json"]

#: Cruise Control's ``HolderUtils.BYTES_IN_MB``: a ``DISK`` MB is 2^20 bytes.
BYTES_IN_MB = 1024 * 1024
#: Cruise Control's ``HolderUtils.BYTES_IN_KB``: an ``NW_IN``/``NW_OUT`` KB/s is 1,024 bytes/s.
BYTES_IN_KB = 1024
#: A broker's ``DISK`` above this many MB (10^9 MB = 2^20 × 10^9 bytes, about 1 PB) is beyond
#: any real broker's disks: most likely bytes written where Cruise Control reads MB.
MAX_DISK_MB = 10**9
#: An ``NW_IN``/``NW_OUT`` above this many KB/s (10^8 × 1,024 bytes/s, about 820 Gbit/s) is
#: beyond any real NIC (400 Gbit/s today): most likely bytes/s where Cruise Control reads KB/s.
MAX_NETWORK_KB = 10**8
#: ``brokerId`` of the default capacity.
DEFAULT_BROKER_ID = -1
_RESOURCES = ("DISK", "CPU", "NW_IN", "NW_OUT")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


@dataclass(frozen=True, slots=True)
class CapacityConfig:
    """A parsed ``capacity.json``: the ``default`` capacity (``brokerId`` ``-1``; ``None``
    when the file has none) and the ``brokers`` it lists (``((id, Capacity), ...)`` by id)."""

    default: Capacity | None
    brokers: tuple[tuple[int, Capacity], ...]


def _amount(value: object, where: str) -> float:
    if isinstance(value, str):
        text = value.strip()
    elif isinstance(value, int | float) and not isinstance(value, bool):
        text = repr(float(value))
    else:
        text = ""
    if not _NUMBER.fullmatch(text):
        raise ConfigError(f"{where}: expected a number, got {value!r:.40}")
    number = float(text)
    if not math.isfinite(number) or number <= 0:
        raise ConfigError(f"{where}: invalid capacity {value!r:.40}: must be a number > 0")
    return number


def _disk(value: object, where: str) -> float:
    if not isinstance(value, Mapping):
        return _amount(value, where)
    if not value:
        raise ConfigError(f"{where}: a JBOD disk capacity needs at least one log dir")
    total = 0.0
    for log_dir, mb in value.items():
        if not str(log_dir).startswith("/"):
            raise ConfigError(f"{where}: the logDir {log_dir!r:.60} must be an absolute path")
        total += _amount(mb, f"{where}[{log_dir!r:.60}]")
    return total


def _cpu(value: object, where: str) -> tuple[float, bool]:
    """(CPU percent, whether given as ``num.cores``)."""
    if not isinstance(value, Mapping):
        return _amount(value, where), False
    if "num.cores" not in value:
        raise ConfigError(f"{where}: missing num.cores")
    for key in value:
        if key != "num.cores":
            raise ConfigError(f"{where}.{key}: unknown field (expected num.cores)")
    _amount(value["num.cores"], f"{where}.num.cores")
    return 100.0, True


def _broker_id(value: object, where: str) -> int:
    text = value.strip() if isinstance(value, str) else value
    if isinstance(text, str) and re.fullmatch(r"-?\d+", text):
        text = int(text)
    if not isinstance(text, int) or isinstance(text, bool) or text < DEFAULT_BROKER_ID:
        raise ConfigError(f"{where}: invalid brokerId {value!r:.40}: expected -1 (the default) "
                          "or a broker id >= 0")
    return text


def _entry(entry: object, where: str) -> tuple[int, Capacity, bool]:
    doc = json_object(entry, ("brokerId", "capacity", "doc"), where)
    if "brokerId" not in doc:
        raise ConfigError(f"{where}: missing brokerId")
    broker = _broker_id(doc["brokerId"], f"{where}.brokerId")
    cap = doc.get("capacity")
    if not isinstance(cap, Mapping):
        raise ConfigError(f"{where}.capacity: expected an object of DISK, CPU, NW_IN, NW_OUT")
    for key in cap:
        if key not in _RESOURCES:
            raise ConfigError(f"{where}.capacity.{key}: unknown resource (expected one of "
                              f"{', '.join(_RESOURCES)})")
    disk = _disk(cap["DISK"], f"{where}.capacity.DISK") if "DISK" in cap else None
    cpu, cores = (_cpu(cap["CPU"], f"{where}.capacity.CPU") if "CPU" in cap else (None, False))
    nw_in = _amount(cap["NW_IN"], f"{where}.capacity.NW_IN") if "NW_IN" in cap else None
    nw_out = _amount(cap["NW_OUT"], f"{where}.capacity.NW_OUT") if "NW_OUT" in cap else None
    return broker, Capacity(
        disk_bytes=None if disk is None else disk * BYTES_IN_MB,
        network_in=None if nw_in is None else nw_in * BYTES_IN_KB,
        network_out=None if nw_out is None else nw_out * BYTES_IN_KB,
        cpu=cpu,
    ), cores


def _implausible(capacity: Capacity, where: str) -> list[tuple[str, str, float]]:
    """``[(field, resource, amount in the file's unit), ...]`` of ``capacity`` beyond any real
    broker (:data:`MAX_DISK_MB`, :data:`MAX_NETWORK_KB`)."""
    out = []
    if capacity.disk_bytes is not None and capacity.disk_bytes > MAX_DISK_MB * BYTES_IN_MB:
        out.append((f"{where}.capacity.DISK", "DISK", capacity.disk_bytes / BYTES_IN_MB))
    for name, rate in (("NW_IN", capacity.network_in), ("NW_OUT", capacity.network_out)):
        if rate is not None and rate > MAX_NETWORK_KB * BYTES_IN_KB:
            out.append((f"{where}.capacity.{name}", name, rate / BYTES_IN_KB))
    return out


def _binary(amount: float, unit: str) -> str:
    """``amount`` with a binary prefix, e.g. ``1.3 EiB``."""
    for prefix in ("", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi"):
        if amount < 1024 or prefix == "Zi":
            return f"{amount:,.1f} {prefix}{unit}"
        amount /= 1024
    raise AssertionError  # pragma: no cover


def _warn_implausible(found: list[tuple[str, str, float]]) -> None:
    """One warning line for the capacities beyond any real broker: the first, how many more,
    and the units Cruise Control reads."""
    if not found:
        return
    from kpart._warnings import kpart_warn

    where, resource, amount = found[0]
    if resource == "DISK":
        size = (f"{amount:.15g} MB, {_binary(amount * BYTES_IN_MB, 'B')} per broker: beyond any "
                "real disk (over 10^9 MB, about 1 PB")
    else:
        gbit = amount * BYTES_IN_KB * 8 / 1e9
        size = (f"{amount:.15g} KB/s, {gbit:,.0f} Gbit/s per broker: beyond any real network "
                "card (over 10^8 KB/s, about 800 Gbit/s")
    more = f"; {len(found) - 1} more capacities too" if len(found) > 1 else ""
    units = [u for r, u in (("DISK", "DISK in MB (2^20 bytes)"),
                            ("NW_", "NW_IN/NW_OUT in KB/s (2^10 bytes/s)"))
             if any(x.startswith(r) for _, x, _ in found)]
    kpart_warn(f"capacity.json: {where} is {size}{more}): Cruise Control reads "
               f"{' and '.join(units)}, not bytes; every broker would show about 0 % of it in use")


def parse_capacity_json(text: str) -> CapacityConfig:
    """Parse a Cruise Control ``capacity.json`` (see the module docstring for units and
    rules). Errors: :class:`ConfigError` naming the entry and field."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"Malformed capacity JSON: {e.msg} at line {e.lineno} column "
                          f"{e.colno}") from None
    if not isinstance(doc, Mapping) or not isinstance(doc.get("brokerCapacities"), list):
        raise ConfigError("Malformed capacity JSON: expected an object with a brokerCapacities "
                          "list")
    default: Capacity | None = None
    brokers: dict[int, Capacity] = {}
    cores: set[bool] = set()
    implausible: list[tuple[str, str, float]] = []
    for i, entry in enumerate(doc["brokerCapacities"]):
        where = f"brokerCapacities[{i}]"
        broker, capacity, with_cores = _entry(entry, where)
        implausible += _implausible(capacity, where)
        cores.add(with_cores)
        if len(cores) > 1:
            raise ConfigError(f"{where}.capacity.CPU: inconsistent num.cores config: it must be "
                              "given for all brokers or none")
        if broker in brokers or (broker == DEFAULT_BROKER_ID and default is not None):
            raise ConfigError(f"{where}.brokerId: broker {broker} is listed twice")
        if broker == DEFAULT_BROKER_ID:
            default = capacity
        else:
            brokers[broker] = capacity
    _warn_implausible(implausible)
    return CapacityConfig(default, tuple(sorted(brokers.items())))


def capacities_for(config: CapacityConfig, broker_ids: Iterable[int]) -> dict[int, Capacity]:
    """``{broker id: Capacity}`` for every broker of ``broker_ids``: its own entry, else the
    default. Entries for other brokers are left unused (Cruise Control accepts them: the file
    may list brokers a plan adds). :class:`ConfigError` naming the first broker without a
    capacity (no entry, no default)."""
    listed = dict(config.brokers)
    out: dict[int, Capacity] = {}
    for broker in sorted(set(broker_ids)):
        capacity = listed.get(broker, config.default)
        if capacity is None:
            raise ConfigError(f"capacity.json has no capacity for broker {broker} and no default "
                              "(brokerId -1)")
        out[broker] = capacity
    return out
