"""Fast paths on the trigger path give exactly the outputs of the full passes they skip.

Each shortcut replaces a pass only when the outputs it would give are certain. Explanations
(``explain=True``) run the full passes, so the eager result is the oracle for the lazy one,
except the walk's two line shortcuts, which an explained split takes where the explanation
has nothing to say about the line: for those the whole explained result is compared too.
The generators favour the text that decides: tag heads, near-misses, ``MEDIA:`` lines, code
markers and JavaScript whitespace at both ends.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_security_remote import HOSTNAME_TABLE, REMOTE_TABLE

import richout
from richout.markdown.codemap import CodeMap
from richout.media import explain_directives
from richout.media import fates as media_fates
from richout.media import payload as media_payload
from richout.media import pipeline as media_pipeline
from richout.media import regroup as media_regroup
from richout.media import single_token as media_single_token
from richout.media import walk as media_walk
from richout.media.judge import Judge
from richout.media.lines import says_nothing
from richout.media.segments import drop_ws_only_lines
from richout.media.tagpass import tag_pass_shortcut
from richout.media.walk import Walker
from richout.policy import is_valid_reference, remote
from richout.policy.remote import (
    _check_remote_full,
    _plain_https_ok,
    check_hostname,
    check_remote,
    plain_host,
    plain_host_ok,
    remote_ok,
)
from richout.policy.verdict import MAX_REFERENCE_UNITS
from richout.profiles import PROFILES
from richout.tags.close import normalize_boundaries
from richout.tags.code import StageCode
from richout.tags.pipeline import TagStages, untagged
from richout.text.chars import JS_WS, has_js_ws, js_rtrim, utf16_len

_PIECES = [
    "x",
    "word",
    " ",
    "  ",
    "\t",
    "\n",
    "\n\n",
    "\r\n",
    "\r",
    "\u00a0",
    "\u3000",
    "`",
    "```",
    "~~~",
    "    ",
    "> ",
    "- ",
    "1. ",
    "[[",
    "]]",
    "]",
    "[",
    "[[audio_as_voice]]",
    "[[ AUDIO_AS_VOICE ]]",
    "[[audio_as_voice]",
    "[[reply_to_current]]",
    "[[reply_to: 42 ]]",
    "[[reply_to:abc]]",
    "[[reply_to:",
    "[[reply_to_current]",
    "[[unknown_tag]]",
    "[[ reply_to :x]]",
    "MEDIA:",
    "MEDIA: https://example.com/a.png",
    "media: ./local/file.png",
    "MEDIA: http://example.com/b.png",
    "MEDIA: `https://cdn.example.org/v.mp4`",
    "![alt](https://example.com/i.png)",
    '[embed ref="a"]',
    "NO_REPLY",
]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=24).map("".join)
_NO_BRACKETS = st.lists(
    st.sampled_from([p for p in _PIECES if "[[" not in p and "[" not in p]), max_size=24
).map("".join)
_PROFILES = st.sampled_from(sorted(PROFILES))
_SETTINGS = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_SPLIT_OUT = ("text", "media_urls", "audio_as_voice", "segments", "rejected_media_count")
_REPLY_OUT = (
    "text",
    "media_urls",
    "audio_as_voice",
    "reply_to_id",
    "reply_to_current",
    "reply_to_tag",
    "is_silent",
    "rejected_media_count",
)
_RENDER_OUT = ("text", "reply_target", "audio_as_voice", "attachments", "canvas", "content")


def _outputs(result: Any, names: tuple[str, ...]) -> list[Any]:
    return [getattr(result, n) for n in names]


@_SETTINGS
@given(_NO_BRACKETS, st.booleans())
def test_untagged_shortcut_is_the_tag_pass(text: str, with_map: bool) -> None:
    """Without ``[[`` the tag pass is the §5.1 trim, code-owned tails included."""
    prof = PROFILES["next"]
    cmap = CodeMap(text) if with_map else None
    got = tag_pass_shortcut(text, True, cmap, prof)
    full = richout.parse_directives(text, strip_audio_tag=True, strip_reply_tags=False)
    assert got == full.text
    assert not full.audio_as_voice


@_SETTINGS
@given(_NO_BRACKETS)
def test_untagged_skips_only_texts_section_5_1_keeps(text: str) -> None:
    """The early return of ``untagged`` gives what §5.1 gives, patch included."""
    code = StageCode(text)
    want = normalize_boundaries(text, code.in_code, code.owns_tail) if text else (text, [])
    assert untagged(text) == want


@_SETTINGS
@given(_TEXT, st.booleans(), st.booleans())
def test_tag_shortcut_agrees_with_parse_directives(text: str, walked: bool, trimmed: bool) -> None:
    """Whenever the shortcut answers, the audio flag is False and (if read) the text equal,
    or, for a caller that right-trims the answer, the trimmed texts equal."""
    for name, prof in PROFILES.items():
        got = tag_pass_shortcut(text, walked, None, prof, trimmed=trimmed)
        if got is None:
            continue
        assert name == "next"  # the release keeps its own tag module
        full = richout.parse_directives(
            text, strip_audio_tag=True, strip_reply_tags=False, profile=prof
        )
        assert not full.audio_as_voice
        if walked and trimmed:
            assert js_rtrim(got) == js_rtrim(full.text)
        elif walked:
            assert got == full.text


@_SETTINGS
@given(_TEXT, _PROFILES, st.booleans())
def test_split_media_lazy_outputs_equal_full(text: str, profile: str, preserve: bool) -> None:
    lazy = richout.split_media(text, profile=profile, preserve_trailing_whitespace=preserve)
    full = richout.split_media(
        text, profile=profile, preserve_trailing_whitespace=preserve, explain=True
    )
    assert _outputs(lazy, _SPLIT_OUT) == _outputs(full, _SPLIT_OUT)
    # Whichever path answered, the same fields are set (model_dump(exclude_unset=True)),
    # in the model's order (a path's outputs dict becomes the lazy result's values).
    assert lazy.model_fields_set == full.model_fields_set
    assert list(lazy.__dict__) == list(type(lazy).model_fields) == list(full.__dict__)


@_SETTINGS
@given(_TEXT, _PROFILES)
def test_parse_reply_lazy_outputs_equal_full(text: str, profile: str) -> None:
    lazy = richout.parse_reply(text, current_message_id="m1", profile=profile)
    full = richout.parse_reply(text, current_message_id="m1", profile=profile, explain=True)
    assert _outputs(lazy, _REPLY_OUT) == _outputs(full, _REPLY_OUT)
    # Whichever path answered, the same fields are set (model_dump(exclude_unset=True)),
    # in the model's order (a path's outputs dict becomes the lazy result's values).
    assert lazy.model_fields_set == full.model_fields_set
    assert list(lazy.__dict__) == list(type(lazy).model_fields) == list(full.__dict__)


@_SETTINGS
@given(_TEXT, _PROFILES)
def test_render_reply_lazy_outputs_equal_full(text: str, profile: str) -> None:
    lazy = richout.render_reply(text, profile=profile)
    full = richout.render_reply(text, profile=profile, explain=True)
    assert _outputs(lazy, _RENDER_OUT) == _outputs(full, _RENDER_OUT)
    # Whichever path answered, the same fields are set (model_dump(exclude_unset=True)),
    # in the model's order (a path's outputs dict becomes the lazy result's values).
    assert lazy.model_fields_set == full.model_fields_set
    assert list(lazy.__dict__) == list(type(lazy).model_fields) == list(full.__dict__)


# The patterns the line-walk used before: a line start tried at every offset.
_OLD_WS_ONLY_LINE = re.compile("(?m)^[" + JS_WS.replace("\n", "") + "]+$")
_OLD_WS_ONLY_LINE_CR = re.compile(
    "(?:(?<=[\r\n])|^)[" + JS_WS.replace("\n", "").replace("\r", "") + "]+(?=[\r\n]|$)"
)
_LINE_CHARS = st.sampled_from(["x", "\n", "\r", "\r\n", " ", "\t", "\x0b", "\u00a0", "\u3000"])


@_SETTINGS
@given(st.lists(_LINE_CHARS, max_size=40).map("".join))
def test_whitespace_only_lines_emptied_as_before(block: str) -> None:
    assert drop_ws_only_lines(block, False) == _OLD_WS_ONLY_LINE.sub("", block)
    assert drop_ws_only_lines(block, True) == _OLD_WS_ONLY_LINE_CR.sub("", block)


_SCHEMES = ["https://", "HTTPS://", "hTtPs://", "https:/", "https:", "https:\\\\", "http://", ""]
_LABELS = [
    "a",
    "example",
    "EXAMPLE",
    "cdn-1",
    "-a",
    "a-",
    "a--b",
    "xn--",
    "xn--abc",
    "XN--nxasmq6b",
    "0x10",
    "0X1f",
    "0",
    "1",
    "127",
    "08",
    "localhost",
    "local",
    "internal",
    "metadata",
    "google",
    "cafe",
    "face",
    "é",
    "ß",
    "%41",
    "a b",
    "a\tb",
    "a_b",
    "x" * 70,
    "",
]
_HOST_SEPS = [".", ".", ".", "..", "。", "%2e"]
_TAILS = [
    "",
    "/",
    "/a.png",
    "/a@b.png",
    "/a:b",
    "?q=1&x=%20",
    "#frag",
    "/%2e%2e/x",
    "\\x",
    "/\\x",
    ":443/a",
    ":99999/",
    ":/",
    "@evil.com/",
    "user:pw@",
    "/a b",
    "/a\tb",
    "/\n",
    " ",
    "\x00",
    "/é",
    "/[x]",
    "/{|}^`",
]


# Near-plain URLs: mostly what the lexical check accepts, with the decisive perturbations.
_PLAIN_LABELS = ["a", "example", "EXAMPLE", "cdn-1", "-a", "a-", "a--b", "io", "0x10", "127"]
_PLAIN_LABELS += ["xn--abc", "localhost", "local", "internal", "cafe", "1e", "0", "localdomain"]
_PLAIN_TAILS = ["", "/", "/a.png", "/a@b.png", "/a:b", "?q=1&x=%20", "#frag", "/%2e%2e/x"]
_PLAIN_TAILS += ["/[x]", "/{|}^`", "/\\x", ":443/", "@x.com/", "/a b"]


# Numbers near and past the IPv4 forms: the lexical check reads only canonical addresses.
_OCTETS = ["0", "1", "9", "10", "99", "100", "127", "169", "172", "192", "168", "254", "255"]
_OCTETS += ["256", "300", "01", "00", "0x7f", "1e1", "4294967295"]


def _random_url(rng: random.Random, plain: bool, numeric: bool = False) -> str:
    """A URL from the pools: 1-5 host labels (numbers, when ``numeric``; four of them in
    most draws), maybe a final dot, up to three tails."""
    pool = _OCTETS if numeric else _PLAIN_LABELS if plain else _LABELS
    count = 4 if numeric and rng.random() < 0.7 else rng.randint(1, 5)
    labels = [rng.choice(pool) for _ in range(count)]
    host = labels[0]
    for label in labels[1:]:
        host += ("." if plain else rng.choice(_HOST_SEPS)) + label
    if rng.randint(0, 9) == 0:
        host += "."
    tail = "".join(rng.choice(_PLAIN_TAILS if plain else _TAILS) for _ in range(rng.randint(0, 3)))
    scheme = rng.choice(_SCHEMES[:3] if plain else _SCHEMES)
    return scheme + host + tail


def _agree(url: str) -> None:
    host = plain_host(url)
    for first in (True, False):
        if host is not None:
            # The shortcut of a plain host's verdict gives the hostname rules' answer.
            assert plain_host_ok(host, ip_literal_first=first) == (
                check_hostname(host, ip_literal_first=first).ok
            ), host
        full = _check_remote_full(url, first)
        assert check_remote(url, ip_literal_first=first) == full, url
        assert remote_ok(url, ip_literal_first=first) == full.ok, url
    if url[:8] == "https://":
        # is_valid_reference decides a plain one by its host first (the steps it skips
        # refuse whitespace and length, which a plain URL never has).
        usable = not has_js_ws(url) and utf16_len(url) <= MAX_REFERENCE_UNITS
        for profile in PROFILES.values():
            full = _check_remote_full(url, profile.ip_literal_first)
            assert is_valid_reference(url, profile=profile) == (usable and full.ok), url


def test_plain_https_check_agrees_with_whatwg() -> None:
    # A seeded sweep rather than a hypothesis strategy: the check costs about 40 µs a URL,
    # while drawing a composite example cost about 5 ms (20,000 of them were 112 s of the
    # suite). Twice as many URLs, half of them near-plain, in about two seconds.
    rng = random.Random(20261202)
    plain_accepted = 0
    plain_hosts: set[str] = set()
    for i in range(40_000):
        url = _random_url(rng, plain=i % 2 == 1, numeric=i % 4 == 3)
        _agree(url)
        plain_accepted += _plain_https_ok(url, True)
        host = plain_host(url)
        if host is not None and i % 4 == 3:
            plain_hosts.add(host)
    # Not vacuous: the lexical check answered for many of them, and not for all; and it
    # read addresses, public and blocked.
    assert 2_000 < plain_accepted < 20_000, plain_accepted
    blocked = {h for h in plain_hosts if not remote_ok(f"https://{h}/")}
    assert len(blocked) > 100 and len(plain_hosts - blocked) > 100, len(blocked)


def test_plain_https_check_on_the_hostile_tables() -> None:
    urls = [row[0] for row in REMOTE_TABLE] + [f"https://{h}/a.png" for h, _ in HOSTNAME_TABLE]
    urls += [r[0] for r in REMOTE_TABLE if r[0].lower().startswith("http")]
    for url in urls:
        _agree(url)
    # The lexical check answers for the plain URLs it was built for.
    assert _plain_https_ok("https://cdn.example.com/a/b.png?x=1#y", True)
    assert not _plain_https_ok("https://example.com:443/a.png", True)


class _Everything:
    """A set that holds every character: with it as ``remote._DIGITS`` the label test is
    off, and ``check_hostname`` asks the IP rules of every name ending in a hex digit, as
    it did before the test (8f1d7ac)."""

    def __contains__(self, _: object) -> bool:
        return True


@pytest.mark.pure_python(why="replaces a module constant that compiled code has inlined")
def test_hostname_rules_skip_only_names_that_cannot_be_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A name whose last label starts with no digit skips the IP parsers (rules 4-6, and
    # next's literal-first check). Every verdict must be the one the parsers give; doubled
    # brackets ("[[127.1]]") are where asking them more often would change one.
    rng = random.Random(20261203)
    alphabet = "0123456789abcdefxX.:-[]gz["
    hosts = [h for h, _ in HOSTNAME_TABLE] + ["e.example", "a.cafe", "x.de", "1.2.3.0xa"]
    hosts += ["[[127.1]]", "[[0x7f.1]]", "[[1.0].", "[127.1", "127.1]"]
    hosts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14))) for _ in range(6000)]
    fast = {(h, f): check_hostname(h, ip_literal_first=f) for h in hosts for f in (True, False)}
    monkeypatch.setattr(remote, "_DIGITS", _Everything())
    skipped = 0
    for (h, first), verdict in fast.items():
        assert check_hostname(h, ip_literal_first=first) == verdict, (h, first)
        skipped += ":" not in h and h.rsplit(".", 1)[-1][:1] not in "0123456789"
    assert skipped > 1000, skipped  # not vacuous: the shortcut was taken often


# The view's tag layer reuses the reply tags the split's tag pass read (TagStages.reusing)
# when the split's text is the text that pass read, less leading line breaks and trailing
# whitespace. The generator favours what decides: reply tags with a MEDIA: line or an audio
# tag (so the split's pass reads them), and breaks, blanks, indentation and code markers at
# both ends.
_REUSE_PIECES = [
    "[[reply_to_current]]",
    "[[reply_to:abc]]",
    "[[ reply_to : 7 ]]",
    "[[audio_as_voice]]",
    "\nMEDIA: https://example.com/a.png\n",
    "MEDIA:./b.png",
    "\n",
    "\n\n",
    "\r\n",
    " ",
    "\t",
    "    ",
    "\u00a0",
    "\u3000",
    "- ",
    "> ",
    "`",
    "```",
    "~~~",
    "word",
    "[[",
    # Malformed constructs run to the line's end: into whitespace a later trim removes.
    "[[reply_to: x",
    "[[reply_to:",
    "[[bogus",
]
_REUSE_TEXT = st.lists(st.sampled_from(_REUSE_PIECES), min_size=1, max_size=16).map("".join)


@pytest.mark.pure_python(why="replaces TagStages.reusing, a compiled class's method")
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_REUSE_TEXT)
def test_views_reusing_the_split_tag_reading_equal_reading_afresh(text: str) -> None:
    def views() -> tuple[Any, ...]:
        return (
            _outputs(richout.parse_reply(text, current_message_id="m1"), _REPLY_OUT),
            _outputs(richout.render_reply(text), _RENDER_OUT),
            # Explained, the whole record: findings replayed from the split's recording.
            richout.parse_reply(text, current_message_id="m1", explain=True).model_dump(),
            richout.render_reply(text, explain=True).model_dump(),
        )

    reused = views()
    real = TagStages.reusing
    try:
        TagStages.reusing = classmethod(lambda cls, *a, **k: None)  # type: ignore[assignment,method-assign]
        afresh = views()
    finally:
        TagStages.reusing = real  # type: ignore[method-assign]
    assert reused == afresh, text


@pytest.mark.pure_python(why="counts calls of TagStages.reusing, a compiled class's method")
def test_the_reuse_is_taken_on_a_reply_with_a_tag_and_a_media_line() -> None:
    """Not vacuous: the common reply shape goes through the reuse (and the reading is once)."""
    taken: list[bool] = []
    real = TagStages.reusing.__func__  # type: ignore[attr-defined]

    def counting(cls: type[TagStages], *args: Any, **kwargs: Any) -> TagStages | None:
        run = real(cls, *args, **kwargs)
        taken.append(run is not None)
        return run

    TagStages.reusing = classmethod(counting)  # type: ignore[assignment,method-assign]
    try:
        text = "[[reply_to_current]] Here is the chart.\n\nMEDIA:https://example.com/a.png\n"
        reply = richout.parse_reply(text, current_message_id="m1")
        rendered = richout.render_reply(text)
        richout.parse_reply(text, current_message_id="m1", explain=True)
        richout.render_reply(text, explain=True)
    finally:
        TagStages.reusing = classmethod(real)  # type: ignore[method-assign]
    assert taken == [True, True, True, True]
    assert reply.text == rendered.text == "Here is the chart."
    assert reply.reply_to_id == "m1" and reply.media_urls == ["https://example.com/a.png"]


# Directive lines near the plain shape the line walk decides without reading the payload
# (``Walker._plain_accepted``): every character that cleaning, splitting, quoting or the
# verdict treats specially, at the ends of the token and inside it.
_TOKEN_CHARS = st.sampled_from(
    [*"ab/.~:-_%?=&#@\\,;()[]{}'\"`!$*+", " ", "\t", "\u00a0", "é", "..", "C:\\", "//"]
)
_TOKEN_HEADS = st.sampled_from(
    [
        "",
        "/",
        "./",
        "~/",
        "~",
        "../",
        "file://",
        "file:",
        "https://",
        "http://",
        "media://",
        "https://127.0.0.1/",
        "https://example.com/",
        "C:\\",
        "\\\\",
        "`",
        "'",
        '"',
        "[",
    ]
)
_DIRECTIVE = st.builds(
    lambda lead, word, gap, head, body, tail: f"{lead}{word}{gap}{head}{body}{tail}",
    st.sampled_from(["", " ", "\t", "  ", "    ", "- ", "> ", "\u00a0"]),
    st.sampled_from(["MEDIA:", "media:", "Media:", "MEDıA:", "MEDIA :"]),
    st.sampled_from(["", " ", "\t", " \t", "\u3000"]),
    _TOKEN_HEADS,
    st.lists(_TOKEN_CHARS, max_size=12).map("".join),
    st.sampled_from(["", "`", "'", ",", ")", " ", ".png", ".png`", "\\"]),
)
# Neighbours whose Markdown a removed line changes (media.structure_changed): a hard break
# before, an underline or indented line after; lines apart by CR, LF or CRLF.
_AROUND = st.sampled_from(
    ["", "Here:\n", "Here:\n\n", "```\n", "    x\n", "> q\n", "\n", "Caption  \n", "a\r"]
)
_AFTER = st.sampled_from(["", "\n", "\nDone.", "\n```", "\n---", "\n    code", "\r\nz"])
_BREAKS = st.lists(st.sampled_from(["\n", "\n", "\r\n", "\r", "\n\n"]), min_size=4, max_size=4)


def _joined(lines: list[str], breaks: list[str]) -> str:
    """``lines`` with ``breaks[i]`` between line ``i`` and the next."""
    return lines[0] + "".join(brk + line for brk, line in zip(breaks, lines[1:], strict=False))


_DIRECTIVE_REPLY = st.builds(
    lambda before, lines, breaks, after: before + _joined(lines, breaks) + after,
    _AROUND,
    st.lists(_DIRECTIVE, min_size=1, max_size=4),
    _BREAKS,
    _AFTER,
)
_NARROW = richout.Policy(allow_local_files=False, allow_hosts=["example.com"])


@pytest.mark.pure_python(why="replaces Walker._plain_accepted, a compiled class's method")
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_DIRECTIVE_REPLY, _PROFILES, st.booleans())
def test_plain_directive_lines_read_as_the_payload_steps_read_them(
    text: str, profile: str, narrow: bool
) -> None:
    """The walk's plain-line shortcut changes no output of any pipeline, in any profile,
    with or without a gateway policy; and the lazy outputs still equal the explained ones."""
    _assert_shortcut_changes_nothing("_plain_accepted", text, profile, narrow)


@contextmanager
def _walked() -> Iterator[None]:
    """Replies go through the line walk: the fused split (``media/fused.py``, compared with
    the walk in ``tests/test_fused.py``) would answer most of the lines these tests give."""
    real = media_pipeline.fused_cuts
    media_pipeline.fused_cuts = lambda raw, profile, cmap, first=None: None
    try:
        yield
    finally:
        media_pipeline.fused_cuts = real


def _assert_shortcut_changes_nothing(
    name: str, text: str, profile: str, narrow: bool, declined: Any = False
) -> None:
    """The three views' outputs, and their whole explained results, are the same with the
    walk's shortcut ``name`` (a method of :class:`Walker` that declines by returning
    ``declined``) and with it declining every line, and the split's lazy outputs are the
    explained ones."""
    with _walked():
        _compare_shortcut(name, text, profile, narrow, declined)


def _compare_shortcut(
    name: str, text: str, profile: str, narrow: bool, declined: Any = False
) -> None:
    policy = _NARROW if narrow else None

    def outputs() -> tuple[Any, ...]:
        return (
            _outputs(richout.split_media(text, profile=profile, policy=policy), _SPLIT_OUT),
            _outputs(
                richout.parse_reply(text, current_message_id="m1", profile=profile, policy=policy),
                _REPLY_OUT,
            ),
            _outputs(richout.render_reply(text, profile=profile, policy=policy), _RENDER_OUT),
            *(
                (
                    r.model_dump_json(),
                    r.model_fields_set,
                    [x.model_fields_set for x in r.spans],
                    [x.model_fields_set for x in r.diagnostics],
                )
                for r in (
                    richout.split_media(text, profile=profile, policy=policy, explain=True),
                    richout.parse_reply(
                        text, current_message_id="m1", profile=profile, policy=policy, explain=True
                    ),
                    richout.render_reply(text, profile=profile, policy=policy, explain=True),
                )
            ),
        )

    fast = outputs()
    # The general side also reads payloads by the general steps: the payload's own short
    # ways (a plain path, plain paths and blanks, words) answer the same shapes as the walk's
    # shortcuts, so with them on this would compare a shortcut with its twin.
    never = re.compile(r"(?!)")
    off = [
        (Walker, name, lambda self, *args: declined),
        (media_single_token, "plain_path", lambda s: False),
        (media_fates, "plain_path", lambda s: False),
        # the walk's reading of a line's one clean token, by the general payload steps
        (media_walk, "read_clean_token", media_payload.analyse_payload),
        (media_payload, "plain_path_run", lambda *args: False),
        (media_payload, "_WORDS_AND_SPACES", never),
        (media_payload, "CAPTIONED_URL", never),
        (media_payload, "SPACED_PATH", never),
        (media_fates, "WORD_TOKEN", never),
        (media_fates, "APART_MIN_TOKENS", 1 << 62),
        (media_regroup, "WORD_TOKEN", never),
        (media_regroup, "PLAIN_PATH", never),
    ]
    saved = [(owner, attr, getattr(owner, attr)) for owner, attr, _ in off]
    try:
        for owner, attr, value in off:
            setattr(owner, attr, value)
        general = outputs()
    finally:
        for owner, attr, value in saved:
            setattr(owner, attr, value)
    assert fast == general, text
    explained = richout.split_media(text, profile=profile, policy=policy, explain=True)
    assert fast[0] == _outputs(explained, _SPLIT_OUT), text


def _split_recording(
    name: str, text: str, *, explain: bool = False
) -> tuple[list[bool], richout.MediaSplit]:
    """``split_media(text)`` with every answer of the walk's shortcut ``name`` recorded."""
    taken: list[bool] = []
    real = getattr(Walker, name)

    def recording(self: Walker, *args: Any) -> bool:
        took: bool = real(self, *args)
        taken.append(took)
        return took

    setattr(Walker, name, recording)
    try:
        with _walked():
            got = richout.split_media(text, explain=explain)
    finally:
        setattr(Walker, name, real)
    return taken, got


@pytest.mark.pure_python(why="counts calls of Walker._plain_accepted, a compiled class's method")
def test_the_plain_line_shortcut_is_taken_on_common_directives() -> None:
    """Not vacuous: the directive shapes most replies use are decided by the shortcut."""
    taken, got = _split_recording(
        "_plain_accepted",
        "Here:\nMEDIA:/tmp/a.png\n  Media: `https://example.com/b.mp4`\n"
        'MEDIA:C:\\Users\\a.png\nMEDIA:https://127.0.0.1/c.png\nMEDIA:"/tmp/d e.png"',
    )
    # The refused loopback URL goes the general way; so does the quoted path with a space,
    # which is not of the plain shape at all.
    assert taken == [True, True, True, False]
    assert got.media_urls == [
        "/tmp/a.png",
        "https://example.com/b.mp4",
        "C:\\Users\\a.png",
        "/tmp/d e.png",
    ]
    assert got.rejected_media_count == 1 and got.text == "Here:"


def _judged(monkeypatch: pytest.MonkeyPatch, method: str) -> list[str]:
    """The candidates later calls of ``Judge.<method>`` are asked about, in order."""
    asked: list[str] = []
    real = getattr(Judge, method)

    def recording(self: Judge, candidate: str, *args: bool) -> Any:
        asked.append(candidate)
        return real(self, candidate, *args)

    monkeypatch.setattr(Judge, method, recording)
    return asked


@pytest.mark.pure_python(why="counts calls of Judge.ok, a compiled class's method")
@pytest.mark.parametrize("explain", [False, True])
def test_a_plain_path_token_is_accepted_without_asking_the_judge(
    monkeypatch: pytest.MonkeyPatch, explain: bool
) -> None:
    """A plain absolute path is decided by its characters (``fates.plain_path``): an
    explaining walk once built a verdict per such line that nobody read."""
    asked = _judged(monkeypatch, "ok")
    with _walked():
        got = richout.split_media(
            "MEDIA:/tmp/a.png\nMEDIA:/srv/b-c.mp4\nMEDIA:./d.png", explain=explain
        )
    assert got.media_urls == ["/tmp/a.png", "/srv/b-c.mp4", "./d.png"]
    assert asked == ["./d.png"]  # relative: not a plain absolute path, asked as before


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.text(alphabet="/.-_aZ09", max_size=12).map("/".__add__),
        st.text(alphabet="/.-_aZ09:~'`[{", min_size=1, max_size=12),
    )
)
def test_a_plain_path_says_nothing_unless_it_ends_with_a_dot(token: str) -> None:
    """An explaining walk asks a plain path's token only whether it ends with "." (not
    says_nothing's whole reading): the two agree on every plain path."""
    if media_fates.plain_path(token):
        assert says_nothing(token) is (token[-1] != ".")
        assert ":" not in token


