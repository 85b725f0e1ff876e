"""Named environments: `[env NAME]` sections of gqlc's config file, selected by --env or GQLC_ENV.

Precedence is flag > GQLC_* variable > the environment > the schema file > default. What reaches the server is read
from the requests appsync-local records; writes to a protected environment ask (naming it) or need --yes, and a
read-only environment refuses them before anything is sent.
"""

from __future__ import annotations

import os
import stat

import pytest

from gqlc_runner import Terminal, closed_port_url, run_gqlc

KEY = "da2-environment-test-key"
P1 = "A sourdough starter in seven days"


@pytest.fixture
def server(start_appsync, schema_examples_dir):
    return start_appsync(schema_examples_dir / "blog.json", seed=schema_examples_dir / "blog-seed.json", api_key=KEY,
                         record_requests=True)


@pytest.fixture
def config(tmp_path):
    """``config(text)`` writes the config file (0600) and returns the variables that point gqlc at it."""
    path = tmp_path / "gqlc-config"

    def write(text: str, mode: int = 0o600) -> dict[str, str]:
        path.write_text(text)
        os.chmod(path, mode)
        return {"GQLC_CONFIG": str(path)}
    write.path = path
    return write


def dev_section(server, schema_examples_dir, name="dev", extra=""):
    return (f"[env {name}]\nschema = {schema_examples_dir / 'blog.json'}\nendpoint = {server.url}\n"
            f"api_key = {KEY}\n{extra}")


def test_env_flag_supplies_schema_endpoint_and_key(server, schema_examples_dir, config):
    env = config("# mine\n" + dev_section(server, schema_examples_dir))
    run = run_gqlc(["--env", "dev", "get", "Post", "--id", "p1"], env=env)
    assert (run.code, run.json()["title"]) == (0, P1), run
    assert server.headers()["x-api-key"] == KEY


def test_gqlc_env_variable_selects_and_the_flag_wins_over_it(server, schema_examples_dir, config):
    env = config(dev_section(server, schema_examples_dir) + "\n[env broken]\nendpoint = " + closed_port_url() + "\n")
    run = run_gqlc(["get", "Post", "--id", "p1"], env={**env, "GQLC_ENV": "dev"})
    assert run.code == 0, run
    # --env wins over GQLC_ENV.
    run = run_gqlc(["--env", "dev", "--schema", schema_examples_dir / "blog.json", "get", "Post", "--id", "p1"],
                   env={**env, "GQLC_ENV": "broken"})
    assert run.code == 0, run


def test_flags_and_variables_win_over_the_environment(server, schema_examples_dir, config):
    env = config(f"[env dev]\nschema = {schema_examples_dir / 'blog.json'}\nendpoint = {closed_port_url()}\n"
                 f"api_key = da2-wrong-key-from-file\n")
    run = run_gqlc(["--env", "dev", "--endpoint", server.url, "--api-key", KEY, "get", "Post", "--id", "p1"], env=env)
    assert run.code == 0, run
    run = run_gqlc(["--env", "dev", "get", "Post", "--id", "p1"],
                   env={**env, "GQLC_ENDPOINT": server.url, "GQLC_API_KEY": KEY})
    assert run.code == 0, run
    assert server.headers()["x-api-key"] == KEY


def test_headers_and_relative_schema_path(server, schema_examples_dir, config, tmp_path):
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "blog.json").write_text((schema_examples_dir / "blog.json").read_text())
    env = config(f"[env dev]\nschema = schemas/blog.json\nendpoint = {server.url}\napi_key = {KEY}\n"
                 "header = X-Tenant: north\nheader = X-Trace: 1\n")
    run = run_gqlc(["--env", "dev", "-H", "X-Trace: 2", "get", "Post", "--id", "p1"], env=env, cwd="/")
    assert run.code == 0, run
    headers = server.headers()
    assert (headers["x-tenant"], headers["x-trace"]) == ("north", "2")


def test_unknown_environment_suggests_and_lists(config, tmp_path):
    env = config("[env dev]\nendpoint = http://127.0.0.1:9/graphql\n[env prod]\nendpoint = http://127.0.0.1:9/graphql\n")
    run = run_gqlc(["--env", "prd", "list", "Post"], env=env)
    assert run.code == 2
    assert run.stderr == f"gqlc: unknown environment 'prd' (did you mean 'prod'?); {config.path} defines dev, prod\n"
    run = run_gqlc(["list", "Post"], env={**env, "GQLC_ENV": "staging"})
    assert (run.code, run.stderr) == (2, f"gqlc: $GQLC_ENV: unknown environment 'staging'; {config.path} defines dev, prod\n")


def test_missing_config_file_says_how_to_add_one(tmp_path):
    run = run_gqlc(["--env", "dev", "models"], env={"XDG_CONFIG_HOME": str(tmp_path)})
    assert run.code == 2
    assert run.stderr == (f"gqlc: unknown environment 'dev': there is no config file {tmp_path}/gqlc/config; "
                          "add one with gqlc env add dev\n")


