"""The places that must name every RPC of the method table (``engine_service/api/methods.py``) but cannot be derived
from it (the contract, the clients' hand-written methods, the API page's table), one function each: given the RPC
names, it returns those the place leaves out. The checklist tests (docs/architecture.md, "Adding an RPC") call each
with the method table, where nothing may be missing, and with a planted extra name, which must be caught.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from splendor.v1 import engine_service_pb2

from engine_service.api import METHODS

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
