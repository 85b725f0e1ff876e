"""What gqlc refuses before sending (#17), end to end: for each refused input nothing reaches appsync-local
(its recorded request count is unchanged) and the one-line error names the field, the value and a valid form;
every value gqlc accepts for an AWS scalar the server accepts too. The valid values are AppSync's documented
examples (https://docs.aws.amazon.com/appsync/latest/devguide/scalars.html)."""

from __future__ import annotations

import json
import re

import pytest

from gqlc_runner import runner_for
from harness import PROJECT_FIXTURES, REPO_ROOT, start_server

# AppSync's scalar reference examples, and valid variations of them, per field of aws-scalars.mis.json.
ACCEPTED = {
    "day": ["1970-01-01", "1970-01-01Z", "1970-01-01-07:00", "1970-01-01+05:30", "1970-01-01+05:30:15", "2024-02-29"],
    "time": ["12:30", "12:30:24", "12:30:24.500", "12:30:24.123456789", "12:30:24Z", "12:30:24-07:00"],
    "at": ["1970-01-01T12:00:00.000Z", "1930-01-01T16:00:00-07:00", "2025-01-31T09:30Z", "2025-01-31T09:30:00.123+05:30:00"],
    "stamp": ["0", "-1", "1700000000", "9223372036854775807"],
    "email": ["username@example.com", "first.last+tag@mail.example.co.uk"],
    "site": ["https://www.amazon.com/dp/B000NZW3KC/", "mailto:example@example.com", "http://localhost:8080/a?b=//c"],
    "phone": ["+1 206-555-0100", "206-555-0100", "(206) 555 0100"],
    "ip": ["123.12.34.56", "1a2b:3c4b::1234:4567", "123.45.67.89/16", "1a2b:3c4b::1234:4567/64", "::1", "::ffff:192.0.2.1"],
    "count": ["2147483647", "-2147483648"],
    "ratio": ["1.7976931348623157e308", "-0.5e-3"],
}

REFUSED = [
    (["create", "Reading"], "gqlc: create Reading: missing required field 'label' (String!)"),
    (["create", "Reading", "label=x", "day=31/01/2025"],
     "gqlc: 'day=31/01/2025': '31/01/2025' is not a valid AWSDate for 'day'; for example 2025-01-31"),
    (["create", "Reading", "label=x", "time=25:00"], "is not a valid AWSTime for 'time'"),
    (["create", "Reading", "label=x", "at=2025-01-31T09:30:00"],
     "gqlc: 'at=2025-01-31T09:30:00': '2025-01-31T09:30:00' is not a valid AWSDateTime for 'at'; the zone is required: "
     "2025-01-31T09:30:00Z for UTC, or an offset such as 2025-01-31T09:30:00+02:00"),
    (["create", "Reading", "label=x", "at=2025-01-31"], "'2025-01-31' is not a valid AWSDateTime for 'at'; give a time and zone "
     "too, for example 2025-01-31T00:00:00Z (in a filter a date alone stands for the start of that day with <, <=, >, >= and ranges)"),
    (["list", "Reading", "--where", "at=2025-01-31"], "give a time and zone too, for example 2025-01-31T00:00:00Z"),
    (["create", "Reading", "label=x", "email=bob"], "'bob' is not a valid AWSEmail for 'email'; for example someone@example.com"),
    (["create", "Reading", "label=x", "site=www.example.com"], "is not a valid AWSURL for 'site'"),
    (["create", "Reading", "label=x", "phone=call me"], "is not a valid AWSPhone for 'phone'"),
    (["create", "Reading", "label=x", "ip=256.1.1.1"], "is not a valid AWSIPAddress for 'ip'"),
    (["create", "Reading", "label=x", "ip=::1/129"], "is not a valid AWSIPAddress for 'ip'"),
    (["create", "Reading", "label=x", "count=2147483648"], "'2147483648' is out of range for Int (32-bit: -2147483648 to 2147483647)"),
    (["create", "Reading", "label=x", "count:=-2147483649"],
     "gqlc: 'count:=-2147483649': count: '-2147483649' is out of range for Int (32-bit: -2147483648 to 2147483647)"),
    (["create", "Reading", "label=x", "ratio=1e999"], "'1e999' is not a Float"),
    (["create", "Reading", "label=x", "ratio:=1e999"], "gqlc: 'ratio:=1e999': ratio: '1e999' is out of range for Float"),
    (["create", "Reading", "label=x", "stamp=now"],
     "gqlc: 'stamp=now': 'now' is not an AWSTimestamp (whole seconds since 1970-01-01T00:00:00Z, for example 1700000000)"),
    (["create", "Reading", "label=x", "stamp=1.5"], "'1.5' is not an AWSTimestamp"),
    (["create", "Reading", "label=x", 'stamp:="5"'], "stamp: expected an integer (AWSTimestamp), found a string"),
    (["list", "Reading", "--where", "stamp>yesterday"], "gqlc: --where 'stamp>yesterday': 'yesterday' is not an AWSTimestamp"),
    (["create", "Reading", "label=x", "data={oops"], "invalid JSON"),
    (["create", "Reading", "label=x", 'contact:={"site":"nope"}'], "'nope' is not a valid AWSURL for 'contact.site'"),
    (["create", "Reading", "label=x", 'days:=["2025-01-01","someday"]'], "'someday' is not a valid AWSDate for 'days[1]'"),
    (["list", "Reading", "--where", "at>yesterday"],
     "gqlc: --where 'at>yesterday': 'yesterday' is not a valid AWSDateTime for 'at'; relative dates are not supported, give "
     "2025-01-31T09:30:00Z, 2025-01-31T09:30:00.123+02:00, or in a filter a date 2025-01-31 (start of that day, UTC)"),
    (["list", "Reading", "--where", "count=5..1"], "'5..1' on 'count' is an empty range"),
    (["list", "Reading", "--where", "label=b..a"], "'b..a' on 'label' is an empty range"),
    (["update", "Reading", "--id", "r1", "label=y", "--if", "email=nobody"], "gqlc: --if 'email=nobody': 'nobody' is not a valid AWSEmail"),
    (["delete", "Reading", "--id", "r1", "--if", "at<=now"], "relative dates are not supported"),
]


