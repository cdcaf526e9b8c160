"""Command line of the tuner (the adapter builds it; usable by hand on a workspace)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from .loop import Options, run


def parse_args(argv: list[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(prog="tune", description=__doc__)
    parser.add_argument("--workspace", type=Path, default=Path.cwd())
    parser.add_argument("--check", default="./check",
                        help="the workspace's check command [./check]")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-checks", type=int, default=32,
                        help="measurements in all, the shipped version's included [32]")
    parser.add_argument("--time-limit-s", type=float, default=3600.0)
    parser.add_argument("--min-gain", type=float, default=0.01,
                        help="relative speedup a variant must add to be kept [0.01]")
    parser.add_argument("--no-launch-options", action="store_true",
                        help="do not add num_warps / num_stages where a launch omits them")
    parser.add_argument("--files", nargs="*", help="editable files [.aka-workspace.json]")
    args = parser.parse_args(argv)
    if args.max_checks < 1:
        parser.error("--max-checks must be at least 1")
    return Options(workspace=args.workspace.resolve(), check=shlex.split(args.check),
                   seed=args.seed, max_checks=args.max_checks, time_limit_s=args.time_limit_s,
                   min_gain=args.min_gain, launch_options=not args.no_launch_options,
                   files=args.files)


def main(argv: list[str] | None = None) -> int:
    run(parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
