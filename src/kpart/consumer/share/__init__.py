"""Share groups (KIP-932): the group coordinator's share-group assignor.

- :class:`~kpart.consumer.share.share_group_spec.ShareGroupSpec`: the group (topics, members,
  initialized partitions);
- :func:`~kpart.consumer.share.simple_assignor.assign_simple`: Kafka's ``SimpleAssignor``,
  by brokers' version.
"""

from kpart.consumer.share.share_group_spec import ShareGroupSpec
from kpart.consumer.share.simple_assignor import SimpleAssignor, assign_simple, simple_target

__all__ = ["ShareGroupSpec", "SimpleAssignor", "assign_simple", "simple_target"]
