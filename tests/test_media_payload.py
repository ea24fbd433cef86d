"""Payload tokenising, cleaning and regrouping (MEDIA.md §6) against naive oracles.

The module under test computes everything with linear scans; the oracles below transcribe
the spec sentences directly (quadratic, small inputs only) and must agree on every input.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from richout.media import shapes
from richout.media.cleaning import Cleaner, clean, quoted_list, split_parts, unwrap_bounds
from richout.media.payload import Judge, PayloadResult, analyse_payload
from richout.media.single_token import BARE_TOKEN, bare_token_reference
from richout.policy import is_valid_reference, strip_file_prefix
from richout.policy.local import (
    has_file_extension,
    has_scheme_prefix,
    is_traversal_or_unsupported_home,
    looks_local,
    starts_at_root,
)
from richout.profiles import PROFILES, Profile
from richout.text.chars import JS_WS, has_js_ws, js_trim

WORD = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
QUOTES = "\"'`"

# ---------------------------------------------------------------- oracles


def naive_clean(s: str) -> str:
    """§6.1 as written: strip the wrapper runs, then cut at the last JSON-tail position."""
    s = s.lstrip("`\"'[{(").rstrip("`\"'\\})],")
    for cut in range(len(s), -1, -1):
        head, rest = s[:cut], s[cut:]
        if not has_file_extension(head):
            continue
        if rest.startswith("\\"):
            rest = rest[1:]
        if rest.startswith('"') and (len(rest) == 1 or rest[1] in "]},:"):
            return head
    return s


def naive_unwrap(s: str) -> str | None:
    s = js_trim(s)
    if len(s) < 2 or s[0] != s[-1] or s[0] not in QUOTES:
        return None
    return js_trim(s[1:-1])


def naive_quoted_end(p: str, start: int) -> int:
    q = p[start]
    for i in range(start + 1, len(p)):
        if p[i] != q:
            continue
        after = i + 1
        if after >= len(p) or p[after] in JS_WS:
            return i
        if p[after] == ",":
            rest = p[after + 1 :].lstrip(JS_WS)
            if rest[:1] and rest[0] in QUOTES:
                return i
    return -1


def naive_list(p: str) -> list[str] | None:
    """PROFILES.md rule 3, written the slow way."""
    t = js_trim(p)
    if len(t) >= 2 and t[0] == "[" and t[-1] == "]":
        p = t[1:-1]
    tokens: list[str] = []
    i = 0
    while i < len(p):
        if p[i] in JS_WS or p[i] == ",":
            i += 1
            continue
        if p[i] in QUOTES:
            end = naive_quoted_end(p, i)
            if end != -1:
                tokens.append(p[i : end + 1])
                i = end + 1
                continue
        return None
    return tokens if len(tokens) >= 2 else None


def naive_tokens(p: str) -> list[tuple[int, int]]:
    out = []
    i = 0
    while i < len(p):
        if p[i] in JS_WS:
            i += 1
            continue
        j = i
        while j < len(p) and p[j] not in JS_WS:
            j += 1
        out.append((i, j))
        i = j
    return out


def independent(s: str) -> bool:
    c = strip_file_prefix(naive_clean(s))
    return starts_at_root(c) or has_scheme_prefix(c)


def naive_parts(p: str, profile: Profile) -> list[str]:
    parts: list[str] = []
    prev_end = 0
    for a, b in naive_tokens(p):
        tok = p[a:b]
        c = strip_file_prefix(naive_clean(tok))
        if parts:
            pc = strip_file_prefix(naive_clean(parts[-1]))
            if (
                starts_at_root(pc)
                and not independent(c)
                and (not has_file_extension(pc) or not is_valid_reference(c, profile=profile))
            ):
                parts[-1] = parts[-1] + p[prev_end:a] + tok
                prev_end = b
                continue
        parts.append(tok)
        prev_end = b
    return parts


def naive_analyse(p: str, profile: Profile) -> tuple[list[str], list[str], bool, int]:
    """The profile's payload steps: (accepted, leftovers, looks_local, rejected count)."""
    nxt = profile.quoted_lists

    def valid(c: str, bare: bool = False) -> bool:
        return is_valid_reference(c, allow_spaces=True, allow_bare_filename=bare, profile=profile)

    members = naive_list(p) if nxt else None
    stripped = naive_unwrap(p)
    u = None if members is not None else stripped
    v = u if u is not None else p
    parts = members if members is not None else [u] if u else naive_parts(p, profile)
    accepted: list[str] = []
    leftovers: list[str] = []
    counted = 0
    for part in parts:
        if nxt:
            quoted = naive_unwrap(part) if u is None else None
            cand = u if u is not None else quoted if quoted is not None else naive_clean(part)
        else:
            cand = naive_clean(part) if u is None else part
        if valid(cand, members is not None):
            accepted.append(cand)
        elif nxt and (independent(cand) or looks_local(cand)):
            counted += 1
        elif not has_js_ws(part) or not is_traversal_or_unsupported_home(cand):
            leftovers.append(part)
    tv = js_trim(stripped if stripped is not None else p)
    local = looks_local(tv) or strip_file_prefix(tv) != tv
    if (
        members is None
        and not u
        and len(accepted) == 1
        and leftovers
        and not any(independent(x) for x in parts[1:])
        and has_js_ws(v)
        and local
    ):
        fb = naive_clean(v)
        if valid(fb):
            accepted, leftovers = [fb], []
    if not accepted and members is None:
        fb = u if u is not None else naive_clean(v)
        if valid(fb, True):
            accepted, leftovers = [fb], []
    return accepted, leftovers, local, counted


# ---------------------------------------------------------------- strategies

PIECES = [
    "/srv",
    "/",
    "~",
    "./",
    "../",
    "..",
    "C:\\",
    "\\\\",
    "a",
    "b c",
    ".png",
    ".mp3",
    ".x",
    ".abcdefghijk",
    "file:",
    "file://",
    "https://",
    "example.com",
    "media://inbound/",
    '"',
    "'",
    "`",
    "\\",
    '\\"',
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    ",",
    ":",
    ";",
    " ",
    "  ",
    "\t",
    "\u00a0",
    "\r",
    "MEDIA:",
    "[[audio_as_voice]]",
    "é",
    "😀",
]

