"""The ``fastnoise`` command line: a registry of subcommands, one module each.

Every public module ``fastnoise.cli.<module>`` is a subcommand. It defines ``COMMAND``,
a :class:`Command` holding the subcommand's name, its one-line help, an
``add_arguments(parser)`` function that declares its options on an argparse
sub-parser, and a ``run(args) -> int`` function that does the work and returns the
exit status. :func:`commands` finds the modules with :mod:`pkgutil`, so adding a
subcommand is writing its module; nothing else lists it. Modules whose names start
with ``_`` are helpers (``_args`` holds the shared ``type=`` converters, ``_errors``
the one error path).

Errors: whatever a subcommand's ``run`` raises becomes one line on stderr, ``fastnoise
<cmd>: error: ...``, and exit status 1 (:func:`fastnoise.cli._errors.run_command`);
the global option ``--debug`` shows the traceback instead.

A subcommand module imports only the standard library and ``fastnoise.cli`` at module
level; numpy and the models are imported inside ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["Command", "build_parser", "commands", "main", "version"]


@dataclass(frozen=True)
class Command:
    """One subcommand: what ``fastnoise --help`` lists and what runs it."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    description: str | None = None


def commands() -> dict[str, Command]:
    """Every registered subcommand by name, in name order."""
    found: dict[str, Command] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        command = getattr(module, "COMMAND", None)
        if not isinstance(command, Command):
            raise TypeError(
                f"{module.__name__} defines no COMMAND: every public module of "
                f"{__name__} must be a subcommand (helpers are named _*)"
            )
        if command.name in found:
            raise ValueError(f"two subcommands are named {command.name!r}")
        found[command.name] = command
    return dict(sorted(found.items()))


def version() -> str:
    """The installed distribution's version, else the package's ``__version__``."""
    from importlib import metadata

    try:
        return metadata.version("fastnoise")
    except metadata.PackageNotFoundError:
        import fastnoise

        return fastnoise.__version__


def build_parser(registry: dict[str, Command] | None = None) -> argparse.ArgumentParser:
    """The ``fastnoise`` parser with one sub-parser per registered subcommand."""
    if registry is None:
        registry = commands()
    parser = argparse.ArgumentParser(
        prog="fastnoise", description="fastnoise: reproducible sensor-noise models."
    )
    parser.add_argument("--version", action="version", version=f"fastnoise {version()}")
    parser.add_argument(
        "--debug", action="store_true", help="on an error, show the Python traceback"
    )
    subparsers = parser.add_subparsers(title="commands", dest="command", metavar="COMMAND")
    for command in registry.values():
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=command.description or command.help,
            formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        )
        command.add_arguments(sub)
        sub.add_argument(
            "--debug",
            action="store_true",
            default=argparse.SUPPRESS,
            help="on an error, show the Python traceback",
        )
        sub.set_defaults(_command=command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``fastnoise`` console script; returns the exit status.

    No command prints the help to stderr and returns 2; an unknown command or a bad
    option exits with status 2 (argparse's usage error); an error while a command runs
    is one line on stderr and status 1 (the traceback with ``--debug``).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    command: Command | None = getattr(args, "_command", None)
    if command is None:
        parser.print_help(sys.stderr)
        return 2
    from fastnoise.cli._errors import run_command

    return run_command(command.name, command.run, args, bool(getattr(args, "debug", False)))
