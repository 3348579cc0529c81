"""Every failure of the reliability report now ends in one line, fast, with nothing written outside --out.

The rows and the files they read are in tests/hostile_inputs.py. The default run takes the
representative rows in-process; the slow run takes every row through the real `dealer`.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli
from tests.hostile_inputs import DEVICE_ROWS, ROWS, Row, make_devices, make_inputs, outside_out, run_all, snapshot


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> tuple[Path, bool]:
    folder = tmp_path_factory.mktemp("hostile")
    deal = json.loads(CliRunner().invoke(cli, ["deal", "--seed", "42", "--json"]).stdout)
    make_inputs(folder, deal)
    return folder, make_devices(folder)


def check(row: Row, status: int, stderr: str, cpu_s: float, outside: list[str]) -> None:
    lines = stderr.strip().splitlines()
    assert status == row.status, stderr
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ") and row.fragment in lines[0]
    assert "please report" not in lines[0]
    assert cpu_s < 2, f"{row.name} took {cpu_s:.2f} s of CPU"
    assert not outside, f"{row.name} wrote {outside}"


@pytest.mark.parametrize("row", [row for row in ROWS if row.representative], ids=lambda row: row.name)
def test_representative_hostile_commands_fail_in_one_line(row, inputs, monkeypatch):
    folder, devices = inputs
    if row.name in DEVICE_ROWS and not devices:
        pytest.skip("mknod is not allowed here")
    monkeypatch.chdir(folder)
    before = snapshot(folder)
    started = time.process_time()
    result = CliRunner().invoke(cli, list(row.args))
    check(row, result.exit_code, result.stderr, time.process_time() - started,
          outside_out(row, before, snapshot(folder)))


def test_devices_and_links_are_left_as_they_were(inputs, monkeypatch):
    folder, devices = inputs
    monkeypatch.chdir(folder)
    for row in ROWS:
        if row.name.startswith(("save-", "render-device")) and (devices or row.name not in DEVICE_ROWS):
            CliRunner().invoke(cli, list(row.args))
    assert (folder / "links" / "link.json").is_symlink() and (folder / "links" / "real.json").read_text() == "{}\n"
    assert (folder / "links" / "stdout").is_symlink()
    if devices:
        assert all((folder / "devs" / name).is_char_device() for name in ("zero", "full", "full2"))


@pytest.mark.slow
def test_every_row_of_the_report_through_the_real_dealer(inputs):
    folder, devices = inputs
    dealer = str(Path(sys.executable).parent / "dealer")
    for row, status, stderr, cpu_s, outside in run_all(folder, dealer):
        if row.name in DEVICE_ROWS and not devices:
            continue
        check(row, status, stderr, cpu_s, outside)
