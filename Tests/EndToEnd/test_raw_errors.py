"""`gqlc raw` refuses broken documents and bad input locally: exit 2, a precise message, nothing sent.

A document error prints three lines on stderr: ``gqlc: FILE:LINE:COLUMN: message``, the offending
source line, and a caret under the column. The Star Wars server's ``/last-request`` stays empty,
which proves that nothing reached the network.
"""

from __future__ import annotations

import re

import pytest

# (id, document, the line:column and message, the offending line, the caret line)
BROKEN_DOCUMENTS = [
    ("unterminated-string",
     '{\n  hero(episode: "JEDI) {\n    name\n  }\n}\n',
     "2:17: unterminated string; close it with '\"' before the end of the line",
     '  hero(episode: "JEDI) {',
     "                ^"),
    ("missing-closing-brace",
     "query Hero {\n  hero {\n    name\n  }\n",
     "5:1: unexpected end of file; expected '}' to match the '{' at 1:12",
     "",
     "^"),
    ("unexpected-character",
     "{\n  hero {\n    name %\n  }\n}\n",
     "3:10: unexpected character '%'",
     "    name %",
     "         ^"),
    ("undefined-fragment",
     "query Hero {\n  hero {\n    ...heroFeilds\n  }\n}\n\nfragment heroFields on Character {\n  name\n}\n",
     "3:8: unknown fragment 'heroFeilds'; did you mean 'heroFields'?",
     "    ...heroFeilds",
     "       ^"),
    ("undeclared-variable",
     "query Hero {\n  hero(episode: $episode) {\n    name\n  }\n}\n",
     "2:17: variable '$episode' is not declared by operation 'Hero'; add '$episode: Type' to its variable definitions",
     "  hero(episode: $episode) {",
     "                ^"),
    ("duplicate-operation-name",
     "query Hero { hero { name } }\nquery Hero { hero { id } }\n",
     "2:7: duplicate operation name 'Hero' (first defined at 1:7); give each operation its own name",
     "query Hero { hero { id } }",
     "      ^"),
    ("anonymous-beside-named",
     "query Luke { human(id: \"1000\") { name } }\n{ hero { name } }\n",
     "2:1: an anonymous operation must be the only operation in the document; give it a name, "
     "as in 'query MyOperation { … }'",
     "{ hero { name } }",
     "^"),
    ("unused-variable",
     "query Hero($episode: Episode, $limit: Int) {\n  hero(episode: $episode) { name }\n}\n",
     "1:31: variable '$limit' is declared by operation 'Hero' but never used; remove it",
     "query Hero($episode: Episode, $limit: Int) {",
     "                              ^"),
    ("unused-fragment",
     "{ hero { name } }\nfragment heroFields on Character { name }\n",
     "2:10: fragment 'heroFields' is never used; spread it with '...heroFields' or remove it",
     "fragment heroFields on Character { name }",
     "         ^"),
    ("fragment-cycle",
     "{ hero { ...a } }\nfragment a on Character { ...b }\nfragment b on Character { ...a }\n",
     "3:30: fragment cycle a -> b -> a; a fragment cannot spread itself, directly or through other fragments",
     "fragment b on Character { ...a }",
     "                             ^"),
    ("duplicate-variable",
     "query Hero($episode: Episode, $episode: Episode) { hero(episode: $episode) { name } }\n",
     "1:31: variable '$episode' is declared twice by operation 'Hero'; remove one",
     "query Hero($episode: Episode, $episode: Episode) { hero(episode: $episode) { name } }",
     "                              ^"),
    ("empty-selection-set",
     "query Hero {\n  hero { }\n}\n",
     "2:10: empty selection set; select at least one field",
     "  hero { }",
     "         ^"),
    ("extra-closing-brace",
     "{ hero { name } } }\n",
     "1:19: unexpected '}'; expected query, mutation, subscription, fragment or '{'",
     "{ hero { name } } }",
     "                  ^"),
    ("two-dots",
     "{ hero { ..name } }\n",
     "1:10: unexpected character '.'; did you mean '...'?",
     "{ hero { ..name } }",
     "         ^"),
    ("invalid-number",
     "{ hero { friendsConnection(first: 1.) { totalCount } } }\n",
     "1:37: invalid number '1.'; expected a digit after '.'",
     "{ hero { friendsConnection(first: 1.) { totalCount } } }",
     "                                    ^"),
    ("variable-in-default-value",
     "query Hero($a: Episode, $b: Episode = $a) { hero(episode: $b) { name } }\n",
     "1:39: unexpected variable '$a'; default values and directives on variable definitions must be constants",
     "query Hero($a: Episode, $b: Episode = $a) { hero(episode: $b) { name } }",
     "                                      ^"),
    ("bad-unicode-escape",
     '{ human(id: "\\u10") { name } }\n',
     "1:14: invalid Unicode escape '\\u10'; write it as \\u00E9 or \\u{1F600}",
     '{ human(id: "\\u10") { name } }',
     "             ^"),
    ("unterminated-block-string",
     '{ hero { name } }\n"""a description that never ends\n',
     '2:1: unterminated block string; close it with """',
     '"""a description that never ends',
     "^"),
    ("missing-type-condition",
     "{ hero { ... on { name } } }\n",
     "1:17: unexpected '{'; expected a type name after 'on'",
     "{ hero { ... on { name } } }",
     "                ^"),
    ("only-a-comment",
     "# TODO: write the query\n",
     "2:1: the document is empty; expected a query, mutation, subscription or fragment",
     "",
     "^"),
]


