"""Profiles (PROFILES.md): selection, errors, and the properties every profile keeps."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import richout
from richout.faces.jsonl import handle_request
from richout.models.lossless import rebuild
from richout.policy import is_valid_reference
from richout.profiles import DEFAULT_PROFILE, PROFILES, Profile, resolve_profile
from richout.text.chars import js_trim
from richout.text.patch import Edit, apply

NAMES = sorted(PROFILES)

# ---------------------------------------------------------------- selection and errors


def test_default_is_next_and_every_profile_is_listed() -> None:
    assert DEFAULT_PROFILE == "next"
    assert richout.PROFILES is PROFILES
    assert set(PROFILES) == {"next", "release-2026.9.6"}
    for name, profile in PROFILES.items():
        assert profile.name == name and profile.description


def test_a_profile_record_is_accepted_as_well_as_its_name() -> None:
    release = PROFILES["release-2026.9.6"]
    assert resolve_profile(release) is release
    text = "MEDIA:http://example.com/a.png"
    assert richout.split_media(text, profile=release) == richout.split_media(
        text, profile="release-2026.9.6"
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [("cr_lines", 1), ("hide_rejected", "yes"), ("normalize_rewritten_whitespace", None),
     ("name", 7), ("description", b"x")],
)  # fmt: skip
def test_a_hand_made_profile_with_a_wrong_type_is_refused(field: str, value: object) -> None:
    """Switches are bools and names are strings; a record built by hand is checked at once."""
    with pytest.raises(richout.InvalidInput, match=rf"Profile\.{field} must be a"):
        dataclasses.replace(PROFILES["next"], **{field: value})
    custom = dataclasses.replace(PROFILES["next"], name="mine", hide_rejected=False)
    assert richout.split_media("MEDIA:http://x.test/a.png", profile=custom).text != ""


@pytest.mark.parametrize(
    "call",
    [
        lambda p: richout.split_media("x", profile=p),
        lambda p: richout.parse_directives("x", profile=p),
        lambda p: richout.parse_reply("x", profile=p),
        lambda p: richout.extract_embeds("x", profile=p),
        lambda p: richout.render_reply("x", profile=p),
        lambda p: richout.StreamingParser(profile=p),
    ],
)
def test_unknown_profile_names_the_known_ones(call: Any) -> None:
    with pytest.raises(richout.InvalidOptions) as err:
        call("009d683")
    assert "'next'" in str(err.value) and "'release-2026.9.6'" in str(err.value)
    with pytest.raises(richout.InvalidInput):
        call(3)


def test_jsonl_profile_option_and_errors() -> None:
    text = "MEDIA:http://example.com/a.png"
    nxt = handle_request({"id": "1", "op": "media", "input": text})["output"]
    rel = handle_request(
        {"id": "2", "op": "media", "input": text, "options": {"profile": "release-2026.9.6"}}
    )["output"]
    assert (nxt["text"], nxt["rejectedMediaCount"]) == ("", 1)
    assert rel["text"] == text and "rejectedMediaCount" not in rel
    bad = handle_request({"id": "3", "op": "reply", "input": "x", "options": {"profile": "x"}})
    assert bad["error"]["type"] == "invalid_options"
    assert "release-2026.9.6" in bad["error"]["message"]
    typo = handle_request(
        {"id": "4", "op": "reply", "input": "x", "options": {"currentMessageID": "m"}}
    )
    assert typo["error"]["type"] == "invalid_options"
    assert "currentMessageId" in typo["error"]["message"]


@pytest.mark.parametrize("op", ["media", "directives", "reply", "embed", "render"])
def test_jsonl_explain_false_returns_only_the_output_keys(op: str) -> None:
    text = "[[reply_to_current]] Hi [[bogus]]\nMEDIA:http://x/a.png\n[embed ref='cv_1' /]"
    full = handle_request({"id": "1", "op": op, "input": text})["output"]
    bare = handle_request({"id": "1", "op": op, "input": text, "options": {"explain": False}})[
        "output"
    ]
    assert {"diagnostics", "spans", "edits"} & set(full)
    assert not {"diagnostics", "spans", "edits"} & set(bare)
    assert {k: v for k, v in full.items() if k not in ("diagnostics", "spans", "edits")} == bare


def test_rejected_count_is_on_the_wire_only_when_positive() -> None:
    assert "rejectedMediaCount" not in richout.split_media("MEDIA:/a.png").to_wire()
    r = richout.parse_reply("a\nMEDIA:https://127.0.0.1/x.png\nMEDIA:~bob/y.png")
    assert (r.text, r.rejected_media_count) == ("a", 2)
    assert r.to_wire()["rejectedMediaCount"] == 2
    # Bare words are not media sources: they stay text and are not counted.
    w = richout.split_media("MEDIA:screenshot").to_wire()
    assert (w["text"], "rejectedMediaCount" in w) == ("MEDIA:screenshot", False)


def test_preserve_trailing_whitespace_keeps_the_break_after_a_removed_last_line() -> None:
    text = "Hello\nMEDIA:/a.png\n"
    kept = richout.split_media(text, preserve_trailing_whitespace=True, explain=True)
    assert (kept.text, kept.media_urls) == ("Hello\n", ["/a.png"])
    assert rebuild(kept) == text
    assert richout.split_media(text).text == "Hello"
    assert richout.split_media(" \r\n", preserve_trailing_whitespace=True).text == " \r\n"
    with pytest.raises(richout.InvalidInput):
        richout.split_media(text, preserve_trailing_whitespace="yes")  # type: ignore[arg-type]


# ---------------------------------------------------------------- properties per profile

LINES = [
    "Plain prose line.",
    "MEDIA:/srv/a.png",
    "MEDIA:`/srv/a.png /srv/b.png`",
    "MEDIA: '/srv/b c.png' '/srv/d.png'",
    'MEDIA:["/a.png","/b.png"]',
    "MEDIA:'a.png', 'b.png'",
    "MEDIA:/tmp/album 'best' photos/image.png",
    "MEDIA:https://example.com/a.png",
    "MEDIA:https://[2606:4700::1111]/a.png",
    "MEDIA:https://[::1]/a.png",
    "MEDIA:https://[::ffff:127.0.0.1]/a.png",
    "MEDIA:http://example.com/a.png",
    "MEDIA:https://user:pw@example.com/a.png",
    "MEDIA:media://inbound/abc.png",
    "MEDIA:file:///etc/a.png",
    "MEDIA:../x.png",
    "MEDIA:~user/a.png",
    "MEDIA:screenshot",
    "MEDIA:/ok.png https://10.0.0.1/x.png",
    "MEDıA:/srv/dotless.png",
    "  media: ./b c.png trailing",
    "![a](https://example.com/p.png) caption",
    "![multi\nline](https://example.com/m.png)",
    "[[audio_as_voice]]",
    "[[reply_to_current]] hi  there",
    "a  b [[reply_to:42]]",
    "[[reply_to: x  ",
    "```",
    "    MEDIA:/srv/indented.png",
    "- MEDIA:/srv/f.png",
    "",
    "  ",
    "\t",
]
BREAKS = ["\n", "\r\n", "\r"]


@st.composite
def replies(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.sampled_from(LINES), max_size=10))
    out = []
    for i, line in enumerate(lines):
        if i:
            out.append(draw(st.sampled_from(BREAKS)))
        out.append(line)
    return "".join(out)


def _delivered_ok(url: str, text: str, profile: Profile) -> bool:
    """Every delivered reference is acceptable under the profile's policy."""
    return is_valid_reference(url, allow_spaces=True, allow_bare_filename=True, profile=profile)