@settings(max_examples=1500, deadline=None)
@given(
    st.one_of(
        st.text(alphabet="/.-_aZ09", max_size=16).map("/".__add__),
        st.text(alphabet="/.-_aZ09:~\\é ", min_size=1, max_size=16),
    )
)
@example("/" + "a" * (MAX_REFERENCE_UNITS - 1))  # the longest plain path
@example("/" + "a" * MAX_REFERENCE_UNITS)  # one unit too long: not plain, and refused
@example("/a/../b")  # traversal: not plain
def test_a_plain_path_is_accepted_under_every_profile(token: str) -> None:
    """The walk and the fused split accept a plain absolute path from its characters
    (``fates.plain_path``) without the full check: the check accepts every one of them,
    under every profile."""
    if media_fates.plain_path(token):
        for profile in PROFILES.values():
            assert is_valid_reference(token, profile=profile), (token, profile.name)


def test_plain_paths_are_drawn_both_ways() -> None:
    """Not vacuous: the shortcut takes plain paths and turns away traversal, spaces,
    non-ASCII, relative and over-long tokens (the strategy above draws both kinds)."""
    assert media_fates.plain_path("/tmp/x-1.png") and media_fates.plain_path("/")
    for other in ("/a/../b", "/a b", "/é.png", "tmp/x.png", "/" + "a" * MAX_REFERENCE_UNITS):
        assert not media_fates.plain_path(other)


