"""Build the Go client offline: a vendor/ directory of links into the Go sources Debian's packages install.

    python clients/go/debian_vendor.py   # (make go-test runs it) then: cd clients/go && go test -mod=vendor ./...

Debian ships Go libraries as source under /usr/share/gocode/src (golang-google-grpc-dev and the others
that ``make go-test`` installs). Go's vendor mode builds from vendor/<module path> and vendor/modules.txt, so
this links each module go.mod requires to Debian's copy and writes modules.txt, after checking that the
version Debian installed is the one go.mod requires: go.mod says what CI tested, and a user with network
access builds the same module with ``go mod tidy`` instead (see README.md). vendor/ is not committed.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Final

HERE: Final = Path(__file__).resolve().parent
VENDOR: Final = HERE / "vendor"
GOCODE: Final = Path("/usr/share/gocode/src")
# A pseudo-version: v0.0.0-<yyyymmddhhmmss>-<12 hex digits of the commit>.
PSEUDO: Final = re.compile(r"v0\.0\.0-(\d{8})\d{6}-([0-9a-f]{12})")


def requirements() -> list[tuple[str, str]]:
    """(module, version) of every require line of go.mod."""
    text = (HERE / "go.mod").read_text()
    found = []
    for block in re.findall(r"^require \((.*?)^\)", text, re.S | re.M):
        lines = [line.strip() for line in block.splitlines()]
        found += [tuple(line.split()[:2]) for line in lines if line and not line.startswith("//")]
    found += [tuple(line.split()[1:3]) for line in text.splitlines() if line.startswith("require ") and "(" not in line]
    return [(module, version) for module, version in found]


def debian_version(directory: Path) -> tuple[str, str]:
    """The Debian package installing ``directory`` and its version."""
    owner = subprocess.run(["dpkg", "-S", str(directory)], capture_output=True, text=True, check=False)
    if owner.returncode != 0:
        raise SystemExit(f"{directory}: no Debian package installs it (run `make go-test`, which installs them)")
    package = owner.stdout.split(":")[0].strip()
    version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=True)
    return package, version.stdout


def matches(go_version: str, debian: str) -> bool:
    """Whether Debian's version (``1:0.7.0+dfsg-1``, ``0.0~git20200413.b5235f6-3``) is go.mod's (``v0.7.0``, a
    pseudo-version of that day and commit)."""
    upstream = debian.split(":", 1)[-1].rsplit("-", 1)[0].split("+", 1)[0]
    pseudo = PSEUDO.fullmatch(go_version)
    if pseudo is not None:
        day, commit = pseudo.groups()
        snapshot = re.fullmatch(r"0\.0~git(\d{8})\.([0-9a-f]+)", upstream)
        return snapshot is not None and snapshot.group(1) == day and commit.startswith(snapshot.group(2))
    return go_version == f"v{upstream}"


def packages(root: Path, module: str) -> list[str]:
    """The import paths of the module's packages: its directories holding non-test Go files."""
    found = []
    for directory in sorted({path.parent for path in root.rglob("*.go")}):
        relative = directory.relative_to(root)
        if any(part in {"testdata", "vendor"} or part.startswith((".", "_")) for part in relative.parts):
            continue
        if any(not path.name.endswith("_test.go") for path in directory.glob("*.go")):
            found.append(module if relative == Path() else f"{module}/{relative.as_posix()}")
    return found


def go_directive(root: Path) -> str:
    match = re.search(r"^go (\S+)", (root / "go.mod").read_text(), re.M) if (root / "go.mod").is_file() else None
    return f"; go {match.group(1)}" if match else ""


def main() -> int:
    lines = []
    mismatched = []
    for module, version in sorted(requirements()):
        source = GOCODE / module
        if not source.is_dir():
            raise SystemExit(f"{source} is missing: run `make go-test`, which installs Debian's Go packages")
        package, debian = debian_version(source)
        if not matches(version, debian):
            mismatched.append(f"{module}: go.mod requires {version}, Debian's {package} is {debian}")
        link = VENDOR / module
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(source, target_is_directory=True)
        lines += [f"# {module} {version}", f"## explicit{go_directive(source)}", *packages(source, module)]
    if mismatched:
        print("go.mod and Debian's Go packages differ:", *mismatched, sep="\n  ", file=sys.stderr)
        return 1
    (VENDOR / "modules.txt").write_text("\n".join(lines) + "\n")
    print(f"vendor/: {len(requirements())} modules linked from Debian's Go sources")
    return 0


if __name__ == "__main__":
    sys.exit(main())
