"""Share groups (KIP-932): the group coordinator's share-group assignor.

- :class:`~kpart.consumer.share.share_group_spec.ShareGroupSpec`: the group (topics, members,
  initialized partitions);
- :func:`~kpart.consumer.share.simple_assignor.assign_simple`: Kafka's ``SimpleAssignor``,
  by brokers' version;
- :func:`~kpart.consumer.share.share_simulation.simulate_share_group`: the group over
  successive states, as the coordinator runs one target after another.
"""

from kpart.consumer.share.share_group_spec import ShareGroupSpec
from kpart.consumer.share.share_simulation import ShareRound, simulate_share_group
from kpart.consumer.share.simple_assignor import SimpleAssignor, assign_simple, simple_target

__all__ = ["ShareGroupSpec", "ShareRound", "SimpleAssignor", "assign_simple", "simple_target",
           "simulate_share_group"]
