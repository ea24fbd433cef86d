"""Attachment facts (issue 10 item 2): describe() as a table, then on both views and profiles."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import richout
from richout.models import Attachment
from richout.models.attachments import (
    EXTENSIONS,
    _classify,
    _kind,
    describe,
    kind_of_extension,
)

# --------------------------------------------------------------------------- describe()

TABLE = [
    # reference, kind, source
    ("https://example.com/a.png", "image", "remote"),
    ("https://example.com/a.PNG", "image", "remote"),
    ("HTTPS://EXAMPLE.COM/Song.Mp3", "audio", "remote"),
    ("https://example.com/clip.mp4?download=1", "video", "remote"),
    ("https://example.com/report.pdf#page=2", "document", "remote"),
    ("https://example.com/a.png?name=b.pdf", "image", "remote"),
    ("https://example.com/view?file=a.png", "unknown", "remote"),
    ("https://example.com", "unknown", "remote"),
    ("https://example.com/", "unknown", "remote"),
    ("https://example.com?x=a.png", "unknown", "remote"),
    ("https://example.com#a.png", "unknown", "remote"),
    ("https://a.png", "unknown", "remote"),  # a host name is not a path
    ("https://example.com/dir.png/", "unknown", "remote"),
    ("/srv/a.png", "image", "local"),
    ("/srv/a.JPEG", "image", "local"),
    ("/srv/voice.opus", "audio", "local"),
    ("/srv/movie.MOV", "video", "local"),
    ("/srv/table.xlsx", "document", "local"),
    ("/srv/archive.tar.gz", "document", "local"),
    ("/srv/a.xyz", "unknown", "local"),
    ("/srv/README", "unknown", "local"),
    ("/srv/.png", "unknown", "local"),  # a hidden file, not an extension
    ("/srv/a.", "unknown", "local"),
    ("/srv/a.png?x=1", "unknown", "local"),  # "?" is part of a file name, not a query
    ("./out/chart.svg", "image", "local"),
    ("out/chart.webp", "image", "local"),
    ("chart.gif", "image", "local"),
    ("//host/share/a.png", "image", "local"),
    ("C:\\a.pdf", "document", "local"),
    ("C:/Users/me/a.WAV", "audio", "local"),
    ("\\\\host\\share\\v.mp4", "video", "local"),
    ("~/a.mp3", "audio", "home"),
    ("~\\docs\\a.docx", "document", "home"),
    ("~/notes", "unknown", "home"),
    ("media://inbound/abc", "unknown", "inbound"),
    ("media://inbound/abc.jpg", "image", "inbound"),
    ("media://inbound/ABC.M4A", "audio", "inbound"),
    ("file:///x.PNG", "image", "file_url"),
    ("file:///srv/a%20b.pdf?x#y", "document", "file_url"),
    ("FILE:/srv/a.ogg", "audio", "file_url"),
    ("file://host/share/v.webm", "video", "file_url"),
    ("file:///srv/", "unknown", "file_url"),
]


@pytest.mark.parametrize(("reference", "kind", "source"), TABLE, ids=[t[0] for t in TABLE])
def test_describe_reads_kind_and_source_from_the_spelling(
    reference: str, kind: str, source: str
) -> None:
    got = describe(reference)
    assert (got.reference, got.kind, got.source, got.voice) == (reference, kind, source, False)


@pytest.mark.parametrize(
    ("reference", "voice"),
    [("/srv/n.ogg", True), ("~/n.MP3", True), ("/srv/a.png", False), ("/srv/c.mp4", False)],
)
def test_voice_applies_to_audio_only(reference: str, voice: bool) -> None:
    assert describe(reference, voice=True).voice is voice
    assert describe(reference).voice is False


def test_the_extension_table_is_lower_case_and_each_extension_has_one_kind() -> None:
    assert all(ext == ext.lower() and "." not in ext for ext in EXTENSIONS)
    assert set(EXTENSIONS.values()) == {"image", "audio", "video", "document"}
    assert kind_of_extension(".PnG") == kind_of_extension("png") == "image"
    assert kind_of_extension("exe") == "unknown"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_describe_never_fails_and_is_a_fixed_point(reference: str) -> None:
    got = describe(reference)
    assert got.reference == reference
    assert describe(got.reference, voice=True).kind == got.kind
    assert Attachment.from_wire(got.to_wire()) == got


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.text(max_size=40), st.sampled_from(["a.mp3", "/x/y.PNG", "file:///a.ogg"])),
    st.booleans(),
)
def test_describe_assembles_what_validation_gives(reference: str, voice: bool) -> None:
    # describe() assembles its records directly; a validated record of the same values has
    # the same fields, set fields and wire form.
    got = describe(reference, voice=voice)
    fields = {"reference": got.reference, "kind": got.kind, "source": got.source}
    if got.voice:
        fields["voice"] = True
    validated = Attachment(**fields)
    assert got == validated
    assert got.model_fields_set == validated.model_fields_set
    assert got.to_wire() == validated.to_wire()
    assert got.voice == (voice and got.kind == "audio")


def _segment_extension_kind(path: str) -> str:
    """The kind rule as written: the last ``/``- or ``\\``-separated segment, its text after
    its last dot when that dot is not the segment's first character."""
    name = path.replace("\\", "/").split("/")[-1]
    stem, dot, extension = name.rpartition(".")
    return kind_of_extension(extension) if dot and stem else "unknown"


