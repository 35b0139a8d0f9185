"""Options shared by the commands that start Spark (``report``, ``compat``, ``whatif``).

Nothing here imports :mod:`kpart.spark` at module level: registering the commands must stay
cheap for the commands that never start Spark.
"""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["MasterTimeout", "check_master_options"]

#: The default of ``--master-timeout`` as its help shows it (the value itself is
#: :data:`kpart.spark._master.DEFAULT_MASTER_TIMEOUT`; a test keeps the two equal).
HELP_DEFAULT = "60"

#: ``--master-timeout SECONDS``: how long to wait for a non-local ``--master``.
MasterTimeout = Annotated[str | None, typer.Option(
    "--master-timeout", metavar="SECONDS",
    help="Seconds to wait for a non-local --master: its port to answer, then the application "
    f"to be accepted (default {HELP_DEFAULT}).", show_default=False)]


def check_master_options(master: str | None, master_timeout: str | None) -> float:
    """Check ``--master-timeout`` and ``--master`` before any other input is read: the URL's
    form, and a standalone master's TCP port within the timeout (also when this process
    already runs a session, which is then reused: the user named that master). No JVM starts
    here. Returns the timeout in seconds; ConfigError naming the bad value."""
    from kpart.spark._master import (
        DEFAULT_MASTER_TIMEOUT,
        check_master,
        check_reachable,
        parse_master_timeout,
    )

    timeout = (DEFAULT_MASTER_TIMEOUT if master_timeout is None
               else parse_master_timeout(master_timeout))
    if master is not None:
        check_reachable(master, check_master(master), timeout)
    return timeout