_WORDS_LINE = st.builds(
    lambda lead, words, seps, tail: (
        "MEDIA:"
        + lead
        + "".join(sep + word for sep, word in zip(["", *seps], words, strict=False))
        + tail
    ),
    st.sampled_from(["", " ", "  "]),
    st.lists(
        st.sampled_from(
            ["see", "the", "chart", "12", "a-b", "c_d", "-", "_", "x" * 4097, "y" * 3000]
        ),
        min_size=1,
        max_size=5,
    ),
    st.lists(st.sampled_from([" ", "  "]), min_size=4, max_size=4),
    st.sampled_from(["", " ", "   "]),
)


@pytest.mark.pure_python(why="replaces a module constant of a compiled module")
@settings(max_examples=400, deadline=None)
@given(
    st.lists(_WORDS_LINE, min_size=1, max_size=3).map("\n".join), st.sampled_from(sorted(PROFILES))
)
def test_a_payload_of_words_is_explained_as_the_general_steps_explain_it(
    text: str, profile: str
) -> None:
    """A payload of words and spaces gets one record for its parts without a verdict per
    word (``explain_directives._reject_words``), the record the per-part loop gives; with
    a word longer than a reference may be, the loop runs as before."""
    real = explain_directives._LONG_WORD
    views = (richout.split_media, richout.parse_reply, richout.render_reply)
    fast = [view(text, explain=True, profile=profile).to_wire() for view in views]
    explain_directives._LONG_WORD = re.compile("")  # every payload "holds a long word"
    try:
        general = [view(text, explain=True, profile=profile).to_wire() for view in views]
    finally:
        explain_directives._LONG_WORD = real
    assert fast == general


