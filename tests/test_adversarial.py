"""Hostile inputs get a result, with work linear in their size.

Every input of the shared adversarial corpus goes through every public text pipeline and
must come back whole (lossless). Growth is checked by counting work, not seconds, so a busy
machine cannot fail these tests: the Python calls a pipeline makes (profile events, C
functions included) and the characters it hands to a grammar must grow in proportion to the
input. Wall-clock figures live in ``benchmarks/adversarial.py``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import make_corpus

import richout

_INPUTS = make_corpus.make_adversarial(20260520)


def _ops(options: dict[str, Any] | None) -> dict[str, Any]:
    opts = options or {}
    return {
        "media": lambda t: richout.split_media(
            t,
            extract_markdown_images=bool(opts.get("extractMarkdownImages", False)),
            markdown_image_allowlist=opts.get("markdownImageAllowlist"),
        ),
        "directives": richout.parse_directives,
        "reply": richout.parse_reply,
        "embed": richout.extract_embeds,
        "render": richout.render_reply,
    }


@pytest.mark.parametrize(
    ("name", "text", "options"), [(n, t, o) for n, t, _, o in _INPUTS], ids=[n for n, *_ in _INPUTS]
)
def test_every_pipeline_finishes_and_keeps_the_text(
    name: str, text: str, options: dict[str, Any] | None
) -> None:
    for op, fn in _ops(options).items():
        result = fn(text)
        if hasattr(result, "edits"):
            assert richout.rebuild(result) == text, f"{op} lost text on {name}"


# Families whose cost once grew faster than their size (a fence scan that searched to the end
# of the text from every fence line was quadratic on the first one).
_FAMILIES: dict[str, Any] = {
    "backtick_fence_lines": lambda n: "MEDIA:/tmp/a.png\n" + "```\n" * n + "MEDIA:/tmp/b.png",
    "tilde_fence_lines": lambda n: "MEDIA:/tmp/a.png\n" + "~~~ x\n" * n,
    "media_lines": lambda n: "MEDIA:https://example.com/a.png\n" * n,
    "unclosed_reply_tags": lambda n: "[[reply_to:" * n + "\nMEDIA:/tmp/a.png",
    "backtick_runs": lambda n: "MEDIA:/tmp/a.png\n" + "`a" * n,
    "embed_openers": lambda n: '[embed ref="x" ' * n,
    "unclosed_reply_tags_one_close": lambda n: "[[reply_to:" * n + "\nx]]",
    "malformed_reply_tags_one_line": lambda n: "[[reply_to:a]" * n,
    "malformed_current_tags_one_line": lambda n: "[[reply_to_current] " * n,
    "malformed_audio_tags_one_line": lambda n: "[[audio_as_voice] " * n,
    "quoted_list_members": lambda n: "MEDIA:" + "'/a.png' " * n,
    "backtick_payload": lambda n: "MEDIA:" + "`" * n,
    "quote_code_spans_tags": lambda n: "> `a` [[reply_to_current]] ``b``\n" * n,
    "escaped_backticks_tags": lambda n: "\\`a\\` [[reply_to_current]] \\`\\`b `c`\n" * n,
}


def _count_calls(
    monkeypatch: pytest.MonkeyPatch, counter: list[int], owner: Any, name: str
) -> None:
    """Replace ``owner.name`` by a wrapper that adds one to ``counter[0]`` per call."""
    real = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        counter[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)


def _work(fn: Callable[[str], Any], text: str) -> int:
    """Profile events (Python and C calls) while ``fn(text)`` runs: a count, not a time."""
    fn(text)  # warm caches (grammars, parsers) outside the count
    count = 0

    def tally(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        count += 1

    sys.setprofile(tally)
    try:
        fn(text)
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.pure_python(why="counts profile events, and compiled calls send none")
@pytest.mark.parametrize("family", sorted(_FAMILIES))
def test_work_grows_linearly(family: str) -> None:
    """Eight times the input makes at most about eight times the calls (64 for quadratic)."""
    make = _FAMILIES[family]
    small, large = make(1_000), make(8_000)
    for op, fn in _ops(None).items():
        base = _work(fn, small)
        assert base > 0, f"{op}: no profile event counted"
        ratio = _work(fn, large) / base
        assert ratio < 12, f"{op} on {family}: 8x the input made {ratio:.1f}x the calls"


def test_a_long_paragraphs_spans_map_to_the_source_in_linear_steps() -> None:
    """A paragraph of many lines with code spans, parsed whole: each span's offset is
    mapped from the paragraph's content to the source. Looking up the
    line by a scan of every line was quadratic (4.7 s for a 470 KB paragraph of 12k lines),
    and made no calls a call count would see: this counts the lines run in the parser's
    module (markdown/engine.py, never compiled)."""
    from richout.markdown import engine

    def steps(n: int) -> int:
        text = "  `a` [l](u) ``b``\n" * n
        count = 0

        def local(frame: Any, event: str, arg: Any) -> Any:
            nonlocal count
            count += event == "line"
            return local

        def calls(frame: Any, event: str, arg: Any) -> Any:
            return local if frame.f_code.co_filename == engine.__file__ else None

        sys.settrace(calls)
        try:
            regions = engine.parse_code(text).regions
        finally:
            sys.settrace(None)
        assert len(regions) == 2 * n
        assert all(text[r.start] == "`" and text[r.end - 1] == "`" for r in regions)
        return count

    small, large = steps(250), steps(2_000)
    assert large / small < 12, f"8x the lines made {large / small:.1f}x the steps"


@pytest.mark.pure_python(why="replaces a function that compiled callers call directly")
@pytest.mark.parametrize(
    ("text", "decides"),
    [
        # "<" that opens no autolink holding a backtick: the spans pair without the parser
        ("`a` [[reply_to_current]] List<T> ``b`` <b> " * 500, False),
        ("a < `b` [[audio_as_voice]] > c <http://x> " * 500, False),
        # escapes, pipes, "]:" after the line's start (an escaped backtick opens nothing,
        # and code_spans reads it as the parser does)
        ("`a` [[reply_to_current]] C:\\dir ``b`` a\\b x | y a]: b " * 500, False),
        ("`a` [[reply_to_current]] \\`b` " * 500, False),
        # links and images that hold no backtick in their destination or title
        ("`a` [[reply_to_current]] [l](https://x.test/a 't') ``b`` [i](/p.png) " * 500, False),
        # an autolink holding a backtick hides it from the pairing: only the parser can tell
        ("`a` [[reply_to_current]] <http://x`y> `b` " * 500, True),
        ("`a` [[reply_to_current]] [l](u`v) `b` " * 500, True),
        # an image's alt text keeps no code span: an image whose label may hold a backtick
        # goes to the parser; one whose label ends at its first "]" holds none (2026-12-07)
        ("`a` [[reply_to_current]] ![`i`](/p.png) `b` " * 500, True),
        ("`a` [[reply_to_current]] ![i](/p.png) `b` " * 500, False),
        # no ")" after a "](": no inline link; every backtick escaped: no span at all; a
        # fence-like run with a backtick after it, and no line break before the next text:
        # no code block starts after a tag (the delivery strip's question; 2026-12-07)
        ("`a` [[reply_to_current]] [l](u`v `b` " * 500, False),
        ("[[reply_to_current]] [a](\\`[[reply_to:x " * 500, False),
        ("`a` [[reply_to_current]] ```b``` " * 500, False),
    ],
)
def test_punctuation_beside_code_spans_parses_only_when_it_decides(
    text: str, decides: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One line of code spans and tags with ``<``, ``\\``, ``|``, ``]:`` or links in it: only
    an autolink holding a backtick (the code parser runs with HTML off), an escaped
    backtick, a definition at the line's start, or a link destination or title holding a
    backtick can change which backticks pair, and only then is
    the line parsed by the pipelines that ask: once per text they ask about (``parse_reply``
    asks of its tag layer's text and, tags removed, of the delivery strip's). A 1 MB line
    of such tags and spans took 1.2-1.5 s in the parser."""
    from richout.markdown import codemap

    parses = [0]
    _count_calls(monkeypatch, parses, codemap, "parse_code")
    counts = {}
    for op, fn in {**_ops(None), "strip": richout.delivery_strip}.items():
        parses[0] = 0
        fn(text)
        counts[op] = parses[0]
    if decides:
        assert 1 <= max(counts.values()) <= 2, counts
    else:
        assert max(counts.values()) == 0, counts


