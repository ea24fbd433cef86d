"""Documentation: every spec citation resolves, and the documentation site builds.

The source cites the specification by file and section (``MEDIA.md §6.6``, ``TAGS.md 3.1``,
``PROFILES.md rule 3``, ``README decision 2``). Those texts ship under ``docs/spec/``; the
project's own documents (README, UPSTREAM, …) live at the repository root. These tests read
every citation in ``richout/**/*.py``, in the CLI's help and in README.md, and check that the
file exists and that each cited section is a heading in it.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from richout.faces.cli import main

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "docs" / "spec"
#: Documents that live at the repository root rather than under docs/spec/.
ROOT_DOCS = {"README", "UPSTREAM", "CHANGELOG", "DEVELOPERS", "ARCHITECTURE", "SECURITY"}
#: Files the code cites whole (or by rule), never by section: a bare "§n" after them still
#: belongs to the spec file cited before them.
UNSECTIONED = {"PROFILES.md", "JSONL.md", "UPSTREAM.md", "README.md"}

_TOKEN = re.compile(
    r"(?P<file>\b[A-Z][A-Z_]*\.md)\b"
    r"(?:[ ]§\s?(?P<snum>\d+(?:\.\d+)*)|[ ](?P<num>\d+(?:\.\d+)+)\b|[ ]rule (?P<rule>\d+)\b)?"
    r"|(?<!seed )§\s?(?P<sec>\d+(?:\.\d+)*)"
    r"|\bREADME decisions? (?P<decision>\d+)\b"
)
_HEADING_NUM = re.compile(r"^#{1,6}\s+(?:§\s*)?(\d+(?:\.\d+)*)\.?(?:\s|$)", re.M)
_HEADING_NAMED = re.compile(r"^#{1,6}\s+(Rule|Decision)\s+(\d+)\s*$", re.M)

Citation = tuple[str, str, str]  # (where, file, anchor): anchor "" / "§6.6" / "Rule 3"


def doc_path(name: str) -> Path:
    """Where a cited ``NAME.md`` should be: the repository root or docs/spec/."""
    stem = name[: -len(".md")]
    return ROOT / name if stem in ROOT_DOCS else SPEC / name


def headings(path: Path) -> set[str]:
    """Section numbers ("§6.6") and named headings ("Rule 3") of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    found = {f"§{m.group(1)}" for m in _HEADING_NUM.finditer(text)}
    found |= {f"{m.group(1)} {m.group(2)}" for m in _HEADING_NAMED.finditer(text)}
    return found


def citations(where: str, text: str) -> Iterator[Citation]:
    """Every citation in ``text``.

    A bare ``§n`` belongs to the spec file cited last before it; since a module's docstrings
    sometimes move between two spec files, it also resolves in any other spec file the same
    text cites (the file is then given as ``"A.md|B.md"``, nearest first).
    """
    sectioned = [
        m["file"]
        for m in _TOKEN.finditer(text)
        if m["file"] and m["file"] not in UNSECTIONED and (SPEC / m["file"]).is_file()
    ]
    current: str | None = None
    for m in _TOKEN.finditer(text):
        if m["file"]:
            name = m["file"]
            yield where, name, ""
            if m["snum"] or m["num"]:  # "MEDIA.md §6.6" or "MEDIA.md 4.3": that file only
                yield where, name, f"§{m['snum'] or m['num']}"
            if m["rule"]:
                yield where, name, f"Rule {m['rule']}"
            if name in sectioned:
                current = name
        elif m["decision"]:
            yield where, "README.md (spec)", f"Decision {m['decision']}"
        elif current is not None:
            others = [n for n in dict.fromkeys(sectioned) if n != current]
            yield where, "|".join([current, *others]), f"§{m['sec']}"
        else:  # no file cited yet: the section must exist in some spec file
            yield where, "*", f"§{m['sec']}"


