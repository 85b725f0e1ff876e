"""`gqlc raw` end to end against the Star Wars server, a plain GraphQL server that is not AppSync.

Each test gets a fresh server; ``starwars.server.last_request()`` is the body the server last received,
so the tests check what gqlc actually sent (document text, merged variables, operationName) as well as
what it printed and its exit status. The example documents live in schema-examples/queries/, which
docs/custom-operations-and-raw.md quotes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
QUERIES = REPO_ROOT / "schema-examples" / "queries"
GRAPHQL_ORG = REPO_ROOT / "DevServers" / "StarWars" / "queries"

R2_SUMMARY = {"name": "R2-D2", "primaryFunction": "Astromech",
              "friends": [{"name": "Luke Skywalker"}, {"name": "Han Solo"}, {"name": "Leia Organa"}]}
LUKE_SUMMARY = {"name": "Luke Skywalker", "homePlanet": "Tatooine",
                "friends": [{"name": "Han Solo"}, {"name": "Leia Organa"}, {"name": "C-3PO"}, {"name": "R2-D2"}]}


def text(name: str) -> str:
    return (QUERIES / name).read_text()


def compact(value) -> str:
    """What gqlc prints for ``value`` when stdout is not a terminal: compact JSON and a newline."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"


# Where the document comes from


def test_a_file_with_a_vars_file_is_sent_as_written(starwars):
    run = starwars("raw", QUERIES / "create-review.graphql", "--vars", QUERIES / "create-review.vars.json")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.stdout == compact({"createReview": {"episode": "JEDI", "stars": 4, "commentary": "Ewoks!"}})
    # One operation and no --operation-name: no operationName in the body.
    assert starwars.server.last_request() == {
        "query": text("create-review.graphql"),
        "variables": {"episode": "JEDI", "review": {"stars": 4, "commentary": "Ewoks!"}},
    }


def test_the_document_can_come_from_standard_input(starwars):
    document = text("hero-fragments.graphql")
    run = starwars("raw", "-", stdin=document)
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json() == {"empire": LUKE_SUMMARY, "jedi": R2_SUMMARY}
    assert starwars.server.last_request() == {"query": document, "variables": {}}


def test_the_document_can_be_given_inline_with_query(starwars):
    run = starwars("raw", "--query", '{ droid(id: "2000") { name primaryFunction } }')
    assert (run.code, run.stderr) == (0, ""), run
    assert run.stdout == compact({"droid": {"name": "C-3PO", "primaryFunction": "Protocol"}})
    assert starwars.server.last_request() == {"query": '{ droid(id: "2000") { name primaryFunction } }', "variables": {}}


# Variables


def test_variables_can_come_from_standard_input(starwars):
    run = starwars("raw", QUERIES / "create-review.graphql", "--vars", "-",
                   stdin='{"episode": "NEWHOPE", "review": {"stars": 5}}')
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json() == {"createReview": {"episode": "NEWHOPE", "stars": 5, "commentary": None}}
    assert starwars.server.last_request()["variables"] == {"episode": "NEWHOPE", "review": {"stars": 5}}


def test_var_sends_a_string_and_colon_equals_sends_json(starwars):
    document = ("query Friends($id: ID!, $first: Int) {\n"
                "  human(id: $id) { name friendsConnection(first: $first) { totalCount friends { name } } }\n}")
    run = starwars("raw", "--query", document, "--var", "id=1000", "--var", "first:=2")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json() == {"human": {"name": "Luke Skywalker", "friendsConnection": {
        "totalCount": 4, "friends": [{"name": "Han Solo"}, {"name": "Leia Organa"}]}}}
    sent = starwars.server.last_request()["variables"]
    assert sent == {"id": "1000", "first": 2}
    assert isinstance(sent["id"], str) and isinstance(sent["first"], int)


def test_the_vars_file_comes_first_and_each_var_overrides_it_in_order(starwars):
    run = starwars("raw", QUERIES / "create-review.graphql", "--vars", QUERIES / "create-review.vars.json",
                   "--var", "episode=NEWHOPE", "--var", 'review:={"stars": 2, "commentary": "too much sand"}',
                   "--var", "episode=EMPIRE")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json() == {"createReview": {"episode": "EMPIRE", "stars": 2, "commentary": "too much sand"}}
    sent = starwars.server.last_request()["variables"]
    assert sent == {"episode": "EMPIRE", "review": {"stars": 2, "commentary": "too much sand"}}
    assert list(sent) == ["episode", "review"], "a replaced variable keeps its place"