@pytest.mark.parametrize("text, line, reason", [
    ("[env dev]\nschma = x.json\n", 2, "unknown setting 'schma'; did you mean 'schema'?"),
    ("# c\nschema = x.json\n", 2, "a setting before the first '[env NAME]' header"),
    ("[profile dev]\n", 1, "expected a section header '[env NAME]'"),
    ("[env dev]\niam = sometimes\n", 2, "iam is 'sometimes'; expected true or false"),
    ("[env dev]\n[env dev]\n", 2, "environment 'dev' is already defined on line 1"),
    ("[env dev]\napi_key da2-secret-value\n", 2, "expected 'key = value', an '[env NAME]' header or a comment"),
])
def test_parse_errors_name_file_and_line(config, text, line, reason):
    env = config(text)
    run = run_gqlc(["--env", "dev", "models"], env=env)
    assert run.code == 2
    assert run.stderr.startswith(f"gqlc: {config.path}:{line}: {reason}"), run
    assert "da2-secret-value" not in run.stderr


def test_a_secret_in_a_readable_file_is_refused(server, schema_examples_dir, config):
    env = config(dev_section(server, schema_examples_dir), mode=0o644)
    run = run_gqlc(["--env", "dev", "get", "Post", "--id", "p1"], env=env)
    assert run.code == 2
    assert run.stderr == (f"gqlc: the config file {config.path} holds secrets (environment 'dev') and can be read by other "
                          f"users (mode 644); fix it with: chmod 600 {config.path}\n")
    assert KEY not in run.stderr
    # Without a secret the same mode is fine.
    env = config(f"[env dev]\nschema = {schema_examples_dir / 'blog.json'}\nendpoint = {server.url}\n", mode=0o644)
    assert run_gqlc(["--env", "dev", "--api-key", KEY, "get", "Post", "--id", "p1"], env=env).code == 0


def test_verbose_names_the_environment_file_and_lines(server, schema_examples_dir, config):
    env = config(dev_section(server, schema_examples_dir))
    run = run_gqlc(["--env", "dev", "-v", "get", "Post", "--id", "p1"], env={**env, "GQLC_ENDPOINT": server.url})
    assert run.code == 0, run
    lines = run.stderr_lines
    assert f"* environment: dev ({config.path}:1, chosen by '--env')" in lines
    assert f"*   schema ({config.path}:2)" in lines
    assert f"*   endpoint ({config.path}:3) overridden by $GQLC_ENDPOINT" in lines
    assert f"*   api_key ({config.path}:4)" in lines
    assert f"* schema: {schema_examples_dir / 'blog.json'} (environment 'dev' ({config.path}:2))" in lines
    assert KEY not in run.stderr


def test_invalid_value_names_the_environment_and_line(config):
    env = config("[env dev]\nauth_mode = pool\n")
    run = run_gqlc(["--env", "dev", "models"], env=env)
    assert run.code == 2
    assert run.stderr.startswith(f"gqlc: invalid value 'pool' for environment 'dev' ({config.path}:2): expected "), run


# MARK: - protected and read_only

def count_posts(server) -> int:
    return len(server.graphql("{ listPosts(limit: 1000) { items { id } } }")["data"]["listPosts"]["items"])


def test_read_only_refuses_writes_before_sending(server, schema_examples_dir, config):
    env = config(dev_section(server, schema_examples_dir, extra="read_only = true\n"))
    before = count_posts(server)
    sent = len(server.requests())
    run = run_gqlc(["--env", "dev", "--yes", "create", "Post", "title=x"], env=env)
    assert run.code == 2
    assert run.stderr == (f"gqlc: environment 'dev' is read-only ({config.path}:5); refusing to create Post records: "
                          "nothing was sent\n")
    raw = run_gqlc(["--env", "dev", "raw", "-"], env=env, stdin='mutation { deletePost(input: {id: "p1"}) { id } }')
    assert raw.code == 2 and "refusing to send a mutation" in raw.stderr
    assert len(server.requests()) == sent  # nothing from gqlc
    assert count_posts(server) == before
    # Reads still work.
    assert run_gqlc(["--env", "dev", "get", "Post", "--id", "p1"], env=env).code == 0


def test_protected_needs_yes_where_nothing_can_ask(server, schema_examples_dir, config):
    env = config(dev_section(server, schema_examples_dir, name="prod", extra="protected = true\n"))
    before = count_posts(server)
    run = run_gqlc(["--env", "prod", "create", "Post", "id=new1", "title=x"], env=env)
    assert run.code == 2
    assert run.stderr == ("gqlc: environment 'prod' is protected; pass --yes to create Post records (standard input is "
                          "not a terminal, so gqlc cannot ask): nothing was sent\n")
    assert count_posts(server) == before
    run = run_gqlc(["--env", "prod", "--yes", "create", "Post", "id=new1", "title=x"], env=env)
    assert run.code == 0, run
    assert count_posts(server) == before + 1
    # --dry-run sends nothing, so it needs no confirmation.
    assert run_gqlc(["--env", "prod", "--dry-run", "delete", "Post", "--id", "new1"], env=env).code == 0


