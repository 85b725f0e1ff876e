"""gqlc diff's text for people and its exit status when a side cannot be read.

Text output puts a summary line per model first, then the differences, in SGR colours (added green, removed red,
changed yellow, as git colours a diff) only when colour is on (`--color always`, or a terminal without NO_COLOR).
A listing that fails ends the diff with the status `gqlc list` gives for the same failure (5 for a refused key,
6 for an endpoint that does not answer, 130 for Ctrl-C), which a script can tell from 8 (the sides differ).
"""

from __future__ import annotations

import json
import os
import signal

import pytest

from gqlc_runner import Terminal, run_gqlc
from signals_support import finish, start, wait_for_request, wait_until_trapping

KEY = "da2-right-key"


@pytest.fixture
def sides(start_appsync, schema_examples_dir, tmp_path):
    """A snapshot of the seeded blog (`--from`) and a server that then changed (`--to`, environment `live`)."""
    schema = schema_examples_dir / "blog.json"
    server = start_appsync(schema, seed=schema_examples_dir / "blog-seed.json", api_key=KEY)
    config = tmp_path / "config"
    config.write_text(f"[env live]\nschema = {schema}\nendpoint = {server.url}\napi_key = {KEY}\n\n"
                      f"[env wrong-key]\nschema = {schema}\nendpoint = {server.url}\napi_key = da2-wrong-key\n")
    os.chmod(config, 0o600)
    env = {"GQLC_CONFIG": str(config)}
    assert run_gqlc(["--env", "live", "snapshot", tmp_path / "monday"], env=env).code == 0
    headers = {"x-api-key": KEY}
    for mutation in ('mutation { updatePost(input: {id: "p1", title: "Renamed"}) { id } }',
                     'mutation { deleteComment(input: {id: "c1"}) { id } }',
                     'mutation { createBlog(input: {id: "b9", name: "New"}) { id } }'):
        assert "errors" not in server.graphql(mutation, headers=headers)
    return tmp_path / "monday", env, server


PLAIN = ("Blog: 1 added, 0 removed, 0 changed\n"
         "Comment: 0 added, 1 removed, 0 changed\n"
         "Post: 0 added, 0 removed, 1 changed\n"
         "\n"
         "+ Blog id=b9\n"
         "- Comment id=c1\n"
         "~ Post id=p1: title\n")


def sgr(code, text):
    return f"\x1b[{code}m{text}\x1b[0m"


COLOURED = (f"{sgr(1, 'Blog')}: {sgr(32, '1 added')}, 0 removed, 0 changed\n"
            f"{sgr(1, 'Comment')}: 0 added, {sgr(31, '1 removed')}, 0 changed\n"
            f"{sgr(1, 'Post')}: 0 added, 0 removed, {sgr(33, '1 changed')}\n"
            "\n"
            f"{sgr(32, '+ Blog id=b9')}\n"
            f"{sgr(31, '- Comment id=c1')}\n"
            f"{sgr(33, '~ Post id=p1: title')}\n")


@pytest.mark.parametrize("flags, extra_env, expected", [
    ((), {}, PLAIN),  # a pipe: no colour
    (("--color", "always"), {}, COLOURED),
    (("--color", "always"), {"NO_COLOR": "1"}, COLOURED),  # the flag wins over NO_COLOR
    (("--no-color",), {}, PLAIN),
    (("--color", "never"), {}, PLAIN),
], ids=["pipe", "always", "always-over-NO_COLOR", "no-color", "never"])
def test_text_puts_the_summary_first_and_colours_only_when_colour_is_on(sides, flags, extra_env, expected):
    monday, env, _ = sides
    run = run_gqlc([*flags, "diff", "--from", monday, "--to", "live"], env={**env, **extra_env})
    assert (run.code, run.stdout, run.stderr) == (8, expected, "")


def on_a_terminal(args, env):
    """gqlc's exit status and everything it wrote to its terminal, read until it closed it."""
    terminal = Terminal(args, env=env)
    terminal.read_until(b"+ Blog id=b9")
    while True:
        try:
            chunk = os.read(terminal.fd, 1024)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        terminal.seen += chunk
    return terminal.exit_code(), terminal.seen.decode()


def test_text_on_a_terminal_is_coloured_unless_no_color_is_set(sides):
    monday, env, _ = sides
    args = ["diff", "Blog", "--from", monday, "--to", "live"]
    assert on_a_terminal(args, env) == (8, f"{sgr(1, 'Blog')}: {sgr(32, '1 added')}, 0 removed, 0 changed\r\n\r\n"
                                           f"{sgr(32, '+ Blog id=b9')}\r\n")
    assert on_a_terminal(args, {**env, "NO_COLOR": "1"}) == (8, "Blog: 1 added, 0 removed, 0 changed\r\n\r\n+ Blog id=b9\r\n")


def test_the_same_sides_print_the_summary_alone(sides):
    monday, env, _ = sides
    run = run_gqlc(["--env", "live", "diff", "Blog", "--from", monday, "--to", monday], env=env)
    assert (run.code, run.stdout, run.stderr) == (0, "Blog: 0 added, 0 removed, 0 changed\n", "")


def test_ndjson_keeps_the_summary_on_standard_error(sides):
    monday, env, _ = sides
    run = run_gqlc(["--output", "ndjson", "diff", "Blog", "Comment", "--from", monday, "--to", "live"], env=env)
    assert run.code == 8
    assert [(line["op"], line["key"]) for line in run.ndjson()] == [("added", {"id": "b9"}), ("removed", {"id": "c1"})]
    assert run.stderr == "Blog: 1 added, 0 removed, 0 changed\nComment: 0 added, 1 removed, 0 changed\n"