def test_a_left_out_variable_takes_its_default_on_the_server(starwars):
    run = starwars("raw", QUERIES / "hero-for-episode.graphql")
    assert (run.code, run.stderr) == (0, ""), run
    # The default, EMPIRE, makes Luke the hero; with no episode at all the server would answer R2-D2.
    assert run.json() == {"hero": {"name": "Luke Skywalker", "appearsIn": ["NEWHOPE", "EMPIRE", "JEDI"]}}
    assert starwars.server.last_request() == {"query": text("hero-for-episode.graphql"), "variables": {}}

    run = starwars("raw", QUERIES / "hero-for-episode.graphql", "--var", "episode=JEDI")
    assert run.json() == {"hero": {"name": "R2-D2", "appearsIn": ["NEWHOPE", "EMPIRE", "JEDI"]}}


def test_a_missing_required_variable_is_caught_before_sending(starwars):
    run = starwars("raw", QUERIES / "characters.graphql", "--operation-name", "HumanById")
    assert run.code == 2, run
    assert run.stdout == ""
    assert run.stderr == ("gqlc: variable '$id' of type ID! is required by operation 'HumanById' but has no value; "
                          "give it with --var id=VALUE or in --vars\n")
    assert starwars.server.last_request() is None


def test_a_variable_the_operation_does_not_declare_is_sent_with_a_warning(starwars):
    # GraphQL servers ignore variables an operation does not declare (the reference server here does too).
    run = starwars("raw", QUERIES / "hero-for-episode.graphql", "--var", "epsiode=JEDI")
    assert run.code == 0, run
    assert run.stderr == ("gqlc: warning: variable 'epsiode' is not declared by operation 'HeroForEpisode'; "
                          "did you mean 'episode'?; it is sent, and the server ignores it\n")
    assert starwars.server.last_request()["variables"] == {"epsiode": "JEDI"}


# Documents: aliases, fragments, mutations, several operations


def test_aliases_named_fragments_and_inline_fragments(starwars):
    run = starwars("raw", QUERIES / "hero-fragments.graphql")
    assert (run.code, run.stderr) == (0, ""), run
    # Luke is a Human (homePlanet, no primaryFunction), R2-D2 a Droid (the other way round).
    assert run.stdout == compact({"empire": LUKE_SUMMARY, "jedi": R2_SUMMARY})


def test_a_mutation_is_sent_and_applied(starwars):
    # The example of docs/custom-operations-and-raw.md: the file says JEDI, the --var after it wins.
    run = starwars("raw", QUERIES / "create-review.graphql", "--vars", QUERIES / "create-review.vars.json",
                   "--var", "episode=EMPIRE")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json() == {"createReview": {"episode": "EMPIRE", "stars": 4, "commentary": "Ewoks!"}}
    stored = starwars("raw", "--query", "{ empire: reviews(episode: EMPIRE) { stars commentary } "
                                        "jedi: reviews(episode: JEDI) { stars } }")
    assert stored.json() == {"empire": [{"stars": 4, "commentary": "Ewoks!"}], "jedi": []}


def test_operation_name_picks_one_of_several_operations_and_is_sent(starwars):
    run = starwars("raw", QUERIES / "characters.graphql", "--operation-name", "DroidById", "--var", "id=2001")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json() == {"droid": {"name": "R2-D2", "primaryFunction": "Astromech"}}
    # The whole document goes out, and the server runs the named operation.
    assert starwars.server.last_request() == {
        "query": text("characters.graphql"), "variables": {"id": "2001"}, "operationName": "DroidById"}


def test_operation_name_is_sent_for_a_single_named_operation_too(starwars):
    run = starwars("raw", QUERIES / "hero-for-episode.graphql", "--operation-name", "HeroForEpisode")
    assert run.code == 0, run
    assert starwars.server.last_request()["operationName"] == "HeroForEpisode"


