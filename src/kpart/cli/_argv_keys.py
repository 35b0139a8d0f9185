"""Keys given on the command line keep their bytes.

Python decodes ``argv`` with the filesystem encoding (UTF-8) and ``surrogateescape``: a byte
that is not valid UTF-8 arrives as a lone surrogate (``b"\\xff"`` → ``"\\udcff"``), and
:func:`os.fsencode` gives the exact bytes back. Encoding such a string for Kafka's
``StringSerializer`` would replace each of those bytes with ``?`` (Java's ``String.getBytes``
rule), so ``kpart partition $'\\xff\\xfeabc'`` would hash ``??abc``: a key nobody sent. Java's
``StringSerializer`` can only produce valid UTF-8 (it encodes a Java ``String``), so raw bytes
that are not UTF-8 cannot come from it: :func:`string_key` refuses them and points to
``--serializer hex`` / ``bytes``, and :func:`raw_key` is how ``bytes`` takes the argument's
own bytes.

>>> import os
>>> raw_key(os.fsdecode(b"\\xff\\xfeabc"))
b'\\xff\\xfeabc'
>>> string_key("caf\\u00e9", "KEY")
'café'
>>> string_key(os.fsdecode(b"\\xff\\xfeabc"), "KEY")  # doctest: +ELLIPSIS
Traceback (most recent call last):
kpart.errors.ConfigError: KEY b'\\xff\\xfeabc' (hex fffe616263) is not valid UTF-8: ...
"""

from __future__ import annotations

import os

from kpart.errors import ConfigError

__all__ = ["KEY_COMMANDS", "dash_key_hint", "raw_key", "string_key"]

#: The commands whose arguments are keys (``kpart partition KEY...``).
KEY_COMMANDS = ("partition",)


def dash_key_hint(error: Exception, argv: list[str]) -> str:
    """A hint for a usage ``error`` of a command taking keys (:data:`KEY_COMMANDS`): a key that
    starts with ``-`` (``-1`` under ``--serializer long``) is read as an unknown option unless
    it comes after ``--``, which ends the options; ``""`` for any other error (a long
    option's typo, ``--partitons``, gets none).

    >>> class NoSuchOption(Exception):
    ...     option_name, ctx = "-1", type("Ctx", (), {"info_name": "partition"})()
    >>> dash_key_hint(NoSuchOption(), ["partition", "-1", "--serializer", "long", "-p", "6"])
    "; a key that starts with '-' goes after '--', which ends the options: kpart partition \
[OPTIONS] -- -1"
    """
    name = getattr(error, "option_name", None)
    command = getattr(getattr(error, "ctx", None), "info_name", None)
    if (type(error).__name__ != "NoSuchOption" or not isinstance(name, str)
            or name.startswith("--") or command not in KEY_COMMANDS):
        return ""
    end = argv.index("--") if "--" in argv else len(argv)
    key = next((a for a in argv[:end] if a.startswith(name)), name)
    return (f"; a key that starts with '-' goes after '--', which ends the options: "
            f"kpart {command} [OPTIONS] -- {key}")


def raw_key(arg: str) -> bytes:
    """The bytes of a command-line argument exactly as the operating system passed them
    (:class:`ConfigError` for a string no byte string decodes to, e.g. a lone ``"\\ud800"``
    handed to :func:`kpart.cli.main` by a caller)."""
    try:
        return os.fsencode(arg)
    except UnicodeEncodeError:
        raise ConfigError(f"key {arg!r} is not a byte string the command line can carry") from None


def string_key(arg: str, where: str, alternatives: str = "--serializer hex or bytes") -> str:
    """``arg`` itself when its bytes are valid UTF-8 (what ``StringSerializer`` hashes), else a
    :class:`ConfigError` naming the key's bytes (``where``: the argument or option, e.g.
    ``"--keys"``; ``alternatives``: the serializers this command offers for raw bytes)."""
    try:
        arg.encode("utf-8")  # strict: an undecodable byte is a lone surrogate and fails here
    except UnicodeEncodeError:
        raw = raw_key(arg)
        raise ConfigError(
            f"{where} {raw!r} (hex {raw.hex()}) is not valid UTF-8: Kafka's StringSerializer "
            f"encodes a Java String, so it never sends these bytes; use {alternatives} to hash "
            "them as they are"
        ) from None
    return arg