@pytest.mark.parametrize("document, where_and_what, line, caret",
                         [case[1:] for case in BROKEN_DOCUMENTS], ids=[case[0] for case in BROKEN_DOCUMENTS])
def test_a_broken_document_is_refused_with_its_position_and_nothing_is_sent(
        starwars, tmp_path, document, where_and_what, line, caret):
    (tmp_path / "broken.graphql").write_text(document)
    run = starwars("raw", "broken.graphql", cwd=tmp_path)
    assert run.code == 2, run
    assert run.stdout == ""
    assert run.stderr == f"gqlc: broken.graphql:{where_and_what}\n{line}\n{caret}\n"
    assert starwars.server.last_request() is None


def test_the_caret_keeps_tabs_so_that_it_lines_up(starwars, tmp_path):
    (tmp_path / "tabs.graphql").write_text("{\r\n\thero {\r\n\t\tname %\r\n\t}\r\n}\r\n")
    run = starwars("raw", "tabs.graphql", cwd=tmp_path)
    assert run.code == 2, run
    assert run.stderr == "gqlc: tabs.graphql:3:8: unexpected character '%'\n\t\tname %\n\t\t     ^\n"
    assert starwars.server.last_request() is None


def test_columns_count_characters_not_bytes(starwars):
    run = starwars("raw", "--query", '{ human(id: "Åsa 😀") { name } } }')
    assert run.code == 2, run
    assert run.stderr_lines[0] == "gqlc: --query:1:33: unexpected '}'; expected query, mutation, subscription, fragment or '{'"
    assert run.stderr_lines[2] == " " * 32 + "^"


def test_errors_in_a_query_option_are_located_in_it(starwars):
    run = starwars("raw", "--query", "{ hero { name }")
    assert run.code == 2, run
    assert run.stderr == ("gqlc: --query:1:16: unexpected end of file; expected '}' to match the '{' at 1:1\n"
                          "{ hero { name }\n"
                          "               ^\n")
    assert starwars.server.last_request() is None


def test_errors_in_standard_input_are_located_in_it(starwars):
    run = starwars("raw", "-", stdin="query {\n  hero(episode: JEDI, ) { name }\n  $x\n}\n")
    assert run.code == 2, run
    assert run.stderr == ("gqlc: <stdin>:3:3: unexpected '$'; expected a field name, '...' or '}'\n"
                          "  $x\n"
                          "  ^\n")
    assert starwars.server.last_request() is None


def test_a_document_of_fragments_only_is_refused(starwars, tmp_path):
    (tmp_path / "fragments.graphql").write_text("fragment heroName on Character { name }\n")
    run = starwars("raw", "fragments.graphql", cwd=tmp_path)
    assert run.code == 2, run
    assert run.stderr == ("gqlc: fragments.graphql: the document has no operations, only fragments; "
                          "add a query, mutation or subscription\n")
    assert starwars.server.last_request() is None


# Bad input around the document


@pytest.mark.parametrize("args, message", [
    ((), "'raw' needs a document: a FILE, '-' for standard input (or a pipe), or --query TEXT"),
    (("--vars", "-"), "'raw' needs a document: a FILE, '-' for standard input (or a pipe), or --query TEXT"),
    (("doc.graphql", "--query", "{ hero { name } }"), "give the document once: a FILE argument or --query, not both"),
    (("--query", "  "), "option '--query' needs a non-empty GraphQL document"),
    (("-", "--vars", "-"), "standard input can be read once: '-' is given for both the document and --vars"),
    (("missing.graphql",), "missing.graphql: no such file"),
    (("--query", "{ hero { name } }", "--operation-name", "1st"),
     "invalid value '1st' for '--operation-name': expected a GraphQL name such as ListPosts"),
    (("--query", "{ hero { name } }", "--decode-path", "hero..name"),
     "invalid value 'hero..name' for '--decode-path': expected field names joined by dots, e.g. listPosts.items"),
], ids=["no-document", "vars-on-stdin-and-no-document", "file-and-query", "empty-query", "stdin-twice", "missing-file", "bad-operation-name",
        "bad-decode-path"])