def test_several_operations_without_operation_name_are_refused_with_their_names(starwars):
    path = QUERIES / "characters.graphql"
    run = starwars("raw", path)
    assert run.code == 2, run
    assert run.stdout == ""
    assert run.stderr == (f"gqlc: {path}: the document has 3 operations (HumanById, DroidById, Starships); "
                          "choose one with --operation-name\n")
    assert starwars.server.last_request() is None


def test_an_unknown_operation_name_is_refused_with_a_suggestion(starwars):
    path = QUERIES / "characters.graphql"
    run = starwars("raw", path, "--operation-name", "DroidByID", "--var", "id=2001")
    assert run.code == 2, run
    assert run.stderr == f"gqlc: {path}: unknown operation 'DroidByID'; did you mean 'DroidById'?\n"
    run = starwars("raw", path, "--operation-name", "Planets")
    assert run.code == 2, run
    assert run.stderr == (f"gqlc: {path}: unknown operation 'Planets'; "
                          "the document has HumanById, DroidById, Starships\n")
    assert starwars.server.last_request() is None


def test_one_variables_file_serves_every_operation_of_a_document(starwars, tmp_path):
    # $id belongs to HumanById and DroidById, not to Starships: Starships runs, with a warning.
    (tmp_path / "vars.json").write_text('{"id": "1000"}')
    for name in ("HumanById", "Starships"):
        run = starwars("raw", QUERIES / "characters.graphql", "--operation-name", name, "--vars", tmp_path / "vars.json")
        assert run.code == 0, run
    assert run.stderr == ("gqlc: warning: variable 'id' is not declared by operation 'Starships'; "
                          "it is sent, and the server ignores it\n")
    assert set(run.json()) == {"falcon", "xwing"}


# What is printed: data, a part of it, or the envelope


def test_several_root_fields_print_the_whole_data_object(starwars):
    run = starwars("raw", QUERIES / "characters.graphql", "--operation-name", "Starships")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.stdout == compact({"falcon": {"name": "Millennium Falcon", "length": 34.37},
                                  "xwing": {"name": "X-Wing", "length": 12.5}})


def test_decode_path_prints_only_that_part_of_data(starwars):
    run = starwars("raw", QUERIES / "hero-fragments.graphql", "--decode-path", "jedi.friends")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.stdout == compact(R2_SUMMARY["friends"])
    run = starwars("raw", QUERIES / "characters.graphql", "--operation-name", "HumanById", "--var", "id=1003",
                   "--decode-path", "human.homePlanet")
    assert (run.code, run.stdout, run.stderr) == (0, '"Alderaan"\n', ""), run


def test_decode_path_reaches_into_fragments(starwars):
    # homePlanet is selected only inside '... on Human' within the named fragment.
    run = starwars("raw", QUERIES / "hero-fragments.graphql", "--decode-path", "empire.homePlanet")
    assert (run.code, run.stdout, run.stderr) == (0, '"Tatooine"\n', ""), run


@pytest.mark.parametrize("document", [
    "query { ...heroName } fragment heroName on Query { hero { name } }",
    "query { ... on Query { hero { name } } }",
], ids=["spread", "inline"])
def test_decode_path_may_start_at_a_root_field_selected_through_a_fragment(starwars, document):
    run = starwars("raw", "--query", document, "--decode-path", "hero.name")
    assert (run.code, run.stdout, run.stderr) == (0, '"R2-D2"\n', ""), run


def test_decode_path_to_a_null_field_prints_null(starwars):
    run = starwars("raw", "--query", '{ human(id: "9999") { name } }', "--decode-path", "human")
    assert (run.code, run.stdout, run.stderr) == (0, "null\n", ""), run


def test_decode_path_with_an_unknown_root_field_is_refused_before_sending(starwars):
    run = starwars("raw", QUERIES / "hero-fragments.graphql", "--decode-path", "jdi.name")
    assert run.code == 2, run
    assert run.stdout == ""
    assert run.stderr == "gqlc: --decode-path 'jdi.name': the operation has no root field 'jdi'; did you mean 'jedi'?\n"
    assert starwars.server.last_request() is None