payloads = st.lists(st.sampled_from(PIECES), max_size=14).map("".join) | st.text(
    alphabet=st.sampled_from(list("/.a b\"'`\\[]{}(),:~pngC")), max_size=30
)


# ---------------------------------------------------------------- tables

CLEAN = [
    ('/srv/image.png"}],"details":{"x":1}', "/srv/image.png"),
    ('/srv/image.png\\"}],\\"details\\"', "/srv/image.png"),
    ('"/srv/a.png",', "/srv/a.png"),
    ('/srv/out.mp3{"results":[1]}', '/srv/out.mp3{"results":[1'),
    ("https://example.com/a.png);", "https://example.com/a.png);"),
    ("/a.png.", "/a.png."),
    ("((([/a.png", "/a.png"),
    ('/a.png":x', "/a.png"),
    ('/a.png"x', '/a.png"x'),
    ('/a.abcdefghijk":', '/a.abcdefghijk":'),
    ('/a.png"]/b.jpg",', "/a.png"),
    ("", ""),
]


@pytest.mark.parametrize(("raw", "expected"), CLEAN)
def test_clean_table(raw: str, expected: str) -> None:
    assert clean(raw) == expected
    assert naive_clean(raw) == expected


UNWRAP = [
    ('"a"', "a"),
    ("' a b '", "a b"),
    ("``", ""),
    ('"', None),
    ("'a\"", None),
    ("  `x`  ", "x"),
    ("(a)", None),
]


@pytest.mark.parametrize(("raw", "expected"), UNWRAP)
def test_unwrap_table(raw: str, expected: str | None) -> None:
    b = unwrap_bounds(raw, 0, len(raw))
    assert (None if b is None else raw[b[0] : b[1]]) == expected


LISTS = [
    ('"/a b.png" "/c d.png"', ['"/a b.png"', '"/c d.png"']),
    ("'a' `b` \"c\"", ["'a'", "`b`", '"c"']),
    ('["/a.png","/b.png"]', ['"/a.png"', '"/b.png"']),
    ("'it's' 'x'", ["'it's'", "'x'"]),
    ('"a", prose', None),
    ('"a"""', None),
    ('"a" x "b"', None),
    ('"a" "b" x', None),
    ('"a"', None),
    ('  "a"\t"b"  ', ['"a"', '"b"']),
]


@pytest.mark.parametrize(("payload", "expected"), LISTS)
def test_quoted_list_table(payload: str, expected: list[str] | None) -> None:
    found = quoted_list(payload)
    assert (None if found is None else [payload[a:b] for a, b in found]) == expected
    assert naive_list(payload) == expected


# ---------------------------------------------------------------- properties


@settings(max_examples=600)
@given(payloads)
def test_clean_matches_the_oracle(s: str) -> None:
    assert clean(s) == naive_clean(s)


@settings(max_examples=300)
@given(payloads, st.data())
def test_clean_bounds_of_any_slice_match_the_oracle(s: str, data: st.DataObject) -> None:
    a = data.draw(st.integers(0, len(s)))
    b = data.draw(st.integers(a, len(s)))
    x, y, cut = Cleaner(s).bounds(a, b)
    assert s[x:y] == naive_clean(s[a:b])
    assert cut == (s[x:y] != s[a:b].lstrip("`\"'[{(").rstrip("`\"'\\})],"))


@settings(max_examples=300)
@given(payloads, st.data())
def test_one_cleaner_asked_many_slices_matches_the_oracle(s: str, data: st.DataObject) -> None:
    """Regrouping asks one :class:`Cleaner` for a part as it grows: the same start, later
    ends, and the wrapper run at the start is remembered between the questions."""
    cl = Cleaner(s)
    a = data.draw(st.integers(0, len(s)))
    ends = data.draw(st.lists(st.integers(a, len(s)), max_size=8))
    starts = data.draw(st.lists(st.integers(0, len(s)), max_size=4))
    for x0, y0 in [(a, b) for b in ends] + [(x, len(s)) for x in starts]:
        x, y, _ = cl.bounds(x0, y0)
        assert s[x:y] == naive_clean(s[x0:y0])


# Tokens near the word and plain-path classes of richout.media.payload: the characters
# those classes allow and every character that would change cleaning, roots or verdicts.
def _assert_general_steps(p: str, profile: Profile) -> PayloadResult:
    """``analyse_payload(p)``, with either judge, is the general steps' result
    (``_read_payload`` without its lanes, returned), field for field."""
    from richout.media import payload as pl

    general = pl._read_payload(p, Judge(profile), PayloadResult(), lane=False)
    assert analyse_payload(p, Judge(profile)) == general, p
    assert analyse_payload(p, Judge(profile, explains=False)) == general, p
    return general


_TOKEN_CHARS = list("aZ09_-./") + list(":~\\\"'`([{)]},;%@+é")
tokens = (
    st.text(alphabet=st.sampled_from(_TOKEN_CHARS), min_size=1, max_size=12)
    | st.builds(
        lambda t: "/" + t, st.text(alphabet=st.sampled_from(list("ab_-./") * 3 + _TOKEN_CHARS))
    )
    | st.text(alphabet=st.sampled_from(list("xY7_-")), min_size=1, max_size=70)
    # inside the plain-path class, where only the ".." rule tells a path from a traversal
    | st.builds(lambda t: "/" + t, st.text(alphabet=st.sampled_from(list("a_-./")), max_size=12))
)


@settings(max_examples=800)
@given(tokens, st.sampled_from(sorted(PROFILES)), st.booleans())
@example("/a/../b", "next", False)
def test_token_classes_answer_as_the_general_steps(token: str, name: str, bare: bool) -> None:
    """A word or plain absolute path is answered from its characters; the answer must be
    the general steps' (cleaning, file prefix, root, §7), under every profile."""
    from richout.media import fates as fa
    from richout.media import regroup as rg

    p = " " + token + " "
    a, b = 1, 1 + len(token)
    judge = Judge(PROFILES[name])
    cl = Cleaner(p)
    assert rg.token_facts(p, cl, a, b, {}) == rg.read_token_facts(p, cl, a, b)
    assert fa.part_fate(p, cl, a, b, judge, bare=bare) == fa._read_part_fate(
        p, cl, a, b, judge, bare=bare
    )