@pytest.fixture(scope="module")
def scalars(project_fixtures_dir):
    schema = project_fixtures_dir / "aws-scalars.mis.json"
    with start_server(schema, record_requests=True) as server:
        yield server, runner_for(schema, server.url)


@pytest.fixture(scope="module")
def blog(schema_examples_dir):
    schema = schema_examples_dir / "blog.json"
    with start_server(schema, seed=schema_examples_dir / "blog-seed.json", record_requests=True) as server:
        yield server, runner_for(schema, server.url)


@pytest.mark.parametrize("args, error", REFUSED, ids=[" ".join(args) for args, _ in REFUSED])
def test_refused_inputs_send_nothing(scalars, args, error):
    server, gqlc = scalars
    before = len(server.requests())
    run = gqlc(*args)
    assert (run.code, run.stdout) == (2, ""), run
    assert len(run.stderr_lines) == 1 and error in run.stderr, run
    assert len(server.requests()) == before


@pytest.mark.parametrize("args, error", [
    (["create", "Comment", "author=ann"], "gqlc: create Comment: missing required field 'content' (String!)"),
    (["list", "Post", "--where", "blog.name=x"],
     "gqlc: --where 'blog.name=x': filters apply to Post's own fields and its foreign keys, not to fields of related "
     "records ('blog.…'); match the related record by key: blog=ID (the foreign key blogId)"),
    (["list", "Post", "--where", "views=5..1"], "'5..1' on 'views' is an empty range"),
])
def test_blog_refusals_send_nothing(blog, args, error):
    server, gqlc = blog
    before = len(server.requests())
    run = gqlc(*args)
    assert (run.code, run.stdout, run.stderr_lines) == (2, "", [error if error.startswith("gqlc:") else run.stderr_lines[0]]), run
    assert error in run.stderr
    assert len(server.requests()) == before


@pytest.fixture(scope="module")
def custom(project_fixtures_dir):
    schema = project_fixtures_dir / "custom-operations.mis.json"
    with start_server(schema, record_requests=True) as server:
        yield server, runner_for(schema, server.url)


