"""`gqlc mcp`: the Model Context Protocol server, driven by the official MCP Python SDK's client over stdio against
appsync-local.

The client is the reference: it negotiates the protocol, validates each tool's structuredContent against the
outputSchema the server declared, and raises on malformed messages. Records are checked against what the server
itself returns to a direct GraphQL query, not against earlier gqlc output. A raw driver (plain pipes) covers what the
SDK cannot send: a malformed line, an unknown method, an old protocol revision.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from gqlc_runner import GQLC_BIN, gqlc_env, run_gqlc
from harness import REPO_ROOT

BLOG = REPO_ROOT / "schema-examples" / "blog.json"
SEED = REPO_ROOT / "schema-examples" / "blog-seed.json"
CUSTOM = REPO_ROOT / "Tests" / "Fixtures" / "schemas" / "custom-operations.mis.json"
API_KEY = "da2-mcpe2esecretkey0123456789abcdef"
READ_TOOLS = {"list_models", "describe_model", "get_record", "list_records", "count_records"}
WRITE_TOOLS = {"create_record", "update_record", "delete_record", "run_mutation"}
COMMENT_FIELDS = "id postId author content likes createdAt updatedAt"


@pytest.fixture
def blog_with_key(start_appsync):
    """A seeded blog server that requires an API key, so that every request carries a secret to keep out of output."""
    return start_appsync(BLOG, seed=SEED, api_key=API_KEY)


class Transcript:
    """Everything a server sent on stdout (as the client decoded it) and wrote on stderr, for the secrets check."""

    def __init__(self, tmp_path: Path):
        self.stderr_path = tmp_path / f"mcp-stderr-{id(self)}.log"
        self.results: list[str] = []

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text() if self.stderr_path.exists() else ""


def mcp(server, tmp_path, body, *flags, schema=BLOG, env=None, transcript=None):
    """Starts `gqlc mcp FLAGS` for `server` through the SDK's stdio client, initializes, runs `await body(session)`."""
    # The SDK (with pydantic) takes about a CPU-second to import: only the workers that run these tests pay it.
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    transcript = transcript or Transcript(tmp_path)
    params = StdioServerParameters(
        command=str(GQLC_BIN), args=["--schema", str(schema), "--endpoint", server.url, "mcp", *flags],
        env=gqlc_env({"GQLC_API_KEY": API_KEY, **(env or {})}))

    async def main():
        with open(transcript.stderr_path, "a") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    init = await session.initialize()
                    transcript.results.append(init.model_dump_json())
                    original = session.call_tool

                    async def recording_call(*args, **kwargs):
                        result = await original(*args, **kwargs)
                        transcript.results.append(result.model_dump_json())
                        return result
                    session.call_tool = recording_call
                    return await body(session)
    return asyncio.run(main())


def structured(result):
    assert not result.is_error, result
    return result.structured_content


def error_text(result) -> str:
    assert result.is_error, result
    assert result.structured_content is None
    return result.content[0].text


def direct(server, query, variables=None):
    """The server's own answer to a GraphQL query: the reference the tools are checked against."""
    body = server.graphql(query, variables)
    assert "errors" not in body, body
    return body["data"]


def all_comments(server):
    data = direct(server, f"query {{ listComments(limit: 10000) {{ items {{ {COMMENT_FIELDS} }} nextToken }} }}")
    assert data["listComments"]["nextToken"] is None
    return data["listComments"]["items"]


def test_initialize_and_read_only_tool_list(blog_with_key, tmp_path):
    async def body(session):
        tools = (await session.list_tools()).tools
        return session.initialize_result, {tool.name: tool for tool in tools}
    init, tools = mcp(blog_with_key, tmp_path, body)
    assert init.protocol_version == "2025-11-25"
    assert init.server_info.name == "gqlc"
    assert init.capabilities.tools is not None and init.capabilities.resources is not None
    assert set(tools) == READ_TOOLS, "no write tool (and no run_query: blog has no custom queries) without --allow-writes"
    for tool in tools.values():
        assert tool.input_schema["type"] == "object" and tool.output_schema["type"] == "object"
        assert "Cost:" in tool.description
    assert tools["list_records"].input_schema["properties"]["model"]["enum"] == ["Blog", "Comment", "Post"]
    assert "pages through every" in tools["count_records"].description


