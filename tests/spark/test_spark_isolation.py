"""``kpart.spark`` is the only package importing pyspark; the report side runs without Spark."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import kpart

SRC = Path(kpart.__file__).parent


def _imports_pyspark(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "pyspark"
                                                for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "pyspark":
            return True
    return False


def test_only_kpart_spark_imports_pyspark():
    offenders = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py")
                 if _imports_pyspark(p) and p.relative_to(SRC).parts[0] != "spark"]
    assert offenders == []
    assert _imports_pyspark(SRC / "spark" / "transforms.py")  # the check does see imports


def test_report_side_modules_do_not_load_pyspark():
    code = ("import sys, kpart.topology, kpart.analysis.summary, kpart.report.output, "
            "kpart.report.terminal, kpart.cli.report, kpart.spark, kpart.spark.pipeline; "
            "print('pyspark' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
