"""The fused split (``richout/media/fused.py``) gives exactly what the line walk gives.

A reply whose ``MEDIA:`` lines are all plain directives (or code, or prose) skips the walk,
its records and the segment builder; one the walk would not change, and whose tag pass
strips no audio tag, is kept whole. Every test here compares the pipelines' outputs with
the fused path taken and with it turned off (``fused_cuts`` answering None), on generated
replies built from the pieces that decide (blank and whitespace-only lines around removed
lines, code fences, tags, prose mentions) and on the realistic corpus; and checks that the
path is taken where it should be, so the comparison is not vacuous.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import richout
from richout.markdown.codemap import CodeMap
from richout.media import fused
from richout.media import pipeline as media_pipeline
from richout.media.lines import MEDIA_AT_BOUNDARY, media_colon, next_directive_token
from richout.models import Segment, media_segment, text_segment
from richout.profiles import PROFILES
from richout.text.chars import js_rtrim

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import make_corpus

_SPLIT_OUT = ("text", "media_urls", "audio_as_voice", "segments", "rejected_media_count")
_REPLY_OUT = ("text", "media_urls", "audio_as_voice", "reply_to_id", "is_silent")
_RENDER_OUT = ("text", "reply_target", "audio_as_voice", "attachments", "content")

_LINES = st.sampled_from(
    [
        "MEDIA:/tmp/a.png",
        "MEDIA: https://example.com/b.png",
        "  media:`/srv/c.mp3`",
        "\tMEDIA:./d.png",
        "MEDIA:/tmp/a.png",
        "MEDIA:https://127.0.0.1/x.png",  # refused and counted: the line leaves
        "MEDIA: /tmp/e.png caption",  # one spaced path (§6.8)
        "MEDIA: https://example.com/e.png caption",  # the caption stays: the line is rewritten
        'MEDIA:"/tmp/a b.png"',
        "MEDIA:'~/My File.wav'",
        "MEDIA:/tmp/a.png /tmp/b.png",
        "MEDIA:/tmp/a.png, /tmp/b.png",
        "MEDIA:`https://example.com/a b.mp4`",
        "MEDIA:~/Desktop/Screen Shot 2.png",
        "MEDIA:field_1.webp",
        "MEDIA:screenshot",
        "  MEDIA:screenshot",
        "MEDIA:screenshot  now",
        'MEDIA:"=]',  # no / \ ~ . : in the payload: kept without reading it
        'MEDIA:"=.1]',  # bare names (the bare-token lane): delivered as "=.1"
        "MEDIA:[a.png]",
        "MEDIA: ..",  # refused and kept as written
        "  MEDIA:'x.abcdefghijk",  # no extension: refused, the line is rewritten
        "  MEDIA: 'a' b ",
        'MEDIA:["a", "b"]',
        "MEDIA:http://example.com/a.png",
        "MEDIA: https://user:pw@example.com/a.png /tmp/c.png",
        "x MEDIA:/tmp/a.png",
        "MEDIA:",
        "See the media: folder",
        "MEDıA:/tmp/f.png",
        "Caption",
        " One",
        "two  words ",
        "",
        " ",
        "\t",
        "\u3000",
        " \u00a0 ",
        "```",
        "~~~",
        "    indented",
        "- item",
        "> quote",
        "[[audio_as_voice]]",
        "`[[audio_as_voice]]` in code",
        "  [[ Audio_As_Voice ]] spoken",
        "[[reply_to_current]] Here",
        "`code`",
        "NO_REPLY",
    ]
)
_REPLIES = st.lists(_LINES, min_size=1, max_size=10).map("\n".join) | st.builds(
    lambda lead, body, tail: lead + body + tail,
    st.sampled_from(["", "\n", "\n\n", " \n", "\t\n\n", "\r\n"]),
    # A CR inside the body (a CRLF or a lone CR between lines) sends the reply to the walk.
    st.lists(_LINES, min_size=1, max_size=8).map("\n".join)
    | st.lists(_LINES, min_size=2, max_size=6).map("\r\n".join)
    | st.lists(_LINES, min_size=2, max_size=6).map("\r".join),
    st.sampled_from(["", "\n", " ", "\n\n \n", "\r\n"]),
)
#: The split's options that decide whether the short ways may run at all.
_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "preserve_trailing_whitespace": st.booleans(),
        "extract_media_directives": st.booleans(),
        "extract_audio_directives": st.booleans(),
        "extract_markdown_images": st.booleans(),
        "policy": st.just(richout.Policy(allow_local_files=False)),
    },
)
_SETTINGS = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _outputs(text: str, profile: str, options: dict[str, Any] | None = None) -> tuple[Any, ...]:
    opts = options or {}
    split = richout.split_media(text, profile=profile, **opts)
    policy = opts.get("policy")
    reply = richout.parse_reply(text, current_message_id="m1", profile=profile, policy=policy)
    render = richout.render_reply(text, profile=profile, policy=policy)
    return (
        [getattr(split, n) for n in _SPLIT_OUT],
        split.model_fields_set,
        [getattr(reply, n) for n in _REPLY_OUT],
        reply.model_fields_set,
        [getattr(render, n) for n in _RENDER_OUT],
        render.model_fields_set,
    )


@contextmanager
def _walk_only() -> Iterator[None]:
    """Every reply goes through the line walk, as before the fused path existed: no fused
    split, no reply kept whole for holding no audio tag, and no tag pass without the walk."""
    real = media_pipeline.fused_cuts, media_pipeline.strips_no_audio_tag, media_pipeline._tags_only
    media_pipeline.fused_cuts = lambda raw, profile, cmap, first=None: None
    media_pipeline.strips_no_audio_tag = lambda raw, audio_on, profile: False
    media_pipeline._tags_only = lambda *args, **kwargs: None
    try:
        yield
    finally:
        (
            media_pipeline.fused_cuts,
            media_pipeline.strips_no_audio_tag,
            media_pipeline._tags_only,
        ) = real


def _assert_fused_equals_walk(
    text: str, profile: str, options: dict[str, Any] | None = None
) -> None:
    fast = _outputs(text, profile, options)
    with _walk_only():
        walked = _outputs(text, profile, options)
    assert fast == walked, text


@pytest.mark.pure_python(why="replaces a compiled module's function")
@_SETTINGS
@given(_REPLIES, st.sampled_from(sorted(PROFILES)))
@example("A\nMEDIA:/srv/a.png\n\nMEDIA:/srv/b.png\n\nB", "next")
@example("Caption\n\nMEDIA:/srv/a.png\n\nMore\nMEDIA:/srv/b.png", "next")
@example("MEDIA:/srv/a.png\n \nB\n\u3000\nC", "next")
@example("x\nMEDIA:/srv/a.png\n\n", "next")
@example("A\nMEDIA:https://127.0.0.1/x.png\n\nB\nMEDIA:/a.png\n \nC", "next")
def test_fused_split_gives_what_the_walk_gives(text: str, profile: str) -> None:
    _assert_fused_equals_walk(text, profile)


@pytest.mark.pure_python(why="replaces a compiled module's function")
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_REPLIES, st.sampled_from(sorted(PROFILES)), _OPTIONS)
def test_the_split_options_keep_the_short_ways_exact(
    text: str, profile: str, options: dict[str, Any]
) -> None:
    """Trailing whitespace kept, extraction switched off, images on, a gateway policy."""
    _assert_fused_equals_walk(text, profile, options)


@pytest.mark.pure_python(why="replaces a compiled module's function")
def test_a_profile_with_the_releases_rule_1_reads_as_the_walk() -> None:
    """Under rule 1 without ASCII case (``MEDıA:`` passes), a directive line may hold text
    before its ``MEDIA:``, which becomes a text segment: such a line is rewritten, so the
    walk reads it."""
    profile = dataclasses.replace(PROFILES["next"], ascii_media_prefix=False)
    text = "MED\u0131A: x MEDIA:/tmp/a.png\nB"
    fast = richout.split_media(text, profile=profile)
    with _walk_only():
        walked = richout.split_media(text, profile=profile)
    assert [getattr(fast, n) for n in _SPLIT_OUT] == [getattr(walked, n) for n in _SPLIT_OUT]
    assert fast.segments is not None
    assert [s.text or s.url for s in fast.segments] == ["MED\u0131A: x", "/tmp/a.png", "B"]


@pytest.mark.pure_python(why="replaces a compiled module's function")
def test_split_media_takes_the_short_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: ``run_split`` reaches the fused split and keeps unchanged replies whole,
    and not where an option rules them out."""
    taken: list[str] = []
    for name in ("fused_split", "_kept_whole", "_tags_only"):
        real = getattr(media_pipeline, name)

        def spy(*args: Any, _name: str = name, _real: Any = real, **kwargs: Any) -> Any:
            taken.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(media_pipeline, name, spy)

    def ways(text: str, **options: Any) -> list[str]:
        taken.clear()
        richout.split_media(text, **options)
        return list(taken)

    directive = "Here:\nMEDIA:/tmp/a.png\nMEDIA:'/tmp/b c.png'"
    assert ways(directive) == ["fused_split"]
    assert ways("```\nMEDIA:/tmp/a.png\n```") == ["_kept_whole"]
    assert ways("[[reply_to_current]] Hi") == ["_tags_only", "_kept_whole"]
    # An audio tag and no media: the tag pass alone; a voice flag it finds in code is not
    # one, and the text is kept whole.
    assert ways("[[audio_as_voice]] Hi") == ["_tags_only"]
    assert ways("`[[audio_as_voice]]` Hi") == ["_tags_only", "_kept_whole"]
    assert ways("[[audio_as_voice]] Hi", preserve_trailing_whitespace=True) == ["_tags_only"]
    assert ways("[[audio_as_voice]] Hi", extract_markdown_images=True) == []
    assert ways(directive, preserve_trailing_whitespace=True) == []
    assert ways(directive, policy=richout.Policy(allow_local_files=False)) == []
    assert ways(directive, extract_markdown_images=True) == []
    assert ways(directive.replace("\n", "\r\n")) == []


