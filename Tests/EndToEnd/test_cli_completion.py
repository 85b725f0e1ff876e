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
CUSTOM = "Tests/Fixtures/schemas/custom-operations.mis.json"
ALL_COMMANDS = ["get", "list", "create", "update", "delete", "sync", "query", "mutate", "models", "raw", "subscribe", "events", "mcp", "schema",
                "login", "whoami", "logout", "env", "snapshot", "restore", "copy", "diff", "completion", "version", "help"]


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
    (["schema", ""], ["pull", "print"]),
    (["--schema", BLOG, "get", ""], ["Blog", "Comment", "Post"]),
    (["--schema", "=", BLOG, "list", "C"], ["Comment"]),
    (["list", "--where", "title", "=", "x", "--schema", BLOG, "P"], ["Post"]),
    (["--schema", BLOG, "list", "Post", ""], []),
    (["list", "Post", "--li"], ["--limit"]),
    (["get", "Post", "--li"], []),
    (["get", "Post", "--in"], ["--include", "--include-deleted"]),
    (["list", "--out"], ["--output"]),
    (["list", "--output", ""], ["json", "ndjson", "table", "tsv", "raw"]),
    (["list", "--output", "=", "nd"], ["ndjson"]),
    (["list", "--color", ""], ["auto", "always", "never"]),
    # Names from the model on the line.
    (["--schema", BLOG, "create", "Post", "ti"], ["title="]),
    (["--schema", BLOG, "create", "Comment", "p"], ["postId=", "post="]),
    (["--schema", BLOG, "update", "Comment", "--id", "c1", "c"], ["content="]),  # no createdAt: read-only
    (["--schema", BLOG, "update", "Post", "i"], []),  # the key picks the record; it is not a field value
    (["--schema", BLOG, "create", "Post", "title", "=", ""], []),  # a value, not a field
    (["--schema", BLOG, "list", "Post", "--where", "ra"], ["rating"]),
    (["--schema", BLOG, "delete", "Post", "--id", "p1", "--if", "sta"], ["status"]),
    (["--schema", BLOG, "get", "Post", "--id", "p1", "--fields", "title,bl"],
     ["title,blog", "title,blogId", "title,blog.id", "title,blog.name", "title,blog.description",
      "title,blog.createdAt", "title,blog.updatedAt"]),
    (["--schema", BLOG, "list", "Post", "--fields", "comments.items.a"], ["comments.items.author"]),
    (["--schema", BLOG, "list", "Post", "--include", "c"], ["comments", "comments.post"]),
    (["--schema", BLOG, "list", "Comment", "--index", ""], ["commentsByPostId"]),
    (["--schema", BLOG, "list", "Nope", "--where", ""], []),
    (["list", "Comment", "--index", "commentsByPostId", "--sort", ""], ["asc", "desc"]),
    (["get", "Post", "--ia"], ["--iam"]),
    (["raw", "--query", ""], []),
    (["completion", ""], ["bash", "zsh", "fish"]),
    (["help", "up"], ["update"]),
    # Custom operations: names from the schema's `models` listing, then their arguments as NAME=
    (["--schema", CUSTOM, "query", ""], ["echoArgs", "shout", "tagsOf", "featuredPost", "postStats", "statuses"]),
    (["--schema", CUSTOM, "mutate", "li"], ["likePost"]),
    (["--schema", CUSTOM, "mutate", "likePost", ""], ["postId=", "times="]),
    (["--schema", CUSTOM, "query", "echoArgs", "text", "=", "a", "co"], ["count="]),
    (["--schema", CUSTOM, "query", "shout", "--in"], ["--input", "--include"]),
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
    (["completion"], "gqlc: 'completion' needs a shell: bash, zsh or fish; usage: gqlc completion bash|zsh|fish\n"),
    (["completion", "tcsh"], "gqlc: unknown shell 'tcsh'; expected bash, zsh or fish\n"),
    (["completion", "bsh"], "gqlc: unknown shell 'bsh'; did you mean 'bash'?\n"),
    (["completion", "bash", "zsh"], "gqlc: unexpected argument 'zsh'; usage: gqlc completion bash|zsh|fish\n"),
])
def test_a_missing_or_unknown_shell_is_a_usage_error(gqlc, args, message):
    run = gqlc(*args)
    assert (run.code, run.stdout, run.stderr) == (2, "", message), run


