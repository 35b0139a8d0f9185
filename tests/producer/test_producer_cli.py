"""``kpart partition`` and ``kpart partitioners`` through ``kpart.cli.main``."""

from __future__ import annotations

import pytest

from kpart import partition_for_key
from kpart.cli import main
from kpart.producer.clients import PARTITIONERS


def test_partition_prints_one_line_per_key(capsys: pytest.CaptureFixture[str]) -> None:
    keys = ["my_key_1", "my_key_2", "my_key_3", "my_key_4"]
    assert main(["partition", *keys, "--partitions", "6"]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines() == [f"{k}\t{p}" for k, p in zip(keys, [0, 4, 5, 2], strict=True)]
    assert out.err == ""


@pytest.mark.parametrize(
    ("args", "key_bytes"),
    [
        (["--serializer", "int", "48069"], (48069).to_bytes(4, "big")),
        (["--serializer", "long", "--", "-7"], (-7).to_bytes(8, "big", signed=True)),
        (["--serializer", "short", "7"], (7).to_bytes(2, "big")),
        (["--serializer", "hex", "00ff"], b"\x00\xff"),
        (["--serializer", "bytes", "abc"], b"abc"),
        (
            ["--serializer", "uuid", "123E4567-E89B-12D3-A456-426614174000"],
            b"123e4567-e89b-12d3-a456-426614174000",
        ),
    ],
)
def test_serializers(args: list[str], key_bytes: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["partition", "-n", "50", *args]) == 0
    line = capsys.readouterr().out.strip()
    assert line == f"{args[-1]}\t{partition_for_key(key_bytes, 50)}"


def test_partitioner_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["partition", "100:48069", "TT0124", "-n", "12", "--partitioner",
                 "kafkajs:legacy"]) == 0
    assert capsys.readouterr().out.splitlines() == ["100:48069\t6", "TT0124\t4"]


def test_seeded_random_partitioner_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["partition", "a", "b", "c", "-n", "1000", "--partitioner", "librdkafka:random"]
    assert main([*args, "--seed", "11"]) == 0
    first = capsys.readouterr().out
    assert main([*args, "--seed", "11"]) == 0
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["x", "--partitions", "0"], "got 0"),
        (["x", "--partitions", "-3"], "got -3"),
        (["x", "--partitions", "twelve"], "'twelve'"),
        (["1.5", "-n", "3", "--serializer", "int"], "'1.5'"),
        (["99999999999", "-n", "3", "--serializer", "int"], "99999999999"),
        (["0g", "-n", "3", "--serializer", "hex"], "'0g'"),
        (["x", "-n", "3", "--serializer", "avro"], "'avro'"),
        (["x", "-n", "3", "--partitioner", "sarama:fnv"], "'sarama:fnv'"),
        (["x", "-n", "3", "--partitioner", "librdkafka:random", "--seed", "s"], "'s'"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    args: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["partition", *args]) == 2
    out = capsys.readouterr()
    assert out.out == ""  # no partial output
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and named in lines[0]


def test_no_partial_output_when_a_later_key_is_bad(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["partition", "1", "2", "x", "-n", "3", "--serializer", "int"]) == 2
    assert capsys.readouterr().out == ""


def test_partitioners_lists_every_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["partitioners"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(PARTITIONERS)
