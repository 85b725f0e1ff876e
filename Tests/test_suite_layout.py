"""The Python suites' own rules: a test module imports helpers from a support module, never from another test
module (pytest would collect its tests twice and fixtures would leak between files), and nothing under Tests/
edits the module search path (pytest.ini's pythonpath says where helpers live)."""
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


def is_search_path(node: ast.AST) -> bool:
    """The expression ``sys`` + ``.path``: the interpreter's module search path."""
    return (isinstance(node, ast.Attribute) and node.attr == "path"
            and isinstance(node.value, ast.Name) and node.value.id == "sys")


def edits_search_path(tree: ast.AST) -> bool:
    """A call on the search path (insert, append, extend…), or an assignment to it or to one of its items."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and is_search_path(node.func.value):
            return True
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign) else []
        for target in targets:
            if is_search_path(target) or (isinstance(target, ast.Subscript) and is_search_path(target.value)):
                return True
    return False


def test_the_search_path_check_sees_every_kind_of_edit():
    edits = ["sys." + "path.insert(0, 'x')", "sys." + "path.append('x')", "sys." + "path[0] = 'x'",
             "sys." + "path += ['x']", "sys." + "path = ['x']"]
    assert [edits_search_path(ast.parse(text)) for text in edits] == [True] * len(edits)
    assert not edits_search_path(ast.parse("import sys\nprint(sys.argv, os.path.join('a', 'b'))"))


def test_nothing_under_tests_edits_the_search_path():
    offenders = [str(path.relative_to(ROOT)) for path in sorted((ROOT / "Tests").rglob("*.py"))
                 if edits_search_path(ast.parse(path.read_text(), str(path)))]
    assert offenders == [], "put the folder on pytest.ini's pythonpath instead: " + ", ".join(offenders)
