"""Properties of split_media on generated replies: total, verbatim, code-aware, lossless."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import richout.media.explain as media_diag
import richout.media.pipeline as media_mod
import richout.media.segments as segments_mod
from richout.markdown.codemap import CodeMap
from richout.media.split import split_media
from richout.models import Segment
from richout.models.lossless import rebuild
from richout.text.chars import LineBreaks, js_rtrim, js_trim

LINES = [
    "MEDIA:/srv/a.png",
    "MEDIA:https://example.com/a.png",
    "MEDIA:http://example.com/a.png",
    "  media: ./b c.png trailing",
    'MEDIA:"/srv/x y.png" "/srv/z.png"',
    "MEDIA:../x.png",
    "MEDIA:~user/a.png",
    "MEDIA:image.png",
    "MEDIA:",
    "MEDIA:   ",
    "MEDIA:/a.ogg [[audio_as_voice]]",
    'MEDIA:/srv/out.mp3{"r":[1]}',
    "MEDıA:x MEDIA:/srv/d.png",
    "Here: MEDIA:/srv/e.png",
    "- MEDIA:/srv/f.png",
    "> MEDIA:/srv/g.png",
    "**MEDIA:/srv/h.png**",
    "MEDIA : /srv/i.png",
    "[[audio_as_voice]]",
    "[[reply_to_current]] hi",
    "![a](https://example.com/p.png) caption",
    "![b](/srv/q.png)",
    "```",
    "~~~",
    "    MEDIA:/srv/indented.png",
    "\tMEDIA:/srv/tab.png",
    "``",
    "<pre>",
    "</pre>",
    "- item",
    "> quote",
    "Title",
    "---",
    "",
    "  ",
    "text with  double  spaces",
    "Caption  ",
    "x\r",
    "MEDIA:/srv/crlf.png\r",
    "a\u2028MEDIA:/srv/ls.png",
    "nul\x00MEDIA:/srv/nul.png",
    "MEDIA:/srv/\ud800.png",
    "\ud83d",
    "😀 MEDIA:/srv/😀.png",
    "\u00a0MEDIA:/srv/nbsp.png",
]

replies = st.lists(st.sampled_from(LINES), max_size=12).map("\n".join)
any_text = st.text(
    # Lone surrogates are valid Python str content (JSON can carry them); mix them in.
    alphabet=st.characters(codec=None, exclude_categories=())
    | st.sampled_from(["\ud800", "\udfff", "\ud83d", "\u2028", "\x00", "\x85", "\x1c"]),
    max_size=60,
)
options = st.fixed_dictionaries(
    {},
    optional={
        "extract_markdown_images": st.booleans(),
        "markdown_image_allowlist": st.lists(
            st.sampled_from(["/srv/q.png", "file:///srv/q.png", "https://example.com/p.png", ""]),
            max_size=3,
        ),
        "extract_media_directives": st.booleans(),
        "extract_audio_directives": st.booleans(),
    },
)


def outputs(text: str, opts: dict[str, Any]) -> dict[str, Any]:
    w = split_media(text, **opts).to_wire()
    return {k: w.get(k) for k in ("text", "mediaUrls", "audioAsVoice", "segments")}


@settings(max_examples=400)
@given(replies | any_text, options)
def test_total_lossless_and_verbatim(text: str, opts: dict[str, Any]) -> None:
    r = split_media(text, **opts)
    assert rebuild(r) == text
    assert r.spans == sorted(r.spans, key=lambda s: (s.start, s.end))
    allow = opts.get("markdown_image_allowlist")
    for url in r.media_urls:
        assert url in text or (allow is not None and url in allow)
    for span in r.spans:
        assert 0 <= span.start <= span.end <= len(text)
        if span.kind == "media":
            assert text[span.start : span.end].upper().startswith("MEDIA:")
            assert span.value is not None and span.value in text[span.start : span.end]
    for d in r.diagnostics:
        assert d.start is not None and d.end is not None
        assert 0 <= d.start <= d.end <= len(text)


@settings(max_examples=400)
@given(replies)
def test_no_reference_comes_from_a_code_block(text: str) -> None:
    r = split_media(text)
    blocks = CodeMap(js_rtrim(text)).full().blocks
    for span in r.spans:
        if span.kind != "media":
            continue
        line_start = text.rfind("\n", 0, span.start) + 1
        line_end = span.end
        for b in blocks:
            assert not (line_start < b.end and line_end > b.start), (text, span, b)


#: Calls the replacements of diagnostics_off received (a test that never reached them would
#: compare a result with itself).
_REPLACED_CALLS: list[str] = []


@contextmanager
def diagnostics_off() -> Iterator[None]:
    """Replace the diagnostics pass with nothing, to compare outputs with and without it."""
    saved = (media_diag.explain, media_diag.fast_path)

    def no_explain(*_a: Any, **_k: Any) -> None:
        _REPLACED_CALLS.append("explain")

    def no_fast(*_a: Any, **_k: Any) -> list[Any]:
        _REPLACED_CALLS.append("fast_path")
        return []

    media_diag.explain = no_explain  # type: ignore[assignment]
    media_diag.fast_path = no_fast  # type: ignore[assignment]
    try:
        yield
    finally:
        media_diag.explain, media_diag.fast_path = saved


@pytest.mark.pure_python(why="replaces a function that compiled callers call directly")
@settings(max_examples=300)
@given(replies, options)
def test_diagnostics_never_change_outputs(text: str, opts: dict[str, Any]) -> None:
    with_diags = split_media(text, **opts)
    _REPLACED_CALLS.clear()
    with diagnostics_off():
        without = split_media(text, **opts)
        assert all(d.code.startswith("tag.") for d in without.diagnostics)
    assert _REPLACED_CALLS or not js_trim(text)  # only a blank reply skips the diagnostics
    assert with_diags.to_wire() | {"diagnostics": None} == without.to_wire() | {"diagnostics": None}
    assert media_mod._media_diag is media_diag


@settings(max_examples=300)
@given(replies | any_text)
def test_fast_path_returns_the_right_trimmed_text(text: str) -> None:
    raw = js_rtrim(text)
    if "media:" in raw.lower() or "[[" in raw:
        return
    assert outputs(text, {}) == {
        "text": raw,
        "mediaUrls": None,
        "audioAsVoice": None,
        "segments": None,
    }


@settings(max_examples=300)
@given(replies)
def test_extraction_off_extracts_nothing(text: str) -> None:
    r = split_media(text, extract_media_directives=False)
    assert r.media_urls == []
    assert not any(s.kind == "media" for s in r.spans)


@settings(max_examples=300)
@given(replies)
def test_segments_carry_the_media_in_order(text: str) -> None:
    r = split_media(text)
    if r.segments is None:
        return
    urls = [s.url for s in r.segments if s.type == "media"]
    assert urls == r.media_urls
    if not r.media_urls:
        assert r.segments == ([] if not r.text else [Segment(type="text", text=r.text)])


block_lines = st.lists(
    st.sampled_from(["", " ", "\t", "\r", "a", " b ", "\u3000", "x\r"]), max_size=8
)


@settings(max_examples=400)
@given(
    st.lists(st.sampled_from(["line", "", " ", "MEDIA"]), max_size=4),
    block_lines,
    st.booleans(),
    st.data(),
)
def test_bulk_push_equals_pushing_each_line(
    prefix: list[str], lines: list[str], cr: bool, data: st.DataObject
) -> None:
    """Pushing a block of kept lines at once equals pushing each with its own break."""
    breaks = ["\n", "\r", "\r\n"] if cr else ["\n"]
    # A line's own text never holds a break of its line rule.
    lines = [line.replace("\r", "") if cr else line for line in lines] or [""]
    seps = [data.draw(st.sampled_from(breaks)) for _ in lines[1:]]
    block = "".join(line + sep for line, sep in zip(lines, [*seps, ""], strict=True))
    # The block may end where a later line starts: its last line then ends with a break
    # that lies past the block (a CRLF, a CR or a LF), as before a changed line.
    last_sep = data.draw(st.sampled_from(["", *breaks]))
    # Where CR ends lines, a CR ending the block and a LF after it would read as one CRLF.
    assume(not (cr and block.endswith("\r") and last_sep.startswith("\n")))
    raw = block + last_sep + ("z" if last_sep else "")
    text = LineBreaks(raw, cr)
    one = segments_mod._SegmentBuilder(text)
    bulk = segments_mod._SegmentBuilder(text)
    for p in prefix:
        for sb in (one, bulk):
            if p == "MEDIA":
                sb.media("/a.png")
            else:
                sb.push(p, "\n")
    for line, sep in zip(lines, [*seps, last_sep], strict=True):
        one.push(line, sep)
    bulk.push_block(0, len(block))
    assert one.build() == bulk.build()
    one.media("/b.png")
    bulk.media("/b.png")
    one.push("", "")
    bulk.push("", "")
    assert one.build() == bulk.build()