@pytest.mark.pure_python(why="counts calls of Judge.verdict, a compiled class's method")
def test_a_payload_of_words_asks_one_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not vacuous: the words route is taken (the general loop asks one per word, and one
    # for the fallback).
    asked = _judged(monkeypatch, "verdict")
    got = richout.split_media("MEDIA: see the chart 12 now", explain=True)
    assert [d.code for d in got.diagnostics] == ["media.not_a_reference"]
    assert asked == ["see"]


_PATH_TOKEN = st.builds(
    lambda head, body: head + body,
    st.sampled_from(["/", "/tmp/", "/a/../", "/srv/", "./", "~/", "/x`", "//"]),
    st.lists(st.sampled_from([*"ab_-./", ".png", "..", ")", ":", "é"]), max_size=8).map("".join),
)
_PATHS_LINE = st.builds(
    lambda lead, word, gap, paths, seps, tail: (
        lead
        + word
        + gap
        + "".join(sep + path for sep, path in zip(["", *seps], paths, strict=False))
        + tail
    ),
    st.sampled_from(["", " ", "\t", "    ", "- "]),
    st.sampled_from(["MEDIA:", "media:", "MEDıA:"]),
    st.sampled_from(["", " ", "\t", "\u3000"]),
    st.lists(_PATH_TOKEN, min_size=2, max_size=5),
    st.lists(st.sampled_from([" ", "  ", "\t", " \t", "\u00a0", ","]), min_size=4, max_size=4),
    st.sampled_from(["", " ", "\t", "`", " caption"]),
)
_PATHS_REPLY = st.builds(
    lambda before, lines, breaks, after: before + _joined(lines, breaks) + after,
    _AROUND,
    st.lists(_PATHS_LINE | _DIRECTIVE, min_size=1, max_size=4),
    _BREAKS,
    _AFTER,
)


@pytest.mark.pure_python(why="replaces Walker._plain_paths, a compiled class's method")
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_PATHS_REPLY, _PROFILES, st.booleans())
def test_lines_of_plain_paths_read_as_the_payload_steps_read_them(
    text: str, profile: str, narrow: bool
) -> None:
    """The walk's shortcut for a line of several plain paths changes no output of any
    pipeline, in any profile, with or without a gateway policy."""
    _assert_shortcut_changes_nothing("_plain_paths", text, profile, narrow)