@settings(max_examples=600)
@given(tokens, st.sampled_from(sorted(PROFILES)))
@example("/tmp/a.png", "next")
@example("/a/../b", "next")
@example("/" + "a" * 5000, "next")  # past MAX_REFERENCE_UNITS
def test_a_single_token_payload_reads_as_the_general_steps(token: str, name: str) -> None:
    """A payload of one token: :func:`single_token`'s result (a plain absolute path is
    accepted from its characters) is the general single-token steps', field for field."""
    assume(token[0] not in "\"'`[" and not has_js_ws(token))
    _assert_general_steps(token, PROFILES[name])


# Tokens holding none of ": / \ ~" (single_token's bare names): dots and extensions, the
# ".." traversal, wrappers cleaning strips, JSON tails, lengths past the reference limit.
_BARE_NAMES = st.lists(
    st.sampled_from(
        [*".._=-]})\"'`,[{(ab9é", "..", ".png", ".tar", ".abcdefghijk", '"}', "x" * 2100]
    ),
    min_size=1,
    max_size=10,
).map("".join)


@settings(max_examples=1500)
@given(_BARE_NAMES, st.sampled_from(sorted(PROFILES)))
@example("=.1]", "next")
@example('"=.1]', "next")
@example("..", "next")
@example(".png", "release-2026.9.6")
@example("a." + "b" * 11, "next")
def test_a_bare_name_token_reads_as_the_general_steps(token: str, name: str) -> None:
    """A whitespace-free token without ``: / \\ ~`` is refused as a part and accepted whole
    only as a bare filename (``single_token._bare_name``): field for field the general
    steps' result, with either judge, quote-led tokens included."""
    _assert_general_steps(token, PROFILES[name])


def _assert_bare_token_lane(token: str, profile: Profile) -> None:
    """The fused split's bare-token lane (``bare_token_reference``) gives what the general
    steps give for the outputs the split reads: what is delivered, what is counted, whether
    the payload looks local, and that a delivered name leaves nothing visible."""
    general = _assert_general_steps(token, profile)
    name = bare_token_reference(token)
    assert [item.value for item in general.accepted] == ([] if name is None else [name]), token
    assert general.counted == [], token
    assert not general.looks_local, token
    if name is not None:
        assert general.leftovers == [], token


@settings(max_examples=1500)
@given(
    st.lists(st.sampled_from([*_TOKEN_CHARS, " ", "\t", "\u3000", ".png", "=.1"]), max_size=12).map(
        "".join
    ),
    st.sampled_from(sorted(PROFILES)),
)
@example('"=.1]', "next")
@example("[a.png]", "next")
@example("'a.png", "release-2026.9.6")
@example("(x.png)", "next")
@example("`=.1", "next")
@example("'a.png','b.png'", "next")
def test_the_bare_token_lane_is_exact_where_it_reads(token: str, name: str) -> None:
    """:data:`BARE_TOKEN` matches exactly the payloads with no whitespace, none of
    ``: / \\ ~`` and no quote after the first character, and the lane reads each as the
    general steps do (a second quote can make a list: ``'a.png','b.png'`` delivers two
    names where the lane would refuse one token)."""
    marks = any(has_js_ws(ch) or ch in ":/\\~" for ch in token)
    later_quote = any(ch in "\"'`" for ch in token[1:])
    assert (BARE_TOKEN.fullmatch(token) is not None) == (
        token != "" and not marks and not later_quote
    ), token
    if BARE_TOKEN.fullmatch(token) is not None:
        _assert_bare_token_lane(token, PROFILES[name])


@settings(max_examples=1500)
@given(
    _BARE_NAMES.filter(lambda t: BARE_TOKEN.fullmatch(t) is not None),
    st.sampled_from(sorted(PROFILES)),
)
def test_bare_names_the_lane_reads_are_the_general_steps(token: str, name: str) -> None:
    """The drawn bare names (``_BARE_NAMES``: lengths past the limit, ``..``, extensions,
    wrappers) that the lane reads: its answer is the general steps'."""
    _assert_bare_token_lane(token, PROFILES[name])


#: Tokens of :data:`~richout.media.walk.PLAIN_DIRECTIVE`'s class, prefixes included:
#: schemes, file prefixes, roots, traversals, home forms, bare names and extensions.
_CLEAN_TOKENS = st.builds(
    "".join,
    st.lists(
        st.sampled_from(
            [
                *"aZ9/._~:%?=&+#@!$*;-",
                *("\\", "..", "../", "~/", "./", "http://", "https://h/", "file:", "file://"),
                *("media://inbound/", "C:/", ".png", "x.tar.gz", "a" * 300),
            ]
        ),
        min_size=1,
        max_size=8,
    ),
)


@settings(max_examples=1500)
@given(_CLEAN_TOKENS, st.sampled_from(sorted(PROFILES)), st.booleans())
@example("../a0.png", "next", False)
@example("x.png", "next", True)
@example("file:../a", "next", False)
def test_a_clean_token_reads_as_the_payload_steps_read_it(
    token: str, name: str, asked_before: bool
) -> None:
    """A :data:`PLAIN_DIRECTIVE` token read by :func:`read_clean_token` (no cleaning, the
    §6.6 test from its characters, no spaces switch) is the general steps' reading, field
    for field, with and without the walk's earlier question in the judge's memo."""
    from richout.media.single_token import read_clean_token
    from richout.media.walk import PLAIN_DIRECTIVE

    m = PLAIN_DIRECTIVE.fullmatch("MEDIA:" + token)
    assume(m is not None and m.group(2) == token)
    profile = PROFILES[name]
    for explains in (True, False):
        judge = Judge(profile, explains=explains)
        if asked_before:
            judge.ok(token)
        assert read_clean_token(token, judge) == analyse_payload(token, Judge(profile)), token


@settings(max_examples=400)
@given(
    # Words and spaces, and the characters just outside that shape (a payload holding one
    # of them must take the general steps and read the same).
    st.text(
        alphabet=st.sampled_from([*"ab_-9", *" " * 4, *"./:~\t\u00a0"]), min_size=1, max_size=40
    ),
    st.sampled_from(sorted(PROFILES)),
)
def test_a_payload_of_words_reads_as_the_general_steps(p: str, name: str) -> None:
    """Words and spaces only: :func:`_words_only`'s result, field for field, is the general
    steps' (every part left visible, the fallback refused), under every profile."""
    from richout.media import payload as pl

    general = pl._read_payload(p, Judge(PROFILES[name]), pl.PayloadResult(), lane=False)
    assert analyse_payload(p, Judge(PROFILES[name])) == general