_PATH_PIECES = st.sampled_from(
    ["/", "\\", ".", "..", "a", "png", "PNG", "tar", "gz", "mp3", "~", "C:", "x y", "é", ":"]
)


@settings(max_examples=600, deadline=None)
@given(st.lists(_PATH_PIECES, max_size=8).map("".join))
def test_describe_reads_paths_as_the_segment_rule_and_the_scheme_steps_do(path: str) -> None:
    # describe() reads a path's kind from offsets in the whole path and skips the scheme
    # questions for a reference that cannot start a scheme or a home path: both readings
    # must give what the segment rule and the general steps give.
    assert _kind(path) == _segment_extension_kind(path)
    got = describe(path)
    assert (got.kind, got.source) == _classify(path)


# --------------------------------------------------------------------------- the model


def test_wire_form_keeps_url_and_writes_voice_only_when_true() -> None:
    plain = describe("https://example.com/a.png")
    assert plain.to_wire() == {
        "url": "https://example.com/a.png",
        "kind": "image",
        "source": "remote",
    }
    voiced = describe("/srv/n.ogg", voice=True)
    assert voiced.to_wire() == {
        "url": "/srv/n.ogg",
        "kind": "audio",
        "source": "local",
        "voice": True,
    }
    assert Attachment.from_wire(voiced.to_wire()) == voiced
    assert pickle.loads(pickle.dumps(voiced)) == voiced
    # built by hand with the Python name, equal to what describe() gives
    assert Attachment(reference="/srv/n.ogg", kind="audio", source="local", voice=True) == voiced
    # entries still read like the dicts they replace
    assert (voiced["url"], voiced["kind"], voiced["source"], voiced["voice"]) == (
        "/srv/n.ogg",
        "audio",
        "local",
        True,
    )
    with pytest.raises(KeyError):
        voiced["reference"]


def test_the_model_is_frozen_and_checks_its_values() -> None:
    a = describe("/srv/a.png")
    with pytest.raises(ValueError, match="frozen"):
        a.kind = "audio"  # type: ignore[misc]
    with pytest.raises(richout.InvalidInput):
        Attachment.from_wire({"url": "/a", "kind": "picture", "source": "local"})


# --------------------------------------------------------------------------- the views

