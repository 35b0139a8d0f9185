"""The load-aware plan as an Arrow table, one row per partition: the same columns as the
count-based plan's table (:meth:`kpart.placement.plan.Plan.to_arrow`), so ``kpart plan
--format parquet|arrow`` writes one shape in both modes (docs/replica-placement.md).

The CLI only writes what :func:`plan_table` returns (``kpart._files.table_fill``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import pyarrow as pa

    from kpart.cluster.model import ClusterModel
    from kpart.cluster.optimizer import ClusterPlan

__all__ = ["plan_table"]


def _lists(a: np.ndarray) -> pa.ListArray:
    import numpy as np

    from kpart._arrow import list_array

    held = a >= 0
    offsets = np.zeros(len(a) + 1, dtype=np.int32)
    np.cumsum(held.sum(axis=1), out=offsets[1:])
    return list_array(offsets, a[held].astype(np.int32))


def _order(model: ClusterModel) -> np.ndarray:
    """Rows in Kafka's ``compareTopicPartitions`` order (topics by ``String.compareTo``)."""
    import numpy as np

    from kpart._java.strings import java_string_key

    names = [t.name for t in model.topics]
    rank = np.empty(len(names), dtype=np.int64)
    rank[sorted(range(len(names)), key=lambda i: java_string_key(names[i]))] = np.arange(
        len(names))
    return np.lexsort((model.partition, rank[model.topic]))


def plan_table(plan: ClusterPlan, batch: np.ndarray | None = None) -> pa.Table:
    """One row per partition, as the count-based plan's table
    (:meth:`kpart.placement.plan.Plan.to_arrow`): ``topic``, ``partition``,
    ``current_replicas``, ``target_replicas`` (list<int32>, preferred leader first),
    ``changed``, ``replica_moves``, ``leader_change``, ``batch`` (``batch``: int32 per model
    row, the schedule's batch number from 1, 0 for a partition that does not move, written as
    null, as every row without a schedule)."""
    import numpy as np
    import pyarrow as pa

    from kpart._arrow import bool_array, int32_array, numeric_array, string_array

    m = plan.model
    order = _order(m)
    cur, tgt = m.replicas[order], plan.target[order]
    moved = (tgt[:, :, None] != cur[:, None, :]).all(axis=2) & (tgt >= 0)
    n = len(order)
    return pa.table({
        "topic": string_array([t.name for t in m.topics]).take(numeric_array(m.topic[order])),
        "partition": int32_array(m.partition[order]),
        "current_replicas": _lists(cur),
        "target_replicas": _lists(tgt),
        "changed": bool_array((cur != tgt).any(axis=1)),
        "replica_moves": int32_array(moved.sum(axis=1)),
        "leader_change": bool_array(cur[:, 0] != tgt[:, 0]),
        "batch": (int32_array(np.zeros(n, np.int32), null=np.ones(n, bool)) if batch is None
                  else int32_array(batch[order], null=batch[order] == 0)),
    })
