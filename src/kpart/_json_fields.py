"""The one check every JSON input file of kpart makes on its objects: no field it does not know.

A misspelt field (``"rak"`` for ``"rack"``) would otherwise be ignored and the value it meant to
set silently left at its default. Used by the group files (:mod:`kpart.consumer.spec`, KIP-848
:mod:`kpart.consumer.coordinator.server_spec`), ``cluster.json`` and Cruise Control's
``capacity.json`` readers (:mod:`kpart.cluster`).

>>> json_object({"id": 1, "rak": "a"}, ("id", "rack"), "cluster.brokers[0]")
Traceback (most recent call last):
...
kpart.errors.ConfigError: cluster.brokers[0].rak: unknown field (expected one of id, rack)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kpart.errors import ConfigError

__all__ = ["check_fields", "json_object"]


def check_fields(doc: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    """:class:`ConfigError` naming the first field of ``doc`` not in ``allowed``
    (``where.field: unknown field (expected one of ...)``)."""
    for k in doc:
        if k not in allowed:
            raise ConfigError(f"{where}.{k}: unknown field (expected one of {', '.join(allowed)})")


def json_object(doc: object, allowed: tuple[str, ...], where: str) -> Mapping[str, Any]:
    """``doc`` when it is an object with only ``allowed`` fields; :class:`ConfigError` naming
    ``where`` otherwise (not an object, or its first unknown field)."""
    if not isinstance(doc, Mapping):
        raise ConfigError(f"{where}: expected an object.")
    check_fields(doc, allowed, where)
    return doc
