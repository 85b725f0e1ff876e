"""Help pages as a newcomer reads them: a command's own options and examples on the first screen, the global options
as a short list of names (gh's "inherited flags"), and every global option explained by `gqlc help options` and
`--help-all`."""

from __future__ import annotations

import re

import pytest

from gqlc_runner import run_gqlc

COMMANDS = ["get", "list", "create", "update", "delete", "query", "mutate", "models", "raw", "subscribe", "schema",
            "login", "whoami", "logout"]


def sections(page: str) -> list[str]:
    """The section titles of a help page, in order."""
    return re.findall(r"^([A-Z][^\n]*):$", page, flags=re.MULTILINE)


def global_options() -> list[str]:
    """Every global option's long name, from the page that explains them."""
    page = run_gqlc(["help", "options"]).stdout
    return re.findall(r"^  (?:-\w, |    )(--[\w-]+)", page.split("\nGlobal options:\n")[1], flags=re.MULTILINE)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_page_puts_its_own_options_and_examples_before_the_global_ones(command):
    page = run_gqlc([command, "--help"])
    assert (page.code, page.stderr) == (0, ""), page
    titles = sections(page.stdout)
    assert titles[-1] == "Global options", titles
    assert titles.index("Examples") < titles.index("Global options")
    if "Options" in titles:
        assert titles.index("Options") < titles.index("Examples")
    listed = page.stdout.split("\nGlobal options:\n")[1]
    # Names only: every global option is there, none is explained.
    names = set(re.findall(r"--[\w-]+", listed))
    assert set(global_options()) <= names
    assert "(env:" not in listed and "default:" not in listed
    assert f"'gqlc {command} --help-all' or 'gqlc help options'" in " ".join(listed.split())


def test_the_pages_are_short_enough_to_find_the_examples():
    # list grew with --watch, --interval and --include-deleted, delete with --expected-version; the examples still start on the second screen.
    for command, lines in (("get", 60), ("delete", 130), ("list", 165)):  # were 130, 195 and 208
        page = run_gqlc([command, "--help"]).stdout
        assert page.count("\n") <= lines, f"{command} --help is {page.count(chr(10))} lines"
        # The examples start on the first two screens (of 50 lines).
        assert page[:page.index("\nExamples:\n")].count("\n") < 100


def test_help_all_and_help_options_explain_every_global_option():
    options = run_gqlc(["help", "options"])
    assert (options.code, options.stderr) == (0, ""), options
    assert {"--endpoint", "--profile", "--no-color", "--help-all", "--version"} <= set(global_options())
    assert "(env: GQLC_ENDPOINT)" in options.stdout and "\nConfiguration:\n" in options.stdout
    full = run_gqlc(["get", "--help-all"])
    assert (full.code, full.stderr) == (0, ""), full
    explained = full.stdout.split("\nGlobal options:\n")[1]
    assert explained.strip() == options.stdout.split("\nGlobal options:\n")[1].split("\nConfiguration:\n")[0].strip()
    # The rest of the page is the same (its option column may be wider).
    own = run_gqlc(["get", "--help"]).stdout.split("\nGlobal options:\n")[0]
    assert full.stdout.split("\nGlobal options:\n")[0].split() == own.split()
    # --help-all wins over a typo, as --help does.
    assert run_gqlc(["list", "--limt", "3", "--help-all"]).stdout == run_gqlc(["list", "--help-all"]).stdout


def test_help_options_topic_is_offered_on_a_typo():
    run = run_gqlc(["help", "optoins"])
    assert (run.code, run.stdout, run.stderr) == (2, "", "gqlc: unknown command 'optoins'; did you mean 'options'?\n")


def test_delete_bulk_help_speaks_of_deletes_not_creates():
    bulk = run_gqlc(["delete", "--help"]).stdout.split("\nBulk:\n")[1]
    text = " ".join(bulk.split())
    assert "create" not in text, text
    assert "deleted by its key" in text
    update = " ".join(run_gqlc(["update", "--help"]).stdout.split("\nBulk:\n")[1].split())
    assert "a create keeps" not in update and "A retried update sends the same values again" in update
    create = " ".join(run_gqlc(["create", "--help"]).stdout.split("\nBulk:\n")[1].split())
    assert "a create keeps the key it was given" in create
