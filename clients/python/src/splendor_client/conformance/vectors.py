"""The conformance vectors: reading their files, and the checks every runner makes on a call's answer.

The format is described in the vectors' README (``conformance/README.md`` in the repository). In short:
a *case* is one or more calls (*steps*); each step names an RPC, its request in the proto3 JSON mapping,
and either the expected response or the expected refusal (status code and ``ErrorInfo`` reason). Inside
a request or a response:

- ``{"$state": NAME}`` stands for the ``GameState`` named NAME in the file's ``states`` table (a state
  shared by many cases is written once);
- ``{"$from": [STEP, KEY_OR_INDEX, ...]}`` stands for the value at that path in the actual response of an
  earlier step of the same case (a sealed game's token, one of its seat keys), and with
  ``"$tamper": "flip-last-byte"`` the same bytes with the last one's lowest bit flipped.

A step's ``normalise`` lists paths of values that legitimately differ between calls (a token, a game id,
a seat key, what a sealed playout drew): the expected response holds a placeholder there, and the actual
response's value is replaced by one before comparing. A path is a list of JSON keys, ``"*"`` standing for
every element of a list; what it reaches is replaced by the empty value of its JSON type (``""``, ``0``,
``false``, ``{}``, ``[]``; a path never ends at a 64-bit integer, a JSON string that must stay a number).
Where the expected response has a value there, the actual response must too.

This module is pure: JSON values in, JSON values out. The generator of the vectors uses the same
functions, so what it writes and what a runner checks cannot drift apart.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NamedTuple

Json = Any  # a JSON value as json.loads returns it

FORMAT: Final = 1
MANIFEST: Final = "manifest.json"
TAMPER_FLIP_LAST_BYTE: Final = "flip-last-byte"
EVERY: Final = "*"  # in a normalised path: every element of a list


class VectorError(ValueError):
    """The vectors are not well formed (or reference something that is not there)."""


class Refusal(NamedTuple):
    """An expected (or actual) refusal: the status code's name (gRPC's, e.g. ``FAILED_PRECONDITION``) and the
    ``google.rpc.ErrorInfo`` reason (``""`` when the error has none)."""

    code: str
    reason: str


Path_ = tuple[str, ...]


@dataclass(frozen=True)
class Step:
    """One call of a case."""

    method: str
    request: Json  # may hold {"$from": ...} objects, resolved against the case's earlier answers
    response: Json | None  # the expected response (normalised), or None when a refusal is expected
    refusal: Refusal | None
    normalise: tuple[Path_, ...] = ()


@dataclass(frozen=True)
class Case:
    """Calls checked in order; later ones may use what earlier ones returned."""

    name: str
    steps: tuple[Step, ...]
    # The answer depends on this engine's seeded random choices (its bots, playouts and samples), not on the
    # rules alone: another implementation of the contract may answer differently and still conform.
    engine_specific: bool = False


@dataclass(frozen=True)
class Game:
    """A whole game, rules only: the deal of ``config``, its actions, the state digest after each of them."""

    name: str
    config: Json
    initial_state: Json
    actions: tuple[Json, ...]
    digests: tuple[str, ...]
    final_state: Json


@dataclass(frozen=True)
class Corpus:
    """Every case and game of a vectors directory."""

    cases: tuple[Case, ...]
    games: tuple[Game, ...]
    contract: str

    @property
    def calls(self) -> int:
        return sum(len(case.steps) for case in self.cases)


def load(directory: Path) -> Corpus:
    """The vectors under ``directory`` (the one holding ``manifest.json``)."""
    manifest_path = directory / MANIFEST
    if not manifest_path.is_file():
        raise VectorError(f"{directory}: no {MANIFEST} (pass the vectors' directory, e.g. conformance/)")
    manifest = _read(manifest_path)
    if manifest.get("format") != FORMAT:
        raise VectorError(f"{manifest_path}: format {manifest.get('format')!r}; this runner reads format {FORMAT}")
    cases: list[Case] = []
    games: list[Game] = []
    for name in manifest["files"]["calls"]:
        cases.extend(read_cases(_read(directory / name), name))
    for name in manifest["files"]["games"]:
        games.extend(read_games(_read(directory / name)))
    return Corpus(tuple(cases), tuple(games), str(manifest["contract"]))


def _read(path: Path) -> Json:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise VectorError(f"{path}: {error}") from error


def read_cases(document: Json, source: str = "") -> Iterator[Case]:
    """The cases of one calls file, their ``$state`` references replaced by the states."""
    states: Mapping[str, Json] = document.get("states", {})
    for raw in document["cases"]:
        steps = tuple(
            Step(
                method=step["method"],
                request=with_states(step["request"], states, source),
                response=with_states(step["response"], states, source) if "response" in step else None,
                refusal=Refusal(step["error"]["code"], step["error"].get("reason", "")) if "error" in step else None,
                normalise=tuple(tuple(path) for path in step.get("normalise", ())),
            )
            for step in raw["steps"]
        )
        yield Case(raw["name"], steps, bool(raw.get("engineSpecific", False)))


def read_games(document: Json) -> Iterator[Game]:
    for raw in document["games"]:
        yield Game(
            name=raw["name"],
            config=raw["config"],
            initial_state=raw["initialState"],
            actions=tuple(raw["actions"]),
            digests=tuple(raw["digests"]),
            final_state=raw["finalState"],
        )


def with_states(value: Json, states: Mapping[str, Json], source: str = "") -> Json:
    """``value`` with every ``{"$state": NAME}`` replaced by that state."""
    if isinstance(value, list):
        return [with_states(item, states, source) for item in value]
    if not isinstance(value, dict):
        return value
    if "$state" in value:
        name = value["$state"]
        if name not in states:
            raise VectorError(f"{source}: no state named {name!r}")
        return states[name]
    return {key: with_states(item, states, source) for key, item in value.items()}


def resolve(value: Json, answers: Sequence[Json | None]) -> Json:
    """``value`` with every ``{"$from": [STEP, ...]}`` replaced by what it points at in ``answers`` (the JSON of
    the case's earlier responses, None for a refused step)."""
    if isinstance(value, list):
        return [resolve(item, answers) for item in value]
    if not isinstance(value, dict):
        return value
    if "$from" in value:
        step, *path = value["$from"]
        if not isinstance(step, int) or not 0 <= step < len(answers) or answers[step] is None:
            raise VectorError(f"$from {value['$from']}: step {step} has no response to take it from")
        found: Json = answers[step]
        for key in path:
            try:
                found = found[key]
            except (KeyError, IndexError, TypeError):
                raise VectorError(f"$from {value['$from']}: the response has nothing at {key!r}") from None
        tamper = value.get("$tamper")
        if tamper is None:
            return found
        if tamper != TAMPER_FLIP_LAST_BYTE:
            raise VectorError(f"unknown $tamper {tamper!r}")
        return flip_last_byte(found)
    return {key: resolve(item, answers) for key, item in value.items()}


def flip_last_byte(encoded: str) -> str:
    """Base64 bytes (proto3 JSON: standard or URL-safe alphabet) with the last byte's lowest bit flipped,
    in the standard alphabet."""
    data = bytearray(base64.b64decode(encoded.replace("-", "+").replace("_", "/") + "=" * (-len(encoded) % 4)))
    if not data:
        raise VectorError("$tamper: no bytes to flip")
    data[-1] ^= 0x01
    return base64.b64encode(bytes(data)).decode("ascii")


def normalised(value: Json, paths: Sequence[Path_]) -> Json:
    """``value`` with what each path reaches replaced by a placeholder (see the module's docstring)."""
    for path in paths:
        value = _normalised(value, path)
    return value


def _normalised(value: Json, path: Path_) -> Json:
    if not path:
        return placeholder(value)
    head, rest = path[0], path[1:]
    if head == EVERY:
        return [_normalised(item, rest) for item in value] if isinstance(value, list) else value
    if not isinstance(value, dict) or head not in value:
        return value
    return {**value, head: _normalised(value[head], rest)}


def placeholder(value: Json) -> Json:
    """The empty value of ``value``'s JSON type."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return 0
    if isinstance(value, str):
        return ""
    if isinstance(value, dict):
        return {}
    if isinstance(value, list):
        return []
    return value


def missing(expected: Json, actual: Json, paths: Sequence[Path_]) -> list[str]:
    """The normalised places the expected response has and the actual one lacks, as dotted paths."""
    found: list[str] = []
    for path in paths:
        _missing(expected, actual, path, "", found)
    return found


def _missing(expected: Json, actual: Json, path: Path_, where: str, found: list[str]) -> None:
    if not path:
        return
    head, rest = path[0], path[1:]
    if head == EVERY:  # a list shorter than expected is the comparison's to report
        if isinstance(expected, list) and isinstance(actual, list):
            for index, (item, actual_item) in enumerate(zip(expected, actual)):
                _missing(item, actual_item, rest, f"{where}[{index}]", found)
        return
    if not isinstance(expected, dict) or head not in expected:
        return
    here = f"{where}.{head}" if where else head
    if not isinstance(actual, dict) or head not in actual:
        found.append(here)
        return
    _missing(expected[head], actual[head], rest, here, found)


def first_difference(expected: Json, actual: Json, where: str = "") -> str | None:
    """The first place where two JSON values differ, as a dotted path with the two values, or None."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in list(expected) + [key for key in actual if key not in expected]:
            here = f"{where}.{key}" if where else key
            if key not in actual:
                return f"{here}: expected {_short(expected[key])}, got nothing"
            if key not in expected:
                return f"{here}: expected nothing, got {_short(actual[key])}"
            difference = first_difference(expected[key], actual[key], here)
            if difference is not None:
                return difference
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for index, (left, right) in enumerate(zip(expected, actual)):
            difference = first_difference(left, right, f"{where}[{index}]")
            if difference is not None:
                return difference
        if len(expected) != len(actual):
            return f"{where}: expected {len(expected)} items, got {len(actual)}"
        return None
    if expected != actual:
        return f"{where or 'the response'}: expected {_short(expected)}, got {_short(actual)}"
    return None


def _short(value: Json) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 200 else text[:197] + "..."
