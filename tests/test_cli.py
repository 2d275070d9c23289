"""The `fastnoise` command line: the subcommand registry, --version, usage errors."""

from __future__ import annotations

import argparse
import pkgutil
import subprocess
import sys
from importlib import metadata

import pytest

from fastnoise import cli
from fastnoise.cli import _args


def test_version_is_the_installed_version(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out == f"fastnoise {metadata.version('fastnoise')}\n"


def test_registry_lists_demo():
    registry = cli.commands()
    assert "demo" in registry
    demo = registry["demo"]
    assert isinstance(demo, cli.Command)
    assert demo.help and callable(demo.add_arguments) and callable(demo.run)


def test_help_lists_every_registered_subcommand(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for name, command in cli.commands().items():
        assert name in out
        assert command.help.split()[0] in out


def test_unknown_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["no-such-command"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "no-such-command" in err
    assert "demo" in err  # argparse names the choices


def test_no_command_prints_help_and_returns_2(capsys):
    assert cli.main([]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "usage: fastnoise" in captured.err
    assert "demo" in captured.err


def test_python_dash_m_runs_the_demo():
    proc = subprocess.run(
        [sys.executable, "-m", "fastnoise", "demo", "--steps", "10", "--report-every", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    rows = [line.split()[0] for line in proc.stdout.splitlines() if line[:6].strip().isdigit()]
    assert rows == ["0", "2", "4", "6", "8"]
    assert proc.stdout.rstrip().endswith("Simulation complete.")


def test_python_dash_m_unknown_command_exits_2():
    proc = subprocess.run(
        [sys.executable, "-m", "fastnoise", "no-such-command"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "invalid choice" in proc.stderr


def test_console_script_entry_point_is_cli_main():
    (ep,) = metadata.entry_points(group="console_scripts", name="fastnoise")
    assert ep.value == "fastnoise.cli:main"
    assert ep.load() is cli.main


@pytest.mark.parametrize(
    ("convert", "good", "bad", "allowed"),
    [
        (_args.positive_float, {"0.5": 0.5, "1e3": 1000.0}, ["0", "-1", "inf", "nan", "x"], "> 0"),
        (_args.nonnegative_float, {"0": 0.0, "2.5": 2.5}, ["-0.1", "inf", "x"], ">= 0"),
        (_args.finite_float, {"-3": -3.0, "0": 0.0}, ["inf", "-inf", "nan", "x"], "finite"),
        (_args.nonnegative_int, {"0": 0, "7": 7}, ["-1", "1.5", "x"], ">= 0"),
        (_args.positive_int, {"1": 1, "12": 12}, ["0", "-2", "x"], ">= 1"),
    ],
)
def test_argument_types_name_the_value_and_the_range(convert, good, bad, allowed):
    for text, value in good.items():
        assert convert(text) == value
    for text in bad:
        with pytest.raises(argparse.ArgumentTypeError) as e:
            convert(text)
        assert repr(text) in str(e.value)
        assert allowed in str(e.value)


def test_every_public_cli_module_is_one_subcommand():
    modules = [m.name for m in pkgutil.iter_modules(cli.__path__) if not m.name.startswith("_")]
    assert len(cli.commands()) == len(modules)


def test_a_closed_pipe_ends_the_demo_quietly():
    import subprocess
    import sys

    cmd = f"{sys.executable} -m fastnoise demo --steps 100000 --report-every 1 | head -n 3"
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=120)
    assert len(r.stdout.splitlines()) == 3
    assert "Traceback" not in r.stderr