def test_decode_path_with_a_field_the_document_does_not_select_is_refused_before_sending(starwars):
    run = starwars("raw", QUERIES / "hero-fragments.graphql", "--decode-path", "jedi.frends.name")
    assert run.code == 2, run
    assert run.stderr == ("gqlc: --decode-path 'jedi.frends.name': the document selects no field 'frends' "
                          "in 'jedi'; did you mean 'friends'?\n")
    run = starwars("raw", QUERIES / "hero-fragments.graphql", "--decode-path", "jedi.friends.nme")
    assert run.code == 2, run
    assert run.stderr == ("gqlc: --decode-path 'jedi.friends.nme': the document selects no field 'nme' "
                          "in 'jedi.friends'; did you mean 'name'?\n")
    assert starwars.server.last_request() is None


def test_decode_path_missing_from_the_response_is_an_error_with_status_1(starwars):
    # The document selects human.name, but there is no such human: data.human is null, as Amplify's
    # decodePath would find it; the request was fine, so this is not an HTTP or protocol failure (5).
    run = starwars("raw", "--query", '{ human(id: "9999") { name } }', "--decode-path", "human.name")
    assert run.code == 1, run
    assert run.stdout == ""
    assert run.stderr == "gqlc: --decode-path 'human.name': expected an object at data.human but found null\n"
    assert starwars.server.last_request() is not None

    # A field selected only on another type: hero is a Droid, so it has no homePlanet.
    run = starwars("raw", QUERIES / "hero-fragments.graphql", "--decode-path", "jedi.homePlanet")
    assert run.code == 1, run
    assert run.stderr == "gqlc: --decode-path 'jedi.homePlanet': the response has no 'homePlanet' in data.jedi\n"


def test_raw_response_prints_the_whole_envelope(starwars):
    run = starwars("--raw-response", "raw", "--query", '{ hero { name } }')
    assert (run.code, run.stderr) == (0, ""), run
    assert run.stdout == compact({"data": {"hero": {"name": "R2-D2"}}})


def test_raw_response_with_decode_path_prints_the_envelope_and_the_path_decides_the_status(starwars):
    # --raw-response chooses what is printed (the envelope, as received); --decode-path is still checked
    # before sending and decides the exit status, as the model commands' own decode paths do.
    run = starwars("--raw-response", "raw", QUERIES / "hero-fragments.graphql", "--decode-path", "jedi.name")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json() == {"data": {"empire": LUKE_SUMMARY, "jedi": R2_SUMMARY}}

    run = starwars("--raw-response", "raw", QUERIES / "hero-fragments.graphql", "--decode-path", "jedi.nam")
    assert run.code == 2, run
    assert run.stdout == ""

    run = starwars("--raw-response", "raw", "--query", '{ human(id: "9999") { name } }', "--decode-path", "human.name")
    assert run.code == 1, run  # the envelope as received, then why the path is not in it
    assert run.stdout == compact({"data": {"human": None}})
    assert run.stderr == "gqlc: --decode-path 'human.name': expected an object at data.human but found null\n"

    partial = '{ hero { name } character(id: "9999") { name } }'
    run = starwars("--raw-response", "raw", "--query", partial, "--decode-path", "character")
    assert run.code == 1, run  # nothing at the path: the errors are all there is
    assert run.json()["data"] == {"hero": {"name": "R2-D2"}, "character": None}
    assert run.stderr == "gqlc: no character has id '9999' (path: character)\n"

    run = starwars("--raw-response", "raw", "--query", partial, "--decode-path", "hero")
    assert run.code == 3, run  # data at the path, and errors beside it
    assert run.stderr == "gqlc: no character has id '9999' (path: character)\n"


# Errors from the server


def test_partial_data_prints_data_and_errors_with_status_3(starwars):
    run = starwars("raw", "--query", '{ hero { name } character(id: "9999") { name } }')
    assert run.code == 3, run
    assert run.stdout == compact({"hero": {"name": "R2-D2"}, "character": None})
    assert run.stderr == "gqlc: no character has id '9999' (path: character)\n"


def test_raw_response_with_partial_data_prints_the_errors_in_the_envelope_too(starwars):
    run = starwars("--raw-response", "raw", "--query", '{ hero { name } character(id: "9999") { name } }')
    assert run.code == 3, run
    envelope = run.json()
    assert envelope["data"] == {"hero": {"name": "R2-D2"}, "character": None}
    assert envelope["errors"] == [{"message": "no character has id '9999'", "locations": [{"line": 1, "column": 17}],
                                   "path": ["character"]}]
    assert run.stderr == "gqlc: no character has id '9999' (path: character)\n"