def test_list_and_describe_models_match_models_output_json(blog_with_key, tmp_path):
    async def body(session):
        return (structured(await session.call_tool("list_models", {})),
                structured(await session.call_tool("describe_model", {"model": "Post"})))
    names, post = mcp(blog_with_key, tmp_path, body)
    assert names == {"models": ["Blog", "Comment", "Post"]}
    printed = run_gqlc(["--schema", BLOG, "models", "Post", "--output", "json"])
    assert post == json.loads(printed.stdout)


def test_get_record_matches_the_server_with_include_and_fields(blog_with_key, tmp_path):
    async def body(session):
        return (structured(await session.call_tool("get_record", {"model": "Post", "key": {"id": "p1"}, "include": ["comments"]})),
                structured(await session.call_tool("get_record", {"model": "Comment", "key": {"id": "c1"}, "fields": ["author"]})),
                structured(await session.call_tool("get_record", {"model": "Post", "key": {"id": "nope"}})))
    post, narrow, missing = mcp(blog_with_key, tmp_path, body)
    expected = direct(blog_with_key, "query { getPost(id: \"p1\") { id title status rating comments { items { id content } } } }")["getPost"]
    assert {k: post["record"][k] for k in ("id", "title", "status", "rating")} == {k: expected[k] for k in ("id", "title", "status", "rating")}
    assert sorted(c["id"] for c in post["record"]["comments"]["items"]) == sorted(c["id"] for c in expected["comments"]["items"])
    assert narrow == {"record": {"id": "c1", "author": "ana", "__typename": "Comment"}} or \
        {k: v for k, v in narrow["record"].items() if k != "__typename"} == {"id": "c1", "author": "ana"}
    assert missing == {"record": None}


def test_list_records_where_filter_index_and_count(blog_with_key, tmp_path):
    async def body(session):
        return (structured(await session.call_tool("list_records", {"model": "Comment", "where": ["post=p1"]})),
                structured(await session.call_tool("list_records", {"model": "Post", "filter": {"rating": {"ge": 4}}})),
                structured(await session.call_tool("list_records", {"model": "Comment", "index": "commentsByPostId",
                                                                     "where": ["postId=p1", "likes>=3"]})),
                structured(await session.call_tool("count_records", {"model": "Comment", "where": ["post=p1"]})),
                structured(await session.call_tool("count_records", {"model": "Comment"})),
                structured(await session.call_tool("list_records", {"model": "Post", "include": ["comments"],
                                                                     "fields": ["title", "comments.content"]})))
    by_post, rated, indexed, counted, total, with_comments = mcp(blog_with_key, tmp_path, body)
    comments = all_comments(blog_with_key)
    on_p1 = sorted(c["id"] for c in comments if c["postId"] == "p1")
    assert sorted(c["id"] for c in by_post["items"]) == on_p1 and by_post["next_token"] is None
    posts = direct(blog_with_key, "query { listPosts { items { id rating } } }")["listPosts"]["items"]
    assert sorted(p["id"] for p in rated["items"]) == sorted(p["id"] for p in posts if (p["rating"] or 0) >= 4)
    assert sorted(c["id"] for c in indexed["items"]) == sorted(c["id"] for c in comments if c["postId"] == "p1" and c["likes"] >= 3)
    assert counted == {"count": len(on_p1)}
    assert total == {"count": len(comments)}
    for post in with_comments["items"]:
        assert set(post) == {"id", "title", "comments", "__typename"}, post
        mine = [c for c in comments if c["postId"] == post["id"]]
        assert sorted(c["content"] for c in post["comments"]["items"]) == sorted(c["content"] for c in mine)
    assert len(with_comments["items"]) == len(posts)


