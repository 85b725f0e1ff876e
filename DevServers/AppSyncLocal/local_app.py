"""In-process appsync-local apps for fast tests (no HTTP, no subprocess)."""

from __future__ import annotations

from pathlib import Path

from appsync_local.execution import App
from appsync_local.mis import load_schema_file, resolve_mis
from appsync_local.seed import load_seed

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "schema-examples"
FIXTURES = Path(__file__).resolve().parent.parent.parent / "Tests" / "Fixtures" / "schemas"


class LocalApp:
    """An ``App`` with a convenience ``run`` that returns the response JSON."""

    def __init__(self, app: App) -> None:
        self.app = app

    def run(self, query: str, variables: dict | None = None) -> dict:
        """Execute and return the whole response (``data`` and maybe ``errors``)."""
        return self.app.execute(query, variables)

    def data(self, query: str, variables: dict | None = None) -> dict:
        """Run and assert there were no errors; returns ``data``."""
        response = self.run(query, variables)
        assert "errors" not in response, response
        return response["data"]


def make_app(schema_path, seed_path=None) -> LocalApp:
    """An app over a schema file, optionally seeded, with its own in-memory store."""
    schema = load_schema_file(str(schema_path))
    app = App(schema)
    if seed_path is not None:
        load_seed(str(seed_path), schema, app.store)
    return LocalApp(app)


def app_from_mis(mis: dict) -> LocalApp:
    """An empty app over a MIS given as a dict (for schemas written inside tests)."""
    return LocalApp(App(resolve_mis(mis)))