@pytest.mark.pure_python(why="counts calls of Walker._plain_paths, a compiled class's method")
def test_the_plain_paths_shortcut_is_taken_on_lines_of_paths() -> None:
    """Not vacuous: a line of plain paths is decided by the shortcut; one with a traversal,
    a caption or a comma is not."""
    taken, got = _split_recording(
        "_plain_paths",
        "Here:\nMEDIA: /tmp/a.png /tmp/b.png\n  media:/c\t/d/e \n"
        "MEDIA: /a/../b /c\nMEDIA: /tmp/f.png caption\nMEDIA: /g, /h\n"
        "MEDIA: /i /" + "j" * 4096,
    )
    # A path longer than a reference may be (4096 UTF-16 units) is refused and counted.
    assert taken == [True, True, False, False, False, False]
    assert got.rejected_media_count == 2 and "/i" in got.media_urls
    assert got.media_urls[:4] == ["/tmp/a.png", "/tmp/b.png", "/c", "/d/e"]
    assert got.text.startswith("Here:")


@pytest.mark.pure_python(why="replaces Walker._directive_head, a compiled class's method")
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_DIRECTIVE_REPLY, _PROFILES, st.booleans())
def test_a_directive_line_read_from_its_head_reads_as_the_search_finds_it(
    text: str, profile: str, narrow: bool
) -> None:
    """Where the walk reads rule 1, the ``MEDIA:`` and the payload's start off a line's
    blanks-``MEDIA:``-blanks head, every output and explanation of every pipeline is what
    the rule-1 test, the token search and ``payload_start`` give."""
    _assert_shortcut_changes_nothing("_directive_head", text, profile, narrow, declined=None)


