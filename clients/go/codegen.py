"""Generate the Go stubs of the splendor.v1 contract into splendorv1/ (messages and the gRPC client).

    python clients/go/codegen.py          # regenerate (or: make go-generate)
    python clients/go/codegen.py --check  # fail if the committed stubs are stale (part of make generate-check)

protoc and its Go plugins come from Debian's packages (protobuf-compiler 3.21, protoc-gen-go 1.28,
protoc-gen-go-grpc 1.0; ``make go-generate`` installs them when missing), so the output is the same on every
machine with them: each file names the versions that wrote it. The protos have no ``go_package``: the import
path is given with protoc's ``M`` options instead, so the contract stays free of any one language's options.
The googleapis protos the contract imports (google/rpc/status.proto) are staged beside it from the
googleapis-common-protos package (``scripts/proto_imports.py``); their own ``go_package`` is genproto's, which
the module already requires.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Final

HERE: Final = Path(__file__).resolve().parent
REPO: Final = HERE.parent.parent
PROTO_ROOT: Final = REPO / "proto"
PACKAGE_DIR: Final = Path("splendor") / "v1"
TARGET: Final = HERE / "splendorv1"

sys.path.insert(0, str(REPO))
from scripts.proto_imports import stage_imports  # noqa: E402  (the repository's root, just put on the path)


def module_path() -> str:
    """The module path declared in go.mod (the stubs' import path starts with it)."""
    for line in (HERE / "go.mod").read_text().splitlines():
        if line.startswith("module "):
            return line.split()[1]
    raise SystemExit("clients/go/go.mod declares no module")


def generate(out: Path) -> list[Path]:
    """Run protoc on every proto of the package into ``out``; returns the generated file names."""
    with tempfile.TemporaryDirectory() as imports:
        stage_imports(Path(imports))
        return _generate(out, Path(imports))


def _generate(out: Path, imports: Path) -> list[Path]:
    import_path = f"{module_path()}/{TARGET.name}"
    protos = sorted(str(path.relative_to(PROTO_ROOT)) for path in (PROTO_ROOT / PACKAGE_DIR).glob("*.proto"))
    mappings = ",".join(f"M{proto}={import_path};{TARGET.name}" for proto in protos)
    command = [
        "protoc",
        f"--proto_path={PROTO_ROOT}",
        f"--proto_path={imports}",
        f"--go_out={out}",
        f"--go_opt=paths=source_relative,{mappings}",
        f"--go-grpc_out={out}",
        f"--go-grpc_opt=paths=source_relative,{mappings}",
        *protos,
    ]
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise SystemExit("protoc is missing: `make go-generate` installs it (Debian's protobuf-compiler)") from None
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit(result.returncode)
    generated = out / PACKAGE_DIR
    return sorted(path.relative_to(generated) for path in generated.glob("*.go"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        generated = generate(Path(scratch))
        fresh = Path(scratch) / PACKAGE_DIR
        if args.check:
            committed = sorted(path.relative_to(TARGET) for path in TARGET.glob("*.go")) if TARGET.is_dir() else []
            stale = sorted(set(generated) ^ set(committed))
            stale += [
                path
                for path in generated
                if path in committed and not filecmp.cmp(fresh / path, TARGET / path, shallow=False)
            ]
            if stale:
                print("the Go stubs are out of date; run `make go-generate`:", *map(str, stale), sep="\n  ")
                return 1
            print(f"Go stubs are up to date ({len(generated)} files)")
            return 0
        shutil.rmtree(TARGET, ignore_errors=True)
        shutil.copytree(fresh, TARGET)
    print(f"wrote {len(generated)} files to {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
