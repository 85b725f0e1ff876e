"""The smallest end-to-end proof: gqlc reads a record from a real server."""


def test_get_prints_the_record_and_exits_zero(blog):
    run = blog("get", "Post", "--id", "p1")
    assert run.code == 0, run
    assert run.json()["title"] == "A sourdough starter in seven days"
    assert run.stderr == ""