@settings(max_examples=600)
@given(
    # Plain absolute paths and blanks, and what lies just outside that shape: a token not
    # at a root, "..", a wrapper, another whitespace (each must take the general steps).
    st.lists(
        st.sampled_from(["/a", "/b.png", "/x/y_z-1", "/", "/.", "/..", "/a..b", "x", "~/a", "/a)"])
        | st.text(alphabet=st.sampled_from(list("a./_-")), max_size=6).map(lambda t: "/" + t),
        min_size=1,
        max_size=6,
    ).flatmap(
        lambda toks: st.lists(
            st.sampled_from([" ", "  ", "\t", " \t", "\u00a0"]),
            min_size=len(toks),
            max_size=len(toks),
        ).map(lambda seps: "".join(t + s for t, s in zip(toks, seps, strict=True)))
    )
    | st.sampled_from(["/a /b", "/a /b ", "/a\t/b", "/" + "a" * 5000 + " /b"]),
    st.sampled_from(sorted(PROFILES)),
)
def test_a_payload_of_plain_paths_reads_as_the_general_steps(p: str, name: str) -> None:
    """Plain absolute paths and blanks: :func:`richout.media.shapes.paths_only`'s result,
    field for field, is the general steps' (each path its own accepted part), under every
    profile."""
    from richout.media import payload as pl

    for q in (p, p.rstrip(JS_WS)):
        general = pl._read_payload(q, Judge(PROFILES[name]), pl.PayloadResult(), lane=False)
        assert analyse_payload(q, Judge(PROFILES[name])) == general


@pytest.mark.pure_python(why="replaces _read_payload, which compiled callers call directly")
def test_words_and_plain_paths_take_their_short_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    from richout.media import payload as pl

    def general(*args: object) -> pl.PayloadResult:
        raise AssertionError("the general steps ran")

    monkeypatch.setattr(pl, "_read_payload", general)
    res = analyse_payload(" x0 x1  y-z ", Judge())
    assert res.parts == 3 and not res.accepted and len(res.leftovers) == 3
    with pytest.raises(AssertionError):
        analyse_payload(" x0 /a ", Judge())
    res = analyse_payload("/a /b.png\t/c ", Judge())
    assert [i.value for i in res.accepted] == ["/a", "/b.png", "/c"]


# Tokens for payloads long enough for the lane of tokens that stay apart: rooted ones
# ("/", "/a.png", "~/x"), independent ones (URLs, "C:\\x"), words, and dependent ones that
# a rooted token before them may absorb ("b", "x.png", "a)"), with wrappers and JSON tails.
_APART_TOKENS = [
    "/",
    "~",
    "~/x",
    "/a.png",
    "/a",
    "./b",
    "../c",
    "C:\\x",
    "https://example.com/a.png",
    "b",
    "x.png",
    "a)",
    "(a",
    '"/q"',
    "`/r`",
    '/z.png"]',
    "é",
    "file:/a",
    "media:/x",
    "..",
]
_SEPARATORS = [" ", "  ", "\t", " \u00a0", "\u3000"]


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(_APART_TOKENS) | tokens, min_size=1, max_size=4).flatmap(
        lambda alphabet: st.lists(st.sampled_from(alphabet), min_size=14, max_size=48)
    ),
    st.lists(st.sampled_from(_SEPARATORS), min_size=48, max_size=48),
    st.sampled_from(["", " ", "\t"]),
    st.sampled_from(sorted(PROFILES)),
)
@example(["/", "~"] * 10, [" "] * 48, "", "next")
@example(["/a", "b"] * 10, [" "] * 48, "", "next")
def test_a_payload_of_tokens_apart_reads_as_the_general_steps(
    toks: list[str], seps: list[str], edge: str, name: str
) -> None:
    """Many tokens from a small alphabet (repeats, as hostile payloads have): the lane's
    result (:func:`richout.media.fates.tokens_apart`), field for field, is the general
    steps' (regroup, then a verdict per part), and the oracle's, under every profile."""

    p = edge + "".join(t + s for t, s in zip(toks, seps, strict=False)) + edge
    profile = PROFILES[name]
    _assert_general_steps(p, profile)
    _assert_reads_as_the_oracle(p, profile)


def _assert_lanes_read_as_the_general_steps(
    rng: random.Random, tokens: list[str], seps: list[str]
) -> str:
    """Join ``tokens`` by ``seps`` (the first separator dropped, blanks maybe around), and
    check that ``analyse_payload`` under a random profile, with either judge, gives the
    general steps' result field for field, and (short payloads) the oracle's. Returns the
    payload."""
    p = rng.choice(["", " "]) + "".join(s + t for s, t in zip(seps, tokens, strict=True))[1:]
    p += rng.choice(["", " ", "\t"])
    _read_as_the_general_steps(rng, p)
    return p


_SPACED_HEADS = [
    *("/tmp/a", "/", "~/x", "~/", "/a.png", "/a/..", "/a/../b", "./a", "~", "~u/a", "C:/a"),
]
_SPACED_TAILS = [
    *("b", "file1.png", "x.y.z", "-a", "_", ".png", "b..c", "..", "a/b", "a:b"),
    *("http://x", "`b`", '"b"', "b)", "é", "b,", "[b]", "x" * 4100, "B.MP3"),
    # names with a separator: one may be accepted alone, and then joins only a part
    # without a file extension
    *("My Files/b", "x/c.png", "d/", "x.png/y", "a//b", "b/.c", "b/~", "b/./c"),
    # payloads just under and over the lanes' length limit (MAX_REFERENCE_UNITS, 4096)
    *("x" * 4080, "x" * 4086, "x" * 4090),
]