REPLY = (
    "[[audio_as_voice]] Here.\n"
    "MEDIA:file:///srv/a.PNG\n"
    "MEDIA:~/n.mp3\n"
    "MEDIA:https://example.com/v.MP4?x=1\n"
    "MEDIA:media://inbound/abc\n"
    "MEDIA:\\\\host\\share\\d.pdf\n"
    "MEDIA:http://10.0.0.1/x.png"
)
# (delivered reference, kind, source, voice) per profile; release-2026.9.6 has no inbound.
_DELIVERY_NEXT = [
    ("/srv/a.PNG", "image", "local", False),  # the file: URL is delivered as its path
    ("~/n.mp3", "audio", "home", True),
    ("https://example.com/v.MP4?x=1", "video", "remote", False),
    ("media://inbound/abc", "unknown", "inbound", False),
    ("\\\\host\\share\\d.pdf", "document", "local", False),
]
_WEBCHAT_NEXT = [("file:///srv/a.PNG", "image", "file_url", False), *_DELIVERY_NEXT[1:]]
_EXPECTED = {
    "next": (_DELIVERY_NEXT, _WEBCHAT_NEXT),
    "release-2026.9.6": (
        [a for a in _DELIVERY_NEXT if a[2] != "inbound"],
        [a for a in _WEBCHAT_NEXT if a[2] != "inbound"],
    ),
}


def _facts(attachments: list[Attachment]) -> list[tuple[str, str, str, bool]]:
    return [(a.reference, a.kind, a.source, a.voice) for a in attachments]


@pytest.mark.parametrize("profile", sorted(_EXPECTED))
def test_delivery_view_describes_media_urls_in_order(profile: str) -> None:
    reply = richout.parse_reply(REPLY, profile=profile)
    assert _facts(reply.attachments) == _EXPECTED[profile][0]
    assert [a.reference for a in reply.attachments] == reply.media_urls
    # Python only: the delivery wire keeps upstream's keys
    assert "attachments" not in reply.to_wire()
    back = richout.Reply.from_wire(reply.to_wire())
    assert back.attachments == reply.attachments


@pytest.mark.parametrize("profile", sorted(_EXPECTED))
def test_webchat_view_describes_references_as_accepted(profile: str) -> None:
    view = richout.render_reply(REPLY, profile=profile)
    assert _facts(view.attachments) == _EXPECTED[profile][1]
    wire = view.to_wire()
    assert [a["url"] for a in wire["attachments"]] == [a[0] for a in _EXPECTED[profile][1]]
    assert wire["attachments"][1] == {
        "url": "~/n.mp3",
        "kind": "audio",
        "source": "home",
        "voice": True,
    }
    assert all("voice" not in a for i, a in enumerate(wire["attachments"]) if i != 1)
    # content items keep the stored shape {type, url}
    assert [c for c in wire["content"] if c["type"] == "media"] == [
        {"type": "media", "url": a[0]} for a in _EXPECTED[profile][1]
    ]
    assert richout.RenderedReply.from_wire(wire) == view


@pytest.mark.parametrize("profile", sorted(_EXPECTED))
def test_without_the_voice_tag_nothing_is_a_voice_note(profile: str) -> None:
    text = "MEDIA:/srv/n.ogg"
    assert [a.voice for a in richout.parse_reply(text, profile=profile).attachments] == [False]
    assert "voice" not in richout.render_reply(text, profile=profile).to_wire()["attachments"][0]


@pytest.mark.parametrize("profile", sorted(_EXPECTED))
def test_replies_without_media_have_no_attachments(profile: str) -> None:
    for text in ("plain", "[[reply_to_current]] hi", "MEDIA:http://10.0.0.1/x.png", ""):
        assert richout.parse_reply(text, profile=profile).attachments == []
        assert richout.render_reply(text, profile=profile).attachments == []


def test_the_other_roles_have_no_attachments() -> None:
    assert richout.render_reply("MEDIA:/srv/a.png", role="user").attachments == []


def test_delivery_attachments_follow_the_outputs_they_derive_from() -> None:
    reply = richout.parse_reply("[[audio_as_voice]]\nMEDIA:/srv/n.ogg")
    copy = reply.model_copy(update={"audio_as_voice": False})
    assert [a.voice for a in reply.attachments] == [True]
    assert [a.voice for a in copy.attachments] == [False]
