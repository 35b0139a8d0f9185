"""Bad-input cases of the Spark pipeline's key contract (issue 10, points 4, 5, 7 and 10):
type/serializer mismatches read from the schema, values the serializer cannot represent in
the first records, nested key paths, formats and empty inputs — all found before Spark starts
(``kpart report``, ``kpart compat``/``whatif`` on a dataset)."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from bad_inputs.case import Case


def _parquet(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


_TYPED = _parquet(pa.table({
    "id": pa.array([1, -1099486074322], pa.int64()),
    "i32": pa.array([1, 2], pa.int32()),
    "i16": pa.array([1, 2], pa.int16()),
    "d": [1.5, 2.5],
    "raw": pa.array([b"\x00", b"\x01"], pa.binary()),
    "s": ["x", "y"],
    "dev": pa.array([{"id": "a", "n": 1}, {"id": "b", "n": 2}]),
    "tags": pa.array([["a"], ["b"]]),
}))
_CSV = "k,a.b,n\nN14228,1,40000\n"
_UUIDS = "k\n{00112233-4455-6677-8899-aabbccddeeff}\n"
_JSON = '{"dev": {"id": "a"}, "k": 1.5, "obj": {"x": 1}}\n'


def _report(name: str, *args: str, files: dict, names: str) -> Case:
    return Case(f"sparkdata-{name}", ("report", *args, "--out", "out"), names, files)


T = {"t.parquet": _TYPED}
C = {"e.csv": _CSV}
J = {"e.jsonl": _JSON}

CASES = [
    _report("bigint-under-string", "t.parquet", "--key", "id", files=T,
            names="use --serializer long"),
    _report("int32-under-string", "t.parquet", "--key", "i32", files=T,
            names="use --serializer int"),
    _report("smallint-under-string", "t.parquet", "--key", "i16", files=T,
            names="use --serializer short"),
    _report("nested-bigint-under-string", "t.parquet", "--key", "dev.n", files=T,
            names="'dev.n' of type bigint"),
    _report("double-under-long", "t.parquet", "--key", "d", "--serializer", "long", files=T,
            names="'d' of type double"),
    _report("binary-under-uuid", "t.parquet", "--key", "raw", "--serializer", "uuid", files=T,
            names="'raw' of type binary"),
    _report("bigint-beyond-int", "t.parquet", "--key", "id", "--serializer", "int", files=T,
            names="-1099486074322 is out of the 'int' serializer's range"),
    _report("parquet-text-not-uuid", "t.parquet", "--key", "s", "--serializer", "uuid",
            files=T, names="'x' is not a UUID"),
    _report("parquet-text-not-int", "t.parquet", "--key", "s", "--serializer", "int",
            files=T, names="'x' is not a decimal integer"),
    _report("csv-text-under-long", "e.csv", "--key", "k", "--serializer", "long", files=C,
            names="'N14228'"),
    _report("csv-beyond-short", "e.csv", "--key", "n", "--serializer", "short", files=C,
            names="'40000'"),
    _report("csv-uuid-in-braces", "u.csv", "--key", "k", "--serializer", "uuid",
            files={"u.csv": _UUIDS}, names="{00112233-4455"),
    _report("csv-dotted-column-needs-backticks", "e.csv", "--key", "a.b", files=C,
            names="`a.b` (backticks)"),
    _report("unclosed-backtick", "e.csv", "--key", "`a.b", files=C, names="'`a.b'"),
    _report("empty-field-name", "t.parquet", "--key", "dev..id", files=T, names="'dev..id'"),
    _report("parquet-nested-field-missing", "t.parquet", "--key", "dev.idx", files=T,
            names="'idx'"),
    _report("parquet-struct-as-key", "t.parquet", "--key", "dev", files=T,
            names="'dev' is a struct"),
    _report("parquet-path-through-a-string", "t.parquet", "--key", "s.x", files=T,
            names="'s' is not a struct"),
    _report("parquet-list-as-key", "t.parquet", "--key", "tags", files=T,
            names="'tags' is an array"),
    _report("json-nested-field-missing", "e.jsonl", "--key", "dev.idx", files=J,
            names="'idx'"),
    _report("json-object-as-key", "e.jsonl", "--key", "obj", files=J,
            names="'obj' is a struct"),
    _report("json-decimal-under-long", "e.jsonl", "--key", "k", "--serializer", "long",
            files=J, names="'1.5'"),
    _report("unknown-format", "e.csv", "--format", "xml", files=C, names="'xml'"),
    Case("sparkdata-compat-on-empty-input", ("compat", "h.csv", "--key", "k", "-n", "12"),
         "no records in 'h.csv'", {"h.csv": "k,v\n"}),
    Case("sparkdata-whatif-bigint-under-string",
         ("whatif", "t.parquet", "--key", "id", "-n", "12", "--to", "16"),
         "use --serializer long", T),
    Case("sparkdata-empty-input-report", ("report", "h.csv", "--key", "k", "--out", "out"),
         "no records in h.csv", {"h.csv": "k,v\n"}, expect="warning"),
]
CASES.append(Case("sparkdata-flights-bigint-under-string", ("report", "--key", "flight"),
                  "use --serializer long"))
CASES.append(Case("sparkdata-unknown-invalid-keys-mode",
                  ("report", "e.csv", "--key", "k", "--invalid-keys", "skip", "--out", "out"),
                  "'skip'", C))
