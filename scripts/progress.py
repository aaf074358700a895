"""Run a long command (``pip install``) and say what it is doing at least every 10 s, not its every line.

    python scripts/progress.py "installing what serving needs" -- python -m pip install ...

A first ``make install`` downloads and installs a few hundred megabytes: with ``--quiet`` pip is silent
for minutes, without it, it prints hundreds of lines. This prints the label, then at least every
``PROGRESS_SECONDS`` pip's latest step (``Collecting``, ``Downloading``, ``Building wheel``,
``Installing collected packages``...) with the packages collected so far, and how long it all took.
A failing command's whole output is printed, then its exit status returned.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from build_support.progress import PROGRESS_SECONDS, Progress

# pip's lines that say what it does next, and those that count a package.
STEP = re.compile(r"^\s*(Collecting|Downloading|Building|Installing|Preparing|Obtaining|Processing)\b")
COLLECTED = re.compile(r"^\s*(Collecting|Requirement already satisfied|Obtaining|Processing)\b")


def run(label: str, command: list[str], every: float = PROGRESS_SECONDS) -> int:
    """Run ``command`` with its output captured, saying at least every ``every`` s what it is doing."""
    output: list[str] = []
    collected = 0
    environment = {**os.environ, "PIP_PROGRESS_BAR": "off"}  # pip's bars are for a terminal, not these lines
    with Progress(label, every=every) as progress:
        progress.say("started")
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1, env=environment
        )
        assert process.stdout is not None

        def read() -> None:
            nonlocal collected
            assert process.stdout is not None
            for line in process.stdout:
                output.append(line)
                collected += bool(COLLECTED.match(line))
                if STEP.match(line):
                    progress.update(f"{collected} collected; {line.strip()[:100]}")

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        status = process.wait()
        reader.join()
        if status == 0:
            progress.say(f"done, {collected} requirements")
    if status != 0:
        sys.stderr.write("".join(output))
        print(f"{label}: failed (exit status {status}); its output is above", file=sys.stderr)
    return status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("label", help="what the command does, for the progress lines")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command")
    parser.add_argument("--every", type=float, default=PROGRESS_SECONDS, help="most seconds between two lines")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given (put it after --)")
    return run(args.label, command, args.every)


if __name__ == "__main__":
    sys.exit(main())