def test_paging_with_the_resume_token_to_the_end(blog_with_key, tmp_path):
    for n in range(130):
        direct(blog_with_key, "mutation($input: CreateCommentInput!) { createComment(input: $input) { id } }",
               {"input": {"id": f"x{n:03}", "postId": "p2", "author": "bot", "content": "filler " * 20, "likes": n}})
    expected = [c["id"] for c in all_comments(blog_with_key)]

    async def body(session):
        pages, token = [], None
        while True:
            arguments = {"model": "Comment", "limit": 40} | ({"next_token": token} if token else {})
            page = structured(await session.call_tool("list_records", arguments))
            pages.append(page)
            token = page["next_token"]
            if token is None:
                return pages
    pages = mcp(blog_with_key, tmp_path, body)
    seen = [item["id"] for page in pages for item in page["items"]]
    assert seen == expected, "in the server's order, none lost or repeated"
    assert [len(page["items"]) for page in pages] == [40, 40, 40, len(expected) - 120]
    # The token is one `gqlc list` resumes from (the server's own tokens carry a fresh nonce each time, so the
    # texts differ): the CLI goes on from the first page's token exactly where the tool's second page began.
    cli = run_gqlc(["--schema", BLOG, "--endpoint", blog_with_key.url, "list", "Comment", "--limit", "40",
                    "--next-token", pages[0]["next_token"], "--output", "ndjson"], env={"GQLC_API_KEY": API_KEY})
    assert [json.loads(line)["id"] for line in cli.stdout.splitlines()] == seen[40:80], cli


def test_a_large_result_is_cut_at_a_record_boundary_and_resumes(blog_with_key, tmp_path):
    expected = all_comments(blog_with_key)

    async def body(session):
        pages, token = [], None
        while True:
            arguments = {"model": "Comment"} | ({"next_token": token} if token else {})
            page = await session.call_tool("list_records", arguments)
            assert json.loads(page.content[1].text) == page.structured_content
            pages.append((structured(page), page.content[0].text))
            token = pages[-1][0]["next_token"]
            if token is None:
                return pages
    pages = mcp(blog_with_key, tmp_path, body, "--max-result-bytes", "600")
    assert len(pages) > 2
    for page, text in pages[:-1]:
        size = sum(len(json.dumps(item, separators=(",", ":"), ensure_ascii=False).encode()) for item in page["items"])
        assert size <= 600 or len(page["items"]) == 1
        assert text.endswith("pass next_token to continue")
    assert [item["id"] for page, _ in pages for item in page["items"]] == [c["id"] for c in expected]


def test_an_invalid_where_is_a_tool_error_with_did_you_mean(blog_with_key, tmp_path):
    async def body(session):
        return [await session.call_tool(name, arguments) for name, arguments in [
            ("list_records", {"model": "Post", "where": ["ratng>3"]}),
            ("count_records", {"model": "Post", "where": ["rating>>3"]}),
            ("get_record", {"model": "Pots", "key": {"id": "p1"}}),
            ("get_record", {"model": "Post", "key": {"idd": "p1"}}),
            ("list_records", {"model": "Post", "limt": 5}),
            ("list_records", {"model": "Post", "limit": 5000}),
            ("list_records", {"model": "Post", "next_token": "gqlc1:garbage"}),
        ]]
    results = mcp(blog_with_key, tmp_path, body)
    texts = [error_text(result) for result in results]
    assert texts[0] == "where 'ratng>3': unknown field 'ratng' on Post; did you mean 'rating'?"
    assert texts[1].startswith("where 'rating>>3': ")
    assert texts[2] == "unknown model 'Pots'; did you mean 'Post'?"
    assert "'idd'" in texts[3] and "did you mean 'id'?" in texts[3]
    assert texts[4] == "list_records has no argument 'limt'; did you mean 'limit'?"
    assert texts[5] == "list_records: 'limit' must be an integer from 1 to 1000, not a number"
    assert texts[6].startswith("next_token: the token starts with 'gqlc1:' but is not one gqlc printed")
    assert all("\n" not in text for text in texts)


