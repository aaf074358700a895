"""The rules core and the codec's and the API's hot modules compiled with mypyc at install time, when they can be:
the build hook of setup.py.

One place decides which core an installation gets (``plan_core``), what it compiles
(``compiled_sources``) and builds it (``BuildCompiledCore``); ``setup.py`` (wheels,
``pip install .``, the Docker image) and ``scripts/build_compiled_core.py`` (``make compiled``,
``make serve``) both use it.

- What is compiled: every module of the rules core (``CORE_PACKAGE``) but those in
  ``NOT_COMPILED``, the codec modules every call runs (``CODEC_MODULES``) and the API modules every
  move runs (``API_MODULES``); the rest of the codec and of the API stays Python, with the reasons
  beside each list. All of them are one shared library: an installation has them all compiled or none.
- ``SPLENDOR_CORE=compiled`` builds the compiled core or fails; ``pure`` never compiles;
  unset (or ``auto``) compiles when mypyc, a C compiler and the Python headers work and
  otherwise installs the pure core, saying why in one line.
- An editable install (``pip install -e .``) is always pure: it runs the checkout's
  sources as they are edited, which a compiled copy would silently shadow.
- The build is quick: every module is its own C file (mypyc's multi-file mode), compiled in
  parallel, at ``DEFAULT_OPT_LEVEL`` (``SPLENDOR_CORE_OPT_LEVEL`` overrides). mypy runs with
  ``MYPY_CONFIG`` wherever the build runs, so a wheel and ``make compiled`` compile the same code.
  Cold, it still takes minutes on a small machine: it says what it is doing at least every 10 s
  (``build_support/progress.py``) on standard error.
- The result is cached, keyed on the sources of the packages compiled from (``HASHED_PACKAGES``),
  this file, mypyc's version and the interpreter: a rebuild of unchanged sources copies the
  cached extensions (directory: ``SPLENDOR_CORE_CACHE``, else
  ``$XDG_CACHE_HOME/splendor-engine/compiled-core``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from setuptools import Extension  # type: ignore[import-untyped]
from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

from .progress import Progress

CORE_VARIABLE = "SPLENDOR_CORE"
CACHE_VARIABLE = "SPLENDOR_CORE_CACHE"
OPT_LEVEL_VARIABLE = "SPLENDOR_CORE_OPT_LEVEL"
CORE_CHOICES = ("auto", "compiled", "pure")
# The C optimisation level, by measurement (benchmarks/peer_bench.py, builds side by side): -O1 builds
# with ~30% less CPU but played 0.90x the games/s of -O2 at 2 players; -O3 costs as much as -O2 to
# build and played no faster.
DEFAULT_OPT_LEVEL = "2"

CORE_PACKAGE = Path("engine_service") / "rules"
# Modules of the rules core left to the interpreter, with the reason.
NOT_COMPILED = frozenset(
    {
        # distinct_kind installs __eq__/__hash__ functions on NamedTuple classes; compiled
        # functions do not bind as methods, so it must stay a Python module.
        CORE_PACKAGE / "records.py",
        # DecisionKind's enum-like class access comes from a metaclass (a subclass of type),
        # which mypyc cannot compile.
        CORE_PACKAGE / "decisions.py",
    }
)
CODEC_PACKAGE = Path("engine_service") / "codec"
# The codec modules compiled beside the core: the conversions every ApplyAction runs, each kept because
# compiling it made its part of a call measurably cheaper (benchmarks/call_budget.py --parts-only, builds
# side by side, interleaved).
CODEC_MODULES = (
    CODEC_PACKAGE / "bounds.py",  # state in: the bounds checked before an incoming state is read
    CODEC_PACKAGE / "state.py",  # state in and out: the state read, and the response patched
    CODEC_PACKAGE / "view.py",  # a sealed call's view, copied from the state's message
    CODEC_PACKAGE / "records.py",  # the record codecs: each event written, the action read
    CODEC_PACKAGE / "events.py",  # the events' loop
    CODEC_PACKAGE / "actions.py",  # the action read
    CODEC_PACKAGE / "observation.py",  # an environment's every move: the observation written
    CODEC_PACKAGE / "wire.py",  # every plain call: its state's bytes found in the request's and the response's
    CODEC_PACKAGE / "action_cache.py",  # every move sent as a message or an id: the action looked up
)
# The codec's other modules stay Python:
# - common.py: compiling it made no part of a call measurably cheaper (a few attribute sets per call);
# - catalog.py, modules/: once per process, or off ApplyAction's path;
# - __init__.py: re-exports only.
API_PACKAGE = Path("engine_service") / "api"
# The API's modules compiled beside them: the Python of every ApplyAction and of each item of a batch between the
# core's and the codec's parts, compiled because it made a batch's item measurably cheaper
# (benchmarks/bot_loop_bench.py, builds side by side; the last four by the instructions an item runs, under
# valgrind: docs/performance.md).
API_MODULES = (
    API_PACKAGE / "apply.py",  # ApplyAction's steps: the request checked, the action applied, the answer filled
    API_PACKAGE / "next_move.py",  # the move applied, the next seat's legal actions (as ids), view, observation
    API_PACKAGE / "state_memo.py",  # every plain call's lookups, every move's new state remembered
    API_PACKAGE / "encoding.py",  # every ApplyAction's response serialized, and each batch item's state remembered
    API_PACKAGE / "audiences.py",  # every item: its audiences (mostly none) read and checked
    API_PACKAGE / "handlers.py",  # every item: its action's kind named for the logs and metrics
    API_PACKAGE / "replies.py",  # every item: its reply bots (mostly none) read, a game dealt
    API_PACKAGE / "seat_access.py",  # every item: its seat key checked (plain: nothing to check)
)
# The API's other modules stay Python:
# - call.py: a call's facts are logged from its instance dictionary (a compiled class has none);
# - batch.py, source.py: tests replace a function they call (a compiled caller would not see it): compiled, with
#   tracing.py, they cut another ~3 % of an item's instructions;
# - the rest: once a call, off a move's path, or a few attribute reads an item.
# Every Python source the compiled code depends on within the engine: the compiled modules and those they import
# (types included), so the cache key changes whenever the compiled result could.
HASHED_PACKAGES = (
    CORE_PACKAGE,
    CODEC_PACKAGE,
    API_PACKAGE,
    Path("engine_service") / "sealing",
    Path("engine_service") / "bots",
)
# mypy's configuration for the compilation, written beside the build's temporary files and used
# instead of any found in the working directory (a checkout's pyproject.toml configures the type
# check, not the build). The contract's stubs and protobuf are no build requirements: their types
# are Any in every build, so an isolated wheel build compiles the same code as ``make compiled``
# (their classes are not native to mypyc either way). These packages' types are Any: imported, never followed.
UNTYPED_IMPORTS = ("splendor", "google", "structlog", "opentelemetry", "cryptography")
MYPY_CONFIG = f"""\
[mypy]
[mypy-{",".join(f"{package}.*" for package in UNTYPED_IMPORTS)}]
follow_imports = skip
ignore_missing_imports = True
"""
# The placeholder that makes setuptools run build_ext and tag the wheel for this platform;
# BuildCompiledCore replaces it with mypyc's extensions (or the cached ones).
PLACEHOLDER = Extension("engine_service.rules._compiled_core", sources=[])
MANIFEST = "extensions.json"
# The name of the one shared library (a top-level extension) holding the compiled modules.
SHARED_LIBRARY = "splendor_engine_rules"
PROGRESS_LABEL = "splendor-engine rules core"
# A compiled file gets a line of its own when none came for this long (else it waits for the next beat).
PROGRESS_LINE_SECONDS = 3.0


class CoreBuildError(RuntimeError):
    """SPLENDOR_CORE asks for something this build cannot do."""


@dataclass(frozen=True)
class CorePlan:
    compiled: bool
    reason: str

    def message(self) -> str:
        kind = "compiled (mypyc)" if self.compiled else "pure Python"
        return f"splendor-engine rules core: {kind} — {self.reason}"


def requested_core(environ: Mapping[str, str]) -> str:
    choice = environ.get(CORE_VARIABLE, "").strip().lower() or "auto"
    if choice not in CORE_CHOICES:
        raise CoreBuildError(f"{CORE_VARIABLE}={choice!r}: expected one of {', '.join(CORE_CHOICES)}")
    return choice


def plan_core(environ: Mapping[str, str], *, editable: bool) -> CorePlan:
    """Which core to install, and why; raises CoreBuildError when a forced compiled core cannot be built."""
    choice = requested_core(environ)
    if choice == "pure":
        return CorePlan(False, f"{CORE_VARIABLE}=pure")
    if editable:
        if choice == "compiled":
            raise CoreBuildError(
                f"{CORE_VARIABLE}=compiled: an editable install runs the checkout's sources; "
                "install without -e, or build the compiled copy with scripts/build_compiled_core.py"
            )
        return CorePlan(False, "an editable install runs the checkout's sources as they are")
    problem = build_problem()
    if problem is None:
        return CorePlan(True, f"mypyc and a C compiler found ({CORE_VARIABLE}=pure installs the pure core)")
    if choice == "compiled":
        raise CoreBuildError(f"{CORE_VARIABLE}=compiled, but the core cannot be compiled: {problem}")
    return CorePlan(False, f"cannot compile ({problem}); {CORE_VARIABLE}=compiled makes this an error")


def build_problem() -> str | None:
    """Why mypyc cannot build here, or None: mypyc imports, and the C compiler the build would use
    (``CC``, else the one Python was built with) compiles a file that includes Python.h."""
    try:
        import mypyc.build  # noqa: F401, PLC0415 (mypy is a build requirement, but a --no-isolation build may lack it)
    except ImportError as missing:
        return f"mypyc is not installed: {missing}"
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "")
    if not compiler:
        return "no C compiler configured for this Python"
    with tempfile.TemporaryDirectory() as probe_dir:
        probe = Path(probe_dir) / "probe.c"
        probe.write_text("#include <Python.h>\nint splendor_probe(void) { return 0; }\n")
        command = [*compiler, "-c", str(probe), "-o", str(probe.with_suffix(".o"))]
        try:
            done = subprocess.run(
                [*command, "-I", sysconfig.get_paths()["include"]], capture_output=True, text=True, check=False
            )
        except OSError as error:
            return f"no working C compiler ({compiler[0]}: {error.strerror})"
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no output"]
        first_error = next((line for line in lines if "error" in line), lines[0])
        return f"the C compiler cannot build against the Python headers ({first_error.strip()})"
    return None


def compiled_sources(root: Path) -> list[str]:
    """The modules mypyc compiles, relative to ``root`` (the directory holding engine_service/)."""
    core = sorted(path.relative_to(root) for path in (root / CORE_PACKAGE).rglob("*.py"))
    return [str(path) for path in [*core, *CODEC_MODULES, *API_MODULES] if path not in NOT_COMPILED]


def cache_key(root: Path, environ: Mapping[str, str]) -> str:
    """Changes whenever the compiled result could: a source of ``HASHED_PACKAGES``, this hook, mypyc,
    the interpreter, CC."""
    import mypy.version  # noqa: PLC0415 (only a build that compiles needs mypy)

    digest = hashlib.sha256()
    for path in sorted(path for package in HASHED_PACKAGES for path in (root / package).rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(Path(__file__).read_bytes())
    for part in (
        mypy.version.__version__,
        opt_level(environ),
        sys.version,
        sysconfig.get_platform(),
        str(sysconfig.get_config_var("EXT_SUFFIX")),
        *(environ.get(name, "") for name in ("CC", "CFLAGS", "CPPFLAGS", "LDFLAGS")),
    ):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:32]


def opt_level(environ: Mapping[str, str]) -> str:
    level = environ.get(OPT_LEVEL_VARIABLE, "").strip() or DEFAULT_OPT_LEVEL
    if level not in ("0", "1", "2", "3"):
        raise CoreBuildError(f"{OPT_LEVEL_VARIABLE}={level!r}: expected 0, 1, 2 or 3")
    return level


def cache_root(environ: Mapping[str, str]) -> Path:
    if environ.get(CACHE_VARIABLE):
        return Path(environ[CACHE_VARIABLE])
    base = Path(environ["XDG_CACHE_HOME"]) if environ.get("XDG_CACHE_HOME") else Path.home() / ".cache"
    return base / "splendor-engine" / "compiled-core"


def _in_parallel(
    compile_sources: Callable[..., list[str]], jobs: int, progress: Progress, total: int
) -> Callable[..., list[str]]:
    """A compiler's ``compile`` that runs one compiler process per source file, ``jobs`` at a time, and
    says each file it finished (of ``total``, over every call)."""
    finished: list[str] = []
    lock = threading.Lock()

    def compile_one(source: str, *args: Any, **kwargs: Any) -> list[str]:
        objects = compile_sources([source], *args, **kwargs)
        with lock:
            finished.append(source)
            status = f"C compiler: {len(finished)} of {total} files done ({_module_of(source)})"
            # A line for a slow file at once; quick ones (the modules' small shims) only in the beats.
            (progress.say if progress.quiet_for() >= PROGRESS_LINE_SECONDS else progress.update)(status)
        return objects

    def compile_each(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
        with ThreadPoolExecutor(jobs) as pool:
            objects = pool.map(lambda source: compile_one(source, *args, **kwargs), sources)
            return [obj for batch in objects for obj in batch]

    return compile_each


def _module_of(source: str) -> str:
    """The module a C file of mypyc's compiles: ``__native_engine_service___rules___gems.c`` (its code) or
    ``.../mypyc/engine_service/rules/gems.c`` (its shim) is ``engine_service.rules.gems``."""
    parts = Path(source).with_suffix("").parts
    parts = parts[parts.index("mypyc") + 1 :] if "mypyc" in parts else parts[-1:]
    return ".".join(parts).removeprefix("__native_").replace("___", ".")


@contextmanager
def _parallel_compiler(compiler: Any, jobs: int, progress: Progress, total: int) -> Iterator[None]:
    original = compiler.compile
    compiler.compile = _in_parallel(original, jobs, progress, total)
    try:
        yield
    finally:
        compiler.compile = original


class BuildCompiledCore(build_ext):  # type: ignore[misc]
    """build_ext that compiles the core with mypyc, or copies the extensions cached for the same sources.

    It acts only when the distribution's extensions are ``[PLACEHOLDER]`` (see plan_core).
    """

    cache_entry: Path | None = None
    cached = False

    def finalize_options(self) -> None:
        if any(extension is PLACEHOLDER for extension in self.distribution.ext_modules or ()):
            self.set_undefined_options("build", ("build_temp", "build_temp"))
            self.distribution.ext_modules = self._core_extensions()
        super().finalize_options()

    def _core_extensions(self) -> list[Extension]:
        root = Path.cwd()
        self.cache_entry = cache_root(os.environ) / cache_key(root, os.environ)
        if (self.cache_entry / MANIFEST).is_file():
            self.cached = True
            names: list[str] = json.loads((self.cache_entry / MANIFEST).read_text())
            return [Extension(name, sources=[]) for name in names]
        from mypyc.build import mypycify  # noqa: PLC0415 (only a build that compiles needs mypy)

        target_dir = Path(self.build_temp) / "mypyc"
        target_dir.mkdir(parents=True, exist_ok=True)
        config = target_dir / "mypy.ini"
        config.write_text(MYPY_CONFIG)
        sources = compiled_sources(root)
        with Progress(PROGRESS_LABEL) as progress:
            progress.say(f"mypyc: type-checking {len(sources)} modules and writing their C")
            extensions: list[Extension] = mypycify(
                ["--config-file", str(config), *sources],
                opt_level=opt_level(os.environ),
                multi_file=True,
                group_name=SHARED_LIBRARY,
                target_dir=str(target_dir),
            )
        return extensions

    def build_extensions(self) -> None:
        if self.cache_entry is None:
            super().build_extensions()
        elif self.cached:
            self._restore(self.cache_entry)
            print(f"splendor-engine rules core: reused the compiled extensions cached in {self.cache_entry}")
        else:
            total = sum(len(extension.sources) for extension in self.extensions)
            with Progress(PROGRESS_LABEL) as progress:
                progress.say(f"C compiler: {total} files, {os.cpu_count() or 1} at a time")
                with _parallel_compiler(self.compiler, os.cpu_count() or 1, progress, total):
                    super().build_extensions()
            self._store(self.cache_entry)

    def _built_path(self, name: str) -> Path:
        return Path(self.get_ext_fullpath(name))

    def _restore(self, entry: Path) -> None:
        for name in (extension.name for extension in self.extensions):
            target = self._built_path(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(entry / name, target)

    def _store(self, entry: Path) -> None:
        """Copies the built extensions into the cache; a concurrent build of the same key may win the rename."""
        names = [extension.name for extension in self.extensions]
        staging: Path | None = None
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=entry.parent))
            for name in names:
                shutil.copy2(self._built_path(name), staging / name)
            (staging / MANIFEST).write_text(json.dumps(names))
            staging.rename(entry)
        except OSError as error:
            if staging is not None:
                shutil.rmtree(staging, ignore_errors=True)
            if not (entry / MANIFEST).is_file():
                print(f"splendor-engine rules core: not cached ({error})")
