"""An external bot for the tests: answers the highest legal action id (purchases outrank the other main
actions); with --garbage, answers nonsense."""

from __future__ import annotations

import json
import sys


def main() -> None:
    garbage = "--garbage" in sys.argv
    for line in sys.stdin:
        message = json.loads(line)
        legal = message["legal_actions"]
        if not legal:
            continue  # the final view: the game is over
        assert message["view"]["viewerSeat"] == message["seat"] or message["seat"] == 0
        print("not an id" if garbage else max(option["actionId"] for option in legal), flush=True)


if __name__ == "__main__":
    main()
