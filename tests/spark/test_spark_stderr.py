"""The JVM's start-up warning is filtered from the stderr it inherits; everything else passes
(no Spark needed: a shell child stands in for the JVM)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_child_stderr_is_filtered_and_python_stderr_is_not():
    script = textwrap.dedent("""
        import subprocess, sys, threading
        from kpart.spark._stderr import jvm_stderr_filtered
        with jvm_stderr_filtered():
            print("kpart: starting Spark", file=sys.stderr)
            child = subprocess.Popen(["sh", "-c", "echo 'WARNING: Using incubator modules: "
                                      "jdk.incubator.vector' >&2; sleep 0.2; "
                                      "echo 'Exception in thread main' >&2"])
        print("kpart: reading x.csv", file=sys.stderr)
        child.wait()  # the child held the pipe's last write end: the copying thread ends
        for t in threading.enumerate():
            if t.name == "kpart-jvm-stderr":
                t.join()
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    lines = done.stderr.splitlines()
    assert "incubator" not in done.stderr
    assert lines[:2] == ["kpart: starting Spark", "kpart: reading x.csv"]
    assert "Exception in thread main" in lines