def test_writes_are_refused_without_the_flag_and_done_with_it(blog_with_key, tmp_path):
    fields = {"postId": "p1", "author": "mcp", "content": "hello from an assistant", "likes": 1}

    async def refused(session):
        return await session.call_tool("create_record", {"model": "Comment", "fields": fields})
    text = error_text(mcp(blog_with_key, tmp_path, refused))
    assert text.startswith("create_record changes data, and this server is read-only") and "--allow-writes" in text
    assert not [c for c in all_comments(blog_with_key) if c["author"] == "mcp"], "nothing was written"

    async def allowed(session):
        names = {tool.name for tool in (await session.list_tools()).tools}
        created = structured(await session.call_tool("create_record", {"model": "Comment", "fields": fields}))
        key = {"id": created["record"]["id"]}
        updated = structured(await session.call_tool("update_record", {"model": "Comment", "key": key, "fields": {"likes": 7}}))
        missing = await session.call_tool("update_record", {"model": "Comment", "key": {"id": "nope"}, "fields": {"likes": 1}})
        deleted = structured(await session.call_tool("delete_record", {"model": "Comment", "key": key}))
        return names, created, updated, missing, deleted, key
    names, created, updated, missing, deleted, key = mcp(blog_with_key, tmp_path, allowed, "--allow-writes")
    assert names == READ_TOOLS | {"create_record", "update_record", "delete_record"}
    assert {k: created["record"][k] for k in fields} == fields
    assert updated["record"]["likes"] == 7 and deleted["record"]["id"] == key["id"]
    assert error_text(missing) == "no Comment with key id=nope"
    assert direct(blog_with_key, "query($id: ID!) { getComment(id: $id) { id } }", key) == {"getComment": None}


def test_custom_queries_and_mutations(start_appsync, tmp_path):
    server = start_appsync(CUSTOM, api_key=API_KEY)

    async def body(session):
        names = {tool.name for tool in (await session.list_tools()).tools}
        shout = structured(await session.call_tool("run_query", {"name": "shout", "arguments": {"text": "hey there"}}))
        wrong = await session.call_tool("run_query", {"name": "shoutt", "arguments": {"text": "x"}})
        mutation = await session.call_tool("run_mutation", {"name": "likePost", "arguments": {"postId": "p1"}})
        return names, shout, wrong, mutation
    names, shout, wrong, mutation = mcp(server, tmp_path, body, schema=CUSTOM)
    assert "run_query" in names and "run_mutation" not in names
    assert shout == {"result": "hey there"}
    assert "did you mean 'shout'?" in error_text(wrong)
    assert "read-only" in error_text(mutation)


def test_resources(blog_with_key, tmp_path):
    async def body(session):
        listed = (await session.list_resources()).resources
        schema = await session.read_resource("gqlc://schema")
        post = await session.read_resource("gqlc://models/Post")
        return [str(r.uri) for r in listed], schema.contents[0].text, post.contents[0].text
    uris, schema, post = mcp(blog_with_key, tmp_path, body, "--models", "Post,Comment")
    assert uris == ["gqlc://schema", "gqlc://models/Comment", "gqlc://models/Post"]
    whole = json.loads(run_gqlc(["--schema", BLOG, "models", "--output", "json"]).stdout)
    whole["models"] = [m for m in whole["models"] if m["name"] in ("Post", "Comment")]
    assert json.loads(schema) == whole
    assert json.loads(post) == json.loads(run_gqlc(["--schema", BLOG, "models", "Post", "--output", "json"]).stdout)


