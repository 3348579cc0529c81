"""The `dealer` command group: every command is reachable, and loading it stays cheap."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

from click.testing import CliRunner

from dealers_chess.cli import COMMAND_MODULES, cli


def test_every_command_module_is_listed_and_every_listed_command_exists():
    modules = set(COMMAND_MODULES.values())
    for module_name in modules:
        module = importlib.import_module(f"dealers_chess.cli.{module_name}")
        for command in module.COMMANDS:
            assert COMMAND_MODULES.get(command.name) == module_name, f"add {command.name!r} to COMMAND_MODULES"
    for name in COMMAND_MODULES:
        assert CliRunner().invoke(cli, [name, "--help"]).exit_code == 0, name


def test_unknown_command_is_a_usage_error():
    assert CliRunner().invoke(cli, ["shuffle"]).exit_code == 2


def test_importing_the_command_group_does_not_import_heavy_libraries():
    code = ("import sys, dealers_chess.cli; "
            "print(' '.join(m for m in ('numpy', 'reportlab', 'manifold3d') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert loaded == []


def test_usage_errors_are_one_line_with_status_2():
    result = CliRunner().invoke(cli, ["deal", "--seed", "abc"], prog_name="dealer")
    assert result.exit_code == 2
    assert result.stderr == ("error: --seed: 'abc' is not a whole number written with the digits 0-9 "
                             "(see dealer deal --help)\n")
    missing = CliRunner().invoke(cli, ["perft", "chess"], prog_name="dealer")
    assert missing.exit_code == 2 and missing.stderr == "error: Missing option '--depth' (see dealer perft --help)\n"


def test_an_unexpected_error_is_one_line_naming_the_command(monkeypatch):
    import dealers_chess.cli.catalogue_commands as commands

    def broken(board):
        raise ValueError("something nobody foresaw\nsecond line")

    monkeypatch.setattr(commands, "parse_board_size", broken)
    result = CliRunner().invoke(cli, ["catalogue"])
    assert result.exit_code == 1
    assert result.stderr == ("error: dealer catalogue: unexpected ValueError: something nobody foresaw "
                             "(please report this, with the traceback that DEALER_DEBUG=1 dealer catalogue ... "
                             "prints)\n")
    monkeypatch.setenv("DEALER_DEBUG", "1")
    assert isinstance(CliRunner().invoke(cli, ["catalogue"]).exception, ValueError)


def test_dealer_debug_prints_the_traceback_of_an_unexpected_error_in_a_real_run():
    """What the README's troubleshooting promises: `DEALER_DEBUG=1 dealer ...` shows where it went wrong."""
    code = ("import sys, dealers_chess.cli.catalogue_commands as commands; from dealers_chess.cli import main; "
            "commands.parse_board_size = lambda board: 1 / 0; sys.argv = ['dealer', 'catalogue']; main()")
    quiet = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                           env={k: v for k, v in os.environ.items() if k != "DEALER_DEBUG"})
    assert quiet.returncode == 1 and quiet.stderr.count("\n") == 1 and "Traceback" not in quiet.stderr
    debug = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                           env={**os.environ, "DEALER_DEBUG": "1"})
    assert debug.returncode == 1 and "Traceback (most recent call last)" in debug.stderr
    assert "catalogue_commands.py" in debug.stderr and debug.stderr.rstrip().endswith("division by zero")


def test_a_reader_that_stops_early_ends_the_run_without_a_message():
    """`dealer catalogue | head -1`: the closed pipe is not reported as an unexpected error."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the first line is written
    command = [sys.executable, "-m", "dealers_chess", "catalogue"]
    run = subprocess.run(command, stdout=write_end, stderr=subprocess.PIPE, timeout=60)
    os.close(write_end)
    assert run.stderr == b"" and run.returncode == 1


def test_a_bare_dealer_lists_the_commands_and_the_version_comes_from_the_installed_metadata():
    from importlib.metadata import version

    bare = subprocess.run([sys.executable, "-m", "dealers_chess"], capture_output=True, text=True, timeout=60)
    assert bare.returncode == 0 and "Commands:" in bare.stdout
    assert all(name in bare.stdout for name in COMMAND_MODULES)
    shown = subprocess.run([sys.executable, "-m", "dealers_chess", "--version"], capture_output=True, text=True)
    assert shown.stdout == f"dealer {version('dealers-chess')}\n"
    uci = subprocess.run([sys.executable, "-m", "dealers_chess", "uci"], input="uci\nquit\n", capture_output=True,
                         text=True, timeout=60)
    assert uci.stdout.splitlines()[0] == f"id name Dealer's Chess toolkit {version('dealers-chess')}"


def test_the_catalogue_option_works_before_the_command_and_after_it(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text('[[piece]]\nid = "my-rook"\nname = "My Rook"\ngroup = "piece"\ncode = "MY"\nbetza = "R"\n'
                    'text = "Slides along ranks and files."\n')
    before = CliRunner().invoke(cli, ["--catalogue", str(mine), "piece", "my-rook"])
    after = CliRunner().invoke(cli, ["piece", "my-rook", "--catalogue", str(mine)])
    assert before.exit_code == after.exit_code == 0 and before.output == after.output and "My Rook" in before.output
    lines = "position fen 4k3/8/8/8/8/8/8/(MY)3K3 w - - 0 1\ngo depth 1\nquit\n"  # a position with the user's piece
    uci = CliRunner().invoke(cli, ["--catalogue", str(mine), "uci"], input=lines)
    assert uci.exit_code == 0 and "bestmove" in uci.output and "info string" not in uci.output
    bad = CliRunner().invoke(cli, ["--catalogue", str(tmp_path / "missing.toml"), "uci"], input="quit\n")
    assert bad.exit_code == 1 and "missing.toml" in bad.output
