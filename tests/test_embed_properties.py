"""Properties of extract_embeds on generated input, and agreement with a naive model.

The model below follows EMBED.md's prose directly (find, slice, loop one character at a
time): quadratic and obviously faithful, it is only run on small generated texts. The real
implementation must give the same text and previews on every one of them.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from richout.embed.extract import ShortcodeCode
from richout.embed.parse import extract_embeds
from richout.embed.rules import encode_uri_component, js_number
from richout.embed.scan import OpenerIndex
from richout.markdown.codemap import CodeMap
from richout.models.lossless import rebuild
from richout.text.chars import JS_WS, ascii_lower, js_trim

_PIECES = [
    "[embed ",
    "[EMBED\n",
    "[Embed\t",
    "[embed",
    "[embed]",
    "]",
    "/]",
    " /]",
    "/ ]",
    "[/embed]",
    "[/EMBED]",
    'ref="a"',
    "ref='b c'",
    'ref="é/x"',
    'REF = "d"',
    'url="/u"',
    'url=" https://x "',
    'title="t"',
    'title="a]b"',
    'height="320"',
    'height="0x200"',
    'height="90"',
    'target="tool_card"',
    'target="assistant_message"',
    'class="c"',
    'class_name="k"',
    'style="s"',
    'ref=""',
    "ref=x",
    '"',
    "'",
    "=",
    "1",
    "x",
    " ",
    "\n",
    "\r\n",
    "\u2028",
    "\u00a0",
    "`",
    "``",
    "`[embed x]` ",
    "`[embed ",
    "` ",
    "```\n",
    "~~~\n",
    "    ",
    "> ",
    "- ",
    "[[reply_to:x]]",
    "MEDIA:/a.png",
    "[view ",
    "present_view",
    "\ud800",
    "\x00",
]

texts = st.lists(st.sampled_from(_PIECES), max_size=24).map("".join)
any_text = st.text(st.characters(exclude_categories=[]), max_size=200)
mixed = st.one_of(texts, any_text, st.tuples(texts, any_text, texts).map("".join))


# --------------------------------------------------------------------------- the model


def _model_attributes(raw: str) -> dict[str, str]:
    """§5.1-§5.2, one character at a time."""
    name_start = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
    name_chars = name_start | set("0123456789-")
    attrs: dict[str, str] = {}
    p = 0
    n = len(raw)
    while p < n:
        if raw[p] in name_start:
            q = p
            while q < n and raw[q] in name_chars:
                q += 1
            k = q
            while k < n and raw[k] in JS_WS:
                k += 1
            if k < n and raw[k] == "=":
                k += 1
                while k < n and raw[k] in JS_WS:
                    k += 1
                if k < n and raw[k] in "\"'":
                    close = raw.find(raw[k], k + 1)
                    if close >= 0:
                        value = js_trim(raw[k + 1 : close])
                        if value:
                            attrs[ascii_lower(raw[p:q])] = value
                        p = close + 1
                        continue
        p += 1
    return attrs


def _model_preview(attrs: dict[str, str]) -> dict[str, Any] | None:
    """§6, written as a table lookup."""
    if "target" in attrs and attrs["target"] != "assistant_message":
        return None
    ref, url = attrs.get("ref"), attrs.get("url")
    if ref is None and url is None:
        return None
    if url is None:
        assert ref is not None
        try:
            url = "/__openclaw__/canvas/documents/" + encode_uri_component(ref) + "/index.html"
        except ValueError:
            return None
    out: dict[str, Any] = {"kind": "canvas", "surface": "assistant_message", "render": "url"}
    out["url"] = url
    if ref is not None:
        out["viewId"] = ref
    if "title" in attrs:
        out["title"] = attrs["title"]
    if "height" in attrs:
        h = js_number(attrs["height"])
        if math.isfinite(h) and h >= 160:
            out["preferredHeight"] = min(int(h), 1200)
    cls = attrs.get("class") or attrs.get("class_name")
    if cls is not None:
        out["className"] = cls
    if "style" in attrs:
        out["style"] = attrs["style"]
    return out


def model(text: str) -> tuple[str, list[dict[str, Any]]]:
    """EMBED.md §1-§7 as literally as possible."""
    low = ascii_lower(text)
    if not js_trim(text) or "[embed" not in low:
        return text, []
    codes = CodeMap(text)
    found: list[tuple[int, int, bool, str]] = []
    for block in (True, False):
        i = 0
        while i < len(text):
            if low.startswith("[embed", i) and i + 6 < len(text) and text[i + 6] in JS_WS:
                r = text.find("]", i + 7)
                end = -1
                if r >= 0 and text[r - 1] == "/" and not block:
                    end = r + 1
                    raw = text[i + 7 : r - 1]
                elif r >= 0 and text[r - 1] != "/" and block:
                    q = low.find("[/embed]", r + 1)
                    if q >= 0:
                        end = q + len("[/embed]")
                        raw = text[i + 7 : r]
                if end >= 0:
                    if not codes.in_code(i):
                        found.append((i, end, block, raw))
                    i = end
                    continue
            i += 1
    found.sort(key=lambda f: (f[0], not f[2]))
    out = []
    previews = []
    cursor = 0
    for start, end, _block, raw in found:
        if start < cursor:
            continue
        out.append(text[cursor:start])
        preview = _model_preview(_model_attributes(raw))
        if preview is None:
            out.append(text[start:end])
        else:
            previews.append(preview)
        cursor = end
    out.append(text[cursor:])
    return "".join(out), previews


# --------------------------------------------------------------------------- properties


@settings(max_examples=1000, deadline=None)
@given(mixed)
def test_agrees_with_the_model(text: str) -> None:
    result = extract_embeds(text)
    expected_text, expected_previews = model(text)
    assert result.text == expected_text
    assert [p.to_wire() for p in result.previews] == expected_previews


@settings(max_examples=400, deadline=None)
@given(mixed)
def test_never_raises_and_loses_nothing(text: str) -> None:
    result = extract_embeds(text)
    assert rebuild(result) == text
    for d in result.diagnostics:
        assert d.start is not None and d.end is not None
        assert 0 <= d.start <= d.end <= len(text)


@settings(max_examples=400, deadline=None)
@given(mixed)
def test_text_is_the_input_minus_exactly_the_preview_shortcodes(text: str) -> None:
    result = extract_embeds(text)
    assert len(result.spans) == len(result.previews)
    pieces = []
    cursor = 0
    for span in result.spans:
        assert cursor <= span.start < span.end
        assert ascii_lower(text[span.start : span.start + 6]) == "[embed"
        pieces.append(text[cursor : span.start])
        cursor = span.end
    pieces.append(text[cursor:])
    assert result.text == "".join(pieces)


@settings(max_examples=400, deadline=None)
@given(mixed)
def test_previews_only_come_from_shortcodes_outside_code(text: str) -> None:
    result = extract_embeds(text)
    codes = CodeMap(text)
    for span in result.spans:
        assert not codes.in_code(span.start)


@settings(max_examples=300, deadline=None)
@given(mixed)
def test_diagnostics_do_not_depend_on_being_asked(text: str) -> None:
    # Diagnostics never change outputs: the delivery helper (no explanations) finds the very
    # shortcodes extract_embeds removed.
    from richout.embed.parse import embeds_for_delivery_diagnostics

    result = extract_embeds(text)
    delivery = embeds_for_delivery_diagnostics(text)
    assert [(d.start, d.end) for d in delivery] == [(s.start, s.end) for s in result.spans]


_CODE_PIECES = [
    *_PIECES,
    *("- ", "> ", "1. ", "\n\n", "  ", "\t", "```js ", "~~~~\n", "\r", "    - ", "   ```\n"),
    *('```\n[embed ref="a" /]\n```\n', "> ```\n", '    [embed ref="c" /]\n'),
]


def test_a_shortcode_is_in_code_as_the_full_parse_says() -> None:
    """``ShortcodeCode`` against the full CommonMark parse at every shortcode the two scans
    find, on generated Markdown with fences, indented code, lists, quotes, code spans and
    CR breaks, short and long (a long line, or a run of CR-broken lines, before them). A
    seeded sweep: hypothesis's draws cost more than the checks."""
    rng = random.Random(20261206)
    by_line = in_block = long = 0
    for i in range(6000):
        text = "".join(rng.choice(_CODE_PIECES) for _ in range(rng.randint(1, 30)))
        if i % 4 == 0:
            text = rng.choice(["x" * 4100 + "\n\n", "a\r" * 2100]) + text
        index = OpenerIndex(text)
        if not index.openers:
            continue
        full = CodeMap(text).full()
        coded = ShortcodeCode(text, CodeMap(text))
        for found in index.scan(True) + index.scan(False):
            at = found.start
            answer = coded.in_code(at)
            assert answer == full.in_code(at), (text, at)
            if coded.blocks and not coded.gaps.may_cover(at):
                by_line += 1
                in_block += answer
                long += len(text) > 4096
    # Not vacuous: the line question answered often, both ways, in long texts too.
    assert by_line > 1000 and in_block > 100 and long > 200, (by_line, in_block, long)


