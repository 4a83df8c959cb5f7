"""The layers import only downward, and the command line's engine commands stay light."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What each package may import at module level (besides itself, the standard library and
# third-party packages, which are checked below).
ALLOWED = {
    "engine": {"engine"},
    "webapp.core": {"engine", "webapp.core"},
    "webapp.work": {"engine", "webapp.core", "webapp.work"},
    "webapp.store": {"engine", "webapp.core", "webapp.store"},
    "webapp.paper": {"engine", "webapp.core", "webapp.paper"},
    "webapp.scan": {"engine", "webapp.core", "webapp.scan"},
    "webapp.web": {"engine", "webapp.core", "webapp.work", "webapp.store", "webapp.paper", "webapp.scan",
                   "webapp.web"},
    "webapp.cli": {"engine", "webapp.core", "webapp.paper", "webapp.scan", "webapp.cli"},
}
# Third-party packages each layer may load when it is imported. OpenCV, NumPy, ONNX Runtime
# and the OCR model load only when a picture is read (never at the web app's start).
HEAVY = {"segno", "tqdm", "flask", "flask_compress", "werkzeug", "sqlalchemy", "alembic", "weasyprint", "jinja2",
         "gunicorn", "psycopg", "cv2", "numpy", "onnxruntime", "rapidocr_onnxruntime"}
HEAVY_ALLOWED = {
    "webapp.store": {"sqlalchemy", "alembic"},
    "webapp.web": {"flask", "flask_compress", "werkzeug", "sqlalchemy", "alembic"},
    # The reader's own modules; the package (webapp.scan itself) loads none of them, and
    # read_picture imports the reader when a picture is read.
    "webapp.scan.*": {"cv2", "numpy", "onnxruntime", "rapidocr_onnxruntime"},
}


def _modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted([*(ROOT / "engine").rglob("*.py"), *(ROOT / "webapp").rglob("*.py")]):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found.append((".".join(parts), path))
    return found


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[0] if parts[0] == "engine" else ".".join(parts[:2])


def _module_level_imports(module: str, path: Path) -> list[str]:
    """What a module imports when it is imported (not inside functions), as absolute names."""
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                names.append(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                names.append(node.module)
    return names


@pytest.mark.parametrize(("module", "path"), _modules(), ids=[m for m, _ in _modules()])
def test_imports_run_downward(module: str, path: Path) -> None:
    layer = _layer(module)
    if module.startswith("webapp.store.migrations"):
        layer = "webapp.store"
    if module == "webapp":
        return
    for name in _module_level_imports(module, path):
        top = name.split(".")[0]
        if top in ("engine", "webapp"):
            assert _layer(name) in ALLOWED[layer], f"{module} imports {name}: upward across the layers"
        elif top in HEAVY:
            allowed = HEAVY_ALLOWED.get(layer, set())
            if layer == "webapp.scan" and module != "webapp.scan":
                allowed = HEAVY_ALLOWED["webapp.scan.*"]
            assert top in allowed, f"{module} loads {top} when it is imported"


def _every_import(path: Path) -> list[str]:
    """Every module a file imports, at any depth (inside functions too)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", sorted((ROOT / "webapp").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_app_uses_only_the_engines_public_api(path: Path) -> None:
    """`engine/__init__.py` is the engine's whole surface: the app never reaches past it, so
    the engine's modules can be rearranged freely. (The benchmarks in bench/ may time its
    insides: they are instruments, not the app.)"""
    reaching = [name for name in _every_import(path) if name.startswith("engine.")]
    assert not reaching, f"{path.relative_to(ROOT)} imports {reaching}: use `from engine import ...`"


def test_hidato_solve_loads_none_of_the_web_stack(tmp_path: Path) -> None:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("1 . 3\n")
    script = ("import sys; from webapp.cli import main; code = main(['solve', sys.argv[1]]); "
              "heavy = ('flask', 'sqlalchemy', 'weasyprint', 'jinja2', 'alembic', 'cv2', 'numpy', 'onnxruntime'); "
              "print(sorted(m for m in heavy if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script, str(puzzle)], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
    assert "1 2 3" in done.stdout


def test_the_web_app_starts_without_opencv_or_the_ocr_model(tmp_path: Path) -> None:
    """Reading photos is a rare job: the site starts (and every other command runs) without
    loading OpenCV, NumPy, ONNX Runtime or the OCR model."""
    script = ("import sys; from webapp.web.app import create_app; "
              "app = create_app({'INSTANCE_PATH': sys.argv[1], 'SECRET_KEY': 'x', 'POOL_FILL': False, "
              "'DATABASE_URL': None}); app.test_client().get('/'); app.extensions['hidato'].close(); "
              "heavy = ('cv2', 'numpy', 'onnxruntime', 'rapidocr_onnxruntime'); "
              "print(sorted(m for m in heavy if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "instance")], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
