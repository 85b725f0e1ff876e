"""`gqlc completion bash|zsh`: the script is loaded into a real shell and its completion function is called
with the words a shell would pass, so these tests check what a user gets on Tab, not the script's text.

bash splits `--opt=value` and `name=value` at '=' (COMP_WORDBREAKS); the word lists below do the same.
zsh runs the same function through bashcompinit's `compgen -F`, which leaves prefix matching to zsh, so
the zsh results are filtered here as zsh would.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess

import pytest

from gqlc_runner import GQLC_BIN, gqlc_env

BLOG = "schema-examples/blog.json"
ALL_COMMANDS = ["get", "list", "create", "update", "delete", "models", "raw", "subscribe", "login", "whoami", "logout",
                "completion", "help"]


def words_of(line: list[str]) -> str:
    return " ".join(shlex.quote(word) for word in [str(GQLC_BIN), *line])


def bash_complete(line: list[str], cwd, env=None) -> list[str]:
    """What Tab offers for the last word of `gqlc LINE...` in bash."""
    script = (f"source <({shlex.quote(str(GQLC_BIN))} completion bash) || exit 9\n"
              f"COMP_WORDS=({words_of(line)}); COMP_CWORD={len(line)}\n"
              '_gqlc; printf "%s\\n" "${COMPREPLY[@]}"\n')
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True, text=True,
                            cwd=cwd, env=gqlc_env(env), timeout=30)
    assert result.returncode == 0, result.stderr
    return [word for word in result.stdout.splitlines() if word]


def zsh_complete(line: list[str], cwd, env=None) -> list[str]:
    """What Tab offers for the last word of `gqlc LINE...` in zsh, through bashcompinit."""
    script = (f"autoload -U +X compinit && compinit -u -D\n"
              f"source <({shlex.quote(str(GQLC_BIN))} completion zsh) || exit 9\n"
              f"words=({words_of(line)}); CURRENT={len(line) + 1}\n"
              'COMP_WORDS=("${words[@]}"); COMP_CWORD=$((CURRENT - 1))\n'
              f"compgen -F _gqlc -- {shlex.quote(line[-1])}\n")
    result = subprocess.run(["zsh", "-f", "-c", script], capture_output=True, text=True,
                            cwd=cwd, env=gqlc_env(env), timeout=30)
    assert result.returncode == 0, result.stderr
    return [word for word in result.stdout.splitlines() if word and word.startswith(line[-1])]


@pytest.fixture
def repo_dir(schema_examples_dir):
    return schema_examples_dir.parent


CASES = [
    # (words after gqlc, the last one being completed; what Tab offers)
    ([""], ALL_COMMANDS),
    (["li"], ["list"]),
    (["--schema", BLOG, "get", ""], ["Blog", "Comment", "Post"]),
    (["--schema", "=", BLOG, "list", "C"], ["Comment"]),
    (["list", "--where", "title", "=", "x", "--schema", BLOG, "P"], ["Post"]),
    (["--schema", BLOG, "list", "Post", ""], []),
    (["list", "Post", "--li"], ["--limit"]),
    (["get", "Post", "--li"], []),
    (["get", "Post", "--in"], ["--include"]),
    (["list", "--out"], ["--output"]),
    (["list", "--output", ""], ["json", "ndjson"]),
    (["list", "--output", "=", "nd"], ["ndjson"]),
    (["list", "Comment", "--index", "commentsByPostId", "--sort", ""], ["asc", "desc"]),
    (["get", "Post", "--ia"], ["--iam"]),
    (["raw", "--query", ""], []),
    (["completion", ""], ["bash", "zsh"]),
    (["help", "up"], ["update"]),
    (["--schema", "schema-examples/bl"], ["schema-examples/blog-seed.json", "schema-examples/blog.json"]),
]


@pytest.mark.parametrize("line, offered", CASES, ids=[" ".join(words) or "empty" for words, _ in CASES])
def test_bash_offers(line, offered, repo_dir):
    assert sorted(bash_complete(line, repo_dir)) == sorted(offered)


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed (make test installs it when it can)")
@pytest.mark.parametrize("line, offered", [case for case in CASES if not case[0][-1].startswith("schema-examples/")],
                         ids=[" ".join(words) or "empty" for words, _ in CASES if not words[-1].startswith("schema-")])
def test_zsh_offers(line, offered, repo_dir):
    assert sorted(zsh_complete(line, repo_dir)) == sorted(offered)


def test_models_come_from_the_environment_schema_when_the_line_names_none(repo_dir):
    assert bash_complete(["delete", "B"], repo_dir, env={"GQLC_SCHEMA": BLOG}) == ["Blog"]
    assert bash_complete(["delete", "B"], repo_dir) == []  # no ./amplify_outputs.json: nothing, and no error


def test_raw_completes_document_files(repo_dir):
    assert bash_complete(["raw", "schema-examples/queries/post-with-c"], repo_dir) == [
        "schema-examples/queries/post-with-comments.graphql", "schema-examples/queries/post-with-comments.vars.json"]


def test_the_script_registers_itself_for_gqlc(gqlc):
    script = f"source <({shlex.quote(str(GQLC_BIN))} completion bash) && complete -p gqlc"
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True, text=True,
                            env=gqlc_env(), timeout=30)
    assert (result.returncode, result.stdout.strip()) == (0, "complete -F _gqlc gqlc"), result.stderr


@pytest.mark.parametrize("args, message", [
    (["completion"], "gqlc: 'completion' needs a shell: bash or zsh; usage: gqlc completion bash|zsh\n"),
    (["completion", "fish"], "gqlc: unknown shell 'fish'; expected bash or zsh\n"),
    (["completion", "bsh"], "gqlc: unknown shell 'bsh'; did you mean 'bash'?\n"),
    (["completion", "bash", "zsh"], "gqlc: unexpected argument 'zsh'; usage: gqlc completion bash|zsh\n"),
])
def test_a_missing_or_unknown_shell_is_a_usage_error(gqlc, args, message):
    run = gqlc(*args)
    assert (run.code, run.stdout, run.stderr) == (2, "", message), run


def test_help_shows_how_to_install_it(gqlc):
    run = gqlc("completion", "--help")
    assert run.code == 0 and "source <(gqlc completion bash)" in run.stdout
    assert "completion" in gqlc("help").stdout
