"""Fixtures for the appsync-local server's own tests: in-process apps (fast) over the examples."""

from __future__ import annotations

import pytest

from local_app import EXAMPLES, LocalApp, make_app


@pytest.fixture
def blog_app() -> LocalApp:
    """blog.json seeded with blog-seed.json."""
    return make_app(EXAMPLES / "blog.json", EXAMPLES / "blog-seed.json")


@pytest.fixture
def inventory_app() -> LocalApp:
    """inventory.json (composite keys) seeded with inventory-seed.json."""
    return make_app(EXAMPLES / "inventory.json", EXAMPLES / "inventory-seed.json")


@pytest.fixture
def tags_app() -> LocalApp:
    """tags.json (many-to-many) seeded with tags-seed.json."""
    return make_app(EXAMPLES / "tags.json", EXAMPLES / "tags-seed.json")
