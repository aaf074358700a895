"""The doc-test runner itself: what it extracts, what it compares, and that a wrong block fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.docs.blocks import ROOT, Block, blocks_of
from tests.docs.run import DocBlockFailed, run_python, run_shell
from tests.docs.server import DocServer
from tests.docs.sessions import output_matches, steps_of
from tests.docs.typescript import (
    built_package,
    documented_setup,
    documented_tsconfig,
    installed_by_setup,
    new_project,
    tools_installed,
)

NO_SERVER = DocServer(grpc_port=1, http_port=2, metrics_port=3)


def test_an_ellipsis_in_shown_output_stands_for_any_text() -> None:
    assert output_matches('{"seat":1,...}', '{"seat": 1, "turn": 0, "bank": {}}')


def test_shown_output_that_differs_does_not_match() -> None:
    assert not output_matches('{"seat":1}', '{"seat":0}')


def test_whitespace_and_hex_ids_are_not_compared() -> None:
    shown = '{"gameId": "1abba872f5a2c162a0f40764726fbe2d"}'
    assert output_matches(shown, '{\n   "gameId": "0123456789abcdef0123456789abcdef"\n}')


def test_documented_addresses_become_the_test_servers() -> None:
    text = "localhost:50051 127.0.0.1:8080 localhost:9464"
    assert NO_SERVER.localise(text) == "127.0.0.1:1 127.0.0.1:2 127.0.0.1:3"


def test_a_session_joins_continuation_lines_and_keeps_output_per_command() -> None:
    steps = steps_of("$ echo a \\\n    b\na b\n$ true\n")
    assert [(step.command, step.shown) for step in steps] == [("echo a \\\n    b", "a b"), ("true", "")]


def test_a_marker_before_a_fence_marks_it_with_its_reason(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("<!-- doc-test: illustration: never exits -->\n\n```sh\nmake serve\n```\n\n```sh\nls\n```\n")
    assert [(block.language, block.illustration) for block in blocks_of(page)] == [
        ("sh", "never exits"),
        ("sh", None),
    ]


def test_a_marker_that_precedes_no_fence_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("<!-- doc-test: illustration: lost -->\nSome prose.\n")
    with pytest.raises(ValueError, match="right before a fence"):
        blocks_of(page)


def test_a_session_whose_output_differs_from_the_page_fails(tmp_path: Path) -> None:
    block = Block(ROOT / "page.md", 1, "console", "$ echo 41\n42\n", None)
    with pytest.raises(DocBlockFailed, match="where the docs show"):
        run_shell(block, NO_SERVER, tmp_path)


def test_a_failing_command_with_no_output_shown_fails(tmp_path: Path) -> None:
    block = Block(ROOT / "page.md", 1, "sh", "false\n", None)
    with pytest.raises(DocBlockFailed, match="exited 1"):
        run_shell(block, NO_SERVER, tmp_path)


def test_a_python_block_that_raises_fails(tmp_path: Path) -> None:
    block = Block(ROOT / "page.md", 1, "python", "raise SystemExit('broken example')\n", None)
    with pytest.raises(DocBlockFailed, match="broken example"):
        run_python(block, NO_SERVER, tmp_path)


def test_a_script_joins_continuation_lines_and_a_trailing_comment_ends_a_command() -> None:
    text = (
        "printf '%s\\n' a \\\n    b  # one command\n"
        "# a comment line\n"
        "echo '# not a comment' \\\n  c\n"
        "ls  # no continuation \\\n"
        "true\n"
    )
    assert [step.command for step in steps_of(text)] == [
        "printf '%s\\n' a \\\n    b  # one command",
        "echo '# not a comment' \\\n  c",
        "ls  # no continuation \\",
        "true",
    ]


def test_a_continued_command_with_a_trailing_comment_reports_its_own_status(tmp_path: Path) -> None:
    block = Block(ROOT / "page.md", 1, "sh", "echo a \\\n  b > out.txt  # a note\nfalse  # fails \\\ntrue\n", None)
    with pytest.raises(DocBlockFailed, match=r"`false  # fails \\` exited 1"):
        run_shell(block, NO_SERVER, tmp_path)
    assert (tmp_path / "out.txt").read_text() == "a b\n"


def test_a_block_that_writes_into_the_folder_it_runs_in_fails(tmp_path: Path) -> None:
    """A reader runs the examples in the checkout: a file written there is left in the repository (issue 41)."""
    block = Block(ROOT / "page.md", 1, "console", "$ echo '{}' > game.json\n", None)
    with pytest.raises(DocBlockFailed, match=r"wrote game.json into the folder it ran in.*mktemp -d"):
        run_shell(block, NO_SERVER, tmp_path)


def test_a_block_may_write_into_a_temporary_folder_or_what_git_ignores(tmp_path: Path) -> None:
    text = "$ T=$(mktemp -d) && echo '{}' > $T/game.json && cat $T/game.json\n{}\n$ mkdir -p __pycache__\n"
    run_shell(Block(ROOT / "page.md", 1, "console", text, None), NO_SERVER, tmp_path)
    assert [entry.name for entry in tmp_path.iterdir()] == ["__pycache__"]


def test_a_python_block_that_writes_into_its_folder_fails(tmp_path: Path) -> None:
    block = Block(ROOT / "page.md", 1, "python", "open('applied.json', 'w').write('{}')\n", None)
    with pytest.raises(DocBlockFailed, match=r"wrote applied\.json"):
        run_python(block, NO_SERVER, tmp_path)


def test_a_needs_engine_marker_marks_a_block_that_still_runs(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("<!-- doc-test: needs-engine: plays in-process -->\n```python\nprint(1)\n```\n")
    (block,) = blocks_of(page)
    assert (block.illustration, block.needs_engine) == (None, "plays in-process")


def test_the_typescript_setup_installs_what_its_commands_name() -> None:
    setup = "mkdir my-game\nnpm install ../splendor/clients/typescript  # by path\nnpm install -D tsx @types/node\n"
    assert installed_by_setup(setup) == (["../splendor/clients/typescript"], ["tsx", "@types/node"])


def test_the_typescript_readme_says_how_to_set_up_a_project_for_its_examples() -> None:
    setup = documented_setup()
    assert "npm pkg set type=module" in setup and "@types/node" in setup
    options = json.loads(documented_tsconfig())["compilerOptions"]
    assert options["module"] == "NodeNext" and options["types"] == ["node"] and options["strict"] is True


@pytest.mark.skipif(not tools_installed(), reason="needs the TypeScript client's npm ci")
def test_a_typescript_block_with_a_type_error_fails_in_the_fresh_project(tmp_path: Path) -> None:
    package = built_package(tmp_path / "package")
    good = 'import { actions } from "splendor-engine-client";\nconsole.log(actions.takeTwo("red"));\n'
    bad = 'import { actions } from "splendor-engine-client";\nconst n: number = actions.takeTwo("red");\n'
    project = new_project(tmp_path / "project", package, {"good_1.ts": good, "bad_1.ts": bad})
    assert project.errors.keys() == {"bad_1.ts"}
    (error,) = project.errors["bad_1.ts"]
    assert "error TS2322" in error