@pytest.mark.pure_python(why="replaces a compiled module's function")
def test_fused_split_on_the_corpus() -> None:
    replies, _meta = make_corpus.make_replies(20260520, 600)
    fast = [_outputs(text, "next") for text in replies]
    with _walk_only():
        walked = [_outputs(text, "next") for text in replies]
    for text, a, b in zip(replies, fast, walked, strict=True):
        assert a == b, text


def _fused_taken(text: str, profile: str = "next") -> bool:
    prof = PROFILES[profile]
    raw = js_rtrim(text)
    found = media_pipeline.fused_cuts(raw, prof, CodeMap(raw))
    return found is not None and bool(found.cuts)


def test_the_fused_path_is_taken_where_it_should_be() -> None:
    """Not vacuous: lines that leave whole take it; a line the walk rewrites does not."""
    prof = PROFILES["next"]
    assert _fused_taken("Here:\nMEDIA:/tmp/a.png\n  media: `https://example.com/b.mp4`")
    assert _fused_taken("See the media: folder\nMEDIA:/tmp/a.png\n```\nMEDIA:/x.png\n```")
    assert _fused_taken("[[audio_as_voice]]\nMEDIA:/tmp/a.ogg")
    assert _fused_taken('MEDIA:"/tmp/a b.png"\nMEDIA:/tmp/c.png /tmp/d.png')  # payload steps
    assert _fused_taken("MEDIA:https://127.0.0.1/a.png")  # refused and counted: it leaves
    assert not _fused_taken("MEDIA:https://example.com/a.png caption")  # the caption stays
    assert not _fused_taken("  MEDIA:screenshot")  # kept, trimmed
    assert not _fused_taken("Here:\r\nMEDIA:/tmp/a.png")  # CR breaks
    mention = "See the media: folder"
    assert media_pipeline.fused_cuts(mention, prof, CodeMap(mention)) == ([], 0)
    assert not _fused_taken("MEDIA:/tmp/a.png", "release-2026.9.6")  # its own tag module
    # Kept whole: nothing to remove and no audio tag; an audio tag goes the general way.
    assert media_pipeline.strips_no_audio_tag("[[reply_to_current]] Hi", True, prof)
    assert not media_pipeline.strips_no_audio_tag("[[ Audio_As_Voice ]] Hi", True, prof)
    assert not media_pipeline.strips_no_audio_tag("x", True, PROFILES["release-2026.9.6"])
    replies, _meta = make_corpus.make_replies(20260520, 600)
    walked = [t for t in replies if richout.split_media(t).media_urls]
    taken = [t for t in walked if _fused_taken(t)]
    # Most corpus replies with a delivered reference take it.
    assert len(taken) * 2 > len(walked)