def test_a_path_written_with_spaces_reads_as_the_general_steps() -> None:
    """A path from ``/`` or ``~/`` followed by names (``/tmp/my file.png``): the lane's
    result (:func:`richout.media.shapes.spaced_path`), field for field, is the general
    steps', and the oracle's, under every profile; near misses (a traversal, a scheme, a
    separator, a wrapper, a dotted or non-ASCII name, a name too long) take the general
    steps and read the same. A seeded sweep: hypothesis's draws cost more than the checks."""

    rng = random.Random(20261203)
    taken = ticked = slashed = 0
    for i in range(4000):
        parts = [rng.choice(_SPACED_HEADS)]
        parts += [rng.choice(_SPACED_TAILS[:5] if i % 2 else _SPACED_TAILS)]
        parts += [rng.choice(_SPACED_TAILS[:6]) for _ in range(rng.randint(0, 3))]
        if i % 5 == 0:
            parts.insert(rng.randint(1, len(parts)), rng.choice(_SPACED_TAILS[-8:]))
        # A closing backtick (profile next skips the opening one of MEDIA:`/a b.png`), and
        # near misses: what cleaning strips with it, a second one, one before a blank name.
        parts[-1] += rng.choice(["", "", "`", "`", ".`", "``", "`x", "` `"])
        seps = [rng.choice([" ", "  ", "\t", " \t"] if i % 3 else [" ", "\u00a0"]) for _ in parts]
        p = _assert_lanes_read_as_the_general_steps(rng, parts, seps)
        lane = shapes.SPACED_PATH.fullmatch(p)
        if lane is None or ".." in p or not shapes.names_join(p, lane):
            continue
        taken += 1
        ticked += bool(lane.group(3))
        slashed += "/" in lane.group(2)
    # not vacuous: the lane answered, with a closing backtick and with a later "/" too
    assert taken > 400 and ticked > 150 and slashed > 50, (taken, ticked, slashed)


_CAPTION_HEADS = [
    *("https://e.example/a.png", "https://cdn.example.com/x?y=1", "HTTPS://E.EXAMPLE/A", "a.png"),
    *("http://x/a.png", "https://localhost/a", "https://a.b/c)", 'https://a.b/c.png"}', "C:/a"),
    *("file:/a", "media://inbound/x", "x", "/a", "~/a", "(https://a.b/c", "'https://a.b/c'"),
    *("https://a.b/c/../d", "a/b.png", "https://user@a.b/c", "https://a.b/" + "x" * 4100),
    *("(~", "{~/x", "((~", "(C:", "(file:x"),
]
_CAPTION_WORDS = ["word", "b", "x-y", "_", "2", "C", "file", "b.png", "/a", "é", "a:b", "`c`"]


def test_a_reference_and_words_read_as_the_general_steps() -> None:
    """A reference followed by words (``https://…/a.png the chart``): the result with the
    lane's parts (:func:`richout.media.payload._caption_parts`), field for field, is the
    general steps', and the oracle's, under every profile, whether the reference is
    accepted, refused, counted or rescued; a rooted or quoted first token, or a non-word
    after it, takes the general steps and reads the same."""
    from richout.media import payload as pl

    rng = random.Random(20261204)
    taken = 0
    for i in range(4000):
        toks = [rng.choice(_CAPTION_HEADS)]
        toks += [rng.choice(_CAPTION_WORDS[:6] if i % 2 else _CAPTION_WORDS)]
        toks += [rng.choice(_CAPTION_WORDS[:7]) for _ in range(rng.choice([0, 1, 2, 20]))]
        seps = [rng.choice([" ", "  ", "\t"] if i % 3 else [" ", "\u00a0"]) for _ in toks]
        p = _assert_lanes_read_as_the_general_steps(rng, toks, seps)
        found = pl._caption_parts(p, Cleaner(p), Judge(PROFILES["next"]), pl.PayloadResult())
        taken += found is not None
    assert taken > 600, taken  # not vacuous: the lane answered for many payloads


_QUOTED_HEADS = ["/", "~/", "/tmp/a", "~/x", "/a/../b", "/..", "~", "./a", "/a.png", "//x", "~u/a"]
_QUOTED_TAILS = ["b", "1.png", "x.y", "..", "-", "_", "b/c", "b..c", "é", 'a"b', "b'", "x" * 4100]


def test_a_quoted_path_reads_as_the_general_steps() -> None:
    """A rooted path in one pair of quotes or backticks, spaces inside
    (``"/tmp/my file.png"``): the lane's result (:func:`richout.media.shapes.quoted_path`),
    field for field, is the general steps', and the oracle's, under every profile and with
    either judge; near misses (a traversal, an unrooted path, blanks inside the quotes'
    ends, an unclosed or different closing quote, a quote inside, a path too long) read the
    same."""

    rng = random.Random(20261206)
    taken = ticked = 0
    for i in range(3000):
        q = rng.choice(['"', "'", "`", '"'])
        names = [rng.choice(_QUOTED_HEADS)]
        names += [rng.choice(_QUOTED_TAILS[:5] if i % 2 else _QUOTED_TAILS)]
        names += [rng.choice(_QUOTED_TAILS[:4]) for _ in range(rng.randint(0, 2))]
        # Odd rounds stay near the lane's shape; even ones add what breaks it.
        seps, pads, closes = (
            ([" ", "  "], [""], [q]) if i % 2 else ([" ", "", "\t"], ["", " "], [q, q + "x", ""])
        )
        inner = "".join(n + rng.choice(seps) for n in names).rstrip()
        inner = rng.choice(pads) + inner + rng.choice(pads)
        close = rng.choice(closes)
        p = rng.choice(["", " ", "\t"]) + q + inner + close + rng.choice(["", " ", "\t"])
        _read_as_the_general_steps(rng, p)
        lane = shapes.QUOTED_PATH.fullmatch(p) is not None and len(p) <= 4096
        taken += lane
        ticked += lane and q == "`"
    assert taken > 500 and ticked > 100, (taken, ticked)  # not vacuous: the lane answered


def _read_as_the_general_steps(rng: random.Random, p: str) -> PayloadResult:
    """``analyse_payload(p)`` under a profile drawn from ``rng``, with either judge, is the
    general steps' result (returned), and the oracle's for a short payload."""

    profile = PROFILES[rng.choice(sorted(PROFILES))]
    general = _assert_general_steps(p, profile)
    if len(p) < 200:
        _assert_reads_as_the_oracle(p, profile)
    return general


