"""Rule: every repository path and code identifier the documentation cites in backticks exists (``cited.py``
says how each is told apart and looked for), and a planted wrong name is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.blocks import ROOT, documents
from tests.docs.cited import Cited, citations, exists

PAGES = [*documents(), ROOT / "deploy" / "README.md", ROOT / "examples" / "platform" / "README.md"]


@pytest.mark.parametrize("page", PAGES, ids=[page.relative_to(ROOT).as_posix() for page in PAGES])
def test_every_path_and_identifier_a_page_cites_exists(page: Path) -> None:
    cited = citations(page)
    assert cited, f"{page.name} cites nothing: the check would be vacuous"
    missing = [f"{page.relative_to(ROOT)}:{name.line} {name.kind} `{name.text}`" for name in cited if not exists(name)]
    assert missing == []


PLANTED = """The bound is `DEFAULT_MAX_BOT_ITERATIONS` in `engine_service/api/config.py`, not `MAX_BOT_ITERATIONS` in
`engine_service/api/bot_choice.py`; a module's adapter is `engine_service/codec/modules/<name>.py`, not
`engine_service/codec/adapters/<name>.py`, registered by `register_adapter` (not `register_adaptor`). The
policies: `engine_service.bots.policy_specs()`, not `engine_service.bots.POLICY_TABLE`.

```python
MAX_BOT_ITERATIONS = 1  # code in a fenced block runs instead: not a citation
```
"""


def test_a_planted_wrong_name_or_path_is_caught_and_the_right_ones_pass() -> None:
    page = ROOT / "docs" / "planted.md"
    found = {name.text: exists(name) for name in citations(page, PLANTED)}
    assert found == {
        "DEFAULT_MAX_BOT_ITERATIONS": True,
        "engine_service/api/config.py": True,
        "MAX_BOT_ITERATIONS": False,
        "engine_service/api/bot_choice.py": True,
        "engine_service/codec/modules/<name>.py": True,
        "engine_service/codec/adapters/<name>.py": False,
        "register_adapter": True,
        "register_adaptor": False,
        "engine_service.bots.policy_specs()": True,
        "engine_service.bots.POLICY_TABLE": False,
    }


def test_what_is_not_a_path_or_an_identifier_of_the_repository_is_not_checked() -> None:
    text = "`make serve`, `greedy`, `--threads`, `/healthz`, `application/proto`, `@types/node`, `_TOO_LARGE`, `8080`"
    assert citations(ROOT / "docs" / "planted.md", text) == []
    assert Cited(ROOT / "README.md", 1, "docs/api.md", "path") in citations(ROOT / "README.md", "`docs/api.md`")
