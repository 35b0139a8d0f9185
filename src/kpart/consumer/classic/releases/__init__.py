"""Ports of the classic client assignors of older Kafka releases, one module per
implementation line (named after the Kafka class and the first release of the line), used by
the assignors' dispatch in :mod:`kpart.consumer.classic` through :mod:`kpart.versions`."""
