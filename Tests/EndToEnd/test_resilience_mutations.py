"""Mutations are not retried unless ``--retry-mutations`` is given, and even then only when repeating them is
safe: a create carries its client-generated key (so a retry cannot make a duplicate), an update or delete
needs an ``--if`` condition.

Attempts are counted from gqlc's ``--verbose`` trace and from the server's request log.
"""

from __future__ import annotations

import json

import pytest

from retries_support import attempts, burn, error_lines, retries, served

CREATE = ("create", "Post", "title=Retried post", "blogId=b1")
UPDATE = ("update", "Post", "--id", "p1", "title=Renamed")
UPDATE_IF = (*UPDATE, "--if", "title=A sourdough starter in seven days")
DELETE = ("delete", "Post", "--id", "p2")
DELETE_IF = (*DELETE, "--if", "rating=4")


@pytest.fixture
def gqlc_at(gqlc, schema_examples_dir):
    def run(server, *args):
        return gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, "--verbose", *args)
    return run


def post_ids(server) -> list[str]:
    """Every Post id, read straight from the server (these requests count too)."""
    ids, token = [], None
    while True:
        body = server.graphql("query($t: String) { listPosts(limit: 1000, nextToken: $t) { items { id } nextToken } }",
                              {"t": token})
        ids += [item["id"] for item in body["data"]["listPosts"]["items"]]
        token = body["data"]["listPosts"]["nextToken"]
        if token is None:
            return ids


def test_a_create_is_not_retried_by_default(faulty, gqlc_at):
    server = faulty("--fail-every", "1")
    run = gqlc_at(server, *CREATE)
    assert run.code == 5, run
    assert run.stdout == ""
    assert attempts(run) == 1 and retries(run) == [] and served(server) == 1
    assert len(error_lines(run)) == 1


@pytest.mark.parametrize("mutation", [UPDATE_IF, DELETE_IF], ids=["update-if", "delete-if"])
def test_a_conditional_write_is_not_retried_without_the_flag(faulty, gqlc_at, mutation):
    server = faulty("--fail-every", "1")
    run = gqlc_at(server, *mutation)
    assert run.code == 5, run
    assert attempts(run) == 1 and served(server) == 1


def test_a_retried_create_makes_one_record(faulty, gqlc_at, schema_examples_dir):
    server = faulty("--fail-every", "2")
    burn(server)  # request 1; gqlc's first attempt is request 2, which fails
    run = gqlc_at(server, "--retry-mutations", *CREATE)
    assert run.code == 0, run
    assert attempts(run) == 2 and [r[:3] for r in retries(run)] == [(1, 3, "HTTP 500")]
    created = run.json()
    assert created["title"] == "Retried post"
    # Request 4 would fail, so spend it before reading the list back.
    burn(server)
    ids = post_ids(server)
    assert ids.count(created["id"]) == 1
    seeded = len(json.loads((schema_examples_dir / "blog-seed.json").read_text())["Post"])
    assert len(ids) == seeded + 1


def test_a_create_is_retried_with_the_same_body_and_key(start_appsync, schema_examples_dir, gqlc_at):
    # The first two requests get a 503; the third is served and creates the post.
    server = start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json",
                           args=("--reply-status", "503", "--reply-first", "2"), record_requests=True)
    run = gqlc_at(server, "--retry-mutations", *CREATE)
    assert run.code == 0, run
    bodies = [request["body"] for request in server.requests()]
    assert len(bodies) == 3 and bodies[0] == bodies[1] == bodies[2]
    sent = json.loads(bodies[0])["variables"]["input"]
    assert sent["id"] and sent["title"] == "Retried post"
    assert run.json()["id"] == sent["id"]  # created once, with the key gqlc chose


def test_a_dropped_create_is_retried_and_exists_once(faulty, gqlc_at):
    server = faulty("--drop-every", "2")
    burn(server)
    run = gqlc_at(server, "--retry-mutations", *CREATE)
    assert run.code == 0, run
    assert attempts(run) == 2
    burn(server)  # request 4 would be dropped
    assert post_ids(server).count(run.json()["id"]) == 1


@pytest.mark.parametrize("mutation", [UPDATE, DELETE], ids=["update", "delete"])
def test_an_unconditional_write_is_not_retried_even_with_the_flag(faulty, gqlc_at, mutation):
    server = faulty("--fail-every", "1")
    run = gqlc_at(server, "--retry-mutations", *mutation)
    assert run.code == 5, run
    assert run.stdout == ""
    assert attempts(run) == 1 and retries(run) == [] and served(server) == 1


def test_a_conditional_update_is_retried_with_the_flag(faulty, gqlc_at):
    server = faulty("--fail-every", "2")
    burn(server)
    run = gqlc_at(server, "--retry-mutations", *UPDATE_IF)
    assert run.code == 0, run
    assert run.json()["title"] == "Renamed"
    assert attempts(run) == 2 and [r[:3] for r in retries(run)] == [(1, 3, "HTTP 500")]


def test_a_conditional_delete_is_retried_with_the_flag(faulty, gqlc_at):
    server = faulty("--fail-every", "2")
    burn(server)
    run = gqlc_at(server, "--retry-mutations", *DELETE_IF)
    assert run.code == 0, run
    assert run.json()["id"] == "p2"
    # The delete twice, then the check for comments left pointing at p2 (a query, also hit by the fault once).
    assert attempts(run) == 4
    burn(server)
    assert "p2" not in post_ids(server)


def test_a_conditional_write_gives_up_after_its_retries(faulty, gqlc_at):
    server = faulty("--fail-every", "1")
    run = gqlc_at(server, "--retry-mutations", "--retries", "2", *UPDATE_IF)
    assert run.code == 5, run
    assert attempts(run) == 3 and served(server) == 3
    assert error_lines(run)[-1].endswith("(after 3 attempts)")