# The same lines, and a second MEDIA: inside the last line's token, for the explained
# walk's shortcut for one refused token (Walker._refused_token).
_REFUSED_TOKEN_REPLY = st.builds(
    lambda reply, extra: reply + extra,
    _DIRECTIVE_REPLY,
    st.sampled_from(["", "/MEDIA:x", "MEDIA:../b", "media://y", "\nMEDIA:../c.png"]),
)


@pytest.mark.pure_python(why="replaces Walker._refused_token, a compiled class's method")
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_REFUSED_TOKEN_REPLY, _PROFILES, st.booleans())
def test_refused_token_lines_read_as_the_payload_steps_read_them(
    text: str, profile: str, narrow: bool
) -> None:
    """The explained walk's shortcut for a line of one refused token changes no output and
    no explanation of any pipeline, in any profile, with or without a gateway policy."""
    _assert_shortcut_changes_nothing("_refused_token", text, profile, narrow)


@pytest.mark.pure_python(why="counts calls of Walker._refused_token, a compiled class's method")
def test_the_refused_token_shortcut_is_taken_on_refused_tokens() -> None:
    """Not vacuous: refused tokens (hidden and counted, removed as local, or kept) are decided
    by the shortcut; a token the bare-filename fallback accepts and a refused one a closing
    backtick follows are declined, and a payload of two tokens is never offered to it."""
    taken, got = _split_recording(
        "_refused_token",
        "Here:\nMEDIA:../a.png\nMEDIA:http://x/b.png\nMEDIA:~bob/c.png\nMEDIA:word\n"
        "MEDIA:d.png\nMEDIA:../e.png`\nMEDIA:../f.png g\nMEDIA:/tmp/h.png",
        explain=True,
    )
    # The accepted path is taken by the plain-line shortcut, which asks first.
    assert taken == [True, True, True, True, False, False]
    assert got.media_urls == ["d.png", "/tmp/h.png"]
    assert got.rejected_media_count == 5 and got.text == "Here:\nMEDIA:word"
    codes = [d.code for d in got.diagnostics]
    assert codes.count("media.line_removed") == 5 and "media.remote.not_https" in codes


