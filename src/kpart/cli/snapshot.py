"""``kpart snapshot``: a live, read-only snapshot of a cluster into ``cluster.json`` through the
Admin API (:mod:`kpart.cluster.snapshot`), and ``kpart snapshot-group``: one consumer group of a
snapshot as kpart's group file, for ``kpart assign`` what-ifs (:mod:`kpart.cluster.groups`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from kpart._files import check_writable, read_text, write_text
from kpart.cli._options import UnversionedKafkaVersion, check_kafka_version
from kpart.errors import ConfigError


def _dump(value: Any, levels: int, indent: str = "") -> str:
    """JSON with the first ``levels`` levels of objects and lists spread over lines and the
    rest (and anything short) compact: one broker, partition or member per line."""
    compact = json.dumps(value, separators=(", ", ": "), ensure_ascii=False)
    if levels <= 0 or not isinstance(value, dict | list) or len(compact) <= 96:
        return compact
    inner = indent + " "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {_dump(v, levels - 1, inner)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    return "[\n" + ",\n".join(f"{inner}{_dump(v, levels - 1, inner)}" for v in value) + \
        f"\n{indent}]"


def snapshot_command(
    bootstrap_server: Annotated[str, typer.Option(
        "--bootstrap-server", help="HOST:PORT[,HOST:PORT...] of the cluster, as for Kafka's "
        "tools.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="cluster.json to write "
                                      "(atomically).")],
    command_config: Annotated[Path | None, typer.Option(
        "--command-config", help="Client properties (security.protocol, sasl.*, ssl.*), as "
        "for Kafka's tools (docs/snapshot.md).")] = None,
    timeout: Annotated[float, typer.Option(
        "--timeout", min=0.1, help="Seconds to wait for the whole snapshot.")] = 10.0,
    no_groups: Annotated[bool, typer.Option(
        "--no-groups", help="Do not list and describe consumer groups.")] = False,
    features: Annotated[Path | None, typer.Option(
        "--features", help="kafka-features.sh describe output of the cluster, recorded as its "
        "finalized feature levels (cluster.json version 3; the Admin client kpart uses "
        "cannot describe features; docs/snapshot.md).", show_default=False)] = None,
    kafka_version: UnversionedKafkaVersion = None,
) -> None:
    """Snapshot a live cluster (brokers, racks, replicas, leaders, ISR, min.insync.replicas,
    messages, consumer groups) into cluster.json. Read-only."""
    from kpart._warnings import kpart_warn
    from kpart.cluster.cluster_json import cluster_to_json
    from kpart.cluster.snapshot import admin_config, connect, parse_command_config, take_snapshot

    check_kafka_version(kafka_version)
    if not bootstrap_server.strip():
        raise ConfigError("--bootstrap-server: expected HOST:PORT, got ''.")
    check_writable(out, "--out", inputs={"--command-config": command_config,
                                         "--features": features})
    levels = None
    if features is not None:  # read before connecting: a bad file costs no cluster round trip
        from kpart.cluster.features import parse_features

        levels = parse_features(read_text(features, "--features"), f"--features {features}")
    props = None
    if command_config is not None:
        props = parse_command_config(read_text(command_config, "--command-config"),
                                     f"--command-config {command_config}")
    conf = admin_config(bootstrap_server, props, f"--command-config {command_config}")
    admin = connect(conf, f"--command-config {command_config}")
    snap = take_snapshot(admin, timeout=timeout, bootstrap=bootstrap_server,
                         groups=not no_groups)
    for line in snap.warnings:
        kpart_warn(line)
    doc = cluster_to_json(snap.model, snap.groups, levels)
    doc.setdefault("groups", None)  # null: not recorded (--no-groups, or the cluster refused)
    write_text(out, _dump(doc, 4) + "\n", "--out")
    m = snap.model
    groups = "not recorded" if snap.groups is None else f"{len(snap.groups):,}"
    typer.echo(f"{out}: {len(m.brokers):,} brokers, {len(m.topics):,} topics, "
               f"{m.num_partitions:,} partitions, groups: {groups}.", err=True)


def snapshot_group_command(
    cluster: Annotated[Path, typer.Argument(
        help="cluster.json written by kpart snapshot (docs/snapshot.md).")],
    group: Annotated[str, typer.Argument(help="The group id.")],
    leave: Annotated[list[str] | None, typer.Option(
        "--leave", help="Drop this member (member id or group.instance.id) first; "
        "repeatable.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Write the group file here (atomically); default: stdout.")] = None,
    kafka_version: UnversionedKafkaVersion = None,
) -> None:
    """One consumer group of a snapshot as a group file for 'kpart assign' (members subscribe
    to what they hold and own it; --leave drops members: "what if X leaves")."""
    from kpart.cluster.cluster_json import cluster_from_json, groups_from_json
    from kpart.cluster.groups import group_spec_json

    check_kafka_version(kafka_version)
    if out is not None:
        check_writable(out, "--out", inputs={"CLUSTER": cluster})
    text = read_text(cluster, "CLUSTER", stdin=True)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{cluster}: malformed JSON: {e}") from None
    try:
        model = cluster_from_json(doc)
        groups = groups_from_json(doc)
    except ConfigError as e:
        raise ConfigError(f"{cluster}: {e}") from None
    if groups is None:
        raise ConfigError(f"{cluster}: has no consumer groups (\"groups\" is missing or null: "
                          "the cluster did not list them).")
    found = next((g for g in groups if g.group_id == group), None)
    if found is None:
        names = ", ".join(g.group_id for g in groups[:10]) or "none"
        raise ConfigError(f"{cluster}: no group {group!r} (groups: {names}).")
    counts = {t.name: 0 for t in model.topics}
    racks: dict[str, list[list[str | None]]] = {t.name: [] for t in model.topics}
    rack_of = {b.id: b.rack for b in model.brokers}
    for row in range(model.num_partitions):
        state = model.partition_state(row)
        counts[state.topic] = max(counts[state.topic], state.partition + 1)
        racks[state.topic].append([rack_of[r] for r in state.replicas])
    has_racks = any(r is not None for r in rack_of.values())
    whole = {t: r for t, r in racks.items() if len(r) == counts[t]}  # no gaps in numbering
    spec = group_spec_json(found, counts, leave=leave or (),
                           partition_racks=whole if has_racks else None)
    text_out = _dump(spec, 2) + "\n"
    if out is None:
        typer.echo(text_out, nl=False)
    else:
        write_text(out, text_out, "--out")


def register(app: typer.Typer) -> None:
    """Add ``snapshot`` and ``snapshot-group`` to the ``kpart`` app."""
    app.command("snapshot")(snapshot_command)
    app.command("snapshot-group")(snapshot_group_command)