def test_text_without_removes_lines_as_the_walk_does() -> None:
    raw = "A\nMEDIA:/a\n\nB\nMEDIA:/b"
    cuts = [(2, 10, ["/a"]), (14, 22, ["/b"])]
    assert fused.text_without(raw, cuts) == "A\n\nB"
    assert fused.text_without("MEDIA:/a\n \nB", [(0, 8, ["/a"])]) == "B"


@given(st.text(max_size=40))
def test_direct_segments_equal_trusted_ones(s: str) -> None:
    for direct, trusted in (
        (text_segment(s), Segment.trusted(type="text", text=s)),
        (media_segment(s), Segment.trusted(type="media", url=s)),
    ):
        assert direct == trusted
        assert direct.__dict__ == trusted.__dict__
        assert direct.model_fields_set == trusted.model_fields_set
        assert direct.to_wire() == trusted.to_wire()
        assert Segment.from_wire(direct.to_wire()) == direct


@pytest.mark.pure_python(why="counts calls of a compiled module's function")
def test_the_fused_split_gives_up_at_the_first_line_it_cannot_take(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not vacuous: a caption left visible ends the fused reading at its line, without
    # finding the directive lines after it first (a megabyte of them was scanned whole).
    found: list[int] = []
    real = fused.media_colon

    def counting(text: str, start: int) -> int:
        found.append(start)
        return real(text, start)

    monkeypatch.setattr(fused, "media_colon", counting)
    raw = "\n".join(["MEDIA:https://e.example/a.png the chart"] + ["MEDIA:/tmp/x.png"] * 1000)
    assert fused.directive_cuts(raw, PROFILES["next"], CodeMap(raw)) is None
    assert len(found) <= 2
    plain = "MEDIA:/tmp/x.png\n" * 3
    cuts = fused.directive_cuts(plain, PROFILES["next"], CodeMap(plain))
    assert cuts is not None and len(cuts.cuts) == 3


_MEDIA_COLON = re.compile(r"(?=(?ai:media):)")


@given(
    st.text(alphabet=st.sampled_from(list("mMeEdDiIaA: x\nİ\u212a")), max_size=30),
    st.integers(5, 35),
)
@example("media:", 5)
@example("a:media:", 5)
@example("MeDiA: MEDIA:", 7)
def test_the_media_colon_is_the_first_media_token_from_start(text: str, start: int) -> None:
    """``media_colon`` against the token's definition: ``media:`` in ASCII letter case
    only (not İ or the Kelvin sign), its colon at or after ``start``."""
    colons = (m.start() + 5 for m in _MEDIA_COLON.finditer(text))
    assert media_colon(text, start) == next((i for i in colons if i >= start), -1)


@given(
    st.lists(st.sampled_from(["media:", "MeDiA:", ":", "a:", "x", "_", " ", "//", "İ"]))
    .map("".join)
    .map(lambda t: t[:40]),
    st.integers(0, 40),
    st.integers(0, 40),
)
@example("http://x/a.png", 0, 14)
@example("a MEDIA:b", 2, 9)
@example("xmedia: media://x", 0, 17)
def test_the_next_directive_token_is_the_first_one_the_regex_finds(
    text: str, start: int, end: int
) -> None:
    """``next_directive_token`` (which asks the colons first) against its definition: the
    first :data:`MEDIA_AT_BOUNDARY` match in ``text[start:end]`` not followed by ``//``."""
    start, end = min(start, len(text)), min(max(start, end), len(text))
    matches = MEDIA_AT_BOUNDARY.finditer(text, start, end)
    expected = next((m.start() for m in matches if not text.startswith("//", m.end())), -1)
    assert next_directive_token(text, start, end) == expected


@pytest.mark.parametrize("with_segments", [False, True])
def test_a_split_paths_lazy_result_is_the_generic_one(with_segments: bool) -> None:
    """``lazy_split`` sets the fields the generic builder sets, segments or none (a view's
    own split leaves them out), with the shared fields set of those names."""
    fields: dict[str, Any] = {
        "text": "a",
        "media_urls": ["/tmp/a.png"],
        "audio_as_voice": True,
        "rejected_media_count": 1,
    }
    if with_segments:
        fields["segments"] = [text_segment("a"), media_segment("/tmp/a.png")]

    def explainer() -> richout.MediaSplit:
        return richout.split_media("a\nMEDIA:/tmp/a.png", explain=True)

    direct = fused.lazy_split(explainer, dict(fields))
    generic = richout.MediaSplit.lazy(explainer, **fields)
    assert direct.model_fields_set == generic.model_fields_set
    assert direct.__dict__ == generic.__dict__
