"""The kpart exception tree, named after Kafka's exceptions.

::

    KpartError (ValueError)
    ├── InvalidPartitionsError            org.apache.kafka.common.errors.InvalidPartitionsException
    ├── InvalidReplicationFactorError     org.apache.kafka.common.errors.InvalidReplicationFactorException
    ├── InvalidReplicaAssignmentError     org.apache.kafka.common.errors.InvalidReplicaAssignmentException
    ├── AdminOperationError               org.apache.kafka.server.common.AdminOperationException
    ├── InvalidPartitionError             IllegalArgumentException("Invalid partition given with record: ...")
    ├── AssignmentError                   IllegalStateException raised by an assignor
    ├── PartitionAssignorError            org.apache.kafka.coordinator.group.api.assignor.PartitionAssignorException
    ├── NoSuchElementError                java.util.NoSuchElementException thrown by an assignor (a Kafka bug)
    ├── ConfigError                       a bad layout/topology/scenario file or CLI value
    └── OptimizationFailureError          com.linkedin.kafka.cruisecontrol.exception.OptimizationFailureException

    KpartWarning (UserWarning)            input Kafka accepts but that is probably a mistake


Warnings (:class:`KpartWarning`, raised with :func:`warnings.warn`) mark input that Kafka accepts
and computes a result for, but that is probably not what the user meant (a member subscribed to a
topic the file does not list, an owned partition beyond the partition count, ...): the result is
still the Kafka-faithful one; the CLI prints each as one ``kpart: warning: ...`` line on stderr.

Every error is a ``ValueError`` so callers that only care about "bad input" can catch one
type. An error about one argument of a library function carries its name in ``parameter``
(``"max_moves"``) and names it that way in the message; :meth:`KpartError.naming` gives the same
message naming it as the caller knows it (the CLI passes its flag, ``--max-moves``), so library
messages never name command-line flags and the CLI never edits message text. ``java_class`` names the Kafka exception an error stands for, so golden tests can
compare class and message with what Kafka threw. Messages match Kafka's wording where Kafka
has one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

__all__ = [
    "AdminOperationError",
    "AssignmentError",
    "ConfigError",
    "InvalidPartitionError",
    "InvalidPartitionsError",
    "InvalidReplicaAssignmentError",
    "InvalidReplicationFactorError",
    "KpartError",
    "KpartWarning",
    "NoSuchElementError",
    "OptimizationFailureError",
    "Param",
    "PartitionAssignorError",
]


class Param(str):
    """The name of a library parameter, given where a function takes the name its errors use
    for a value (``what``/``option`` in :mod:`kpart.limits` and :mod:`kpart._files`): errors
    about it carry the parameter (:meth:`KpartError.naming_value`), so the command line names
    its flag instead. A plain string there is printed as it is.

    >>> Param("num_partitions") == "num_partitions"
    True
    """

    __slots__ = ()


class KpartError(ValueError):
    """Base class of every error kpart raises on bad input.

    ``parameter`` is the library parameter the error is about (``None`` when it is about no single
    one). Build such an error with :meth:`about`, whose template names the parameter as ``{param}``:

    >>> e = KpartError.about("max_moves", "Invalid {param} {value}: must be >= 0", value=-1)
    >>> str(e), e.parameter
    ('Invalid max_moves -1: must be >= 0', 'max_moves')
    >>> e.naming("--max-moves")
    'Invalid --max-moves -1: must be >= 0'
    """

    java_class: str = "java.lang.IllegalArgumentException"

    def __init__(self, message: str = "", *, parameter: str | None = None) -> None:
        super().__init__(message)
        self.parameter = parameter
        #: other library parameters the message names (``{param_<name>}`` in the template)
        self.mentions: tuple[str, ...] = ()
        self._template: tuple[str, dict[str, Any]] | None = None

    @classmethod
    def about(cls, parameter: str, template: str, *, mentions: tuple[str, ...] = (),
              **values: Any) -> Self:
        """An error about ``parameter``: ``template`` is a :meth:`str.format` template naming it
        as ``{param}``, any other parameter in ``mentions`` as ``{param_<name>}``, and the
        offending values by keyword (``{value!r}``); the values are never re-read as a
        template, so braces in a user's value are safe.

        >>> e = KpartError.about("out", "{param}: exists: pass {param_force} to replace it",
        ...                      mentions=("force",))
        >>> str(e), e.naming("--out", {"force": "--force"})
        ('out: exists: pass force to replace it', '--out: exists: pass --force to replace it')
        """
        error = cls(_render(template, parameter, {m: m for m in mentions}, values),
                    parameter=parameter)
        error.mentions = mentions
        error._template = (template, values)
        return error

    @classmethod
    def naming_value(cls, what: str, template: str, *, mentions: tuple[str, ...] = (),
                     **values: Any) -> Self:
        """An error whose ``template`` names a value as ``{param}``: ``what``, when it is a
        :class:`Param` (a library parameter: ``Param("out_dir")``), is carried by the error
        (:meth:`about`), so the command line names its flag; any other string (``--partitions``
        or a file name passed by the CLI, ``topic.partitions`` in a file, a description) is
        printed as it is.

        >>> KpartError.naming_value(Param("out"), "{param}: no").parameter
        'out'
        >>> [str(KpartError.naming_value(w, "{param}: no")) for w in ("--out", "records")]
        ['--out: no', 'records: no']
        """
        if isinstance(what, Param):
            return cls.about(str(what), template, mentions=mentions, **values)
        return cls(_render(template, what, {m: m for m in mentions}, values))

    def naming(self, name: str | None, others: Mapping[str, str | None] | None = None) -> str:
        """The message with the parameter called ``name`` and each parameter it mentions called
        ``others[mention]`` (a name left out, or ``None``, stays as the library wrote it); the
        message unchanged when it was not built by :meth:`about`."""
        if self._template is None:
            return str(self)
        template, values = self._template
        renames = {m: (others or {}).get(m) or m for m in self.mentions}
        return _render(template, name or self.parameter or "", renames, values)


def _render(template: str, parameter: str, mentions: Mapping[str, str],
            values: Mapping[str, Any]) -> str:
    return template.format(param=parameter, **{f"param_{m}": n for m, n in mentions.items()},
                           **values)


class InvalidPartitionsError(KpartError):
    """A partition count is invalid (Kafka's ``InvalidPartitionsException``)."""

    java_class = "org.apache.kafka.common.errors.InvalidPartitionsException"


class InvalidReplicationFactorError(KpartError):
    """A replication factor cannot be honoured (``InvalidReplicationFactorException``)."""

    java_class = "org.apache.kafka.common.errors.InvalidReplicationFactorException"


class InvalidReplicaAssignmentError(KpartError):
    """A manual replica assignment is malformed (``InvalidReplicaAssignmentException``)."""

    java_class = "org.apache.kafka.common.errors.InvalidReplicaAssignmentException"


class AdminOperationError(KpartError):
    """An admin operation is impossible as asked (``AdminOperationException``)."""

    java_class = "org.apache.kafka.server.common.AdminOperationException"


class InvalidPartitionError(KpartError):
    """An explicit record partition is out of range (the producer's ``IllegalArgumentException``)."""

    java_class = "java.lang.IllegalArgumentException"


class AssignmentError(KpartError):
    """An assignor reached a state Kafka reports as ``IllegalStateException``."""

    java_class = "java.lang.IllegalStateException"


class PartitionAssignorError(KpartError):
    """A KIP-848 server-side assignor cannot assign (``PartitionAssignorException``)."""

    java_class = "org.apache.kafka.coordinator.group.api.assignor.PartitionAssignorException"


class NoSuchElementError(KpartError):
    """Kafka's assignor itself fails with ``java.util.NoSuchElementException`` (kpart
    reproduces the failure: Kafka 4.3's share-group ``SimpleAssignor`` on some groups)."""

    java_class = "java.util.NoSuchElementException"


class ConfigError(KpartError):
    """A layout, scenario, group file or command-line value is invalid; the message names it."""

    java_class = "org.apache.kafka.common.config.ConfigException"


class OptimizationFailureError(KpartError):
    """A planner cannot meet a hard goal (Cruise Control's ``OptimizationFailureException``).

    ``goal`` is the goal's Cruise Control name (``"RackAwareGoal"``; several joined by ``/``
    when each of them refuses; empty when no goal is to blame: more replicas than brokers), ``broker`` the broker id and ``partition`` the
    ``(topic, partition)`` that make it infeasible, when known (else ``None``). Callers and
    tests read the attributes, never the message (one line, for people).

    >>> e = OptimizationFailureError("Infeasible RackAwareGoal: ...", goal="RackAwareGoal",
    ...                              partition=("t", 1))
    >>> e.goal, e.broker, e.partition
    ('RackAwareGoal', None, ('t', 1))
    """

    java_class = "com.linkedin.kafka.cruisecontrol.exception.OptimizationFailureException"

    def __init__(self, message: str = "", *, goal: str = "", broker: int | None = None,
                 partition: tuple[str, int] | None = None,
                 parameter: str | None = None) -> None:
        super().__init__(message, parameter=parameter)
        self.goal = goal
        self.broker = broker
        self.partition = partition


class KpartWarning(UserWarning):
    """Input Kafka accepts but that is probably a mistake; the result is still Kafka's.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warnings.warn("owned partition t-9 is beyond t's 3 partitions", KpartWarning)
    >>> str(caught[0].message)
    "owned partition t-9 is beyond t's 3 partitions"
    """