def cli_help(path: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    """The help text of ``richout`` and of every subcommand, recursively."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main([*path, "--help"])
    text = out.getvalue()
    yield "richout " + " ".join(path) + " --help", text
    usage = text.split("\n\n", 1)[0]
    choices = re.search(r"\{([a-z][a-z,_-]*)\} \.\.\.", usage)  # subcommands, not option values
    if choices:
        for sub in choices.group(1).split(","):
            yield from cli_help((*path, sub))


def all_citations() -> list[Citation]:
    """Citations in the package source, the CLI help and README.md."""
    found: list[Citation] = []
    for py in sorted((ROOT / "richout").rglob("*.py")):
        found += citations(str(py.relative_to(ROOT)), py.read_text(encoding="utf-8"))
    for where, text in cli_help():
        found += citations(where, text)
    found += citations("README.md", (ROOT / "README.md").read_text(encoding="utf-8"))
    return found


def unresolved(found: list[Citation]) -> list[str]:
    """A line per citation whose file or section does not exist."""
    spec_headings = {p.name: headings(p) for p in SPEC.glob("*.md")}
    bad: list[str] = []
    for where, name, anchor in found:
        if name == "README.md (spec)":
            if anchor not in spec_headings.get("README.md", set()):
                bad.append(
                    f"{where}: README {anchor.lower()} is not a heading of docs/spec/README.md"
                )
            continue
        if name == "*" or "|" in name:
            files = spec_headings if name == "*" else name.split("|")
            if not any(anchor in spec_headings.get(f, set()) for f in files):
                bad.append(f"{where}: {anchor} is not a section of {name.replace('|', ' or ')}")
            continue
        path = doc_path(name)
        if not path.is_file():
            bad.append(f"{where}: {name} does not exist ({path.relative_to(ROOT)})")
        elif anchor and anchor not in headings(path):
            bad.append(f"{where}: {name} has no heading {anchor}")
    return sorted(set(bad))


def test_every_cited_spec_file_and_section_exists() -> None:
    found = all_citations()
    # the scan must see the citations it is meant to check
    names = {name for _, name, _ in found}
    assert {"MEDIA.md", "TAGS.md", "EMBED.md", "ENVELOPE.md", "JSONL.md"} <= names
    assert sum(1 for _, _, anchor in found if anchor.startswith("§")) > 100
    assert unresolved(found) == []


def test_the_cli_help_is_scanned_too() -> None:
    helps = dict(cli_help())
    assert "richout envelope lint --help" in helps
    assert any("JSONL.md" in text for text in helps.values())


def test_a_wrong_citation_is_reported() -> None:
    found = list(
        citations(
            "x.py",
            "MEDIA.md §6.6 and §99.1; TAGS.md 3.1; EMBED.md §99; PROFILES.md rule 42; "
            "README decision 77; NOPE.md; UPSTREAM.md §2.3",
        )
    )
    assert ("x.py", "MEDIA.md", "§6.6") in found
    assert ("x.py", "MEDIA.md|TAGS.md|EMBED.md", "§99.1") in found  # a bare § after MEDIA.md
    assert unresolved(found) == [
        "x.py: EMBED.md has no heading §99",
        "x.py: NOPE.md does not exist (docs/spec/NOPE.md)",
        "x.py: PROFILES.md has no heading Rule 42",
        "x.py: README decision 77 is not a heading of docs/spec/README.md",
        "x.py: §99.1 is not a section of MEDIA.md or TAGS.md or EMBED.md",
    ]


def test_spec_pages_keep_the_numbering_the_code_cites() -> None:
    media = headings(SPEC / "MEDIA.md")
    assert {"§6.6", "§8.1", "§13.3", "§17.2"} <= media
    assert {"Rule 1", "Rule 9"} <= headings(SPEC / "PROFILES.md")
    assert {f"Decision {n}" for n in range(1, 10)} <= headings(SPEC / "README.md")


_PYCON = re.compile(r"^```pycon\n(.*?)^```", re.S | re.M)
PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md") if SPEC not in p.parents)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT / "docs")))
def test_page_examples_show_what_richout_returns(page: Path) -> None:
    """Every ``pycon`` example on a page runs, in order, and prints what the page shows."""
    text = page.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)  # whitespace matters here
    globs: dict[str, object] = {}
    out = io.StringIO()
    for block in _PYCON.finditer(text):
        line = text.count("\n", 0, block.start(1))
        test = parser.get_doctest(block.group(1), globs, page.name, str(page), line)
        runner.run(test, out=out.write, clear_globs=False)
        globs = test.globs  # later blocks on the page build on earlier ones
    assert runner.failures == 0, out.getvalue()


def test_pages_with_examples_are_checked() -> None:
    checked = {p.name for p in PAGES if "```pycon" in p.read_text(encoding="utf-8")}
    assert {"media.md", "audio.md", "reply.md", "embeds.md", "silent.md"} <= checked
    assert {"quickstart.md", "profiles.md", "envelope.md"} <= checked


def test_the_documentation_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    site = tmp_path / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (site / "index.html").is_file()
    assert (site / "spec" / "MEDIA" / "index.html").is_file()
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    assert "parse_reply" in api and "StreamingParser" in api  # rendered from the docstrings
