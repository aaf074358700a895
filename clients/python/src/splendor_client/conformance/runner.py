"""Running the conformance vectors against a server: every case's calls in order, then every whole game as a
ReplayGame, each answer compared with the expected one."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from google.protobuf import json_format
from google.protobuf.message import Message

from .transports import Refused, Transport, message_types
from .vectors import Case, Corpus, Game, Json, Step, VectorError, first_difference, missing, normalised, resolve

DOMAIN: Final = "splendor.v1"


@dataclass(frozen=True)
class Failure:
    """A call whose answer differs from the expected one."""

    case: str
    step: int  # -1 for a whole game
    method: str
    why: str

    def __str__(self) -> str:
        where = f"{self.case}" if self.step < 0 else f"{self.case} step {self.step}"
        return f"FAIL {where} ({self.method}): {self.why}"


@dataclass
class Report:
    """What a run checked, and what failed."""

    cases: int = 0
    calls: int = 0
    games: int = 0
    skipped: int = 0
    seconds: float = 0.0
    failures: list[Failure] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures and self.calls + self.games > 0

    def summary(self) -> str:
        verdict = "all passed" if self.passed else f"{len(self.failures)} FAILED"
        skipped = f", {self.skipped} engine-specific cases skipped" if self.skipped else ""
        return (
            f"conformance: {self.calls} calls in {self.cases} cases and {self.games} whole games{skipped}: "
            f"{verdict} ({self.seconds:.1f} s)"
        )


@dataclass(frozen=True)
class Options:
    """Which vectors to run: case and game names matching ``only`` (a regular expression searched in the name;
    None: all), without the engine-specific cases when ``skip_engine_specific``."""

    only: str | None = None
    skip_engine_specific: bool = False
    games: bool = True


def run(
    corpus: Corpus, transport: Transport, options: Options = Options(), log: Callable[[str], None] | None = None
) -> Report:
    """Run ``corpus`` through ``transport``; ``log`` gets each failure as it happens."""
    pattern = re.compile(options.only) if options.only else None
    report = Report()
    started = time.perf_counter()
    for case in corpus.cases:
        if pattern is not None and not pattern.search(case.name):
            continue
        if case.engine_specific and options.skip_engine_specific:
            report.skipped += 1
            continue
        report.cases += 1
        for failure in run_case(case, transport, report):
            report.failures.append(failure)
            if log is not None:
                log(str(failure))
    if options.games:
        for game in corpus.games:
            if pattern is not None and not pattern.search(game.name):
                continue
            report.games += 1
            game_failure = run_game(game, transport)
            if game_failure is not None:
                report.failures.append(game_failure)
                if log is not None:
                    log(str(game_failure))
    report.seconds = time.perf_counter() - started
    return report


def run_case(case: Case, transport: Transport, report: Report) -> list[Failure]:
    """Run one case's steps in order; a failed step ends the case (later steps may use its answer)."""
    answers: list[Json | None] = []
    for index, step in enumerate(case.steps):
        report.calls += 1
        try:
            answer, why = check_step(step, answers, transport)
        except VectorError as error:
            return [Failure(case.name, index, step.method, f"bad vector: {error}")]
        if why is not None:
            return [Failure(case.name, index, step.method, why)]
        answers.append(answer)
    return []


def check_step(step: Step, answers: list[Json | None], transport: Transport) -> tuple[Json | None, str | None]:
    """Call ``step``'s method; its response as JSON (None when refused), and why it is wrong (None when right)."""
    request_type, response_type = message_types(step.method)
    request = json_format.ParseDict(resolve(step.request, answers), request_type())
    try:
        response = transport.call(step.method, request)
    except Refused as refused:
        if step.refusal is None:
            return None, f"refused ({refused}); expected a response"
        got = f"{refused.code} {refused.reason or '(no reason)'}"
        wanted = f"{step.refusal.code} {step.refusal.reason}"
        if (refused.code, refused.reason) != step.refusal:
            return None, f"refused with {got}; expected {wanted} ({refused.message})"
        if refused.domain != DOMAIN:
            return None, f"refused with {got} in ErrorInfo domain {refused.domain!r}; expected {DOMAIN!r}"
        return None, None
    actual = json_format.MessageToDict(response)
    if step.refusal is not None:
        return actual, f"answered; expected a refusal {step.refusal.code} {step.refusal.reason}"
    return actual, compare(step.response, actual, step.normalise, response_type)


def compare(
    expected: Json, actual: Json, paths: tuple[tuple[str, ...], ...], response_type: type[Message]
) -> str | None:
    """Why ``actual`` (a response's JSON) is not ``expected`` once normalised along ``paths``, or None."""
    absent = missing(expected, actual, paths)
    if absent:
        return f"the response has no {', '.join(absent)}"
    want = json_format.ParseDict(normalised(expected, paths), response_type())
    got = json_format.ParseDict(normalised(actual, paths), response_type())
    if want == got:
        return None
    difference = first_difference(json_format.MessageToDict(want), json_format.MessageToDict(got))
    return difference or "the responses differ"


def run_game(game: Game, transport: Transport) -> Failure | None:
    """Replay a whole game (ReplayGame, without events): the digest after every action and the final state."""
    request_type, response_type = message_types("ReplayGame")
    request = json_format.ParseDict(
        {"config": game.config, "actions": list(game.actions), "skipEvents": True}, request_type()
    )
    try:
        response = transport.call("ReplayGame", request)
    except Refused as refused:
        return Failure(game.name, -1, "ReplayGame", f"refused ({refused})")
    actual = json_format.MessageToDict(response)
    digests = actual.get("stateDigests", [])
    for index, (want, got) in enumerate(zip(game.digests, digests)):
        if want != got:
            return Failure(game.name, -1, "ReplayGame", f"the digest after action {index} is {got}, expected {want}")
    if len(digests) != len(game.digests):
        return Failure(game.name, -1, "ReplayGame", f"{len(digests)} digests, expected {len(game.digests)}")
    why = compare({"state": game.final_state, "stateDigests": list(game.digests)}, actual, (), response_type)
    return None if why is None else Failure(game.name, -1, "ReplayGame", why)