_QUOTED_URL_TAILS = ["b", "a b", "x.pdf", "a  b", "é", "b)", 'a"b', "a'b", "a\\b", "a,b", ""]


def test_a_quoted_url_reads_as_the_general_steps() -> None:
    """An ``http(s)://`` URL in one pair of quotes or backticks, spaces inside
    (``"https://cdn.example.com/a b/c.pdf"``): the lane's result
    (:func:`richout.media.shapes.quoted_path` with ``local=False``), field for field, is
    the general steps', and the oracle's, under every profile and with either judge,
    whatever the URL's verdict (the remote security table's URLs among them); near misses
    (a character cleaning may cut, a quote inside, blanks inside the quotes' ends, an
    unclosed or different closing quote) read the same."""

    heads = _url_heads()
    rng = random.Random(20261207)
    taken = 0
    for i in range(3000):
        q = rng.choice(['"', "'", "`"])
        inner = rng.choice(heads)
        for _ in range(rng.randint(0, 2)):
            inner += rng.choice([" ", "  ", "/"]) + rng.choice(
                _QUOTED_URL_TAILS[: 4 if i % 2 else 11]
            )
        pads, closes = ([""], [q]) if i % 2 else (["", " "], [q, q + "x", "", '"'])
        p = rng.choice(["", " ", "\t"]) + q + rng.choice(pads) + inner + rng.choice(pads)
        p += rng.choice(closes) + rng.choice(["", " "])
        general = _read_as_the_general_steps(rng, p)
        lane = shapes.QUOTED_URL.fullmatch(p) is not None and len(p) <= 4096
        taken += lane and bool(general.accepted)
    assert taken > 300, taken  # not vacuous: the lane answered for many payloads