# Lines of a URL and its caption (the payload steps' captioned-URL lane), accepted (quiet or
# not, kept or refused by the policy) or refused, and of a rooted path written with spaces
# (the spaced-path lane), with blanks, backticks, a second MEDIA:, ".." and words the shapes
# do not take, for the explained walk's shortcut for such a line (Walker._caption).
_CAPTION_LINE = st.builds(
    lambda lead, head, gap, url, words, tail: f"{lead}{head}{gap}{url}{words}{tail}",
    st.sampled_from(["", "", "", " ", "\t", "    ", "- ", "> "]),
    st.sampled_from(["MEDIA:", "MEDIA:", "media:", "MEDıA:"]),
    st.sampled_from(["", " ", "\t", "`", " `"]),
    st.sampled_from(
        [
            "http://x/a.png",
            "HTTP://x/a.png",
            "https://localhost/a.png",
            "https://127.0.0.1/b.mp3",
            "https://example.com/c.png",
            "https://cdn.example.org/d",
            "https://example.com/f.png.",
            "http://x/MEDIA:y",
            "https://a_b.example/e.png",
            "https://x",
            "/tmp/a.png",
            "/tmp/b",
            "~/c.pdf",
            "/tmp/../d.png",
            "/tmp/e.",
            "~x/f.png",
        ]
    ),
    st.lists(
        st.sampled_from(
            [" word", "  two", "\tthree", " a-b_c", " x.png", " MEDIA:z", " 9", " My/x.pdf"]
        ),
        max_size=3,
    ).map("".join),
    st.sampled_from(["", "", "", "", " ", "\t", "`", ".", "\u00a0"]),
)
_CAPTION_REPLY = st.builds(
    lambda before, lines, breaks, after: before + _joined(lines, breaks) + after,
    _AROUND,
    st.lists(st.one_of(_CAPTION_LINE, _DIRECTIVE), min_size=1, max_size=4),
    _BREAKS,
    _AFTER,
)


@pytest.mark.pure_python(why="replaces Walker._caption, a compiled class's method")
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_CAPTION_REPLY, _PROFILES, st.booleans())
# (a payload whose whole-payload fallback fails for a reason of its own: the host "x word")
@example("Here:\nMEDIA:https://x word\nDone.", "next", False)
@example("MEDIA:https://x  two words", "release-2026.9.6", True)
# (a later name with a "/" after a complete path: a part of its own, not absorbed)
@example("MEDIA:/tmp/a.png My/x.pdf", "next", False)
def test_caption_lines_read_as_the_payload_steps_read_them(
    text: str, profile: str, narrow: bool
) -> None:
    """The explained walk's shortcut for a line of a URL and its caption, or of a path written
    with spaces, changes no output and no explanation of any pipeline, in any profile, with
    or without a gateway policy (the general side reads such payloads by the general steps
    too)."""
    _assert_shortcut_changes_nothing("_caption", text, profile, narrow)