def test_help_shows_how_to_install_it(gqlc):
    run = gqlc("completion", "--help")
    assert run.code == 0 and "source <(gqlc completion bash)" in run.stdout
    assert "completion" in gqlc("help").stdout


def fish_complete(line: str, cwd, env=None) -> list[str]:
    """What fish's own completion engine offers for `LINE` (the script loaded as fish loads it)."""
    script = f"{shlex.quote(str(GQLC_BIN))} completion fish | source; or exit 9\ncomplete -C {shlex.quote(line)}\n"
    path = f"{GQLC_BIN.parent}:{gqlc_env(env).get('PATH', '')}"
    result = subprocess.run(["fish", "--no-config", "-c", script], capture_output=True, text=True, cwd=cwd,
                            env={**gqlc_env(env), "PATH": path}, timeout=30)
    assert result.returncode == 0, result.stderr
    return [entry.split("\t")[0] for entry in result.stdout.splitlines() if entry]


FISH_CASES = [
    ("gqlc li", ["list"]),
    (f"gqlc --schema {BLOG} get ", ["Blog", "Comment", "Post"]),
    ("gqlc list --output ", ["json", "ndjson", "raw", "table", "tsv"]),
    (f"gqlc --schema {BLOG} create Post ti", ["title="]),
    (f"gqlc --schema {BLOG} list Post --where ra", ["rating"]),
    (f"gqlc --schema {BLOG} list Post --fields title,blogI", ["title,blogId"]),
    (f"gqlc --schema {BLOG} list Post --include comments.", ["comments.post"]),
    (f"gqlc --schema {BLOG} list Comment --index ", ["commentsByPostId"]),
    ("gqlc completion ", ["bash", "fish", "zsh"]),
]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
@pytest.mark.parametrize("line, offered", FISH_CASES, ids=[line for line, _ in FISH_CASES])
def test_fish_offers(line, offered, repo_dir):
    assert sorted(fish_complete(line, repo_dir)) == sorted(offered)


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed (make test installs it when it can)")
def test_the_zsh_script_also_works_autoloaded_from_fpath(tmp_path, repo_dir):
    """Saved as _gqlc in $fpath (as make install does), the first Tab in an interactive zsh completes."""
    import os
    import pty
    import select
    import signal
    import time
    (tmp_path / "_gqlc").write_text(subprocess.run([str(GQLC_BIN), "completion", "zsh"], capture_output=True,
                                                   text=True, check=True).stdout)
    env = {**gqlc_env(), "PATH": f"{GQLC_BIN.parent}:{gqlc_env().get('PATH', '')}", "PS1": "> "}
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(repo_dir)
        os.execvpe("zsh", ["zsh", "-f", "-i"], env)

    def read_until(marker: bytes) -> bytes:
        seen = b""
        deadline = time.monotonic() + 30  # a hang guard only; the test waits for the marker
        while marker not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 1)
            if ready:
                try:
                    seen += os.read(fd, 4096)
                except OSError:
                    break
        return seen

    try:
        os.write(fd, f"fpath=({tmp_path} $fpath); autoload -U compinit && compinit -u -D; echo READY\n".encode())
        read_until(b"READY\r\n")
        os.write(fd, f"gqlc --schema {BLOG} get Po\t".encode())
        assert b"get Post" in read_until(b"get Post")
    finally:
        os.kill(pid, signal.SIGKILL)  # an interactive zsh ignores SIGTERM
        os.waitpid(pid, 0)
        os.close(fd)
