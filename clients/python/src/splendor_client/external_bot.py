"""Bots that are other programs: ``cmd:<program>`` in ``splendor-tournament``.

The protocol, one JSON object a line on the program's standard input, one answer a
line on its standard output:

* The runner starts the program (split like a shell command line, no shell) once per
  game and seat, and for each decision of that seat writes
  ``{"seat": 1, "view": {...}, "legal_actions": [{"actionId": 12, "action": {...}}, ...]}``
  where ``view`` is the seat's ``GameView`` and each legal action a ``LegalAction`` in
  the API's JSON form (the proto3 JSON mapping, as ``grpcurl`` prints them).
* The program answers with one line holding the chosen action id (``12``).
* When the game ends the runner writes ``{"seat": 1, "view": {...}, "legal_actions": []}``
  with the final view, closes the program's input and waits for it to exit.

Anything else from the program (no answer, not an id, an id not listed) stops the
tournament with an error naming the program. Its standard error is passed through.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import subprocess
from collections.abc import Sequence
from typing import Any

from google.protobuf import json_format
from splendor.v1 import actions_pb2, view_pb2

EXIT_WAIT_SECONDS = 5.0


class ExternalBotError(RuntimeError):
    """The program broke the protocol."""


class ExternalBot:
    """One running program answering for one seat of one game."""

    def __init__(self, command: str, seat: int) -> None:
        argv = shlex.split(command)
        if not argv:
            raise ExternalBotError("cmd: needs a program to run")
        self.command = command
        self.seat = seat
        self._process = subprocess.Popen(  # the user's own program, run without a shell
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def choose(self, view: view_pb2.GameView, legal: Sequence[actions_pb2.LegalAction]) -> int:
        """The action id the program picks among ``legal`` for ``view``."""
        self._send(view, legal)
        assert self._process.stdout is not None
        answer = self._process.stdout.readline()
        if not answer:
            raise ExternalBotError(f"{self.command!r} closed its output without answering")
        try:
            chosen = int(answer.strip())
        except ValueError:
            raise ExternalBotError(f"{self.command!r} answered {answer.strip()!r}, not an action id") from None
        if chosen not in {option.action_id for option in legal}:
            raise ExternalBotError(f"{self.command!r} chose action id {chosen}, which is not legal")
        return chosen

    def finish(self, view: view_pb2.GameView) -> None:
        """Show the final view, close the program's input and wait for it to exit."""
        with contextlib.suppress(ExternalBotError):  # it may have exited already: the game is over either way
            self._send(view, ())
        self.close()

    def close(self) -> None:
        """Close the pipes and make sure the program is gone."""
        process = self._process
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        try:
            process.wait(timeout=EXIT_WAIT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def _send(self, view: view_pb2.GameView, legal: Sequence[actions_pb2.LegalAction]) -> None:
        message: dict[str, Any] = {
            "seat": self.seat,
            "view": json_format.MessageToDict(view, always_print_fields_with_no_presence=True),
            "legal_actions": [
                json_format.MessageToDict(option, always_print_fields_with_no_presence=True) for option in legal
            ],
        }
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ExternalBotError(f"{self.command!r} stopped reading its input") from None
