"""Bad-input cases of issue 24 point 4(b) for ``kpart compat`` and ``kpart whatif`` on a JSON
dataset: a malformed JSON line is refused (naming the file and line) unless
``--bad-records count``, and ``--bad-records`` takes only ``fail`` or ``count``."""

from __future__ import annotations

from bad_inputs.case import Case

_GOOD = "".join(f'{{"user": "u{i % 7}", "v": {i}}}\n' for i in range(20))
_BAD = {"e.jsonl": _GOOD + '{"user": "u1", "v"\n'}
_COMMANDS = {"compat": ("compat", "-p", "6"), "whatif": ("whatif", "-p", "6", "--to", "8")}

CASES = [
    *(Case(f"{name}-bad-records-unknown", (*argv, "e.jsonl", "--key", "user",
                                           "--bad-records", "maybe"),
           files=_BAD, names="--bad-records: expected one of fail, count, got 'maybe'")
      for name, argv in _COMMANDS.items()),
    *(Case(f"{name}-bad-records-count-with-keys", (*argv, "--keys", "a,b",
                                                   "--bad-records", "count"),
           names="--bad-records: applies to a dataset read on Spark, not to --keys")
      for name, argv in _COMMANDS.items()),
    *(Case(f"{name}-malformed-json-line", (*argv, "e.jsonl", "--key", "user", "--quiet"),
           files=_BAD, names="e.jsonl', line 21: malformed JSON record", marks=("spark",))
      for name, argv in _COMMANDS.items()),
]