def test_graphql_errors_and_no_data_exit_1(starwars):
    run = starwars("raw", "--query", '{ character(id: "9999") { name } }')
    assert (run.code, run.stdout) == (1, ""), run
    assert run.stderr == "gqlc: no character has id '9999' (path: character)\n"


def test_a_document_the_server_rejects_exits_1_with_its_message(starwars):
    # Valid syntax, but the schema has no such field: only the server can know.
    run = starwars("raw", "--query", "{ hero { nmae } }")
    assert (run.code, run.stdout) == (1, ""), run
    assert run.stderr == "gqlc: Cannot query field 'nmae' on type 'Character'. Did you mean 'name'? (at 1:10)\n"


# Global options


def test_dry_run_prints_the_body_and_sends_nothing(starwars):
    run = starwars("--dry-run", "raw", QUERIES / "characters.graphql", "--operation-name", "HumanById",
                   "--var", "id=1000")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.json() == {"query": text("characters.graphql"), "variables": {"id": "1000"},
                          "operationName": "HumanById"}
    assert starwars.server.last_request() is None


def test_verbose_shows_the_document_and_variables_on_stderr(starwars):
    run = starwars("--verbose", "raw", QUERIES / "hero-for-episode.graphql", "--var", "episode=JEDI")
    assert run.code == 0, run
    assert run.json() == {"hero": {"name": "R2-D2", "appearsIn": ["NEWHOPE", "EMPIRE", "JEDI"]}}
    lines = run.stderr_lines
    assert lines[0] == "* operation:"
    document_lines = text("hero-for-episode.graphql").splitlines()
    assert lines[1:1 + len(document_lines)] == ["*   " + line if line else "*" for line in document_lines]
    assert '* variables: {"episode":"JEDI"}' in lines
    assert f"> POST {starwars.server.url}" in lines


def test_global_options_may_follow_the_command(gqlc, starwars):
    run = gqlc("raw", "--query", "{ hero { name } }", "--endpoint", starwars.server.url, "--pretty")
    assert (run.code, run.stderr) == (0, ""), run
    assert run.stdout == '{\n  "hero": {\n    "name": "R2-D2"\n  }\n}\n'


def test_the_endpoint_from_the_environment_and_extra_headers_apply(gqlc, starwars):
    run = gqlc("-H", "X-Trace: raw-1", "--verbose", "raw", "--query", "{ hero { name } }",
               env={"GQLC_ENDPOINT": starwars.server.url})
    assert run.code == 0, run
    assert run.json() == {"hero": {"name": "R2-D2"}}
    assert f"> POST {starwars.server.url}" in run.stderr_lines
    # The header is sent; its value is not shown, as any custom header's may be a secret.
    assert any(line.startswith("> X-Trace: ") for line in run.stderr_lines), run.stderr
    assert "raw-1" not in run.stderr


def test_a_subscription_goes_to_the_realtime_endpoint_which_this_server_lacks(starwars):
    # Not an AppSync host: the real-time endpoint is the GraphQL URL + /realtime, which this server does not serve.
    run = starwars("raw", "--query", "subscription OnReview { reviews(episode: JEDI) { stars } }")
    assert run.code == 5, run
    assert run.stderr.startswith("gqlc: the server refused the WebSocket upgrade with HTTP 404 Not Found: "), run
    assert run.stdout == ""
    assert starwars.server.last_request() is None


# The graphql.org examples the Star Wars server was built around


@pytest.mark.parametrize("path", sorted(GRAPHQL_ORG.glob("*.graphql")), ids=lambda path: path.stem)
def test_every_graphql_org_example_runs_through_raw(starwars, path):
    variables = path.with_suffix(".variables.json")
    args = ["--vars", variables] if variables.exists() else []
    run = starwars("raw", path, *args)
    assert (run.code, run.stderr) == (0, ""), run
    data = run.json()
    assert data and all(value is not None for value in data.values())
    sent = starwars.server.last_request()
    assert sent["query"] == path.read_text()
    assert sent["variables"] == (json.loads(variables.read_text()) if variables.exists() else {})