@pytest.mark.pure_python(why="counts calls of Walker._caption, a compiled class's method")
def test_the_caption_shortcut_is_taken_on_captioned_urls() -> None:
    """Not vacuous: URLs with a caption, accepted and quiet or refused (an http: one, a
    blocked host, a second MEDIA: in the URL), and paths written with spaces are decided by
    the shortcut; an accepted URL §17.3 warns about, blanks after the caption, a caption the
    shape does not take and a path with ".." are declined, and a line whose payload starts
    with neither "http" nor a root is never offered to it."""
    taken, got = _split_recording(
        "_caption",
        "Here:\nMEDIA:http://x/a.png word\nMEDIA: https://localhost/b.png two words\n"
        "MEDIA:http://x/MEDIA:y z\nMEDIA:https://example.com/c.png cap\n"
        "MEDIA:https://example.com/g.png. cap\n"
        "MEDIA:http://x/d.png word \nMEDIA:http://x/e.png x.png\nMEDIA:../f.png g\n"
        "MEDIA:/tmp/h.png the chart\nMEDIA: ~/i j.pdf\nMEDIA:/tmp/../k.png l",
        explain=True,
    )
    assert taken == [True, True, True, True, False, False, False, True, True, False]
    assert got.media_urls == [
        "https://example.com/c.png",
        "https://example.com/g.png.",
        "/tmp/h.png the chart",
        "~/i j.pdf",
    ]
    codes = [d.code for d in got.diagnostics]
    assert codes.count("media.remote.not_https") == 4
    assert "media.remote.host_blocked" in codes and "media.multiple_on_line" in codes
    assert codes.count("media.leftover_text") == 2 and codes.count("media.words_absorbed") == 1


@pytest.mark.pure_python(why="counts calls of Walker methods, a compiled class's")
def test_an_explained_split_takes_the_line_shortcuts_only_where_nothing_is_to_be_said() -> None:
    """Not vacuous, explaining: the shortcuts take a line only when §17.2-§17.3 would say
    nothing about it (a quiet token, maybe between backticks, no sentence punctuation at a
    token's end, no second ``MEDIA:``); the others get their diagnostics from the general
    path."""
    taken, got = _split_recording(
        "_plain_accepted",
        "Here:\nMEDIA:/tmp/a.png\nMEDIA:`/tmp/b.png`\nMEDIA:/tmp/c.png.\n"
        "MEDIA:https://example.com/d.png\nMEDIA:/e/MEDIA:/f\nMEDIA:/g.png`",
        explain=True,
    )
    # Backticks around a quiet token are skipped and cleaned away: nothing to say either.
    assert taken == [True, True, False, True, False, True]
    assert [s.value for s in got.spans][:2] == ["/tmp/a.png", "/tmp/b.png"]
    codes = {d.code for d in got.diagnostics}
    assert {"media.trailing_punctuation", "media.multiple_on_line"} <= codes, codes
    taken, got = _split_recording(
        "_plain_paths", "MEDIA: /a /b\nMEDIA: /c. /d\nMEDIA: /e /f", explain=True
    )
    assert taken == [True, False, True]
    assert [s.value for s in got.spans] == ["/a", "/b", "/c.", "/d", "/e", "/f"]
    assert [d.code for d in got.diagnostics] == ["media.trailing_punctuation"]


_MENTION_PIECES = st.sampled_from(
    [
        "See the media: folder",
        "media:",
        "MEDIA:/tmp/a.png",
        " MEDIA: x",
        "MEDıA: y",
        "x",
        "\n",
        "\n\n",
        "\r",
        "\r\n",
        " ",
        "    ",
        "```",
        "- ",
        "> ",
        "![a](https://example.com/i.png)",
        "[link](https://example.com)",
        "[[",
        "\u00a0",
        "Media:",
    ]
)
_MENTION_TEXT = st.lists(_MENTION_PIECES, min_size=1, max_size=12).map("".join)


@pytest.mark.pure_python(why="replaces a compiled module's function")
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_MENTION_TEXT, _PROFILES, st.booleans(), st.booleans())
def test_prose_mentions_of_media_give_what_the_walk_gives(
    text: str, profile: str, images: bool, preserve: bool
) -> None:
    """A reply whose "media:" is only ever inside a line skips the walk: same outputs, same
    fields set, segments included, in every pipeline."""

    def results() -> tuple[Any, ...]:
        split = richout.split_media(
            text,
            profile=profile,
            extract_markdown_images=images,
            preserve_trailing_whitespace=preserve,
        )
        reply = richout.parse_reply(text, current_message_id="m1", profile=profile)
        return (
            _outputs(split, _SPLIT_OUT),
            split.model_fields_set,
            _outputs(reply, _REPLY_OUT),
            _outputs(richout.render_reply(text, profile=profile), _RENDER_OUT),
        )

    fast = results()
    real = media_pipeline._mentions_only
    try:
        media_pipeline._mentions_only = lambda raw, profile, first=None: False
        walked = results()
    finally:
        media_pipeline._mentions_only = real
    assert fast == walked, text


@pytest.mark.parametrize(
    "text",
    ["[[audio_as_voice]] hi", "x\nMEDIA:/tmp/a.png\n[[audio_as_voice]] hi", "[[reply_to:x]] hi"],
)
def test_explained_spans_set_the_same_fields_whichever_way_the_split_went(text: str) -> None:
    """A tag span the views reuse unmoved keeps the fields set a rebuilt one has."""
    for result in (
        richout.split_media(text, explain=True),
        richout.parse_reply(text, explain=True),
        richout.render_reply(text, explain=True),
    ):
        for span in result.spans:
            assert span.model_fields_set == {"kind", "start", "end", "value"}, (text, span)