@pytest.mark.parametrize("answer, code, created", [("y", 0, True), ("n", 1, False)])
def test_protected_asks_on_a_terminal_naming_the_environment(server, schema_examples_dir, config, answer, code, created):
    env = config(dev_section(server, schema_examples_dir, name="prod", extra="protected = true\n"))
    terminal = Terminal(["--env", "prod", "update", "Post", "--id", "p1", "title=Asked"], env=env)
    terminal.read_until(b"update Post records in the protected environment 'prod'? [y/N] ")
    terminal.type(answer + "\n")
    assert terminal.exit_code() == code
    title = server.graphql('{ getPost(id: "p1") { title } }')["data"]["getPost"]["title"]
    assert (title == "Asked") == created


# MARK: - gqlc env

def test_env_add_show_list_remove(server, schema_examples_dir, tmp_path):
    variables = {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    path = tmp_path / "xdg" / "gqlc" / "config"
    run = run_gqlc(["env", "add", "dev", "--schema", "blog.json", "--endpoint", server.url, "--api-key", KEY,
                    "-H", "Authorization: secret-token-value-123"], env=variables, cwd=schema_examples_dir)
    assert (run.code, run.stderr) == (0, f"added environment 'dev' to {path}\n"), run
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    run = run_gqlc(["env", "add", "prod", "--endpoint", server.url, "--protected"], env=variables)
    assert run.code == 0, run
    run = run_gqlc(["env", "add", "dev", "--endpoint", server.url], env=variables)
    assert run.code == 2 and f"environment 'dev' is already defined at {path}:1" in run.stderr

    assert run_gqlc(["env", "list"], env=variables).stdout == "dev\nprod (protected)\n"
    listed = run_gqlc(["env", "list", "--output", "json"], env=variables).json()
    assert listed == [{"name": "dev", "protected": False, "readOnly": False},
                      {"name": "prod", "protected": True, "readOnly": False}]
    shown = run_gqlc(["env", "show", "dev"], env=variables)
    assert shown.code == 0
    assert shown.stdout == (f"# {path}:1\n[env dev]\nschema = {schema_examples_dir / 'blog.json'}\nendpoint = {server.url}\n"
                            "api_key = da2-…████\nheader = Authorization: secr…████\n")
    # What env add wrote works.
    run = run_gqlc(["--env", "dev", "get", "Post", "--id", "p1"], env=variables)
    assert run.code == 0, run
    assert server.headers()["authorization"] == "secret-token-value-123"

    assert run_gqlc(["env", "remove", "dev"], env=variables).code == 0
    assert run_gqlc(["env", "list"], env=variables).stdout == "prod (protected)\n"
    assert path.read_text() == f"[env prod]\nendpoint = {server.url}\nprotected = true\n"
    run = run_gqlc(["env", "remove", "dev"], env=variables)
    assert (run.code, run.stderr) == (2, f"gqlc: unknown environment 'dev'; {path} defines prod\n")


def test_env_add_needs_settings_and_checks_them(tmp_path):
    variables = {"XDG_CONFIG_HOME": str(tmp_path)}
    run = run_gqlc(["env", "add", "dev"], env=variables)
    assert (run.code, run.stderr) == (2, "gqlc: env add needs the environment's settings, e.g. --schema FILE or --endpoint URL\n")
    run = run_gqlc(["env", "add", "dev", "--endpoint", "ftp://x"], env=variables)
    assert run.code == 2 and "invalid endpoint 'ftp://x'" in run.stderr
    run = run_gqlc(["env", "add", "a/b", "--endpoint", "http://x/graphql"], env=variables)
    assert run.code == 2 and "may hold only letters" in run.stderr
    assert not (tmp_path / "gqlc" / "config").exists()


def test_env_commands_ignore_a_bad_gqlc_env(tmp_path, config):
    env = config("[env dev]\nendpoint = http://127.0.0.1:9/graphql\n")
    run = run_gqlc(["env", "list"], env={**env, "GQLC_ENV": "nonesuch"})
    assert (run.code, run.stdout) == (0, "dev\n")


def test_completion_offers_environment_names(config, tmp_path):
    env = config("[env dev]\nendpoint = http://127.0.0.1:9/graphql\n[env prod]\nendpoint = http://127.0.0.1:9/graphql\n")
    script = run_gqlc(["completion", "bash"]).stdout
    path = tmp_path / "gqlc.bash"
    path.write_text(script)
    import subprocess
    from gqlc_runner import GQLC_BIN, gqlc_env
    probe = (f"source {path}; COMP_WORDS=({GQLC_BIN} --env p); COMP_CWORD=2; _gqlc; echo \"${{COMPREPLY[@]}}\";"
             f"COMP_WORDS=({GQLC_BIN} env show ''); COMP_CWORD=3; _gqlc; echo \"${{COMPREPLY[@]}}\"")
    out = subprocess.run(["bash", "-c", probe], env=gqlc_env(env), capture_output=True, text=True).stdout
    assert out.splitlines() == ["prod", "dev prod"]