# MARK: - could not compare

def test_a_refused_key_exits_as_list_does_not_as_differ(sides):
    monday, env, _ = sides
    listed = run_gqlc(["--env", "wrong-key", "list", "Blog"], env=env)
    assert listed.code == 5, listed
    run = run_gqlc(["diff", "--from", monday, "--to", "wrong-key"], env=env)
    assert (run.code, run.stdout) == (5, ""), run
    assert run.stderr_lines[-1].startswith("gqlc: could not compare Blog (--to wrong-key): listing Blog failed: "), run
    assert "401" in run.stderr_lines[-1]
    # Either side: the --from side's failure is named as such.
    run = run_gqlc(["diff", "--from", "wrong-key", "--to", monday], env=env)
    assert run.code == 5, run
    assert run.stderr_lines[-1].startswith("gqlc: could not compare Blog (--from wrong-key): listing Blog failed: "), run


def test_a_dead_endpoint_exits_as_list_does(sides):
    monday, env, server = sides
    server.stop()
    listed = run_gqlc(["--retries", "0", "--env", "live", "list", "Blog"], env=env)
    assert listed.code == 6, listed
    run = run_gqlc(["--retries", "0", "diff", "--from", monday, "--to", "live"], env=env)
    assert (run.code, run.stdout) == (6, ""), run
    assert run.stderr_lines[-1].startswith("gqlc: could not compare Blog (--to live): listing Blog failed: "), run


def test_a_failure_after_some_models_prints_those_models_first(sides, tmp_path):
    monday, env, _ = sides
    # A snapshot whose Post file is not JSON: Blog and Comment are compared and printed, then Post fails (status 1).
    broken = tmp_path / "broken"
    broken.mkdir()
    for name in ("manifest.json", "Blog.ndjson", "Comment.ndjson"):
        (broken / name).write_bytes((monday / name).read_bytes())
    (broken / "Post.ndjson").write_text("not json\n")
    run = run_gqlc(["diff", "--from", broken, "--to", "live"], env=env)
    assert run.code == 1, run
    assert run.stdout == ("Blog: 1 added, 0 removed, 0 changed\nComment: 0 added, 1 removed, 0 changed\n\n"
                          "+ Blog id=b9\n- Comment id=c1\n")
    assert run.stderr_lines == [f"gqlc: could not compare Post (--from {broken}): a record of Post is not a JSON object (line 1)"]


def test_ctrl_c_while_listing_exits_130_after_printing_the_models_compared(start_appsync, schema_examples_dir, tmp_path):
    """SIGINT once Comment's first page is in the slow server's request log (its second page is then on its way)."""
    schema = schema_examples_dir / "blog.json"
    seed = json.loads((schema_examples_dir / "blog-seed.json").read_text())
    seed["Comment"] += [{"id": f"x{i:04d}", "postId": "p2", "content": f"comment {i}"} for i in range(1500)]  # two pages
    (tmp_path / "seed.json").write_text(json.dumps(seed))
    server = start_appsync(schema, seed=tmp_path / "seed.json", args=("--latency-ms", "1000"), record_requests=True)
    (tmp_path / "config").write_text(f"[env slow]\nschema = {schema}\nendpoint = {server.url}\n")
    env = {"GQLC_CONFIG": str(tmp_path / "config")}
    assert run_gqlc(["--env", "slow", "snapshot", tmp_path / "snap", "Blog", "Comment"], env=env).code == 0
    first_diff_request = len(server.requests())
    process = start(["diff", "Blog", "Comment", "--from", tmp_path / "snap", "--to", "slow"], env=env)
    wait_until_trapping(process)
    wait_for_request(process, server, "listComments", after=first_diff_request)
    process.send_signal(signal.SIGINT)
    code, out, err = finish(process)
    assert (code, out) == (130, "Blog: 0 added, 0 removed, 0 changed\n"), err
    assert err.splitlines() == ["gqlc: could not compare Comment (--to slow): listing Comment failed: interrupted while listing"]


def test_a_model_a_snapshot_did_not_finish_is_said_not_silently_left_out(sides):
    monday, env, _ = sides
    manifest = json.loads((monday / "manifest.json").read_text())
    manifest["models"] = [dict(m, complete=m["name"] != "Comment") for m in manifest["models"] if m["name"] != "Post"]
    (monday / "manifest.json").write_text(json.dumps(manifest))
    run = run_gqlc(["diff", "--from", monday, "--to", "live"], env=env)
    assert (run.code, run.stdout) == (8, "Blog: 1 added, 0 removed, 0 changed\n\n+ Blog id=b9\n"), run
    # Post, which the snapshot never held, is left out without a word; Comment, which it did not finish, is named.
    assert run.stderr_lines == [f"gqlc: note: Comment not compared: the snapshot {monday} (--from) has it incomplete "
                                f"(finish it with gqlc snapshot {monday} --resume)"]
    # Named, either is an error: nothing is compared.
    for model, why in (("Comment", f"has it incomplete (finish it with gqlc snapshot {monday} --resume)"),
                       ("Post", "does not hold it")):
        run = run_gqlc(["diff", "Blog", model, "--from", monday, "--to", "live"], env=env)
        assert (run.code, run.stdout, run.stderr) == (2, "", f"gqlc: {model} cannot be compared: the snapshot {monday} (--from) {why}\n")