@pytest.mark.parametrize("args, error", [
    (["query", "echoArgs", "text=a", "when=yesterday"],
     "gqlc: 'when=yesterday': 'yesterday' is not a valid AWSDateTime for 'when'; relative dates are not supported"),
    (["query", "echoArgs", "text=a", 'when:="2025-01-31"'], "'2025-01-31' is not a valid AWSDateTime for 'when'"),
    (["query", "echoArgs", "text=a", "count=2147483648"], "gqlc: 'count=2147483648': '2147483648' is out of range for Int (32-bit: -2147483648 to 2147483647)"),
    (["query", "echoArgs", "text=a", "ratio:=1e999"], "gqlc: 'ratio:=1e999': ratio: '1e999' is out of range for Float"),
    (["query", "echoArgs", "text=a", "meta={oops"], "gqlc: 'meta={oops': invalid JSON at 1:2"),
])
def test_custom_operation_arguments_are_checked_and_nothing_is_sent(custom, args, error):
    server, gqlc = custom
    before = len(server.requests())
    run = gqlc(*args)
    assert (run.code, run.stdout, len(run.stderr_lines)) == (2, "", 1), run
    assert run.stderr.startswith(error) if error.startswith("gqlc:") else error in run.stderr, run
    assert len(server.requests()) == before


@pytest.mark.parametrize("field, value", [(f, v) for f, values in ACCEPTED.items() for v in values])
def test_every_accepted_value_is_accepted_by_the_server(scalars, field, value):
    _, gqlc = scalars
    run = gqlc("create", "Reading", "label=x", f"{field}={value}")
    assert run.code == 0, run
    stored = run.json()[field]
    assert stored == (json.loads(value) if field in ("stamp", "count", "ratio") else value)


def test_update_needs_only_the_key(scalars):
    _, gqlc = scalars
    created = gqlc("create", "Reading", "label=x").json()
    run = gqlc("update", "Reading", "--id", created["id"], "ip=10.0.0.0/8")
    assert (run.code, run.json()["ip"], run.json()["label"]) == (0, "10.0.0.0/8", "x"), run


def test_json_given_for_an_awsjson_field_is_sent_as_a_string(scalars):
    server, gqlc = scalars
    run = gqlc("create", "Reading", "label=x", 'data:={"a":[1,2]}')
    assert run.code == 0, run
    assert json.loads(server.requests()[-1]["body"])["variables"]["input"]["data"] == '{"a":[1,2]}'
    assert json.loads(run.json()["data"]) == {"a": [1, 2]}


def test_a_date_on_a_datetime_field_is_the_start_of_that_day_in_utc(scalars):
    server, gqlc = scalars
    before = gqlc("create", "Reading", "label=dated", "at=2031-05-01T23:59:59Z").json()
    after = gqlc("create", "Reading", "label=dated", "at=2031-05-02T00:00:00Z").json()
    run = gqlc("--verbose", "list", "Reading", "--where", "label=dated", "--where", "at>=2031-05-02")
    assert run.code == 0, run
    assert [item["id"] for item in run.json()] == [after["id"]] and before["id"] != after["id"]
    assert "* --where 'at>=2031-05-02': 2031-05-02 as 2031-05-02T00:00:00.000Z (start of day, UTC)" in run.stderr_lines
    sent = json.loads(server.requests()[-1]["body"])["variables"]["filter"]
    assert sent == {"and": [{"label": {"eq": "dated"}}, {"at": {"ge": "2031-05-02T00:00:00.000Z"}}]}


def test_a_short_api_key_is_still_redacted_and_warned_about_once(scalars):
    _, gqlc = scalars
    # The key is redacted as a whole token: never printed alone, while a longer word that contains it
    # ("kqzwxy", the filter value) is left as it is. Letters outside hex keep server request ids out of it.
    run = gqlc("--verbose", "--api-key", "kqz", "list", "Reading", "--where", "label=kqzwxy")
    assert run.code == 0, run
    warnings = [line for line in run.stderr_lines if "shorter than 8 characters" in line]
    assert len(warnings) == 1, run
    assert "> x-api-key: ████" in run.stderr_lines, run
    assert "kqz" not in re.findall(r"[A-Za-z0-9]+", run.stderr), run
    assert "kqzwxy" in run.stderr, run


@pytest.fixture(scope="module")
def drifted(project_fixtures_dir, tmp_path_factory):
    """gqlc with a schema older than the server's: there `email` and `count` are plain Strings and `label` optional, so
    gqlc sends what the server refuses, as it would for any rule it cannot know."""
    schema = project_fixtures_dir / "aws-scalars.mis.json"
    old = json.loads(schema.read_text())
    old["models"]["Reading"]["fields"]["email"]["type"] = "String"
    old["models"]["Reading"]["fields"]["label"]["isRequired"] = False
    old["models"]["Reading"]["fields"]["count"]["type"] = "String"
    old_path = tmp_path_factory.mktemp("drift") / "old.mis.json"
    old_path.write_text(json.dumps(old))
    with start_server(schema) as server:
        yield runner_for(old_path, server.url)


