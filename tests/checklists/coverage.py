"""The places that must name every RPC of the method table (``engine_service/api/methods.py``), or every game module,
but cannot be derived from one list (the contract, the clients' hand-written methods, the pages, the web page's
labels, the conformance vectors), one function each: given the names, it returns those the place leaves out. The
checklist tests (docs/architecture.md) call each with the real names, where nothing may be missing, and with a
planted extra name, which must be caught.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from splendor.v1 import actions_pb2, config_pb2, engine_service_pb2, events_pb2, state_pb2, view_pb2

from engine_service.api import METHODS
from engine_service.codec import adapter_for
from engine_service.rules import Module, registered_modules, snake_case

ROOT = Path(__file__).resolve().parents[2]
PYTHON_CLIENT = ROOT / "clients" / "python" / "src" / "splendor_client" / "client.py"
TYPESCRIPT_CLIENT = ROOT / "clients" / "typescript" / "src" / "client.ts"
API_DOC = ROOT / "docs" / "api.md"


def method_names() -> tuple[str, ...]:
    """The RPCs of the method table, in its order."""
    return tuple(method.name for method in METHODS)


def methods_whose_request_has(field: str) -> frozenset[str]:
    """The RPCs whose request message has ``field`` (``sealed_state``: those that open a game token)."""
    return frozenset(method.name for method in METHODS if field in method.request_type.DESCRIPTOR.fields_by_name)


def proto_methods() -> tuple[str, ...]:
    """The RPCs of ``splendor.v1.EngineService`` in the contract, in its order."""
    return tuple(method.name for method in engine_service_pb2.DESCRIPTOR.services_by_name["EngineService"].methods)


def missing_from_proto(names: Iterable[str]) -> list[str]:
    """The names the contract's service does not declare."""
    declared = set(proto_methods())
    return [name for name in names if name not in declared]


@cache
def _python_client_stub_calls() -> frozenset[str]:
    tree = ast.parse(PYTHON_CLIENT.read_text(encoding="utf-8"))
    return frozenset(
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "_stub"
        and isinstance(node.value.value, ast.Name)
        and node.value.value.id == "self"
    )


def missing_from_python_client(names: Iterable[str]) -> list[str]:
    """The RPCs no method of the Python ``EngineClient`` calls (``self._stub.<Name>``)."""
    return [name for name in names if name not in _python_client_stub_calls()]


@cache
def _typescript_client_calls() -> frozenset[str]:
    text = TYPESCRIPT_CLIENT.read_text(encoding="utf-8")
    return frozenset(re.findall(r"this\.service\.(\w+)\(", text))


def missing_from_typescript_client(names: Iterable[str]) -> list[str]:
    """The RPCs no method of the TypeScript ``EngineClient`` calls (``this.service.<name>(``, lower camel case)."""
    return [name for name in names if name[0].lower() + name[1:] not in _typescript_client_calls()]


def api_doc_rpcs() -> tuple[str, ...]:
    """The RPCs of the table under "## RPCs" in docs/api.md, in its order."""
    section = API_DOC.read_text(encoding="utf-8").split("\n## RPCs\n", 1)[1].split("\n## ", 1)[0]
    return tuple(re.findall(r"^\| `(\w+)` \|", section, flags=re.MULTILINE))


def missing_from_api_doc(names: Iterable[str]) -> list[str]:
    """The RPCs the API page's table leaves out."""
    documented = set(api_doc_rpcs())
    return [name for name in names if name not in documented]


# --- game modules -----------------------------------------------------------------------------------------------

WEB_SETUP = ROOT / "clients" / "web" / "src" / "setup.ts"
RULES_DOC = ROOT / "docs" / "rules.md"
CONFORMANCE = ROOT / "conformance"


def contract_modules() -> tuple[str, ...]:
    """The modules of the contract's ``Module`` enum, by name (``trading_posts``)."""
    names: list[str] = config_pb2.Module.keys()
    return tuple(name.removeprefix("MODULE_").lower() for name in names if name != "MODULE_UNSPECIFIED")


def missing_from_contract(names: Iterable[str]) -> list[str]:
    """The modules the contract does not name: no ``Module`` value, or (with a state) no ``GameState``/``GameView``
    field, or a decision kind, answer or event the contract's enum and oneofs lack."""
    action_fields = actions_pb2.Action.DESCRIPTOR.oneofs_by_name["kind"].fields
    event_fields = events_pb2.Event.DESCRIPTOR.oneofs_by_name["kind"].fields
    answers = {field.name for field in action_fields}
    events = {field.name for field in event_fields}
    kinds = set(state_pb2.DecisionKind.keys())
    missing = []
    for name in names:
        module = _module(name)
        if (
            name not in contract_modules()
            or module is None
            or (module.state is not None and not _has_state_fields(name))
            or any(f"DECISION_KIND_{kind.name}" not in kinds for kind in module.decisions)
            or any(snake_case(record.__name__) not in answers for record in module.actions)
            or any(snake_case(record.__name__) not in events for record in module.events)
        ):
            missing.append(name)
    return missing


def _module(name: str) -> Module | None:
    return next((module for module in registered_modules() if module.name == name), None)


def _has_state_fields(name: str) -> bool:
    return name in state_pb2.GameState.DESCRIPTOR.fields_by_name and name in view_pb2.GameView.DESCRIPTOR.fields_by_name


def missing_from_rules(names: Iterable[str]) -> list[str]:
    """The modules the rules registry does not hold (``engine_service/rules/modules/__init__.py``)."""
    return [name for name in names if _module(name) is None]


def missing_adapters(names: Iterable[str]) -> list[str]:
    """The modules with no protobuf adapter registered (``engine_service/codec/modules/__init__.py``)."""
    return [name for name in names if (module := _module(name)) is None or adapter_for(module) is None]


def missing_from_web_page(names: Iterable[str]) -> list[str]:
    """The modules the web page's setup (``clients/web/src/setup.ts``, ``MODULES``) offers no label for."""
    offered = set(re.findall(r'\{ key: "(\w+)"', WEB_SETUP.read_text(encoding="utf-8")))
    return [name for name in names if name not in offered]


def missing_from_conformance(names: Iterable[str]) -> list[str]:
    """The modules without their conformance vectors (``conformance/calls/<name>.json``, ``games/<name>.json``)."""
    manifest = (CONFORMANCE / "manifest.json").read_text(encoding="utf-8")
    return [name for name in names if not all(f'"{kind}/{name}.json"' in manifest for kind in ("calls", "games"))]


def missing_from_rules_doc(names: Iterable[str]) -> list[str]:
    """The modules docs/rules.md gives no section of their own (``## The <Module name> module``)."""
    headings = set(re.findall(r"^## The (.+?) module\b", RULES_DOC.read_text(encoding="utf-8"), flags=re.MULTILINE))
    return [name for name in names if name.replace("_", " ").title() not in headings]
