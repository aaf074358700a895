"""clients/go/debian_vendor.py: go.mod's versions against Debian's (the offline build's honesty check), and the
requirements it reads from go.mod."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "clients" / "go" / "debian_vendor.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("debian_vendor", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["debian_vendor"] = module
    spec.loader.exec_module(module)
    return module


vendor = _load()


@pytest.mark.parametrize(
    ("go_version", "debian", "same"),
    [
        ("v1.33.3", "1.33.3-2", True),
        ("v0.7.0", "1:0.7.0+dfsg-1", True),
        ("v0.0.0-20200413115906-b5235f65be36", "0.0~git20200413.b5235f6-3", True),
        ("v1.33.2", "1.33.3-2", False),
        ("v1.5.2", "1.3.5-4", False),
        ("v0.0.0-20200414115906-b5235f65be36", "0.0~git20200413.b5235f6-3", False),
        ("v0.0.0-20200413115906-c5235f65be36", "0.0~git20200413.b5235f6-3", False),
    ],
)
def test_a_debian_version_matches_only_the_same_go_version(go_version: str, debian: str, same: bool) -> None:
    assert vendor.matches(go_version, debian) is same


def test_every_requirement_of_go_mod_is_read() -> None:
    text = (SCRIPT.parent / "go.mod").read_text()
    required = dict(vendor.requirements())
    assert required["google.golang.org/grpc"] in text
    assert set(required) >= {"google.golang.org/grpc", "google.golang.org/protobuf", "github.com/golang/protobuf"}
    assert len(required) == text.count("\n\t") - text.count("\n\t//")
