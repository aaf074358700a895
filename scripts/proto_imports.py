"""The googleapis protos the contract imports, and buf run on proto/ with them beside it.

    python scripts/proto_imports.py lint                          (make proto-lint)
    python scripts/proto_imports.py breaking --against <input>    (make proto-breaking; an absolute input)

``splendor/v1/engine_service.proto`` imports ``google/rpc/status.proto`` (a batch item's refusal is
a ``google.rpc.Status``). Its source is not copied into this repository: it comes from the
googleapis-common-protos package pinned in constraints.txt (googleapis, Apache-2.0), found through the
Python running this script. ``stage_imports`` copies it into a scratch directory; the Python and
TypeScript code generators compile with it there (``clients/python-proto/codegen.py``,
``clients/typescript/scripts/codegen.ts``), and this script stages ``proto/`` and it together and runs
``buf`` there, checking (``--exclude-path``) only the contract's own files.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Final

import google.rpc.status_pb2

ROOT: Final = Path(__file__).resolve().parent.parent
# Relative to the proto root: what the contract imports from googleapis.
GOOGLE_IMPORTS: Final = ("google/rpc/status.proto",)


def stage_imports(target: Path) -> None:
    """Copy the googleapis protos the contract imports into ``target`` (a proto root), at their import paths."""
    # The package ships the .proto sources beside its modules.
    googleapis_root = Path(google.rpc.status_pb2.__file__).resolve().parent.parent.parent
    for name in GOOGLE_IMPORTS:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(googleapis_root / name, target / name)


def run_buf(arguments: list[str]) -> int:
    """``buf <command> <staged proto root> <options>``, checking only the contract's files. A git ``--against``
    input (``.git#branch=main,subdir=proto``) is exported and staged with the same imports first: buf reads
    a git input as it is, without them."""
    buf = Path(sys.executable).parent / "buf"
    command, *options = arguments
    with tempfile.TemporaryDirectory(prefix="splendor-proto-") as scratch:
        staged = Path(scratch) / "current"
        shutil.copytree(ROOT / "proto", staged)
        stage_imports(staged)
        if "--against" in options:
            at = options.index("--against") + 1
            options[at] = str(_staged_against(options[at], Path(scratch) / "against"))
        # Run there, so that buf names the files as proto/ does (splendor/v1/...). The imports are linted by
        # nobody (they are googleapis' own); a breaking check sees them the same on both sides.
        excluded = [f"--exclude-path={top}" for top in dict.fromkeys(name.split("/")[0] for name in GOOGLE_IMPORTS)]
        if command != "lint":
            excluded = []
        return subprocess.run([str(buf), command, ".", *excluded, *options], cwd=staged, check=False).returncode


def _staged_against(against: str, target: Path) -> str | Path:
    """A git input (``<path>.git#branch=B,subdir=S``) exported into ``target`` with the imports staged; any other
    input as it is."""
    repository, hash_sign, settings = against.partition("#")
    if not hash_sign or not repository.endswith(".git"):
        return against
    fields = dict(field.split("=", 1) for field in settings.split(",") if "=" in field)
    branch, subdir = fields.get("branch", "HEAD"), fields.get("subdir", ".")
    target.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "--git-dir", repository, "archive", branch, subdir], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    root = target / subdir
    stage_imports(root)
    return root


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(run_buf(sys.argv[1:]))