@pytest.mark.parametrize("args, expected", [
    (["create", "Reading", "label=x", "email=bob"],
     "gqlc: 'email=bob' (field 'email'): Expected type 'AWSEmail'. Invalid AWSEmail value: \"bob\""),
    (["create", "Reading", "ip=::1"],
     "gqlc: $input (field 'label'): Field 'label' of required type 'String!' was not provided."),
    (["list", "Reading", "--where", "label=x", "--where", "email=bob"], None),
    # $filter and $condition: the server's ModelIntInput refuses text.
    (["list", "Reading", "--where", "count=abc"],
     "gqlc: --where 'count=abc' (field 'count'): Int cannot represent non-integer value: 'abc'"),
    (["list", "Reading", "--filter", '{"count": {"eq": "abc"}}'],
     "gqlc: --filter (field 'count'): Int cannot represent non-integer value: 'abc'"),
    (["delete", "Reading", "--id", "r-none", "--if", "count>abc"],
     "gqlc: --if 'count>abc' (field 'count'): Int cannot represent non-integer value: 'abc'"),
])
def test_server_refusals_of_a_value_name_the_field_and_the_argument(drifted, args, expected):
    run = drifted(*args)
    if expected is None:  # filters are typed String by the transformer: the server takes any text there
        assert run.code == 0, run
        return
    # A listing whose first page was refused prints nothing, not a valid "no records".
    assert (run.code, run.stdout, run.stderr_lines) == (1, "", [expected]), run


def test_decode_json_fields_prints_awsjson_as_json_and_is_off_by_default(scalars):
    _, gqlc = scalars
    created = gqlc("create", "Reading", "label=j", 'data:={"a":[1,{"b":null}]}').json()
    assert created["data"] == '{"a":[1,{"b":null}]}'  # the wire's string, by default
    got = gqlc("--decode-json-fields", "get", "Reading", "--id", created["id"])
    assert (got.code, got.json()["data"]) == (0, {"a": [1, {"b": None}]}), got
    listed = gqlc("--decode-json-fields", "--output", "ndjson", "list", "Reading", "--where", f"id={created['id']}")
    assert [item["data"] for item in listed.ndjson()] == [{"a": [1, {"b": None}]}], listed
    raw = gqlc("--decode-json-fields", "--raw-response", "get", "Reading", "--id", created["id"])
    assert raw.json()["data"]["getReading"]["data"] == '{"a":[1,{"b":null}]}', raw


MODEL_SCHEMAS = [path for path in sorted(PROJECT_FIXTURES.glob("*.mis.json")) + sorted((REPO_ROOT / "schema-examples").glob("*.json"))
                 if "models" in json.loads(path.read_text())]


@pytest.mark.parametrize("schema", MODEL_SCHEMAS, ids=[path.name for path in MODEL_SCHEMAS])
def test_required_fields_are_the_ones_the_server_requires(schema, tmp_path):
    """For every model of every fixture, an empty create: the fields gqlc names as missing (nothing sent) are
    exactly those the server names when a copy of the schema with nothing required lets gqlc send it. Models
    whose key fields or relationships are missing are refused by other checks first, and not compared."""
    loose = json.loads(schema.read_text())
    for model in loose["models"].values():
        for field in model["fields"].values():
            field["isRequired"] = False
    loose_path = tmp_path / "loose.json"
    loose_path.write_text(json.dumps(loose))
    with start_server(schema, record_requests=True) as server:
        strict, lax = runner_for(schema, server.url), runner_for(loose_path, server.url)
        for name in loose["models"]:
            before = len(server.requests())
            ours = strict("create", name)
            if ours.code == 0:  # nothing required: the server agrees
                continue
            assert (ours.code, ours.stdout, len(ours.stderr_lines)) == (2, "", 1), ours
            assert ours.stderr.startswith(f"gqlc: create {name}: missing required field"), ours
            assert len(server.requests()) == before, ours
            if ": give " in ours.stderr:  # a relationship: its foreign keys are named
                continue
            theirs = lax("create", name)
            if theirs.code == 2:  # a custom primary key, refused by the key check
                assert "missing key field" in theirs.stderr, theirs
                continue
            assert theirs.code == 1, theirs
            assert set(re.findall(r"'(\w+)' \(", ours.stderr)) == \
                set(re.findall(r"Field '(\w+)' of required type", theirs.stderr)), (ours, theirs)