@settings(max_examples=300)
@given(replies(), st.sampled_from(NAMES), st.booleans())
def test_every_profile_is_lossless_and_delivers_only_what_its_policy_accepts(
    text: str, name: str, images: bool
) -> None:
    profile = PROFILES[name]
    split = richout.split_media(text, profile=name, extract_markdown_images=images, explain=True)
    assert rebuild(split) == text
    for url in split.media_urls:
        assert _delivered_ok(url, text, profile), (name, url)
    if name == "release-2026.9.6":
        assert split.rejected_media_count == 0
    reply = richout.parse_reply(text, profile=name, explain=True)
    assert rebuild(reply) == text
    assert (
        reply.rejected_media_count == richout.split_media(text, profile=name).rejected_media_count
    )
    rendered = richout.render_reply(text, profile=name, explain=True)
    assert rebuild(rendered) == text
    directives = richout.parse_directives(text, profile=name, explain=True)
    assert rebuild(directives) == text


_NOT_AT_A_TAG = frozenset(
    {"tag.audio_not_extracted", "tag.reply_id_sanitized", "tag.reply_id_empty"}
)


@settings(max_examples=300)
@given(replies(), st.sampled_from(NAMES))
def test_explained_tag_spans_and_findings_sit_on_their_tags_in_every_profile(
    text: str, name: str
) -> None:
    """Tag spans and tag findings are mapped back onto the tags they are about. The release
    rewrites whitespace over the whole text; render_reply's tag layer was mapped through one
    edit for that rewrite, which put a reply tag's span on the line break before it
    (``"Hi\r\n[[reply_to:42]]"``); the rewrite is now an edit per changed gap."""
    for fn in (
        richout.split_media,
        richout.parse_directives,
        richout.parse_reply,
        richout.render_reply,
    ):
        result = fn(text, profile=name, explain=True)
        for span in result.spans:
            if span.kind in ("audio_tag", "reply_tag"):
                covered = text[span.start : span.end]
                assert covered.startswith("[[") and covered.endswith("]]"), (fn, span, covered)
        for d in result.diagnostics:
            # The id findings cover the id; tag.audio_not_extracted is not about one tag.
            if d.code.startswith("tag.") and d.code not in _NOT_AT_A_TAG:
                assert d.start is not None and text.startswith("[[", d.start), (fn, d)