@pytest.mark.pure_python(why="replaces a method that compiled callers call directly")
@pytest.mark.parametrize(
    "family", ["malformed_reply_tags_one_line", "malformed_current_tags_one_line"]
)
def test_heads_that_cannot_close_are_not_read(family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without explanations, a reply head whose first ``]`` after it is single is passed
    over: no tag can start there, and nothing is said about it (the delivery strip reads
    only a head at the message's first character that is no space or tab, for a malformed
    prefix)."""
    from richout.tags.scan import ReplyTagReader

    reads = 0
    real = ReplyTagReader.read_head

    def counting(self: ReplyTagReader, pos: int, head: Any) -> Any:
        nonlocal reads
        reads += 1
        return real(self, pos, head)

    monkeypatch.setattr(ReplyTagReader, "read_head", counting)
    text = _FAMILIES[family](2_000)
    for op, fn in {**_ops(None), "strip": richout.delivery_strip}.items():
        reads = 0
        fn(text)
        assert reads <= 2, f"{op}: {reads} heads read"


@pytest.mark.pure_python(why="replaces a function that compiled callers call directly")
@pytest.mark.parametrize("family", ["unclosed_reply_tags_one_close"])
def test_grammar_slices_grow_linearly(family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The characters handed to the tag grammar stay within a few times the input.

    A run of ``[[reply_to:`` openers before one far ``]]`` once handed the grammar the whole
    rest of the text per opener (quadratic in characters, invisible to a call count).
    """
    import richout.tags.scan as tagscan

    handed = 0
    real = tagscan.grammar_read

    def counting(piece: str, key: str | None = None) -> Any:
        nonlocal handed
        handed += len(piece)
        return real(piece, key)

    monkeypatch.setattr(tagscan, "grammar_read", counting)
    text = _SLICE_FAMILIES[family](4_000)
    for fn in (richout.parse_directives, richout.parse_reply, richout.render_reply):
        handed = 0
        fn(text)
        assert 0 < handed <= 4 * len(text), f"{fn.__name__}: {handed} chars for {len(text)}"