def test_models_option_narrows_what_is_served(blog_with_key, tmp_path):
    async def body(session):
        return (structured(await session.call_tool("list_models", {})),
                await session.call_tool("get_record", {"model": "Blog", "key": {"id": "b1"}}))
    names, blog = mcp(blog_with_key, tmp_path, body, "--models", "Post")
    assert names == {"models": ["Post"]}
    assert error_text(blog) == "unknown model 'Blog'; this server serves only Post"
    bad = run_gqlc(["--schema", BLOG, "mcp", "--models", "Pots"], stdin="")
    assert (bad.code, bad.stdout, bad.stderr_lines) == (2, "", ["gqlc: --models: unknown model 'Pots'; did you mean 'Post'?"])


# MARK: The raw protocol, line by line


def raw_session(server, lines, *flags, schema=BLOG):
    """Runs `gqlc mcp` with `lines` on stdin (then EOF); returns (replies by line, stderr, exit code)."""
    process = subprocess.run(
        [str(GQLC_BIN), "--schema", str(schema), "--endpoint", server.url, "mcp", *flags],
        input="".join(line + "\n" for line in lines), capture_output=True, text=True, timeout=60,
        env=gqlc_env({"GQLC_API_KEY": API_KEY}))
    return [json.loads(line) for line in process.stdout.splitlines()], process.stderr, process.returncode, process.stdout


INIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
INITIALIZED = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})


def test_malformed_line_then_a_good_request_still_works(blog_with_key):
    replies, stderr, code, _ = raw_session(blog_with_key, [
        INIT, INITIALIZED,
        '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_record"',
        "",
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                    "params": {"name": "get_record", "arguments": {"model": "Post", "key": {"id": "p1"}}}}),
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "prompts/list"}),
        json.dumps({"jsonrpc": "2.0", "id": 5, "method": "ping"}),
        json.dumps({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "drop_table"}}),
        "[1, 2]",
    ])
    assert code == 0 and stderr.startswith("gqlc mcp: serving 3 models on stdio, read-only"), stderr
    assert [reply.get("id") for reply in replies] == [1, None, 3, 4, 5, 6, None], "one reply per request, none for the notification"
    assert replies[0]["result"]["protocolVersion"] == "2025-06-18", "the client's revision, when supported"
    assert replies[1]["error"]["code"] == -32700
    assert replies[2]["result"]["structuredContent"]["record"]["id"] == "p1"
    assert replies[3]["error"]["code"] == -32601
    assert replies[4]["result"] == {}
    assert replies[5]["error"]["code"] == -32602
    assert replies[6]["error"]["code"] == -32600


def test_an_unsupported_revision_gets_the_latest_and_requests_before_initialize_are_refused(blog_with_key):
    old = json.loads(INIT)
    old["params"]["protocolVersion"] = "2024-11-05"
    replies, _, _, _ = raw_session(blog_with_key, [
        json.dumps({"jsonrpc": "2.0", "id": 0, "method": "tools/list"}), json.dumps(old)])
    assert replies[0]["error"]["code"] == -32600
    assert replies[1]["result"]["protocolVersion"] == "2025-11-25"


def test_no_secret_in_any_output(blog_with_key, tmp_path):
    transcript = Transcript(tmp_path)

    async def body(session):
        await session.call_tool("list_records", {"model": "Comment", "limit": 3})
        await session.call_tool("get_record", {"model": "Post", "key": {"id": "p1"}, "include": ["comments"]})
        await session.call_tool("count_records", {"model": "Post"})
        await session.call_tool("create_record", {"model": "Comment", "fields": {"postId": "p1", "content": API_KEY}})
        await session.call_tool("list_records", {"model": "Post", "where": ["ratng>3"]})
    mcp(blog_with_key, tmp_path, body, "--allow-writes", transcript=transcript)
    # A wrong key: the server's refusal, and a verbose trace of every request, must not show the real one.
    mcp(blog_with_key, tmp_path, lambda s: s.call_tool("list_records", {"model": "Post"}), "--verbose", transcript=transcript)
    replies, stderr, _, stdout = raw_session(blog_with_key, [INIT, json.dumps(
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "list_records", "arguments": {"model": "Post"}}})],
        "--verbose")
    assert "x-api-key" in stderr.lower(), "the trace ran"
    everything = "\n".join(transcript.results) + transcript.stderr + stdout + stderr
    assert transcript.results and API_KEY[4:20] not in everything