@settings(max_examples=200)
@given(replies(), st.sampled_from(NAMES))
def test_lazy_results_equal_eager_ones_in_every_profile(text: str, name: str) -> None:
    for fn in (richout.split_media, richout.parse_reply, richout.render_reply):
        lazy = fn(text, profile=name)
        eager = fn(text, profile=name, explain=True)
        assert json.dumps(lazy.to_wire()) == json.dumps(eager.to_wire())


@settings(max_examples=200)
@given(replies())
def test_hidden_references_are_exactly_the_counted_ones(text: str) -> None:
    """In next a rejected source leaves the text; the release keeps every rejected line."""
    nxt = richout.split_media(text, explain=True)
    codes = [d for d in nxt.diagnostics if "counted in rejected_media_count" in d.message]
    if nxt.rejected_media_count:
        assert codes or any(d.code == "media.line_removed" for d in nxt.diagnostics)
    else:
        assert codes == []


def _tag_explanation(result: Any) -> tuple[list[Any], list[Any]]:
    """The spans and ``tag.*`` findings of an explained result, by kind or code and start."""
    spans = [(s.kind, s.start) for s in result.spans]
    found = sorted((d.code, d.start) for d in result.diagnostics if d.code.startswith("tag."))
    return spans, found


def _media_explanation(result: Any) -> tuple[list[Any], list[Any]]:
    """The media spans and ``media.*`` findings of an explained result."""
    spans = [
        (s.kind, s.start, s.end, s.value) for s in result.spans if s.kind in ("media", "image")
    ]
    found = [(d.code, d.start, d.end) for d in result.diagnostics if d.code.startswith("media.")]
    return spans, found


@settings(max_examples=300)
@given(replies(), st.sampled_from(NAMES), st.booleans())
def test_the_delivery_view_explains_media_as_the_profiles_split_does(
    text: str, name: str, preserve: bool
) -> None:
    """parse_reply's media spans and findings are its own split's, in every profile, and its
    edits turn the input into its text. Under the release it was explained by next's reading,
    media included: a rejected reference the release keeps visible was said to be removed."""
    kw: dict[str, Any] = {"profile": name, "preserve_trailing_whitespace": preserve}
    reply = richout.parse_reply(text, explain=True, **kw)
    split = richout.split_media(text, explain=True, **kw)
    assert _media_explanation(reply) == _media_explanation(split)
    assert reply.is_silent == any(d.code == "reply.silent" for d in reply.diagnostics)
    assert richout.parse_reply(text, **kw).to_wire() == reply.to_wire()
    if preserve:
        # Keeping the trailing whitespace changes no tag the view reads, strips or reports.
        trimmed = richout.parse_reply(text, profile=name, explain=True)
        assert _tag_explanation(reply) == _tag_explanation(trimmed)
    patch = [Edit(e.start, e.end, e.removed, e.inserted) for e in reply.edits]
    assert apply(text, patch) == reply.text
    assert rebuild(reply) == text


