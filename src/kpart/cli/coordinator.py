"""``kpart coordinator``: which internal-topic partition — and so which broker, its leader —
coordinates a group, a transactional id, a share partition's state or a topic partition's
tiered-storage metadata (:mod:`kpart.cluster.coordinator`).

Text: one line per key. ``--json``: one JSON object per line (JSON Lines; a single key gives a
single object), e.g. ``{"kind": "group", "group": "orders", "topic": "__consumer_offsets",
"partition": 31, "num_partitions": 50, "leader": null}``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from kpart.cli._cluster_inputs import read_snapshot
from kpart.errors import ConfigError

_SNAPSHOT_HELP = ("cluster.json written by kpart snapshot (docs/snapshot.md): the internal "
                  "topics' partition counts and leaders.")


def _describe(kind: str, fields: dict[str, Any], found: Any, *, snapshot: bool,
              recorded: bool) -> tuple[dict[str, Any], str]:
    doc = {"kind": kind, **fields, "topic": found.topic, "partition": found.partition,
           "num_partitions": found.num_partitions, "leader": found.leader}
    if found.leader is not None:
        where = f"leader broker {found.leader}"
    elif not snapshot:
        where = "leader unknown (give --snapshot)"
    elif not recorded:
        where = f"leader unknown ({found.topic} not in the snapshot)"
    else:
        where = "no leader (offline)"
    label = {"group": f"group {found.key!r}",
             "transaction": f"transactional id {found.key!r}",
             "share_state": f"share partition {found.key!r}",
             "remote_log_metadata": f"remote log metadata of {found.key!r}"}[kind]
    line = (f"{label}: {found.topic} partition {found.partition} of "
            f"{found.num_partitions}, {where}")
    return doc, line


def coordinator_command(  # noqa: PLR0913 - one option per Kafka key kind
    group: Annotated[list[str] | None, typer.Option(
        "--group", help="A consumer, share or Streams group id (__consumer_offsets); "
        "repeatable.", show_default=False)] = None,
    transactional_id: Annotated[list[str] | None, typer.Option(
        "--transactional-id", help="A producer's transactional.id (__transaction_state); "
        "repeatable.", show_default=False)] = None,
    share_group: Annotated[str | None, typer.Option(
        "--share-group", help="A share group id: its coordinator, and with --topic-id and "
        "--partition the __share_group_state partition of that share partition.",
        show_default=False)] = None,
    topic_id: Annotated[str | None, typer.Option(
        "--topic-id", help="A topic id (base64 Uuid, as kafka-topics.sh prints it), with "
        "--partition, for --share-group or --remote-log-metadata.", show_default=False)] = None,
    partition: Annotated[int | None, typer.Option(
        "--partition", help="The topic partition of --topic-id.", show_default=False)] = None,
    remote_log_metadata: Annotated[bool, typer.Option(
        "--remote-log-metadata", help="Also the __remote_log_metadata partition of --topic-id "
        "--partition (tiered storage).")] = False,
    partitions: Annotated[int | None, typer.Option(
        "--partitions", "-p", help="The internal topic's partition count when the snapshot "
        "does not record the topic (the broker's *.num.partitions config; default 50).",
        show_default=False)] = None,
    snapshot: Annotated[Path | None, typer.Option(
        "--snapshot", help=_SNAPSHOT_HELP, show_default=False)] = None,
    kafka_version: Annotated[str | None, typer.Option(
        "--kafka-version", help="The brokers' Kafka version (default: the newest release; "
        "see docs/versions.md).", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object per key, one per line.")] = False,
) -> None:
    """Which partition of __consumer_offsets, __transaction_state, __share_group_state or
    __remote_log_metadata coordinates a key, and which broker leads it (docs/coordinators.md)."""
    from kpart._warnings import kpart_warn
    from kpart.cluster.coordinator import (
        GroupKey,
        RemoteLogMetadataKey,
        SharePartitionKey,
        TransactionKey,
        find_coordinator,
        internal_topic_partitions,
    )

    ids_given = topic_id is not None or partition is not None
    if ids_given and (topic_id is None or partition is None):
        raise ConfigError("--topic-id and --partition go together: give both.")
    if ids_given and share_group is None and not remote_log_metadata:
        raise ConfigError(f"--topic-id {topic_id}: say what to locate for it: --share-group "
                          "ID (its share state) or --remote-log-metadata.")
    if remote_log_metadata and not ids_given:
        raise ConfigError("--remote-log-metadata needs --topic-id and --partition.")
    keys: list[tuple[str, dict[str, Any], Any]] = []
    keys += [("group", {"group": g}, GroupKey(g)) for g in group or ()]
    keys += [("transaction", {"transactional_id": t}, TransactionKey(t))
             for t in transactional_id or ()]
    if share_group is not None:
        keys.append(("group", {"group": share_group}, GroupKey(share_group)))
        if ids_given:
            key = SharePartitionKey(share_group, topic_id, partition)  # type: ignore[arg-type]
            keys.append(("share_state", {"share_group": share_group, "topic_id": key.topic_id,
                                         "topic_partition": partition}, key))
    if remote_log_metadata:
        rkey = RemoteLogMetadataKey(topic_id, partition)  # type: ignore[arg-type]
        keys.append(("remote_log_metadata", {"topic_id": rkey.topic_id,
                                             "topic_partition": partition}, rkey))
    if not keys:
        raise ConfigError("Nothing to locate: give --group, --transactional-id, --share-group "
                          "or --remote-log-metadata.")
    model = read_snapshot(snapshot) if snapshot is not None else None
    out: list[str] = []
    for kind, fields, key in keys:
        found = find_coordinator(key, cluster=model, num_partitions=partitions,
                                 kafka_version=kafka_version)
        recorded = internal_topic_partitions(model, key.topic) is not None
        if partitions is not None and recorded and found.num_partitions != partitions:
            kpart_warn(f"--partitions {partitions} ignored for {key.topic}: the snapshot records "
                       f"{found.num_partitions} partitions, and Kafka uses the topic's count.")
        if model is not None and not recorded:
            kpart_warn(f"--snapshot {snapshot}: {key.topic} is not recorded: its leaders are "
                       "unknown (partition count from --partitions, default 50).")
        doc, line = _describe(kind, fields, found, snapshot=model is not None,
                              recorded=recorded)
        out.append(json.dumps(doc, ensure_ascii=False) if as_json else line)
    typer.echo("\n".join(out))


def register(app: typer.Typer) -> None:
    """Add ``coordinator`` to the ``kpart`` app."""
    app.command("coordinator")(coordinator_command)