@pytest.mark.pure_python(why="counts calls of a compiled class's method")
def test_many_shortcodes_on_one_line_ask_its_block_question_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counted, not timed: 5,000 shortcodes on one long line with a block elsewhere cost
    one line question and no look around each (which read the line once per shortcode)."""
    text = "    code\n\n" + '[embed ref="a" /] x ' * 5000
    asked: list[tuple[int, int]] = []
    real = CodeMap.line_in_block

    def counting(self: CodeMap, start: int, end: int) -> bool:
        asked.append((start, end))
        return real(self, start, end)

    monkeypatch.setattr(CodeMap, "line_in_block", counting)
    coded = ShortcodeCode(text, CodeMap(text))
    index = OpenerIndex(text)
    answers = {coded.in_code(f.start) for f in index.scan(False)}
    assert answers == {False} and asked == [(10, len(text))]


class _CountedText(str):
    """A text that counts the characters its ``find`` and ``rfind`` calls may read."""

    read = 0

    def find(self, sub: str, start: Any = None, end: Any = None) -> int:  # type: ignore[override]
        lo, hi, _ = slice(start, end).indices(len(self))
        _CountedText.read += max(hi - lo, 0)
        return str.find(self, sub, lo, hi)

    def rfind(self, sub: str, start: Any = None, end: Any = None) -> int:  # type: ignore[override]
        lo, hi, _ = slice(start, end).indices(len(self))
        _CountedText.read += max(hi - lo, 0)
        return str.rfind(self, sub, lo, hi)


@pytest.mark.pure_python(why="hands the compiled class a str subclass that counts its reads")
@pytest.mark.parametrize(
    "make",
    [
        lambda n: "```\n" + '[embed ref="a" /] \r' * n,  # CR-broken lines in an open fence
        lambda n: "    c\r\n\r\n" + '[embed ref="a" /] x\r\n' * n,
        lambda n: "a\r" + '[embed ref="a" /]\n    x\n' * n,  # one CR, then LF lines
        lambda n: "    c\n\n" + '[embed ref="a" /] ' * n,  # one long line
    ],
    ids=["cr_lines", "crlf_lines", "lf_lines_after_a_cr", "one_line"],
)
def test_finding_each_shortcodes_line_reads_the_text_about_once(make: Any) -> None:
    """Counted, not timed: the line searches of 4,000 shortcodes in order read the text
    a bounded number of times (a search for a line feed across CR-broken lines read the
    rest of the text once per line)."""
    text = make(4_000)
    coded = ShortcodeCode(_CountedText(text), CodeMap(text))
    _CountedText.read = 0
    for found in OpenerIndex(text).scan(False):
        coded.in_code(found.start)
    assert _CountedText.read <= 3 * len(text), (_CountedText.read, len(text))
