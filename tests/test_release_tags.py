"""The release-2026.9.6 tag layer (richout.tags.release) against the release's own results.

* every ``directives`` case of ``shared/vectors/profiles/release-2026.9.6``;
* the ``reply`` cases without a ``media:`` token, through a test-side copy of what the
  release's media split does to such a reply (see :func:`_split_without_media`);
* outputs pinned from running the published package with node;
* models: a plain transcription of the release's algorithm with backtracking regexes, string
  rebuilding and UTF-16 units, which shares no scanner with the module, run on generated
  tag-dense text;
* facts that hold in the release by construction (and were checked on the package with node);
* a work count showing the scanners look at each character a bounded number of times.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import richout.tags.release_delivery as delivery_module
import richout.tags.release_reader as reader_module
from richout.markdown.codemap import CodeMap
from richout.policy.fileurl import file_url_to_path
from richout.policy.fileurl import file_url_to_path as reply_file_url_to_path
from richout.tags.release import ReleaseDirectives, parse_inline_directives, reply_text
from richout.tags.release_delivery import strip_for_delivery
from richout.tags.scan import Finder
from richout.tags.scan import blank_end as real_blank_end
from richout.tags.scan import ws_end as real_ws_end
from richout.tags.silent import is_silent
from richout.text.chars import JS_WS, JS_WS_CLASS, js_rtrim, js_trim

VECTORS = Path(__file__).parents[1].parent / "shared" / "vectors"
RELEASE = VECTORS / "profiles" / "release-2026.9.6"
_MISSING = f"reference vectors not found at {RELEASE} (a checkout of ../shared is needed)"


def _cases(name: str) -> list[Any]:
    """The cases of one vectors file, or one skipped placeholder when the folder is absent."""
    path = RELEASE / name
    if not path.is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=_MISSING), id="missing")]
    return [pytest.param(case, id=case["id"]) for case in json.loads(path.read_text("utf-8"))]


def _as_release(result: ReleaseDirectives) -> dict[str, Any]:
    return {
        "text": result.text,
        "audioAsVoice": result.audio_as_voice,
        "replyToId": result.reply_to_id,
        "replyToExplicitId": result.reply_to_explicit_id,
        "replyToCurrent": result.reply_to_current,
        "hasAudioTag": result.has_audio_tag,
        "hasReplyTag": result.has_reply_tag,
    }


# --------------------------------------------------------------------------- vectors


@pytest.mark.parametrize("case", _cases("directives.json"))
def test_directives_vectors(case: dict[str, Any]) -> None:
    options = case["options"]
    result = parse_inline_directives(
        case["input"],
        current_message_id=options.get("currentMessageId"),
        strip_audio_tag=options.get("stripAudioTag", True),
        strip_reply_tags=options.get("stripReplyTags", True),
    )
    got = _as_release(result)
    for key, want in case["expect"].items():
        if isinstance(got[key], bool):
            # In the vectors a flag is null or false when the release left it out.
            assert got[key] is bool(want), key
        else:
            assert got[key] == want, key


_LEADING_BLANK_LINES = re.compile(r"^(?:[ \t]*\n)+")


def _split_without_media(raw: str) -> str:
    """The release's media split on a reply with no ``media:`` token (parse-output.ts).

    The text is trimmed at its end; a blank text is empty. Without ``[[`` that is all. With
    ``[[`` the audio tags are read on the text without its leading blank lines, and only
    when one was found (outside code) does the split return that parse's text.
    """
    trimmed = js_rtrim(raw)
    if not js_trim(trimmed):
        return ""
    if "[[" not in trimmed:
        return trimmed
    audio = parse_inline_directives(_LEADING_BLANK_LINES.sub("", trimmed), strip_reply_tags=False)
    return js_rtrim(audio.text) if audio.audio_as_voice else trimmed


def _reply_cases() -> list[Any]:
    return [
        case
        for case in _cases("reply.json")
        if not isinstance(case.values[0], dict)
        or not re.search("media:", case.values[0]["input"], re.IGNORECASE)
    ]


@pytest.mark.parametrize("case", _reply_cases())
def test_reply_vectors_without_media(case: dict[str, Any]) -> None:
    want = case["expect"]
    assert want["mediaUrls"] is None
    got = reply_text(
        _split_without_media(case["input"]),
        current_message_id=case["options"].get("currentMessageId"),
    )
    assert got.text == want["text"]
    assert got.reply_to_id == want["replyToId"]
    assert got.reply_to_current is bool(want["replyToCurrent"])
    assert got.reply_to_tag is want["replyToTag"]
    assert got.is_silent is want["isSilent"]


# --------------------------------------------------------------------------- pinned outputs

# (input, options, text, replyToId) as the published package returns them (node, 2026.9.6).
PARSE_PINS: list[tuple[str, dict[str, Any], str, str | None]] = [
    ("a  [[reply_to_current]]  b\n\n\n\nc", {"current_message_id": "m1"}, "a b\n\nc", "m1"),
    # Gap matches do not overlap: the second run survives.
    ("a  b  c [[reply_to_current]]", {}, "a b  c", None),
    # A leading line feed survives: "^\n+" runs before spaces before a line feed go.
    ("[[audio_as_voice]] \nword", {}, "\nword", None),
    # "[[" with no tag: returned exactly; no "[[" at all: normalised.
    ("a  b [[foo]]", {}, "a  b [[foo]]", None),
    ("a  b", {}, "a b", None),
    # UTF-16: an astral character after a run is consumed by half.
    ("a  \U0001f600  b [[audio_as_voice]]", {}, "a \U0001f600 b", None),
    # Word boundaries are judged on the stage's input: adjacent tags both leave a space.
    ("x[[audio_as_voice]][[audio_as_voice]]y", {}, "x y", None),
    ("[[reply_to:   ]] hi", {"current_message_id": "m1"}, "hi", None),
    ("[[reply_to: abc\n]] hi", {}, "hi", "abc"),
    (
        "[[reply_to_current]] [[reply_to:x]] [[reply_to_current]]",
        {"current_message_id": "m"},
        "",
        "x",
    ),
    ("Use `[[reply_to_current]]`  here", {}, "Use `[[reply_to_current]]`  here", None),
    # The parse is ASCII case-insensitive; only the delivery strip folds U+017F.
    ("[[audio_a\u017f_voice]] hi", {}, "[[audio_a\u017f_voice]] hi", None),
    ("hi\n[[reply_to_current]]  \n", {"preserve_trailing_whitespace": True}, "hi\n\n", None),
    ("hi [[reply_to_current]]  \n", {"preserve_trailing_whitespace": True}, "hi   \n", None),
]

STRIP_PINS: list[tuple[str, str]] = [
    ("[[audio_a\u017f_voice]] hi", "hi"),
    ("  [[reply_to_current] hello", "hello"),
    ("[[reply_to: 12] hello", "hello"),
    ("a [[reply_to_current]]\n\n    code", "a\n\n    code"),
    ("x\n[[reply_to_current] hello", "x\n[[reply_to_current] hello"),
    ("[[reply_to_current]]\n\n    code\n", "    code"),
]


@pytest.mark.parametrize(("text", "options", "want", "reply_to_id"), PARSE_PINS)
def test_parse_pins(text: str, options: dict[str, Any], want: str, reply_to_id: str | None) -> None:
    result = parse_inline_directives(text, **options)
    assert result.text == want
    assert result.reply_to_id == reply_to_id


@pytest.mark.parametrize(("text", "want"), STRIP_PINS)
def test_strip_pins(text: str, want: str) -> None:
    assert strip_for_delivery(text) == want


def test_reply_pins() -> None:
    silent = reply_text("[[reply_to_current]] NO_REPLY", current_message_id="m1")
    assert (silent.text, silent.is_silent, silent.reply_to_id) == ("", True, "m1")
    kept = reply_text("[[reply_to_current]]    keep\n        this", current_message_id=None)
    assert kept.text == "    keep\n        this"
    assert kept.reply_to_current and kept.reply_to_tag and kept.reply_to_id is None


@pytest.mark.parametrize(
    ("source", "want"),
    [
        ("file:///tmp/a.png", "/tmp/a.png"),
        ("file://localhost/tmp/a%20b.png", "/tmp/a b.png"),
        ("file://host/x", "file://host/x"),
        ("file:///a%2Fb", "file:///a%2Fb"),
        ("file:///a%E9", "file:///a%E9"),
        ("/tmp/a.png", "/tmp/a.png"),
    ],
)
def test_file_url_to_path(source: str, want: str) -> None:
    assert file_url_to_path(source) == want == reply_file_url_to_path(source)


# --------------------------------------------------------------------------- the model

_WS = JS_WS_CLASS
_M_AUDIO = re.compile(rf"\[\[[{_WS}]*audio_as_voice[{_WS}]*\]\]", re.IGNORECASE | re.ASCII)
_M_REPLY = re.compile(
    rf"\[\[[{_WS}]*(?:reply_to_current|reply_to[{_WS}]*:[{_WS}]*([^\]\n]+))[{_WS}]*\]\]",
    re.IGNORECASE | re.ASCII,
)
_M_TAG = (
    rf"\[\[[{_WS}]*audio_a[s\u017f]_voice[{_WS}]*\]\]"
    rf"|\[\[[{_WS}]*(?:reply_to_current|reply_to[{_WS}]*:[{_WS}]*[^\]\n]+)[{_WS}]*\]\]"
)
# Python's "^" with a start position still means offset 0, as in a sticky JavaScript regex;
# "\Z" is JavaScript's "$" without the m flag.
_M_DELIVERY = re.compile(
    rf"(?:[{_WS}]*(?:{_M_TAG})[{_WS}]*"
    rf"|^[\t ]*\[\[[{_WS}]*(?:reply_to_current(?:[\t ]*\](?!\])|(?=[\t ]+[^{_WS}])|[\t ]*\Z)"
    rf"|reply_to[{_WS}]*:[{_WS}]*(?:[^\]\r\n]*\](?!\])|[\t ]*\Z))[\t ]*)",
    re.IGNORECASE | re.ASCII,
)


def _units(s: str) -> str:
    """``s`` as a string of UTF-16 code units (astral characters become surrogate pairs)."""
    b = s.encode("utf-16-le", "surrogatepass")
    return "".join(chr(int.from_bytes(b[i : i + 2], "little")) for i in range(0, len(b), 2))


def _from_units(u: str) -> str:
    return u.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


_BLANK_LINES_AFTER = re.compile(r"(?:(?:\r\n|\r|\n)[ \t]*)+(?=\r|\n|$)")


def _model_micromark_end(text: str, start: int, end: int) -> int:
    """The release's end of a code block: micromark keeps the whitespace-only lines indented
    four columns or more after a top-level indented block (markdown-it, and so CodeMap, ends
    the block at its last line with content)."""
    line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    first_line = re.split(r"\r|\n", text[start:], maxsplit=1)[0]
    indent = first_line[: len(first_line) - len(first_line.lstrip(" \t"))]
    if line_start != start or len(indent.expandtabs(4)) < 4 or indent == first_line:
        return end
    run = _BLANK_LINES_AFTER.match(text, end)
    if run is None:
        return end
    offset = end
    for line in re.finditer(r"(?:\r\n|\r|\n)([ \t]*)", run.group()):
        if len(line.group(1).expandtabs(4)) >= 4:
            offset = end + line.end()
    return offset


def _model_normalize(text: str, tail: str) -> str:
    sentinel = "\ue000"
    while sentinel in text:
        sentinel += "\ue000"
    blocks: list[str] = []
    masked = ""
    cursor = 0
    for region in CodeMap(text).regions():
        end = _model_micromark_end(text, region.start, region.end) if region.block else region.end
        blocks.append(text[region.start : end])
        masked += text[cursor : region.start] + sentinel + str(len(blocks) - 1) + sentinel
        cursor = end
    masked = _units(masked + text[cursor:])
    cut = len(masked.rstrip(JS_WS)) if tail == "preserve" else len(masked)
    body, suffix = masked[:cut], masked[cut:]
    body = body.replace("\r\n", "\n")
    body = re.sub(rf"([^{_WS}])[ \t]{{2,}}([^{_WS}])", r"\1 \2", body)
    body = re.sub(r"^\n+", "", body)
    body = re.sub(rf"^[ \t](?=[^{_WS}])", "", body)
    body = re.sub(r"[ \t]+\n", "\n", body)
    body = re.sub(r"\n{3,}", "\n\n", body)
    body = body.rstrip(JS_WS) if tail == "trim" else body + suffix
    return re.sub(f"{sentinel}([0-9]+){sentinel}", lambda m: blocks[int(m[1])], _from_units(body))


def _model_parse(
    text: str,
    current: str | None = None,
    strip_audio: bool = True,
    strip_reply: bool = True,
    preserve: bool = False,
) -> ReleaseDirectives:
    if not text:
        return ReleaseDirectives("")
    if "[[" not in text:
        return ReleaseDirectives(_model_normalize(text, "preserve" if preserve else "trim"))
    seen: dict[str, Any] = {"audio": False, "reply": False, "current": False, "id": None}
    trailing = [False]

    def remove(m: re.Match[str], strip: bool) -> str:
        source, start, end = m.string, m.start(), m.end()
        if not strip:
            return m.group()
        if preserve and not trailing[0] and end == len(js_rtrim(source)):
            line = source[:start].replace("\r", "\n").rsplit("\n", 1)[-1]
            trailing[0] = line.strip(" \t") == ""
        before = source[start - 1] if start > 0 else ""
        after = source[end] if end < len(source) else ""
        visible = before and after and before not in JS_WS and after not in JS_WS
        return " " if visible else ""

    def audio(m: re.Match[str]) -> str:
        if CodeMap(m.string).in_code(m.start()):
            return m.group()
        seen["audio"] = True
        return remove(m, strip_audio)

    def reply(m: re.Match[str]) -> str:
        if CodeMap(m.string).in_code(m.start()):
            return m.group()
        seen["reply"] = True
        if m.group(1) is None:
            seen["current"] = True
        else:
            clean = js_trim(re.sub(r"[\x00-\x1f\x7f-\x9f\[\]]", "", js_trim(m.group(1))))[:256]
            if clean:
                seen["id"] = clean
        return remove(m, strip_reply)

    out = _M_REPLY.sub(reply, _M_AUDIO.sub(audio, text))
    if seen["audio"] or seen["reply"]:
        tail = ("normalize" if trailing[0] else "preserve") if preserve else "trim"
        out = _model_normalize(out, tail)
    if not (seen["audio"] or seen["reply"]):
        return ReleaseDirectives(out)
    reply_id = seen["id"]
    if reply_id is None and seen["current"]:
        reply_id = js_trim(current or "") or None
    return ReleaseDirectives(
        out, seen["audio"], reply_id, seen["id"], seen["current"], seen["audio"], seen["reply"]
    )


def _model_strip(text: str, preserve: bool = False) -> str:
    edits: list[tuple[int, int, str]] = []
    regions = CodeMap(text).regions()
    search = previous = 0
    while "[[" in text and search < len(text):
        marker = text.find("[[", search)
        if marker < 0:
            break
        start = marker
        while start > previous and text[start - 1] in JS_WS:
            start -= 1
        m = _M_DELIVERY.match(text, start)
        search = m.end() if m else marker + 1
        if not m:
            continue
        previous = search
        if any(r.start <= marker < r.end for r in regions):
            continue
        keep = any(r.block and marker < r.start <= search for r in regions)
        end = start + len(js_rtrim(m.group())) if keep else search
        edits.append((start, end, " " if not keep and "]]" in m.group() else ""))
    if not edits:
        return text
    for start, end, new in reversed(edits):
        text = text[:start] + new + text[end:]
    trimmed = text.lstrip(JS_WS)
    if trimmed and len(trimmed) != len(text):
        first = len(text) - len(trimmed)
        for r in CodeMap(text).regions():
            if r.block and r.start <= first < r.end:
                trimmed = text[r.start :]
                break
    return trimmed if preserve else js_rtrim(trimmed)


ATOMS = [
    "[[reply_to_current]]", "[[audio_as_voice]]", "[[reply_to:abc]]", "[[ Reply_To : x y ]]",
    "[[AUDIO_AS_VOICE]]", "[[audio_a\u017f_voice]]", "[[reply_to:\n]]", "[[reply_to: \n]]",
    "[[reply_to:a\n]]", "[[reply_to:a\nb]]", "[[reply_to:   ]]", "[[reply_to:]]",
    "[[reply_to_current]", "[[reply_to_current ", "[[reply_to:abc]", "[[reply_to:abc] ",
    "[[reply_to:", "[[", "]]", "]", "[", "[[reply_to:a[b]]", "[[reply_to:\x01z]]",
    "[[ \n audio_as_voice \n ]]", "[[reply_to\n:\nq]]", "[[reply_to: a\r\n]]", "[[foo]]",
    " ", "  ", "   ", "\t", "\n", "\n\n", "\n\n\n", "\r\n", "\r", "\u00a0", "\u3000",
    "word", "x.", "7", "12", "\ue000", "\U0001f600", "NO_REPLY", "`", "`code`",
    "`[[reply_to_current]]`", "```\n", "~~~\n", "    ", "    code\n", "- ", "> ", "# ",
    "| a | b |\n| - | - |\n",
]  # fmt: skip

texts = st.lists(st.sampled_from(ATOMS), max_size=14).map("".join)


@settings(max_examples=400)
@given(
    texts,
    st.sampled_from([None, "m1", "  "]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
# Found by a run: whitespace lines after indented code, kept by the release (micromark).
@example("    ```\n    ", None, False, False, False)
def test_parse_matches_model(
    text: str, current: str | None, strip_audio: bool, strip_reply: bool, preserve: bool
) -> None:
    got = parse_inline_directives(
        text,
        current_message_id=current,
        strip_audio_tag=strip_audio,
        strip_reply_tags=strip_reply,
        preserve_trailing_whitespace=preserve,
    )
    assert got == _model_parse(text, current, strip_audio, strip_reply, preserve)


@settings(max_examples=400)
@given(texts, st.booleans())
def test_strip_matches_model(text: str, preserve: bool) -> None:
    assert strip_for_delivery(text, preserve_trailing_whitespace=preserve) == _model_strip(
        text, preserve
    )


@settings(max_examples=200)
@given(texts, st.booleans())
def test_reply_text_composes_parse_strip_and_silence(text: str, preserve: bool) -> None:
    parsed = (
        _model_parse(text, "m1", strip_audio=False, preserve=preserve) if "[[" in text else None
    )
    base = parsed.text if parsed and parsed.has_reply_tag else text
    stripped = _model_strip(base, preserve)
    got = reply_text(text, current_message_id="m1", preserve_trailing_whitespace=preserve)
    assert got.is_silent is is_silent(stripped)
    assert got.text == ("" if got.is_silent else stripped)
    assert got.reply_to_tag is (parsed is not None and parsed.has_reply_tag)
    assert got.reply_to_id == (parsed.reply_to_id if parsed else None)


# --------------------------------------------------------------------------- facts

# Names removed: "[[" stays but no tag can form (checked on 25,000 texts with node).
_NAMES = re.compile("reply_to|audio_a", re.IGNORECASE)
untagged = texts.map(lambda t: _NAMES.sub("zz", t))


@settings(max_examples=300)
@given(untagged.filter(lambda t: "[[" in t), st.booleans())
def test_text_with_brackets_but_no_tag_comes_back_exactly(text: str, preserve: bool) -> None:
    result = parse_inline_directives(text, preserve_trailing_whitespace=preserve)
    assert result == ReleaseDirectives(text)


@settings(max_examples=300)
@given(texts)
def test_strip_options_and_what_is_recognised(text: str) -> None:
    # Audio tags are read on the input, so no option changes them; reply tags are read after
    # the audio pass, so only stripping audio tags can change them (in the release too:
    # "[[reply_to:[[audio_as_voice]]" has the reply id "audio_as_voice" only when the audio
    # tag is kept).
    def audio(r: ReleaseDirectives) -> tuple[bool, bool]:
        return (r.has_audio_tag, r.audio_as_voice)

    def reply(r: ReleaseDirectives) -> tuple[object, ...]:
        return (r.has_reply_tag, r.reply_to_current, r.reply_to_explicit_id)

    for strip_audio in (True, False):
        stripped, kept = (
            parse_inline_directives(text, strip_audio_tag=strip_audio, strip_reply_tags=b)
            for b in (True, False)
        )
        assert reply(stripped) == reply(kept)
        assert audio(stripped) == audio(kept) == audio(parse_inline_directives(text))


@settings(max_examples=300)
@given(texts, st.sampled_from(["m1", " m2 ", "", None]))
def test_reply_ids(text: str, current: str | None) -> None:
    r = parse_inline_directives(text, current_message_id=current)
    if not r.has_reply_tag:
        assert (r.reply_to_id, r.reply_to_explicit_id, r.reply_to_current) == (None, None, False)
    if r.reply_to_explicit_id is not None:
        explicit = r.reply_to_explicit_id
        assert r.reply_to_id == explicit
        assert explicit == js_trim(explicit) and explicit and len(explicit) <= 256
        assert not re.search(r"[\x00-\x1f\x7f-\x9f\[\]]", explicit)
    elif r.reply_to_current:
        assert r.reply_to_id == (js_trim(current or "") or None)
    no_id = parse_inline_directives(text)
    assert (no_id.text, no_id.has_reply_tag) == (r.text, r.has_reply_tag)


# --------------------------------------------------------------------------- linear work


@contextmanager
def _count_scans() -> Iterator[list[int]]:
    """Count the characters the module's scanners step over (whitespace skips, memo finds)."""
    seen = [0]

    def ws_end(text: str, pos: int) -> int:
        end = real_ws_end(text, pos)
        seen[0] += end - pos + 1
        return end

    def blank_end(text: str, pos: int) -> int:
        end = real_blank_end(text, pos)
        seen[0] += end - pos + 1
        return end

    class CountingFinder(Finder):
        def find(self, pos: int) -> int:
            before = self._from
            hit = super().find(pos)
            if self._from != before:
                seen[0] += hit - pos + 1
            return hit

    with (
        mock.patch.object(reader_module, "ws_end", ws_end),
        mock.patch.object(reader_module, "blank_end", blank_end),
        mock.patch.object(reader_module, "Finder", CountingFinder),
        mock.patch.object(delivery_module, "ws_end", ws_end),
    ):
        yield seen


HOSTILE = [
    "[[reply_to:", "[[reply_to:a ", "[[", "[", "]", " ", "  ", "\n", "\t", "a",
    "[[reply_to_current", "[[ ", "[[audio_as_voice]]", "[[reply_to:a\n", "\n ",
]  # fmt: skip


@pytest.mark.pure_python(why="replaces a function that compiled callers call directly")
@settings(max_examples=60)
@given(st.lists(st.sampled_from(HOSTILE), min_size=1, max_size=12), st.integers(1, 300))
def test_scanners_do_bounded_work_per_character(pattern: list[str], repeat: int) -> None:
    text = "".join(pattern) * repeat
    with _count_scans() as seen:
        parse_inline_directives(text)
        strip_for_delivery(text)
        reply_text(text, current_message_id="m")
    # Several passes over the text (two tag stages, the strip, the reply's parse and strip),
    # each stepping over a character a bounded number of times.
    assert seen[0] <= 40 * (len(text) + 1)
    assert seen[0] > 0 or "[[" not in text  # the counted scanners ran
