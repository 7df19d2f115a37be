"""The documentation's command examples run as a new user would type them (issue 41, item 7).

Every ```sh block of README.md and of every page under docs/ that shows ``solrec ...`` lines runs
here: page by page, its lines in order, each page on a fresh database (``SOLREC_DB``) from a fresh
folder where the repository's fixtures are reachable as in a checkout. Each line exits 0, unless
its own comment names another (``# exit 1: the Solari game's scores change``): then exactly that one.
Output and illustrations are ```text blocks and are not run; so are commands that cannot run here,
each page saying why (``solrec serve`` runs until Ctrl-C; a Dask cluster needs its machines). A block
that shows ``solrec`` lines is ```sh or ```text, nothing else, so no example is left untested by a
missing or mistyped fence. The site's navigation lists every page (``make docs`` refuses the others
too), and the README stays a five-minute read."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solrec.cli.main import app

from .conftest import ROOT

DOCS = ROOT / "docs"
README_LINES = 150  # issue 41: "README at most 150 lines"
FENCE = re.compile(r"^```(\S*)[^\n]*\n(.*?)^```", flags=re.S | re.M)
STATED_EXIT = re.compile(r"\s#.*?\bexit (\d+)\b")  # the first exit code the line's comment names
# The ai extra's commands: a page that uses them is skipped, saying so, where the extra is missing.
AI_COMMANDS = {"hint", "review", "balance"}


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def page_id(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def blocks(page: Path) -> list[tuple[str, str]]:
    """The fenced blocks of a page: (language, body)."""
    return FENCE.findall(page.read_text(encoding="utf-8"))


def solrec_lines(body: str) -> list[str]:
    lines = body.replace("\\\n", " ").splitlines()
    return [line.strip() for line in lines if line.strip().removeprefix("$ ").startswith("solrec ")]


def examples(page: Path) -> list[tuple[list[str], int, str]]:
    """The page's runnable lines, in order: (words after ``solrec``, the exit code expected, the line)."""
    out = []
    for lang, body in blocks(page):
        if lang != "sh":
            continue
        for line in solrec_lines(body):
            stated = STATED_EXIT.search(line)
            out.append((shlex.split(line, comments=True)[1:], int(stated.group(1)) if stated else 0, line))
    return out


PAGES_WITH_EXAMPLES = [p for p in pages() if examples(p)]
# Commands that run until Ctrl-C: a page shows them in ```text and says so (tests/serve/ runs the server).
SERVERS = {"serve", "front"}


def test_every_block_showing_solrec_lines_is_sh_or_text():
    loose = [f"{page_id(p)}: ```{lang or '(no language)'}: {solrec_lines(body)[0]}"
             for p in pages() for lang, body in blocks(p) if solrec_lines(body) and lang not in ("sh", "text")]
    assert not loose, "run it (```sh) or say it is output or an illustration (```text):\n" + "\n".join(loose)


def test_no_runnable_block_starts_a_server():
    servers = [f"{page_id(p)}: {line}" for p in pages() for words, _, line in examples(p) if words[0] in SERVERS]
    assert not servers, "a server runs until Ctrl-C: show it in a ```text block\n" + "\n".join(servers)


def shown_servers(page: Path) -> list[list[str]]:
    """The server lines a page shows (in ```text, as they never return): the words after ``solrec``."""
    lines = [line for _, body in blocks(page) for line in solrec_lines(body)]
    words = [shlex.split(line.removeprefix("$ "), comments=True)[1:] for line in lines]
    return [w for w in words if w and w[0] in SERVERS]


def test_every_server_line_shown_parses_as_solrec_reads_it():
    """Not run, but read by the command's own parser: an option misspelt or a value refused fails here."""
    import typer

    group = typer.main.get_command(app)
    shown = [(p, words) for p in pages() for words in shown_servers(p)]
    assert shown
    for page, words in shown:
        with group.make_context("solrec", list(words)) as ctx:
            command = group.get_command(ctx, words[0])
            assert command is not None, words
            try:
                command.make_context(words[0], list(words[1:]), parent=ctx)
            except Exception as err:  # typer's own click raises its UsageError: the line would be refused
                pytest.fail(f"{page_id(page)}: solrec {' '.join(words)}: {err}")


def test_where_a_page_shows_serve_it_starts_with_lan():
    """Issue 43: a plain `solrec serve` listens on 127.0.0.1, whose seat links no phone opens."""
    serving = {page_id(p): [w for w in shown_servers(p) if w[0] == "serve"] for p in pages()}
    serving = {page: lines for page, lines in serving.items() if lines}
    assert {"README.md", "docs/serve.md"} <= set(serving)
    assert all(lines[0][:2] == ["serve", "--lan"] for lines in serving.values()), serving


def test_the_command_line_page_has_the_command_examples():
    names = {words[0] for words, _, _ in examples(DOCS / "walkthrough.md")}
    assert {"new", "play", "show", "log", "replay", "undo", "list", "diff", "validate", "export", "import",
            "comment", "fork", "impact", "simulate", "solve"} <= names


def test_the_readme_is_a_five_minute_read_with_an_example_per_use():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_LINES
    run = {words[0] for words, _, _ in examples(ROOT / "README.md")}
    assert {"new", "play", "replay", "score", "validate", "impact"} <= run  # record, audit, rule change
    assert "solrec serve" in text  # the table
    linked = set(re.findall(r"\]\(docs/([\w/.-]+\.md)(?:#[\w-]+)?\)", text))
    assert linked and all((DOCS / name).is_file() for name in linked)


def nav_pages() -> set[str]:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:"):]
    return set(re.findall(r"^\s*-\s[^\n]*?:?\s*([\w/.-]+\.md)\s*$", nav, flags=re.M))


def test_the_site_lists_every_docs_page_in_its_navigation():
    on_disk = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    listed = nav_pages()
    assert on_disk - listed == set(), "add these pages to mkdocs.yml's nav"
    assert listed - on_disk == set(), "mkdocs.yml's nav names pages that do not exist"


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=page_id)
def test_every_command_example_of_the_page_runs_in_order(page, tmp_path, monkeypatch):
    if any(words[0] in AI_COMMANDS or any("=bot:" in w for w in words) for words, _, _ in examples(page)):
        pytest.importorskip("pyspiel", reason=f"{page_id(page)} shows the ai extra's bots")
    # a fresh folder and a fresh database, as a new user's; the fixtures reachable as in a checkout
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SOLREC_DB", str(tmp_path / "solrec.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    runner = CliRunner()
    for words, expect, line in examples(page):
        assert words[0] not in SERVERS, line  # it would never return
        result = runner.invoke(app, words)
        assert result.exit_code == expect, f"{page_id(page)}: {line}\n{result.stdout}{result.stderr}"
