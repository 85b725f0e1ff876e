"""``--retry-mutations`` on one record, when an answer is lost: the server carried the write out but closed the
connection without answering (appsync-local ``--lose-answer-every``), so gqlc's retry meets the refusal that its own
first attempt caused ("already exists", "not found", "condition is false"). gqlc reads the record: when it holds what
was sent (or is gone, for a delete) the command succeeds with it; otherwise it says its own attempt may be why.

Request numbers are lined up with ``burn``: with ``--lose-answer-every 2`` gqlc's first attempt is request 2.
"""

from __future__ import annotations

import pytest

from retries_support import burn


@pytest.fixture
def blog(gqlc, schema_examples_dir):
    """``blog.at(server, *args)`` runs gqlc against ``server`` with the blog schema."""
    class Runner:
        @staticmethod
        def at(server, *args):
            return gqlc("--schema", schema_examples_dir / "blog.json", "--endpoint", server.url, *args)
    return Runner()


def record_lines(run) -> list[str]:
    return [line for line in run.stderr_lines if line.startswith("gqlc: ")]


def lost_every_second(faulty):
    server = faulty("--lose-answer-every", "2")
    burn(server)  # request 1: gqlc's first attempt is request 2, applied and its answer lost
    return server


def test_a_create_whose_answer_was_lost_is_printed_once_made(faulty, blog):
    server = lost_every_second(faulty)
    run = blog.at(server, "--retry-mutations", "create", "Post", "id=lost-1", "title=Lost answer", "blogId=b1",
                  "rating=3")
    assert run.code == 0, run
    created = run.json()
    assert created["id"] == "lost-1" and created["title"] == "Lost answer" and created["rating"] == 3
    assert record_lines(run) == [
        "gqlc: note: gqlc retried this create and its first attempt had been applied (that answer was lost); "
        "the record is printed as read back"], run
    check = blog.at(server, "list", "Post", "--where", "title=Lost answer", "--output", "ndjson")
    assert check.code == 0 and [p["id"] for p in check.ndjson()] == ["lost-1"], check


def test_a_conditional_update_whose_answer_was_lost_succeeds(faulty, blog):
    server = lost_every_second(faulty)
    run = blog.at(server, "--retry-mutations", "update", "Post", "--id", "p1",
                  "--if", "title=A sourdough starter in seven days", "title=Renamed")
    assert run.code == 0, run
    assert run.json()["id"] == "p1" and run.json()["title"] == "Renamed"
    assert len(record_lines(run)) == 1 and "first attempt had been applied" in run.stderr, run


def test_a_conditional_delete_whose_answer_was_lost_succeeds_with_the_key(faulty, blog):
    server = lost_every_second(faulty)
    run = blog.at(server, "--retry-mutations", "delete", "Post", "--id", "p2", "--if", "rating=4")
    assert run.code == 0, run
    assert run.json() == {"id": "p2"}
    assert record_lines(run)[0] == (
        "gqlc: note: gqlc retried this delete and its first attempt had been applied (that answer was lost); "
        "the record is gone, so its key is printed"), run
    assert "warning: Comment records (Post.comments) are left pointing at the deleted Post id=p2" in run.stderr
    gone = blog.at(server, "get", "Post", "--id", "p2")
    assert gone.code == 4, gone


def test_a_retried_create_that_meets_another_record_says_its_own_attempt_may_be_why(faulty, blog):
    """The first attempt fails with a 500 (not applied); the retry meets a record with the key and other values."""
    server = faulty("--fail-every", "2")
    burn(server)
    run = blog.at(server, "--retry-mutations", "create", "Post", "id=p1", "title=Not the seeded one", "blogId=b1")
    assert run.code == 1 and run.stdout == "", run
    lines = record_lines(run)
    assert "ConditionalCheckFailedException" in lines[0]
    assert lines[1:] == [
        "gqlc: hint: Post already has a record with this key",
        "gqlc: gqlc retried this create after an attempt without an answer, and its own earlier attempt may have "
        "made it (check with: gqlc get Post --id p1)"], run


def test_a_retried_update_whose_condition_is_false_says_its_own_attempt_may_be_why(faulty, blog):
    server = faulty("--fail-every", "2")
    burn(server)
    run = blog.at(server, "--retry-mutations", "update", "Post", "--id", "p1", "--if", "title=Something else",
                  "title=Renamed")
    assert run.code == 1 and run.stdout == "", run
    assert record_lines(run)[1:] == [
        "gqlc: the --if condition is false for Post with key 'p1'",
        "gqlc: gqlc retried this update after an attempt without an answer, and its own earlier attempt may have "
        "been applied (check with: gqlc get Post --id p1)"], run
    unchanged = blog.at(server, "get", "Post", "--id", "p1")
    assert unchanged.json()["title"] == "A sourdough starter in seven days"


def test_a_retried_delete_of_a_record_that_stays_says_only_that_the_condition_is_false(faulty, blog):
    server = faulty("--fail-every", "2")
    burn(server)
    run = blog.at(server, "--retry-mutations", "delete", "Post", "--id", "p2", "--if", "rating=1")
    assert run.code == 1, run
    assert record_lines(run)[1:] == ["gqlc: the --if condition is false for Post with key 'p2'"], run
