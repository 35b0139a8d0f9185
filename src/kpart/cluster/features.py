"""A cluster's finalized feature levels (KIP-584), as ``kafka-features.sh describe`` prints them
(``org.apache.kafka.tools.FeatureCommand.handleDescribe``, Kafka 3.x and 4.x), one line per
feature the brokers support::

    Feature: eligible.leader.replicas.version  SupportedMinVersion: 0  SupportedMaxVersion: 1  FinalizedVersionLevel: 1  Epoch: 12

``FinalizedVersionLevel`` is ``0`` for a supported feature that is not finalized;
``metadata.version``'s levels are printed as releases (``4.1-IV1``) and kept as that string.
kpart reads the lines it finds (a ``kafka-features.sh`` transcript may hold other lines: they
are skipped) and needs at least one; the Admin client kpart snapshots with (confluent-kafka)
has no ``describeFeatures``, so this text is how the levels reach kpart (``kpart snapshot
--features FILE``, ``kpart outage --features FILE``).

Errors: :class:`~kpart.errors.ConfigError` naming the source and line (a ``Feature:`` line
without a ``FinalizedVersionLevel``, a level that is not a number, a feature given twice, no
``Feature:`` line at all).

>>> f = parse_features("Feature: eligible.leader.replicas.version\\tSupportedMinVersion: 0\\t"
...                    "SupportedMaxVersion: 1\\tFinalizedVersionLevel: 1\\tEpoch: 7")
>>> f, elr_feature_level(f)
({'eligible.leader.replicas.version': 1}, 1)
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from kpart.errors import ConfigError

__all__ = ["ELR_FEATURE", "METADATA_VERSION", "elr_feature_level", "parse_features"]

#: KIP-966's feature (``EligibleLeaderReplicasVersion.FEATURE_NAME``, Kafka 4.0+).
ELR_FEATURE = "eligible.leader.replicas.version"
#: ``MetadataVersion.FEATURE_NAME``: its levels print as releases.
METADATA_VERSION = "metadata.version"

_LINE = re.compile(r"^\s*Feature:\s*(?P<name>\S+)(?P<rest>.*)$")
_FINALIZED = re.compile(r"\bFinalizedVersionLevel:\s*(?P<level>\S+)")


def parse_features(text: str, source: str = "--features") -> dict[str, int | str]:
    """Feature name → finalized level (an int; ``metadata.version``: its release string) of a
    ``kafka-features.sh describe`` output (module docstring)."""
    out: dict[str, int | str] = {}
    for n, line in enumerate(text.splitlines(), 1):
        m = _LINE.match(line)
        if m is None:
            continue
        name = m["name"]
        level = _FINALIZED.search(m["rest"])
        if level is None:
            raise ConfigError(f"{source}: line {n}: feature {name!r} has no "
                              "FinalizedVersionLevel (expected kafka-features.sh describe "
                              "output)")
        value = level["level"]
        if name in out:
            raise ConfigError(f"{source}: line {n}: feature {name!r} given twice")
        if name == METADATA_VERSION:
            out[name] = value
        elif value.isascii() and value.isdigit() and int(value) <= 32767:
            out[name] = int(value)
        else:
            raise ConfigError(f"{source}: line {n}: feature {name!r}: invalid "
                              f"FinalizedVersionLevel {value!r} (expected 0 to 32767)")
    if not out:
        raise ConfigError(f"{source}: no 'Feature:' line (expected kafka-features.sh describe "
                          "output)")
    return out


def elr_feature_level(features: Mapping[str, int | str] | None) -> int | None:
    """The finalized level of ``eligible.leader.replicas.version`` (``None``: not known —
    no features, or brokers that do not support the feature, before 4.0)."""
    if features is None:
        return None
    level = features.get(ELR_FEATURE)
    return level if isinstance(level, int) else None
