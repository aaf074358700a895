"""Recording cases: each call is made on the engine and written with its answer, in the vectors' JSON."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from google.protobuf import descriptor_pool, json_format
from google.protobuf.message import Message
from splendor_client.conformance.transports import message_types
from splendor_client.conformance.vectors import Json, Refusal, normalised, resolve

from .engine import Engine

Path_ = tuple[str, ...]


def to_json(message: Message) -> Json:
    """The proto3 JSON of ``message`` (what a runner's library writes, read back as numbers), with whole floats as
    integers: ``0`` rather than ``0.0`` in the long observation vectors (a JSON number either way), and every map's
    keys in order (a map iterates in no fixed order, ``ErrorInfo.metadata`` in a batch's refused item)."""
    return _compact(_maps_sorted(json_format.MessageToDict(message), message.DESCRIPTOR))


def _maps_sorted(value: Json, descriptor: Any) -> Json:
    """``value`` (the JSON of a message of ``descriptor``) with the keys of its maps sorted, at any depth, inside
    ``google.protobuf.Any`` too (by its ``@type``). ``descriptor``: a message ``Descriptor`` (typed Any: the upb and
    Python descriptor types differ)."""
    if not isinstance(value, dict):
        return value
    if descriptor.full_name == "google.protobuf.Any" and "@type" in value:
        packed = descriptor_pool.Default().FindMessageTypeByName(value["@type"].rsplit("/", 1)[-1])
        return _maps_sorted(value, packed) | {"@type": value["@type"]}
    out = dict(value)
    for field in descriptor.fields:
        if field.json_name not in out or field.message_type is None:
            continue
        item = out[field.json_name]
        if field.message_type.GetOptions().map_entry:
            entry_value = field.message_type.fields_by_name["value"].message_type
            out[field.json_name] = {
                key: item[key] if entry_value is None else _maps_sorted(item[key], entry_value) for key in sorted(item)
            }
        elif isinstance(item, list):
            out[field.json_name] = [_maps_sorted(element, field.message_type) for element in item]
        else:
            out[field.json_name] = _maps_sorted(item, field.message_type)
    return out


def _compact(value: Json) -> Json:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_compact(item) for item in value]
    if isinstance(value, dict):
        return {key: _compact(item) for key, item in value.items()}
    return value


class Session:
    """One case: calls in order, later requests taking values from earlier answers (``{"$from": ...}``)."""

    def __init__(self, engine: Engine, name: str, engine_specific: bool) -> None:
        self._engine = engine
        self.name = name
        self.engine_specific = engine_specific
        self.steps: list[Json] = []
        self.answers: list[Json | None] = []  # the raw JSON of each response, as a runner holds it

    def call(self, method: str, request: Json | Message, normalise: Sequence[Path_] = ()) -> Any:
        """Make the call; its response, or the ``Refusal``."""
        request_json = to_json(request) if isinstance(request, Message) else request
        request_type, _ = message_types(method)
        message = json_format.ParseDict(resolve(request_json, self.answers), request_type())
        outcome = self._engine.call(method, message)
        step: dict[str, Json] = {"method": method, "request": request_json}
        if isinstance(outcome, Refusal):
            step["error"] = {"code": outcome.code, "reason": outcome.reason}
            self.answers.append(None)
        else:
            answer = json_format.MessageToDict(outcome)
            self.answers.append(answer)
            step["response"] = normalised(to_json(outcome), normalise)
            _, response_type = message_types(method)
            json_format.ParseDict(step["response"], response_type())  # a placeholder must still parse
            if normalise:
                step["normalise"] = [list(path) for path in normalise]
        self.steps.append(step)
        return outcome

    def refused(self, method: str, request: Json | Message, normalise: Sequence[Path_] = ()) -> Refusal:
        """Make a call that must be refused (the generator's own check that the case shows a refusal)."""
        outcome = self.call(method, request, normalise)
        if not isinstance(outcome, Refusal):
            raise AssertionError(f"{self.name}: {method} was expected to be refused")
        return outcome

    def answered(self, method: str, request: Json | Message, normalise: Sequence[Path_] = ()) -> Any:
        """Make a call that must succeed."""
        outcome = self.call(method, request, normalise)
        if isinstance(outcome, Refusal):
            raise AssertionError(f"{self.name}: {method} refused with {outcome}")
        return outcome


class CaseFile:
    """The cases of one calls file; states used in requests and responses are written once, by name."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions: list[Session] = []
        self._names: set[str] = set()

    def session(self, name: str, *, engine_specific: bool = False) -> Session:
        if name in self._names:
            raise AssertionError(f"two cases named {name!r}")
        self._names.add(name)
        session = Session(self.engine, name, engine_specific)
        self._sessions.append(session)
        return session

    def call(self, name: str, method: str, request: Json | Message, *, engine_specific: bool = False) -> Any:
        """A case of one call; its response or refusal."""
        return self.session(name, engine_specific=engine_specific).call(method, request)

    def refused(self, name: str, method: str, request: Json | Message) -> Refusal:
        return self.session(name).refused(method, request)

    def answered(self, name: str, method: str, request: Json | Message, *, engine_specific: bool = False) -> Any:
        return self.session(name, engine_specific=engine_specific).answered(method, request)

    @property
    def calls(self) -> int:
        return sum(len(session.steps) for session in self._sessions)

    def document(self) -> Json:
        """The file's JSON: its states table (each ``state`` of a request or response, by the hash of its JSON), then
        its cases."""
        states: dict[str, Json] = {}
        cases = []
        for session in self._sessions:
            steps = []
            for step in session.steps:
                shared = dict(step)
                for part in ("request", "response"):
                    if part in shared:
                        shared[part] = _shared_state(shared[part], states)
                steps.append(shared)
            case: dict[str, Json] = {"name": session.name}
            if session.engine_specific:
                case["engineSpecific"] = True
            case["steps"] = steps
            cases.append(case)
        return {"states": dict(sorted(states.items())), "cases": cases}


def _shared_state(message: Json, states: dict[str, Json]) -> Json:
    """``message`` with its ``state`` (a GameState) moved to ``states`` under a name derived from its content."""
    if not isinstance(message, dict) or not isinstance(message.get("state"), dict):
        return message
    text = json.dumps(message["state"], separators=(",", ":"), sort_keys=True)
    name = hashlib.sha256(text.encode()).hexdigest()[:16]
    states[name] = message["state"]
    return {**message, "state": {"$state": name}}