def test_a_release_reply_keeps_a_rejected_line_and_says_so() -> None:
    text = "MEDIA:http://x/a.png\nhi [[reply_to:1]]"
    reply = richout.parse_reply(text, profile="release-2026.9.6", explain=True)
    assert reply.text == "MEDIA:http://x/a.png\nhi" and reply.reply_to_id == "1"
    assert [d.code for d in reply.diagnostics] == ["media.remote.not_https"]
    assert [(s.kind, s.start, s.end) for s in reply.spans] == [("reply_tag", 24, 38)]


def test_a_release_reply_that_keeps_trailing_whitespace_is_explained_by_its_own_layers() -> None:
    """Under ``preserve_trailing_whitespace`` the release's strip keeps what next's trims; the
    strip step is then the release's, and the media layer is still the release's split."""
    text = "MEDIA:http://x/a.png\nhi [[reply_to:1]] \t"
    kw: dict[str, Any] = {"profile": "release-2026.9.6", "preserve_trailing_whitespace": True}
    reply = richout.parse_reply(text, explain=True, **kw)
    split = richout.split_media(text, explain=True, **kw)
    assert reply.text.startswith("MEDIA:http://x/a.png\nhi") and reply.text != js_trim(reply.text)
    assert _media_explanation(reply) == _media_explanation(split)
    patch = [Edit(e.start, e.end, e.removed, e.inserted) for e in reply.edits]
    assert apply(text, patch) == reply.text and rebuild(reply) == text
    assert [(s.kind, s.start, s.end) for s in reply.spans] == [("reply_tag", 24, 38)]


@pytest.mark.parametrize(
    ("text", "codes", "kinds"),
    [
        ("[[reply_to_current] hi \n", ["tag.malformed_prefix_stripped"], ["reply_prefix"]),
        (
            "[[reply_to_current]][[reply_to:1]]```\n\n```\n[[audio_as_voice]]",
            ["tag.reply_overridden", "tag.in_code", "tag.stripped_on_delivery"],
            ["reply_tag", "reply_tag", "audio_tag"],
        ),
    ],
)
def test_a_release_reply_keeping_trailing_whitespace_explains_what_its_strip_removed(
    text: str, codes: list[str], kinds: list[str]
) -> None:
    """The review's cases: next's strip trims what the release keeps, and the explanation
    had lost the strip's removals (a stripped prefix was said to stay visible)."""
    for preserve in (True, False):
        reply = richout.parse_reply(
            text, profile="release-2026.9.6", explain=True, preserve_trailing_whitespace=preserve
        )
        assert [d.code for d in reply.diagnostics] == codes
        assert [s.kind for s in reply.spans] == kinds
        assert rebuild(reply) == text


@pytest.mark.pure_python(why="replaces a function the release view calls by module attribute")
def test_a_release_reply_whose_strip_differs_from_next_s_takes_the_release_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever next's delivery strip leaves, the explanation's strip step is the release's:
    its edits still give the output, and the other layers keep their own findings."""
    import richout.views.release as release_view
    from richout.views.delivery_strip import Strip

    monkeypatch.setattr(release_view, "strip_for_delivery", lambda text: Strip(text + "!", [], ()))
    text = "hi [[reply_to:1]]\nMEDIA:http://x/a.png"
    reply = richout.parse_reply(text, profile="release-2026.9.6", explain=True)
    assert reply.text == "hi\nMEDIA:http://x/a.png" and reply.reply_to_id == "1"
    patch = [Edit(e.start, e.end, e.removed, e.inserted) for e in reply.edits]
    assert apply(text, patch) == reply.text and rebuild(reply) == text
    assert [d.code for d in reply.diagnostics] == ["media.remote.not_https"]
    assert [(s.kind, s.start, s.end) for s in reply.spans] == [("reply_tag", 3, 17)]