def test_bad_arguments_are_usage_errors(starwars, tmp_path, args, message):
    (tmp_path / "doc.graphql").write_text("{ hero { name } }\n")
    run = starwars("raw", *args, cwd=tmp_path, stdin="")
    assert run.code == 2, run
    assert run.stdout == ""
    assert run.stderr.splitlines()[0] == f"gqlc: {message}"
    assert starwars.server.last_request() is None


@pytest.mark.parametrize("vars_text, message", [
    ('["JEDI"]', "--vars: expected a JSON object of variables, found an array"),
    ('{"episode": "JEDI",}',
     "--vars: vars.json: invalid JSON at 1:20: unexpected character '}'; expected a string key in double quotes"),
    ("", "--vars: vars.json: invalid JSON at 1:1: unexpected end of input; expected a value"),
], ids=["not-an-object", "trailing-comma", "empty"])
def test_a_bad_vars_file_is_a_usage_error(starwars, tmp_path, vars_text, message):
    (tmp_path / "vars.json").write_text(vars_text)
    run = starwars("raw", "--query", "query ($episode: Episode) { hero(episode: $episode) { name } }",
                   "--vars", "vars.json", cwd=tmp_path)
    assert run.code == 2, run
    assert run.stderr == f"gqlc: {message}\n"
    assert starwars.server.last_request() is None


def test_a_missing_vars_file_is_a_usage_error(starwars, tmp_path):
    run = starwars("raw", "--query", "{ hero { name } }", "--vars", "nowhere.json", cwd=tmp_path)
    assert run.code == 2, run
    assert run.stderr == "gqlc: --vars: nowhere.json: no such file\n"
    assert starwars.server.last_request() is None


@pytest.mark.parametrize("assignment, message", [
    ("episode", "--var 'episode': expected NAME=VALUE (a string) or NAME:=JSON, e.g. --var id=1000 or --var first:=5"),
    ("=JEDI", "--var '=JEDI': expected NAME=VALUE (a string) or NAME:=JSON, e.g. --var id=1000 or --var first:=5"),
    ("episode:={", "--var 'episode:={': invalid JSON at 1:2: unexpected end of input; expected a string key in double quotes"),
], ids=["no-equals", "no-name", "bad-json"])
def test_a_bad_var_is_a_usage_error(starwars, assignment, message):
    run = starwars("raw", "--query", "query ($episode: Episode) { hero(episode: $episode) { name } }",
                   "--var", assignment)
    assert run.code == 2, run
    assert run.stderr == f"gqlc: {message}\n"
    assert starwars.server.last_request() is None


def test_a_null_for_a_required_variable_counts_as_missing(starwars):
    run = starwars("raw", "--query", "query ($id: ID!) { human(id: $id) { name } }", "--var", "id:=null")
    assert run.code == 2, run
    assert run.stderr == ("gqlc: variable '$id' of type ID! is required by the operation but has no value; "
                          "give it with --var id=VALUE or in --vars\n")
    assert starwars.server.last_request() is None


def test_dry_run_still_checks_the_document(starwars):
    run = starwars("--dry-run", "raw", "--query", "{ hero { name }")
    assert (run.code, run.stdout) == (2, ""), run
    assert run.stderr_lines[0] == "gqlc: --query:1:16: unexpected end of file; expected '}' to match the '{' at 1:1"


# Failures after sending: the same status and message as the model commands give


def test_an_http_error_status_exits_5_as_for_the_model_commands(gqlc, starwars, schema_examples_dir):
    wrong_path = starwars.server.url.replace("/graphql", "/nope")
    raw = gqlc("--endpoint", wrong_path, "raw", "--query", "{ hero { name } }")
    get = gqlc("--endpoint", wrong_path, "--schema", schema_examples_dir / "blog.json", "get", "Post", "--id", "x")
    assert (raw.code, raw.stdout) == (5, ""), raw
    assert raw.stderr == ("gqlc: HTTP 404 Not Found: no endpoint at /nope; POST to /graphql; "
                          "check the endpoint URL\n")
    assert (get.code, get.stderr) == (raw.code, raw.stderr), get


def test_a_network_failure_exits_6_as_for_the_model_commands(gqlc, schema_examples_dir):
    closed = "http://127.0.0.1:1/graphql"
    raw = gqlc("--endpoint", closed, "--retries", "0", "raw", "--query", "{ hero { name } }")
    get = gqlc("--endpoint", closed, "--retries", "0", "--schema", schema_examples_dir / "blog.json",
               "get", "Post", "--id", "x")
    assert (raw.code, raw.stdout) == (6, ""), raw
    assert raw.stderr.startswith("gqlc: network error: "), raw
    # The message names how long the attempt took, which may differ by a millisecond between the runs.
    def untimed(text):
        return re.sub(r"after \d+ ms", "after N ms", text)
    assert (get.code, untimed(get.stderr)) == (raw.code, untimed(raw.stderr)), get
