"""The command line as one argparse parser, for sphinx-argparse.

``relfterrain.cli`` builds a parser per subcommand (``relfterrain COMMAND``)
and one for the bare command; this joins them as subparsers so the CLI
reference shows every registered subcommand (a new one appears by itself).
"""

from __future__ import annotations

import argparse


def parser() -> argparse.ArgumentParser:
    from relfterrain import cli

    p = cli._parser()
    p.epilog = None
    sub = p.add_subparsers(title="subcommands", metavar="COMMAND")
    for cmd in cli.COMMANDS.values():
        sp = sub.add_parser(cmd.name, help=cmd.help,
                            description=cmd.help[0].upper() + cmd.help[1:] + ".")
        cmd.arguments(sp)
    return p
