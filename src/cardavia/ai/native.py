"""The AI's hot modules compiled to C with mypyc, used only while they match the sources.

The search spends its time in plain, fully typed Python (planning hands, sampling them,
rolling deals out). `mypyc <https://mypyc.readthedocs.io>`_ compiles exactly that kind of
code to C extension modules, about twice as fast here, with the same results move for move
(``tests/ai/test_native.py``). The compiled modules are optional: :func:`build` writes them
with a manifest of the sources they were made from into :func:`native_dir` (``./scripts/setup``
runs it when a C compiler is there), and :func:`install` — run when :mod:`cardavia.ai` is
first imported — puts a finder in front of the normal import only when every compiled
module's source still hashes as it did at the build. An edited source, another Python, a
missing file or ``CARDAVIA_PURE=1`` all mean plain Python, never a stale module.

``cardavia native`` tells which is in use, ``cardavia native build`` compiles (about a
minute on one core).

>>> status().reason in ("compiled", "pure") or status().reason.startswith("not used")
True
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: the modules compiled, all or none (compiled modules call each other directly). Not
#: here: modules that find data files beside themselves (``locate``), the frozen ``v1``.
MODULES: tuple[str, ...] = (
    "cardavia.ai.alphabeta",
    "cardavia.ai.rollout",
    "cardavia.ai.search",
    "cardavia.ai.tracking",
    "cardavia.ai.guandan.basic",
    "cardavia.ai.guandan.endgame",
    "cardavia.ai.guandan.faithful",
    "cardavia.ai.guandan.leads",
    "cardavia.ai.guandan.plan",
    "cardavia.ai.guandan.search",
    "cardavia.ai.guandan.shape",
    "cardavia.ai.guandan.value",
    "cardavia.ai.runfast.basic",
    "cardavia.ai.runfast.belief",
    "cardavia.ai.runfast.endgame",
    "cardavia.ai.runfast.evidence",
    "cardavia.ai.runfast.joint",
    "cardavia.ai.runfast.plan",
    "cardavia.ai.runfast.reading",
    "cardavia.ai.runfast.search",
)

MANIFEST = "manifest.json"
PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the directory holding ``cardavia/``


@dataclass(frozen=True)
class Status:
    """Whether the compiled modules are in use, and why (or why not)."""

    active: bool
    reason: str
    directory: Path


_status = Status(False, "pure", Path())


def native_dir() -> Path:
    """Where the compiled modules live: ``CARDAVIA_NATIVE_DIR``, else ``cardavia-native``
    inside the Python environment (the project's ``.venv``)."""
    override = os.environ.get("CARDAVIA_NATIVE_DIR")
    return Path(override) if override else Path(sys.prefix) / "cardavia-native"


def source_of(module: str, root: Path = PACKAGE_ROOT) -> Path:
    """The ``.py`` file of ``module`` under ``root``."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def fingerprint(module: str, root: Path = PACKAGE_ROOT) -> str:
    """The SHA-256 of ``module``'s source under ``root``."""
    return hashlib.sha256(source_of(module, root).read_bytes()).hexdigest()


def _suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX"))


class NativeFinder(importlib.abc.MetaPathFinder):
    """Serves the compiled file of each listed module (and mypyc's shared library)."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def check(directory: Path, root: Path = PACKAGE_ROOT) -> tuple[dict[str, Path], str]:
    """The compiled files in ``directory`` if they match the sources under ``root`` (else
    none), and the reason."""
    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, f"not used: nothing built in {directory}"
    except (OSError, ValueError) as exc:
        return {}, f"not used: unreadable manifest ({exc})"
    if not isinstance(manifest, dict):
        return {}, "not used: unreadable manifest"
    if manifest.get("python") != sys.version or manifest.get("suffix") != _suffix():
        return {}, "not used: built for another Python"
    sources = manifest.get("sources")
    if not isinstance(sources, dict) or set(sources) != set(MODULES):
        return {}, "not used: built for another module list"
    files: dict[str, Path] = {}
    for module in MODULES:
        try:
            if fingerprint(module, root) != sources[module]:
                return {}, f"not used: {module} changed since the build"
        except OSError:
            return {}, f"not used: no source for {module}"
        files[module] = directory / f"{module}{_suffix()}"
    shared = manifest.get("shared")
    if isinstance(shared, str):
        files[shared] = directory / f"{shared}{_suffix()}"
    missing = [name for name, file in files.items() if not file.is_file()]
    if missing:
        return {}, f"not used: {missing[0]} is missing"
    return files, "compiled"


def install() -> Status:
    """Use the compiled modules if they match the sources (idempotent; before any import of
    them, so :mod:`cardavia.ai` runs it first)."""
    global _status
    if any(isinstance(f, NativeFinder) for f in sys.meta_path):
        return _status
    directory = native_dir()
    if os.environ.get("CARDAVIA_PURE"):
        _status = Status(False, "pure", directory)
        return _status
    loaded = [m for m in MODULES if m in sys.modules]
    if loaded:
        _status = Status(False, f"not used: {loaded[0]} was imported first", directory)
        return _status
    files, reason = check(directory)
    if files:
        sys.meta_path.insert(0, NativeFinder(files))
    _status = Status(bool(files), reason, directory)
    return _status


def status() -> Status:
    """What :func:`install` found."""
    return _status


def build(directory: Path | None = None, root: Path = PACKAGE_ROOT) -> Path:
    """Compile :data:`MODULES` from the sources under ``root`` into ``directory`` (default
    :func:`native_dir`), replacing what was there. Raises ``RuntimeError`` with mypyc's
    output when compiling fails (no C compiler, no Python headers)."""
    target = directory or native_dir()
    with tempfile.TemporaryDirectory(prefix="cardavia-native-") as tmp:
        work = Path(tmp)
        shutil.copytree(root / "cardavia", work / "cardavia",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
        sources = {m: fingerprint(m, work) for m in MODULES}
        cmd = [sys.executable, "-m", "mypyc", *(str(source_of(m, Path("."))) for m in MODULES)]
        done = subprocess.run(cmd, cwd=work, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"mypyc failed ({done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
        shared = [p.name[: -len(_suffix())] for p in work.glob(f"*__mypyc{_suffix()}")]
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".cardavia-native-", dir=target.parent))
        for module in MODULES:
            *package, name = module.split(".")
            shutil.copy2(work.joinpath(*package) / f"{name}{_suffix()}", staging / f"{module}{_suffix()}")
        for name in shared:
            shutil.copy2(work / f"{name}{_suffix()}", staging / f"{name}{_suffix()}")
        manifest = {"python": sys.version, "suffix": _suffix(), "sources": sources,
                    "shared": shared[0] if shared else None}
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    return target


def main(argv: Sequence[str] | None = None) -> int:
    """``cardavia native [build]``: say which modules run, or compile them."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["build"]:
        try:
            where = build()
        except (RuntimeError, OSError) as exc:
            print(f"cardavia native: not built: {exc}", file=sys.stderr)
            return 1
        print(f"cardavia native: built {len(MODULES)} modules in {where}")
        return 0
    if args:
        print("usage: cardavia native [build]", file=sys.stderr)
        return 2
    now = status()
    print(f"cardavia native: {now.reason} ({now.directory})")
    return 0


install()