@pytest.mark.pure_python(why="replaces _read_payload, which compiled callers call directly")
def test_a_quoted_path_takes_its_lane(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lane answers an accepted quoted path or URL without the general steps, and
    leaves them one §7 refuses (a traversal, a loopback host), which they explain."""
    from richout.media import payload as pl

    calls: list[str] = []
    general = pl._read_payload

    def recorded(p: str, *args: object, **kwargs: object) -> PayloadResult:
        calls.append(p)
        return general(p, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pl, "_read_payload", recorded)
    ok = analyse_payload(' "/tmp/my file 1.png" ', Judge())
    assert [(i.value, i.source, i.start, i.end) for i in ok.accepted] == [
        ("/tmp/my file 1.png", "unwrapped", 2, 20)
    ]
    assert ok.looks_local and ok.unwrapped == "/tmp/my file 1.png" and calls == []
    url = analyse_payload("`https://cdn.example.com/a b/c.pdf`", Judge())
    assert [(i.value, i.source) for i in url.accepted] == [
        ("https://cdn.example.com/a b/c.pdf", "unwrapped")
    ]
    assert not url.looks_local and calls == []
    refused = analyse_payload('"/a/../b c"', Judge())
    assert not refused.accepted and calls == ['"/a/../b c"']
    loopback = analyse_payload('"https://127.0.0.1/a b.png"', Judge())
    assert not loopback.accepted and calls[-1] == '"https://127.0.0.1/a b.png"'


def _url_heads() -> list[str]:
    """URLs for :func:`test_a_url_and_words_read_as_the_general_steps`: the remote security
    table's (accepted and refused for every reason), and near misses of the lane's shape
    (a capital scheme, a wrapper, quote, comma or backslash, a scheme with nothing after it,
    a URL longer than a reference may be)."""
    from test_security_remote import REMOTE_TABLE

    table = [u for u, _, _ in REMOTE_TABLE if u[:4].lower() == "http"]
    return [
        *table,
        *("https://e.example/a.png", "http://x/a1.png", "https://e.example/a.png?x=1&y=2#f"),
        *("https://e.example:8080/a.png", "https://u:p@e.example/a", "https://e.example/a."),
        *("http://", "https://", "https://a", "https://[::1]/a", "https://e.example/%2e%2e/a"),
        # refused, but accepted by the fallback after a tab (which WHATWG drops)
        *("https://a.", "https://0."),
        *("HTTPS://e.example/a", "https://e.example/a)", "https://e.example/a,", "https://e/a`"),
        *('https://e.example/a.png"}', "https://e.example/a\\b", "https://e.example/" + "x" * 4100),
    ]


def test_a_url_and_words_read_as_the_general_steps() -> None:
    """A plain ``http(s)://`` URL followed by words: the lane's result
    (:func:`richout.media.payload._captioned_url`), field for field, is the general steps',
    and the oracle's, under every profile and with either judge, whatever the URL's verdict
    (accepted, refused as a private address, a bad port, ``http:``...) and whether or not
    the profile hides refusals; near misses take the general steps and read the same."""
    from richout.media import payload as pl

    heads = _url_heads()
    rng = random.Random(20261205)
    taken = 0
    for i in range(3000):
        toks = [rng.choice(heads)]
        toks += [rng.choice(_CAPTION_WORDS[:6] if i % 2 else _CAPTION_WORDS)]
        toks += [rng.choice(_CAPTION_WORDS[:4]) for _ in range(rng.choice([0, 1, 2, 20]))]
        seps = [rng.choice([" ", "  ", "\t"] if i % 3 else [" ", "\u00a0"]) for _ in toks]
        p = _assert_lanes_read_as_the_general_steps(rng, toks, seps)
        taken += pl.CAPTIONED_URL.fullmatch(p) is not None and len(p) <= 4096
    assert taken > 1000, taken  # not vacuous: the lane answered for many payloads


@pytest.mark.pure_python(why="replaces _read_payload, which compiled callers call directly")
def test_a_url_and_words_take_their_lane(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lane answers an accepted and a refused URL before words without the general
    steps, and leaves them a payload whose fallback accepts it."""
    from richout.media import payload as pl

    calls: list[str] = []
    general = pl._read_payload

    def recorded(p: str, *args: object, **kwargs: object) -> PayloadResult:
        calls.append(p)
        return general(p, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pl, "_read_payload", recorded)
    ok = analyse_payload(" https://e.example/a.png the chart", Judge())
    assert [i.value for i in ok.accepted] == ["https://e.example/a.png"]
    assert len(ok.leftovers) == 2
    refused = analyse_payload("http://x/a.png  word", Judge())
    assert not refused.accepted and refused.counted == [(0, 14, "http://x/a.png")]
    assert refused.fallback_failed == (0, 20, "http://x/a.png  word")
    assert calls == []
    # "https://a." is refused, but WHATWG drops the tab from "https://a.\tword", so the
    # whole-payload fallback accepts it: the general steps read that payload
    fallback = analyse_payload("https://a.\tword", Judge())
    assert calls == ["https://a.\tword"]
    assert [(i.value, i.source) for i in fallback.accepted] == [("https://a.\tword", "fallback")]


def test_the_lane_of_tokens_apart_is_taken_and_declined() -> None:
    """The lane answers payloads whose tokens cannot join (else the property above would
    compare the general steps with themselves) and declines one where a token may join the
    rooted token before it, or one of too few tokens."""
    from richout.media import fates as fa
    from richout.media.cleaning import Cleaner as Cl

    def lane(p: str) -> bool:
        return fa.tokens_apart(p, Cl(p), Judge(), PayloadResult()) is not None

    assert lane(" / ~" * 20) and lane(" x y" * 20) and lane(" /a.png https://e.com/b" * 20)
    assert not lane(" /a b" * 20)  # "b" begins no source: it may join "/a"
    assert not lane(" / ~" * 3)  # under APART_MIN_TOKENS
    assert not lane('"/a" /b' * 20)  # a quoted head: unwrapped or a list
    res = analyse_payload("MEDIA:"[6:] + " / ~" * 20, Judge())
    assert [i.value for i in res.accepted] == ["/"] * 20 and len(res.counted) == 20


def test_token_classes_cover_what_they_claim() -> None:
    """The classes are not empty: words and plain paths take them (else the property above
    would compare the general steps with themselves)."""
    from richout.media import regroup as rg

    for word in ("x", "x123", "a_b-c", "Z" * 5000):
        assert rg.WORD_TOKEN.fullmatch(word)
    for path in ("/", "/a", "/tmp/x.png", "/a/./b", "/" + "a" * 5000):
        assert rg.PLAIN_PATH.fullmatch(path) and ".." not in path
    for other in ("x.png", "C:", "~/a", "/a..b", "/a)", '/a"', "file:/a", "é"):
        assert not rg.WORD_TOKEN.fullmatch(other)
        assert not (rg.PLAIN_PATH.fullmatch(other) and ".." not in other)


@settings(max_examples=600)
@given(payloads)
def test_quote_lists_and_tokens_match_the_oracle(p: str) -> None:
    found = quoted_list(p)
    assert (None if found is None else [p[a:b] for a, b in found]) == naive_list(p)
    assert split_parts(p) == naive_tokens(p)
    b = unwrap_bounds(p, 0, len(p))
    assert (None if b is None else p[b[0] : b[1]]) == naive_unwrap(p)


# Tokens that start with an ASCII letter: rooted only as an "X:" drive or after a "file:"
# prefix, and regrouping rules the others out from their first characters (regroup's
# _LETTERS); near misses keep the colon elsewhere or the prefix misspelled.
_LETTER_TOKENS = [
    *("C:/a", "c:\\b", "C:", "c:x", "file:/x", "FILE:C:/y", "File://z", "file:a/b"),
    *("fi:le", "a:b", "ab:/c", "filex:/a", "fil:/a", "http:/a", "fIlE:/q", "https://e.x/a.png"),
    *("x", "word", "b.png", "a/b", "C", "é:/a", "f"),
]


@settings(max_examples=500)
@given(
    st.lists(st.sampled_from([*_LETTER_TOKENS, "/srv", "~", "./a"]), min_size=1, max_size=6),
    st.sampled_from([" ", "  ", "\t"]),
    st.sampled_from(sorted(PROFILES)),
)
@example(["https://e.example/a.png", "word"], " ", "next")
@example(["C:/a", "b"], " ", "next")
@example(["file:/x", "y.png"], " ", "next")
def test_letter_led_tokens_regroup_as_the_oracle(toks: list[str], sep: str, name: str) -> None:
    """A part led by a letter joins a later token only when it is a drive or a ``file:``
    path; everything else about the payload is unchanged (the oracle regroups every part)."""
    _assert_reads_as_the_oracle(sep.join(toks), PROFILES[name])


def _assert_reads_as_the_oracle(p: str, profile: Profile) -> PayloadResult:
    """``analyse_payload(p)`` has the oracle's references, leftovers, local flag and count,
    and a judge that only decides (a walk without explanations) reads it the same way."""
    res = analyse_payload(p, Judge(profile))
    assert analyse_payload(p, Judge(profile, explains=False)) == res
    accepted, leftovers, local, counted = naive_analyse(p, profile)
    assert [i.value for i in res.accepted] == accepted
    assert [p[a:b] for a, b in res.leftovers] == leftovers
    assert res.looks_local == local
    assert len(res.counted) == counted
    return res


@settings(max_examples=600)
@given(payloads, st.sampled_from(sorted(PROFILES)))
def test_analyse_matches_the_oracle(p: str, name: str) -> None:
    res = _assert_reads_as_the_oracle(p, PROFILES[name])
    for item in res.accepted:
        # Every accepted value is a verbatim slice of the payload at its recorded bounds.
        assert item.value in p[item.start : item.end]


_GROWING_TOKENS = st.sampled_from(
    [
        *("w", "b)", ")", "x.png", "a.b", "/c", "~", "'", '"', '"]', '.png"}', "(", "file:"),
        *("C:/", "a/b", "x/y.png", 'z.png"]', '/srv/media/a.png"]'),
        # an extension then a wrapper, without a JSON tail: the end comes from the token
        *("x.png)", "x.png'", "x.png`"),
    ]
)


@settings(max_examples=600)
@given(
    st.sampled_from(
        # ...and heads whose JSON tail's "." lies just after the part's clean start
        ["/", "/srv/media", "~/", "file:///tmp", "(/a", "C:/x", "./a.b", '/.abcdefghij"]']
    ),
    st.lists(_GROWING_TOKENS, min_size=1, max_size=16),
    st.sampled_from(sorted(PROFILES)),
)
# The tail's "." one character after the part's start: the part must keep being cleaned
# whole, or the extension before the tail is lost and "a/b" joins the part.
@example('/.abcdefghij"]', ["w", "w", "a/b"], "next")
def test_parts_grown_token_by_token_match_the_oracle(
    head: str, tokens: list[str], name: str
) -> None:
    """Regrouping keeps a grown part's clean start and rootedness while it grows without a
    JSON cut in the payload; the oracle cleans the whole part again for every token."""
    _assert_reads_as_the_oracle(" ".join([head, *tokens]), PROFILES[name])


def test_regrouping_a_long_rooted_path_stays_one_part() -> None:
    words = " ".join(["w"] * 2_000)
    res = analyse_payload("/srv/a " + words)
    assert [i.value for i in res.accepted] == ["/srv/a " + words]
    # Past the 4096-unit cap the one part is rejected, never split.
    res = analyse_payload("/srv/a " + words + words)
    assert res.accepted == []
    # The one part looks local: profile next hides and counts it, the release keeps it.
    assert len(res.counted) == 1
    assert res.leftovers == []
    res = analyse_payload("/srv/a " + words + words, Judge(PROFILES["release-2026.9.6"]))
    assert res.accepted == []
    assert len(res.leftovers) == 1


def test_many_quote_runs_and_json_tails() -> None:
    p = '"' * 50_000 + "/a.png"
    assert analyse_payload(p).accepted[0].value == "/a.png"
    tail = '/a.png"]' * 20_000
    # The trailing '"]' is stripped; the last JSON tail starts at the quote before it.
    assert clean(tail) == tail[:-10]


def test_a_results_copy_has_every_field_and_lists_of_its_own() -> None:
    """``PayloadResult.copy`` (the walk narrows a copy: the judge returns its record again
    for the same payload) keeps every field, a field added later included."""
    from dataclasses import fields

    from richout.media.fates import Item

    values: dict[str, object] = {
        "accepted": [Item("/a.png", 0, 6)],
        "leftovers": [(7, 9)],
        "looks_local": True,
        "rejected": [(7, 9, "xy", True, True)],
        "fallback_failed": (0, 9, "/a.png xy"),
        "parts": 2,
        "value_bounds": (0, 9),
        "unwrapped": "/a.png xy",
        "counted": [(7, 9, "xy")],
        "quoted_list": True,
        "words": True,
    }
    assert {f.name for f in fields(PayloadResult)} == set(values)
    res = PayloadResult(**values)  # type: ignore[arg-type]
    twin = res.copy()
    for name, value in values.items():
        assert getattr(twin, name) == value, name
        if isinstance(value, list):
            assert getattr(twin, name) is not getattr(res, name), name


# Characters for whitespace-free tokens that open with a quote, a backtick or "[": quotes
# and brackets that may pair or list, commas, wrappers, JSON tails, and the marks of a
# source (/ \ ~ . :) that decide the verdict.
_OPENED_TOKENS = st.builds(
    lambda head, body: head + body,
    st.sampled_from(['"', "'", "`", "["]),
    st.lists(
        st.sampled_from([*"\"'`[](){}<>,=/\\~.:ab1_-é", "png", "https://", "x.png"]), max_size=14
    ).map("".join)
    | st.lists(st.sampled_from([*"\"'`[],ab/.", '"a"', "'b'", "x.png"]), max_size=8).map("".join),
)


@settings(max_examples=1500)
@given(_OPENED_TOKENS, st.sampled_from(sorted(PROFILES)))
@example('"=]', "next")
@example('"a","b"', "next")
@example('["a","b"]', "release-2026.9.6")
@example("'/a.png'", "next")
@example('"/a.png', "next")
@example("`x.png`]", "next")
def test_an_opened_token_reads_as_the_general_steps(p: str, name: str) -> None:
    """A whitespace-free token that opens with a quote, a backtick or ``[`` and is no list
    and no pair of quotes takes the single-token steps; every such token (lists and pairs
    included) reads, field for field, as the general steps read it, with either judge."""
    _assert_general_steps(p, PROFILES[name])


@pytest.mark.pure_python(why="replaces _read_payload, which compiled callers call directly")
def test_an_opened_token_takes_the_single_token_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """The property above holds whichever way a token goes; this checks which way it goes:
    a list or a pair of quotes takes the general steps, any other opened token does not."""
    from richout.media import payload as pl

    def general(*args: object) -> pl.PayloadResult:
        raise AssertionError("the general steps ran")

    monkeypatch.setattr(pl, "_read_payload", general)
    for token in ('"=5]', "`x.png", "[a]", "'/tmp/a.png\"", '"a"b'):
        analyse_payload(token, Judge())
    for token in ('"a","b"', '["a","b"]', '"x.png"', "'=5'"):
        with pytest.raises(AssertionError):
            analyse_payload(token, Judge())
    with pytest.raises(AssertionError):
        analyse_payload('"/tmp/a b.png', Judge())  # whitespace: not one token


# Payloads without "/ \ ~ . :": words, quotes, brackets, wrappers, commas, every kind of
# whitespace, and letters that fold or look like the marks (U+0131, fullwidth solidus).
_MARKLESS = st.lists(
    st.sampled_from(
        [
            *"\"'`[](){}<>,;=!?@#%&*+|^$ab1_-\t \u00a0\u3000\u2028ıİ／＼～。：é",
            *("http", "file", "media", "png", "C", "x_y"),
        ]
    ),
    max_size=24,
).map("".join)


@settings(max_examples=2000)
@given(_MARKLESS, st.sampled_from(sorted(PROFILES)))
@example('"=]', "next")
@example("http", "next")
@example("C", "release-2026.9.6")
@example("a b c", "next")
def test_a_payload_without_source_marks_delivers_counts_and_hides_nothing(
    p: str, name: str
) -> None:
    """``may_name_a_source``'s claim, against the payload steps: without ``/ \\ ~ . :`` no
    reading of the payload accepts, counts or looks local, so the walk keeps its line as
    written (the split and an unexplained walk skip the steps for it)."""
    from richout.media.payload import may_name_a_source

    assert not may_name_a_source(p)
    for judge in (Judge(PROFILES[name]), Judge(PROFILES[name], explains=False)):
        res = analyse_payload(p, judge)
        assert not res.accepted and not res.counted and not res.looks_local