@pytest.mark.pure_python(why="replaces a function that compiled callers call directly")
@pytest.mark.parametrize("family", ["malformed_reply_tags", "malformed_current_tags"])
def test_explained_constructs_are_not_copied_whole(
    family: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A malformed tag's message quotes a bounded piece, not the rest of its line.

    Each of thousands of malformed tags on one line once copied the line from itself to its
    end into its message (quadratic in characters copied).
    """
    from richout.tags import explain as tags

    longest = 0
    real = tags.show

    def measuring(s: str) -> str:
        nonlocal longest
        longest = max(longest, len(s))
        return real(s)

    monkeypatch.setattr(tags, "show", measuring)
    text = _SLICE_FAMILIES[family](4_000)
    result = richout.parse_directives(text, explain=True)
    assert any(d.code == "tag.malformed" for d in result.diagnostics)
    assert 0 < longest <= tags.SHOW_MAX + 1


_SLICE_FAMILIES: dict[str, Callable[[int], str]] = {
    "unclosed_reply_tags_one_close": lambda n: "[[reply_to:" * n + "\nx]]",
    "malformed_reply_tags": lambda n: "[[reply_to:a]" * n,
    "malformed_current_tags": lambda n: "[[reply_to_current] " * n,
}


# --------------------------------------------------------------------------- explanations
# Work per construct on the explanation paths, counted (issue 8, item 3).

_MANY_FINDINGS: dict[str, Callable[[int], str]] = {
    "malformed_reply_tags": lambda n: "[[reply_to:a]" * n,
    "malformed_audio_tags": lambda n: "[[audio_as_voice] " * n,
    "tags_in_code_spans": lambda n: "`[[reply_to_current]]` [[audio_as_voice]] " * n,
}


@pytest.mark.parametrize("family", sorted(_MANY_FINDINGS))
def test_explanation_records_are_not_validated_one_by_one(
    family: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thousands of findings, spans and edits are built from computed values, not validated.

    Validating each record (pydantic) once cost more than finding it; the counted
    constructor calls must not grow with the number of findings.
    """
    from richout.models import base as models

    built: dict[str, int] = {}
    for cls in (models.Diagnostic, models.Span, models.EditRecord):
        real = cls.__init__

        def counting(self: Any, /, _real: Any = real, _name: str = cls.__name__, **kw: Any) -> None:
            built[_name] = built.get(_name, 0) + 1
            _real(self, **kw)

        monkeypatch.setattr(cls, "__init__", counting)
    text = _MANY_FINDINGS[family](2_000)
    for fn in (richout.parse_directives, richout.parse_reply, richout.render_reply):
        built.clear()
        result = fn(text, explain=True)
        assert result.diagnostics or result.spans
        if fn is not richout.parse_directives:
            built.pop("Span", 0)  # split_media's spans are its own
        assert sum(built.values()) <= 20, f"{fn.__name__}: validated {built}"


# --------------------------------------------------------------------------- streaming


def test_streamed_parts_are_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each emitted part with a tag costs one tag read (``read_part``, or ``parse_directives``
    under the release profile), explanation included.

    A lazy result whose diagnostics were read at once ran the parse a second time per chunk.
    """
    from richout.tags import parse as tags
    from richout.views import streaming

    counted = [0]
    _count_calls(monkeypatch, counted, streaming, "parse_directives")
    _count_calls(monkeypatch, counted, streaming, "read_part")
    _count_calls(monkeypatch, counted, tags, "parse_directives")
    text = "`a` [[reply_to_current]] ``b`` " * 500
    p = richout.StreamingParser()
    chunks = [text[i : i + 64] for i in range(0, len(text), 64)]
    for c in chunks:
        p.feed(c)
    p.finish()
    # A lazy result's explanation reruns tags.parse_directives: counted here too.
    runs = counted[0]
    assert 0 < runs <= len(chunks) + 1, f"{runs} parses for {len(chunks)} chunks"


class _CountingText(str):
    """A text that counts the characters its searches span and its slices copy."""

    work = 0

    def __getitem__(self, key: Any) -> str:
        piece = str.__getitem__(self, key)
        _CountingText.work += len(piece)
        return piece

    def find(self, sub: str, start: Any = None, end: Any = None) -> int:  # type: ignore[override]
        a, b, _ = slice(start, end).indices(len(self))
        k = str.find(self, sub, start, end)
        _CountingText.work += max((k + 1 if k >= 0 else b) - a, 0)  # what the scan passed
        return k

    def rfind(self, sub: str, start: Any = None, end: Any = None) -> int:  # type: ignore[override]
        a, b, _ = slice(start, end).indices(len(self))
        k = str.rfind(self, sub, start, end)
        _CountingText.work += max(b - (k if k >= 0 else a), 0)
        return k


@pytest.mark.pure_python(why="replaces a function that compiled callers call directly")
@pytest.mark.parametrize(
    "family",
    [
        "cr_only_lines",  # no line feed: the line before/after a directive is the whole rest
        "lf_lines_between",  # ordinary lines: each neighbour looked at once
    ],
)
def test_removed_line_neighbours_are_not_copied(
    family: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """media.structure_changed asks bounded questions of the lines around removed lines.

    In CR-only text the ``\\n``-delimited line before (after) each removed directive is all
    the text before (after) it; searching for and copying it per directive was quadratic.
    """
    from richout.media import explain_structure as _media_diag

    real = _media_diag._neighbours

    def counting(diag: Any, walk: Any, raw: str, removed: Any) -> None:
        real(diag, walk, _CountingText(raw), removed)

    monkeypatch.setattr(_media_diag, "_neighbours", counting)
    make = {
        "cr_only_lines": lambda n: "MEDIA:/tmp/a.png\r[[audio_as_voice]] x  \r===\r" * n,
        "lf_lines_between": lambda n: "x  \nMEDIA:/tmp/a.png\n    y\n" * n,
    }[family]
    for fn in (richout.split_media, richout.parse_reply):
        text = make(3_000)
        _CountingText.work = 0
        fn(text, explain=True)
        assert 0 < _CountingText.work <= 4 * len(text), f"{_CountingText.work} for {len(text)}"


def test_direct_diagnostic_records_equal_validated_ones() -> None:
    """The direct builders give what validation gives: value, fields set and wire form;
    ``diagnostic`` called by keyword and by position, and ``Diagnostics.build``."""
    from richout.models import Diagnostic
    from richout.models.diagnostics import Diagnostics, diagnostic

    for field in (None, "payload.x"):
        collector = Diagnostics("abc\ndefg")
        collector.add("tag.malformed", "warning", "m", 5, 7, field=field)
        (built,) = collector.build()
        made = [
            (
                diagnostic(
                    "tag.malformed", "warning", "m", start=3, end=5, line=1, column=4, field=field
                ),
                (3, 5, 1, 4),
            ),
            (diagnostic("tag.malformed", "warning", "m", 3, 5, 1, 4, field), (3, 5, 1, 4)),
            (built, (5, 7, 2, 2)),
        ]
        for fast, (start, end, line, column) in made:
            slow = Diagnostic(
                code="tag.malformed",
                severity="warning",
                message="m",
                start=start,
                end=end,
                line=line,
                column=column,
                field=field,
            )
            assert fast == slow
            assert fast.model_fields_set == slow.model_fields_set
            assert fast.to_wire() == slow.to_wire()
            assert list(fast.__dict__) == list(slow.__dict__)


# Payloads whose regrouping grows one part token by token (§6.6): each new token asks what
# the part built so far cleans to. With a wrapper character at the part's start or end, the
# cleaning once copied the whole part per token (quadratic in characters, invisible to a
# call count).
_PAYLOAD_FAMILIES: dict[str, Callable[[int], str]] = {
    "trailing_wrappers": lambda n: "/a" + " b)" * n,
    "leading_wrapper": lambda n: "(/a" + " b" * n,
    "leading_wrapper_run": lambda n: "(" * n + "/a" + " b" * n,
    "trailing_wrapper_tokens": lambda n: "/a" + " )" * n,
    # A JSON tail inside the part makes its cleaned end depend on the whole part again.
    "trailing_wrappers_after_a_json_tail": lambda n: '/z.png"]' + " b)" * n,
    "leading_wrapper_after_a_json_tail": lambda n: '(/z.png"]' + " b" * n,
    "root_tokens": lambda n: " /" * n,
    "words": lambda n: "".join(f" x{i}" for i in range(n)),
}


@pytest.mark.pure_python(why="counts slices through a str subclass, which compiled code skips")
@pytest.mark.parametrize("family", sorted(_PAYLOAD_FAMILIES))
def test_payload_reading_copies_linearly(family: str) -> None:
    """Eight times the payload copies at most about eight times the characters."""
    from richout.media.payload import Judge, analyse_payload

    make = _PAYLOAD_FAMILIES[family]
    work = []
    for n in (1_000, 8_000):
        _CountingText.work = 0
        analyse_payload(_CountingText(make(n)), Judge())
        work.append(_CountingText.work)
    assert work[0] > 0
    ratio = work[1] / work[0]
    assert ratio < 12, f"8x the payload copied or searched {ratio:.1f}x the characters"


@pytest.mark.pure_python(why="replaces a function that compiled callers call directly")
@pytest.mark.parametrize("explain", [False, True])
@pytest.mark.parametrize("op", ["split_media", "parse_reply", "render_reply"])
@pytest.mark.parametrize(
    "line",
    ['MEDIA:"=.]', 'MEDIA:/tmp/a.png, "b"', "MEDIA: 'x' y:", "MEDIA:a b/c.png"],
)
def test_a_payload_met_again_is_read_at_most_twice(
    op: str, explain: bool, line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reply of one directive line repeated reads its payload by the payload steps at
    most twice, however many lines: the judge keeps the result of a payload met again for
    the reply (a megabyte of one short refused line cost 38 µs a line, 3.8 s/MB), and the
    fused split keeps the outcome of a line met again. Distinct payloads are each read
    once. A payload without ``/ \\ ~ . :`` is read only to explain it, and a bare name
    (``single_token.BARE_TOKEN``) by the fused split's own lane unless explained."""
    from richout.media import payload as pl
    from richout.media.single_token import BARE_TOKEN

    lane = not explain and BARE_TOKEN.fullmatch(line.split(":", 1)[1]) is not None

    real = pl._analyse
    read: list[str] = []

    def counting(p: str, *args: Any) -> Any:
        read.append(p)
        return real(p, *args)

    monkeypatch.setattr(pl, "_analyse", counting)
    run = getattr(richout, op)
    reply = "\n".join([line] * 500)
    run(reply, explain=explain)
    assert (len(read) == 0) if lane else (1 <= len(read) <= 2), f"{len(read)} readings"
    read.clear()
    varied = "\n".join(f"{line}{i}" for i in range(50))
    run(varied, explain=explain)
    assert len(read) == len(set(read)) == (0 if lane else 50)
    for joint in ("\n", "\r\n"):  # the fused split, and the walk (CR breaks)
        read.clear()
        run(joint.join(f'MEDIA:"={i}] x' for i in range(50)), explain=explain)
        assert len(read) == (50 if explain else 0)
