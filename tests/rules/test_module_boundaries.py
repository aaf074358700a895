"""Rule: a module's knowledge stays in its own folders.

No file of the product (the engine, the benchmarks, the Python client) outside a
module's package (``engine_service/rules/modules/<name>/``) and its protobuf adapter
(``engine_service/codec/modules/<name>.py``) names the module's state type.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine_service.rules import registered_modules

ROOT = Path(__file__).resolve().parent.parent.parent
PRODUCT = ("engine_service", "benchmarks", "clients/python/src/splendor_client")


def own_files(name: str) -> set[Path]:
    package = ROOT / "engine_service" / "rules" / "modules" / name
    return set(package.rglob("*.py")) | {ROOT / "engine_service" / "codec" / "modules" / f"{name}.py"}


def test_no_module_state_type_is_named_outside_its_module() -> None:
    sources = [path for folder in PRODUCT for path in (ROOT / folder).rglob("*.py")]
    checked = 0
    for module in registered_modules():
        assert module.state is not None
        type_name = module.state.state_type.__name__
        word = re.compile(rf"\b{type_name}\b")
        outside = [path for path in sources if path not in own_files(module.name) and word.search(path.read_text())]
        assert outside == [], f"{type_name} is named outside the {module.name} module: {outside}"
        checked += 1
    assert checked == 4