def test_sigterm_ends_a_server_waiting_for_input(blog_with_key):
    process = subprocess.Popen(
        [str(GQLC_BIN), "--schema", str(BLOG), "--endpoint", blog_with_key.url, "mcp"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=gqlc_env({"GQLC_API_KEY": API_KEY}))
    try:
        process.stdin.write(INIT + "\n")
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 1
        process.terminate()
        assert process.wait(timeout=20) == 0, "stdin is still open: only the signal can end it"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_options_that_do_not_apply_are_refused(blog_with_key):
    for flag in ("--dry-run", "--raw-response"):
        run = run_gqlc(["--schema", BLOG, "--endpoint", blog_with_key.url, "mcp", flag], stdin="")
        assert (run.code, run.stdout) == (2, ""), run
        assert run.stderr_lines == [f"gqlc: option '{flag}' does not apply to mcp: the server answers each tool call as it comes"]


def test_a_write_whose_answer_is_lost_is_reported_as_uncertain_with_its_key(start_appsync, tmp_path):
    # The server carries out every request, then closes the connection without answering.
    database = tmp_path / "blog.sqlite"
    server = start_appsync(BLOG, seed=SEED, api_key=API_KEY, args=("--db", str(database), "--lose-answer-every", "1"))

    async def body(session):
        return (await session.call_tool("create_record", {"model": "Comment", "fields": {"postId": "p1", "content": "lost?"}}),
                await session.call_tool("delete_record", {"model": "Comment", "key": {"id": "c1"}}))
    created, deleted = mcp(server, tmp_path, body, "--allow-writes")
    text = error_text(created)
    assert "the create may have been applied before the connection failed: check with get_record on Comment with key id=" in text
    assert error_text(deleted).endswith("the delete may have been applied before the connection failed: "
                                        "check with get_record on Comment with key id=c1")
    # Both were applied: the same data, served again without the fault.
    server.stop()
    again = start_appsync(BLOG, args=("--db", str(database)))
    created_id = text.rsplit("key id=", 1)[1]
    assert direct(again, "query($id: ID!) { getComment(id: $id) { content } }", {"id": created_id}) == {"getComment": {"content": "lost?"}}
    assert direct(again, "query { getComment(id: \"c1\") { id } }") == {"getComment": None}


def test_env_selects_the_environment_the_assistant_reads(start_appsync, tmp_path):
    dev = start_appsync(BLOG, seed=SEED, api_key=API_KEY)
    prod = start_appsync(BLOG, api_key="da2-mcpprodsecretkey0123456789ab")
    config = tmp_path / "config"
    config.write_text(f"[env dev]\nschema = {BLOG}\nendpoint = {dev.url}\napi_key = {API_KEY}\n\n"
                      f"[env prod]\nschema = {BLOG}\nendpoint = {prod.url}\napi_key = da2-mcpprodsecretkey0123456789ab\n")
    config.chmod(0o600)
    stderr_path = tmp_path / "mcp-env-stderr.log"

    def count_posts(environment):
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client
        params = StdioServerParameters(command=str(GQLC_BIN), args=["mcp", "--env", environment],
                                       env=gqlc_env({"GQLC_CONFIG": str(config)}))

        async def main():
            with open(stderr_path, "a") as errlog:
                async with stdio_client(params, errlog=errlog) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        return structured(await session.call_tool("count_records", {"model": "Post"}))
        return asyncio.run(main())

    assert count_posts("dev") == {"count": 5}
    assert count_posts("prod") == {"count": 0}
    assert API_KEY not in stderr_path.read_text() and "da2-mcpprodsecretkey" not in stderr_path.read_text()
