"""The Python suites' own rules: a test module imports helpers from a support module, never from another test
module (pytest would collect its tests twice and fixtures would leak between files), and nothing under Tests/
edits sys.path (pytest.ini's pythonpath says where helpers live)."""
from __future__ import annotations
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITES = [ROOT / "Tests", ROOT / "DevServers"]


def python_files():
    for suite in SUITES:
        yield from sorted(p for p in suite.rglob("*.py") if "__pycache__" not in p.parts)


def imported_modules(tree: ast.AST):
    for node in ast.walk(tree):  # imports inside functions count too
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module.split(".")[0]


def test_no_python_file_imports_a_test_module():
    offenders = [f"{path.relative_to(ROOT)} imports {module}"
                 for path in python_files()
                 for module in imported_modules(ast.parse(path.read_text(), str(path)))
                 if module.startswith("test_")]
    assert offenders == [], "move what is shared into a *_support.py module: " + "; ".join(offenders)


def edits_sys_path(tree: ast.AST) -> bool:
    """A call such as sys.path.insert(...) or sys.path.append(...)."""
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and ast.unparse(node.func.value) == "sys.path" for node in ast.walk(tree))


def test_nothing_under_tests_edits_sys_path():
    offenders = [str(path.relative_to(ROOT)) for path in sorted((ROOT / "Tests").rglob("*.py"))
                 if edits_sys_path(ast.parse(path.read_text(), str(path)))]
    assert offenders == [], "put the folder on pytest.ini's pythonpath instead: " + ", ".join(offenders)
