"""The TypeScript blocks run as a reader runs them: pasted into ``.ts`` files of a fresh ES-module project set up
as the TypeScript client's README says, type-checked there with ``tsc`` and run with ``tsx``.

The project is a temporary folder: ``package.json`` with ``"type": "module"`` (top-level ``await``),
the README's ``tsconfig.json`` word for word, and in ``node_modules`` what its setup commands'
``npm install`` lines name, nothing more: the client by path (built from its sources as ``npm run build``
does, into a folder of the test's, so ``dist/`` in the checkout is neither needed nor trusted) and each
package by name, linked from ``clients/typescript/node_modules`` (its ``npm ci``: the same versions, and
nothing downloaded). One ``tsc`` run checks every block (each its own file); each block's test reports
its own errors, then runs it.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.docs.blocks import ROOT, TYPESCRIPT, Block, all_blocks, blocks_of

CLIENT_DIR = ROOT / "clients" / "typescript"
README = CLIENT_DIR / "README.md"
MODULES = CLIENT_DIR / "node_modules"
PACKAGE = "splendor-engine-client"
COMPILE_SECONDS = 300
# tsc's diagnostics, one per line with --pretty false: file(line,column): error TSnnnn: message
DIAGNOSTIC = re.compile(r"^(?P<file>[^(\s]+\.ts)\(\d+,\d+\): error TS\d+: .*$", re.MULTILINE)


class SetupUndocumented(AssertionError):
    """The TypeScript client's README does not say how to set up the project its examples need."""


def tools_installed() -> bool:
    """Whether ``npm ci`` ran in ``clients/typescript`` (its compiler and tsx are what the blocks run with)."""
    return (MODULES / ".bin" / "tsx").exists() and (MODULES / "typescript" / "bin" / "tsc").exists()


def documented_tsconfig(readme: Path = README) -> str:
    """The ``tsconfig.json`` the README gives for a project of one's own: its JSON block with compilerOptions."""
    found = [block.text for block in blocks_of(readme) if block.language == "json" and "compilerOptions" in block.text]
    if len(found) != 1:
        raise SetupUndocumented(f"{readme.name} must show one tsconfig.json (a json block with compilerOptions)")
    return found[0]


def documented_setup(readme: Path = README) -> str:
    """The README's commands that set up a project: an ES module, the client by path, the compiler and tsx with
    Node's types."""
    for block in blocks_of(readme):
        if block.language == "sh" and "npm pkg set type=module" in block.text:
            for needed in ("@types/node", "typescript", "tsx", "clients/typescript"):
                if needed not in block.text:
                    raise SetupUndocumented(f"the setup commands of {readme.name} do not install {needed}")
            return block.text
    raise SetupUndocumented(f"{readme.name} must say how to set up a project (npm pkg set type=module...)")


def installed_by_setup(setup: str) -> tuple[list[str], list[str]]:
    """What the setup's ``npm install`` lines install: (paths, package names)."""
    paths: list[str] = []
    names: list[str] = []
    for line in setup.splitlines():
        words = shlex.split(line, comments=True)
        if words[:2] != ["npm", "install"]:
            continue
        for word in words[2:]:
            if not word.startswith("-"):
                (paths if word.startswith((".", "/")) else names).append(word)
    return paths, names


def file_name(block: Block) -> str:
    return f"{block.path.relative_to(ROOT).as_posix().replace('/', '_').replace('.', '_')}_{block.line}.ts"


@dataclass(frozen=True)
class Project:
    """A fresh project holding every TypeScript block as a file, and what ``tsc`` said of each."""

    path: Path
    errors: dict[str, list[str]]

    def diagnostics(self, block: Block) -> list[str]:
        return self.errors.get(file_name(block), [])


def typescript_blocks() -> list[Block]:
    return [block for block in all_blocks() if block.language in TYPESCRIPT and block.illustration is None]


def _node(*arguments: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = ["node", *map(str, arguments)]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False, timeout=COMPILE_SECONDS)


def built_package(into: Path) -> Path:
    """The client as ``npm run build`` makes it (its ``tsconfig.build.json``), in ``into``: ``package.json``,
    ``dist/``, and its dependencies (a link to those ``npm ci`` installed)."""
    tsc = MODULES / "typescript" / "bin" / "tsc"
    done = _node(tsc, "-p", CLIENT_DIR / "tsconfig.build.json", "--outDir", into / "dist", cwd=CLIENT_DIR)
    if done.returncode != 0:
        raise AssertionError(f"building the TypeScript client failed:\n{done.stdout}{done.stderr}")
    shutil.copy(CLIENT_DIR / "package.json", into / "package.json")
    (into / "node_modules").symlink_to(MODULES, target_is_directory=True)
    return into


def new_project(path: Path, package: Path, sources: dict[str, str]) -> Project:
    """The project a reader sets up (see ``documented_setup``), with ``sources`` (file name -> text) in it,
    type-checked."""
    paths, names = installed_by_setup(documented_setup())
    if [Path(path).parts[-2:] for path in paths] != [("clients", "typescript")]:
        raise SetupUndocumented(f"the setup of {README.name} must install the client by path, once: {paths}")
    path.mkdir(parents=True, exist_ok=True)
    manifest = {"name": "my-game", "private": True, "type": "module", "dependencies": {PACKAGE: f"file:{package}"}}
    (path / "package.json").write_text(json.dumps(manifest, indent=2))
    (path / "tsconfig.json").write_text(documented_tsconfig())
    (path / "node_modules" / PACKAGE).parent.mkdir(parents=True)
    (path / "node_modules" / PACKAGE).symlink_to(package, target_is_directory=True)
    for name in names:
        if not (MODULES / name).is_dir():
            raise SetupUndocumented(f"the setup installs {name}, which clients/typescript does not depend on")
        (path / "node_modules" / name).parent.mkdir(parents=True, exist_ok=True)
        (path / "node_modules" / name).symlink_to(MODULES / name, target_is_directory=True)
    for name, text in sources.items():
        (path / name).write_text(text, encoding="utf-8")
    done = _node(MODULES / "typescript" / "bin" / "tsc", "-p", ".", "--pretty", "false", cwd=path)
    errors: dict[str, list[str]] = {}
    for match in DIAGNOSTIC.finditer(done.stdout):
        errors.setdefault(Path(match["file"]).name, []).append(match[0])
    if done.returncode != 0 and not errors:
        raise AssertionError(f"tsc failed before checking the examples:\n{done.stdout}{done.stderr}")
    return Project(path, errors)


def tsx_command(project: Project, block: Block) -> list[str]:
    """``npx tsx file.ts`` in the project: the blocks run as the reader runs them."""
    return [str(MODULES / ".bin" / "tsx"), str(project.path / file_name(block))]
