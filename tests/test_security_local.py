"""Hostile local and inbound references and their verdicts (MEDIA.md §7, §8.2, §8.3, §17.2).

Flags: ``spaces`` judges with spaces allowed (a quoted or regrouped payload), ``bare``
with bare filenames allowed (the whole-payload fallback of §6.9).
"""

from __future__ import annotations

import pytest

from richout.policy import check_inbound, check_reference, is_valid_reference, parse_inbound

OK = "ok"
TRAV = "media.local.traversal"
HOME = "media.local.unsupported_home"
INBOUND = "media.inbound.invalid"
NOT_REF = "media.not_a_reference"
SCHEME = "media.scheme_unsupported"
TOO_LONG = "media.too_long"

LOCAL_TABLE: list[tuple[str, str, str]] = [
    # Traversal in every spelling.
    ("../a.png", TRAV, ""),
    ("../a.png", TRAV, "bare"),
    ("..\\a.png", TRAV, ""),
    ("..", TRAV, ""),
    ("..", TRAV, "spaces bare"),
    ("../../../etc/passwd", TRAV, ""),
    ("../../.env", TRAV, "bare"),
    ("/a/../b.png", TRAV, ""),
    ("a/..", TRAV, ""),
    ("a/../b.png", TRAV, ""),
    ("/srv/..", TRAV, ""),
    ("\\..\\a.png", TRAV, ""),
    ("a\\..\\b.png", TRAV, ""),
    ("/a/..\\b.png", TRAV, ""),
    ("a\\../b.png", TRAV, ""),
    ("./../x.png", TRAV, ""),
    ("./foo/../../../etc/shadow", TRAV, ""),
    ("C:\\Users\\me\\..\\secret.png", TRAV, ""),
    ("C:/..", TRAV, ""),
    ("\\\\server\\share\\..\\x.png", TRAV, ""),
    ("~/../x.png", TRAV, ""),
    ("media/../../x.png", TRAV, ""),
    ("/tmp/project screenshots/../../.env", TRAV, "spaces"),
    ("file:../x.png", TRAV, ""),
    ("file://../x.png", TRAV, ""),
    ("file:///../x.png", TRAV, ""),
    ("FILE://..\\x.png", TRAV, ""),
    ("file:..", TRAV, ""),
    # Dots that are not a ".." segment.
    ("..hidden", NOT_REF, ""),
    ("..hidden", OK, "bare"),
    ("a..b", NOT_REF, ""),
    ("a..b", OK, "bare"),
    ("/tmp/..hidden/a.png", OK, ""),
    ("/a/.../b.png", OK, ""),
    ("/a/..b/c.png", OK, ""),
    ("/a/b../c.png", OK, ""),
    ("....//x.png", OK, ""),
    ("...", NOT_REF, "bare"),
    ("%2e%2e/x.png", OK, ""),
    ("..%2fx.png", OK, "bare"),
    ("..%2fx", NOT_REF, "bare"),
    ("..\u2215x.png", OK, "bare"),
    ("..\u2215x", NOT_REF, ""),
    # Home directories: only ~/ and ~\ are supported.
    ("~", HOME, ""),
    ("~", HOME, "spaces bare"),
    ("~user/a.png", HOME, ""),
    ("~root/.ssh/id_rsa", HOME, ""),
    ("~user", HOME, "bare"),
    ("~user/Pictures/My File.png", HOME, "spaces"),
    ("~.png", HOME, "bare"),
    ("~%2Fa.png", HOME, ""),
    ("~/a.png", OK, ""),
    ("~\\Pictures\\a.png", OK, ""),
    ("~/", OK, ""),
    ("~//etc/passwd", OK, ""),
    ("file:~/a.png", OK, ""),
    ("file:~user/a.png", HOME, ""),
    # Windows drives and UNC.
    ("C:\\Users\\me\\a.png", OK, ""),
    ("c:/Users/me/a.png", OK, ""),
    ("z:\\a", OK, ""),
    ("C:\\Users\\First Last\\shot.png", OK, "spaces"),
    ("c:relative.png", NOT_REF, ""),
    ("c:relative.png", NOT_REF, "bare"),
    ("C:", NOT_REF, "bare"),
    ("CC:\\a.png", SCHEME, ""),
    ("1:\\a.png", OK, ""),
    ("\u00e9:\\a.png", OK, ""),
    ("\\\\server\\share\\a.png", OK, ""),
    ("\\\\?\\C:\\Windows\\a.png", OK, ""),
    ("\\\\.\\PhysicalDrive0", OK, ""),
    ("\\\\server\\My Files\\render final.png", OK, "spaces"),
    ("\\a.png", OK, ""),
    # Absolute and workspace-relative paths: no location check.
    ("/etc/passwd", OK, ""),
    ("/", OK, ""),
    ("./screenshot.png", OK, ""),
    (".\\a.png", OK, ""),
    ("media/inbound/image.png", OK, ""),
    ("a/b", OK, ""),
    ("a\\b", OK, ""),
    ("**https://example.com/a.png**", OK, ""),
    ("<https://example.com/a.png>", OK, ""),
    ("mple.com/a.png", OK, ""),
    ("/tmp/a\x00.png", OK, ""),
    ("/tmp/\ud800.png", OK, ""),
    ("/tmp/a.png;rm -rf", OK, "spaces"),
    # Bare filenames need the opt-in and an extension of 1-10 word characters.
    ("image.png", NOT_REF, ""),
    ("image.png", OK, "bare"),
    ("report", NOT_REF, "bare"),
    ("photo.jpeg.", NOT_REF, "bare"),
    ("a.abcdefghij", OK, "bare"),
    ("a.abcdefghijk", NOT_REF, "bare"),
    ("report.PDF", OK, "bare"),
    ("x.p_g", OK, "bare"),
    ("x.p\u00f1g", NOT_REF, "bare"),
    (".png", OK, "bare"),
    ("render final.png", OK, "spaces bare"),
    ("render final.png", NOT_REF, "bare"),
    ("mailto:a@b.png", SCHEME, "bare"),
    ("C:x.png", NOT_REF, "bare"),
    ("image.png\n", NOT_REF, "bare"),
    # Whitespace: the JavaScript set (NBSP, U+2028, U+FEFF yes; U+001C, U+0085, U+200B no).
    ("/tmp/a b.png", NOT_REF, ""),
    ("/tmp/a b.png", OK, "spaces"),
    ("/tmp/a\tb.png", NOT_REF, ""),
    ("/tmp/a\u00a0b.png", NOT_REF, ""),
    ("/tmp/a\u00a0b.png", OK, "spaces"),
    ("/tmp/a\u2028b.png", NOT_REF, ""),
    ("/tmp/a\u2029b.png", NOT_REF, ""),
    ("/tmp/a\ufeffb.png", NOT_REF, ""),
    ("/tmp/a\u1680b.png", NOT_REF, ""),
    ("/tmp/a\u3000b.png", NOT_REF, ""),
    ("/tmp/a\u202fb.png", NOT_REF, ""),
    ("/tmp/a\x0bb.png", NOT_REF, ""),
    ("/tmp/a.png\r", NOT_REF, ""),
    ("/tmp/a.png\r", OK, "spaces"),
    ("/tmp/a\x1cb.png", OK, ""),
    ("/tmp/a\x1fb.png", OK, ""),
    ("/tmp/a\x85b.png", OK, ""),
    ("/tmp/a\u200bb.png", OK, ""),
    ("/tmp/a\u180eb.png", OK, ""),
    # The file: prefix: one is stripped, case-insensitively, with or without //.
    ("file:///srv/a.png", OK, ""),
    ("FILE:/srv/a.png", OK, ""),
    ("File://localhost/srv/a.png", OK, ""),
    ("file:///", OK, ""),
    ("file:", NOT_REF, "bare"),
    ("file://", NOT_REF, "bare"),
    ("file:a.png", NOT_REF, ""),
    ("file:a.png", OK, "bare"),
    ("file:file:///x.png", NOT_REF, "bare"),
    ("file:FILE:/x.png", NOT_REF, ""),
    ("fil:/x.png", SCHEME, ""),
    ("file:///work/caf%C3%A9 100%25.png", OK, "spaces"),
    ("file://media://inbound/x.png?q", INBOUND, ""),
    # Other schemes stay unsupported, even when they look like paths.
    ("ftp:/srv/a.png", SCHEME, ""),
    ("s3://bucket/a.png", SCHEME, ""),
    ("media:/inbound/x.png", NOT_REF, ""),
    ("media:inbound/x.png", NOT_REF, "bare"),
    # Size and repetition.
    ("/" + "a" * 4095, OK, ""),
    ("/" + "a" * 4096, TOO_LONG, ""),
    ("file:///" + "a" * 4095, OK, ""),
    ("/" + "\U0001f600" * 2047 + "a", OK, ""),
    ("/" + "\U0001f600" * 2048, TOO_LONG, ""),
    ("../" * 100_000, TOO_LONG, ""),
    ("a/" * 2000, OK, ""),
    (".." * 2000, NOT_REF, "bare"),
    ("~" * 100_000, TOO_LONG, ""),
    ("x" * 1_000_000 + ".png", TOO_LONG, "spaces bare"),
    ("\x00" * 10, NOT_REF, "bare"),
]

INBOUND_TABLE: list[tuple[str, str, str]] = [
    ("media://inbound/abc123", OK, ""),
    ("Media://inbound/a.png", OK, ""),
    ("MEDIA://inbound/a.png", OK, ""),
    ("MEDIA://INBOUND/abc.png", INBOUND, ""),
    ("media://Inbound/a.png", INBOUND, ""),
    ("media://outbound/image.png", INBOUND, ""),
    ("media://inbound.evil.com/a.png", INBOUND, ""),
    ("media://inbound:80/a.png", INBOUND, ""),
    ("media://inbound:/a.png", INBOUND, ""),
    ("media://user@inbound/a.png", INBOUND, ""),
    ("media://user:pw@inbound/a.png", INBOUND, ""),
    ("media://@inbound/a.png", INBOUND, ""),
    ("media://inbound/image.png?token=value", INBOUND, ""),
    ("media://inbound/a.png?", OK, ""),
    ("media://inbound/a.png#x", INBOUND, ""),
    ("media://inbound/a.png#", OK, ""),
    ("media://inbound/", INBOUND, ""),
    ("media://inbound", INBOUND, ""),
    ("media://inbound?", INBOUND, ""),
    ("media://", INBOUND, ""),
    ("media://inbound/.", INBOUND, ""),
    ("media://inbound/..", INBOUND, ""),
    ("media://inbound/%2e%2e", INBOUND, ""),
    ("media://inbound/%2e", INBOUND, ""),
    ("media://inbound/.%2E", INBOUND, ""),
    ("media://inbound/x/..", INBOUND, ""),
    ("media://inbound/x/../y.png", OK, ""),
    ("media://inbound/./a.png", OK, ""),
    ("media://inbound//a.png", OK, ""),
    ("media://inbound/a/b.png", INBOUND, ""),
    ("media://inbound/nested%2Fimage.png", INBOUND, ""),
    ("media://inbound/a%2fb", INBOUND, ""),
    ("media://inbound/a%5Cb", INBOUND, ""),
    ("media://inbound/a%5cb", INBOUND, ""),
    ("media://inbound/a\\b", INBOUND, ""),
    ("media://inbound/x%2F..%2Fy", INBOUND, ""),
    ("media://inbound/%00.png", INBOUND, ""),
    ("media://inbound/a\x00.png", INBOUND, ""),
    ("media://inbound/%zz", INBOUND, ""),
    ("media://inbound/100%", INBOUND, ""),
    ("media://inbound/%C3", INBOUND, ""),
    ("media://inbound/%ED%A0%80", INBOUND, ""),
    ("media://inbound/%C0%AF", INBOUND, ""),
    ("media://inbound/%C3%A9.png", OK, ""),
    ("media://inbound/%F0%9F%98%80", OK, ""),
    ("media://inbound/caf\u00e9.png", OK, ""),
    ("media://inbound/\ud800", OK, ""),
    ("media://inbound/a%20b.png", OK, ""),
    ("media://inbound/a b.png", NOT_REF, ""),
    ("media://inbound/a b.png", OK, "spaces"),
    ("media://inbound/a.png ", OK, "spaces"),
    ("media://inbo\tund/a.png", INBOUND, "spaces"),
    ("media://inbound/" + "a" * 4080, OK, ""),
    ("media://inbound/" + "a" * 4081, TOO_LONG, ""),
    ("file://media://inbound/x.png", OK, ""),
]


def _id(row: tuple[str, str, str]) -> str:
    text = row[0] if len(row[0]) <= 60 else f"{row[0][:40]}...({len(row[0])})"
    return f"{text!r}{'+' + row[2].replace(' ', '+') if row[2] else ''}"


def test_tables_are_large_and_unique() -> None:
    assert len(LOCAL_TABLE) + len(INBOUND_TABLE) >= 100
    keys = [(c, f) for c, _, f in LOCAL_TABLE + INBOUND_TABLE]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("row", LOCAL_TABLE + INBOUND_TABLE, ids=_id)
def test_local_reference_verdict(row: tuple[str, str, str]) -> None:
    candidate, expected, flags = row
    opts = {"allow_spaces": "spaces" in flags, "allow_bare_filename": "bare" in flags}
    verdict = check_reference(candidate, **opts)
    assert (verdict.code or OK) == expected, verdict.reason
    assert verdict.ok is (expected == OK)
    if not verdict.ok:
        assert verdict.reason
    assert is_valid_reference(candidate, **opts) is verdict.ok


@pytest.mark.parametrize(
    ("uri", "ident"),
    [
        ("media://inbound/abc123", "abc123"),
        ("media://inbound/x/../y.png", "y.png"),
        ("media://inbound/%C3%A9%20x.png", "\u00e9 x.png"),
        ("media://inbound//a.png", "a.png"),
        ("  media://inbound/a.png\n", "a.png"),
        ("media://inbound/\ud800", "\ufffd"),
        ("media://inbound/a%25b", "a%b"),
        ("media://inbound/..a", "..a"),
        ("media://inbound/a.png#", "a.png"),
    ],
)
def test_parse_inbound_returns_the_decoded_id(uri: str, ident: str) -> None:
    assert parse_inbound(uri) == ident


@pytest.mark.parametrize(
    ("uri", "fragment"),
    [
        ("media://inbound:80/x", "port"),
        ("media://user@inbound/x", "user information"),
        ("MEDIA://INBOUND/x", "lower-case"),
        ("media://outbound/x", "'outbound'"),
        ("media://inbound/x?q=1", "query"),
        ("media://inbound/x#f", "fragment"),
        ("media://inbound/%zz", "percent-escape"),
        ("media://inbound/%2e%2e", "dot segments"),
        ("media://inbound/", "empty"),
        ("media://inbound/..%2F", "separator"),
        ("media://inbound/a%2Fb", "separator"),
        ("media://inbound/%00", "NUL"),
        ("https://inbound/x", "media://"),
    ],
)
def test_inbound_reason_names_the_rule(uri: str, fragment: str) -> None:
    verdict = check_inbound(uri)
    assert verdict.code == INBOUND
    assert fragment in verdict.reason
    assert parse_inbound(uri) is None


@pytest.mark.parametrize(
    ("candidate", "fragment"),
    [
        ("../x.png", "'..'"),
        ("~user/a.png", "~/"),
        ("/tmp/a b.png", "U+0020"),
        ("/tmp/a\u2028b.png", "U+2028"),
        ("c:relative.png", "drive-relative"),
        ("image.png", "whole MEDIA: payload"),
        ("ftp:/x.png", "ftp:"),
        ("file:file:///x.png", "one file: prefix"),
        ("/" + "a" * 5000, "4096"),
    ],
)
def test_local_reason_names_the_rule(candidate: str, fragment: str) -> None:
    assert fragment in check_reference(candidate).reason


# A path written with spaces is read by a lane of its own (media.shapes.spaced_path) when
# it holds no "..": traversal and home spellings must still reach the §7 checks and stay
# undelivered (next hides and counts them; the release leaves them uncounted).
SPACED_LINES: list[tuple[str, list[str]]] = [
    ("MEDIA:/tmp/../etc/passwd x", []),
    ("MEDIA:/tmp/a b/../../etc/x", []),
    ("MEDIA:~/../x y.png", []),
    ("MEDIA:/../x y", []),
    ("MEDIA:~user/a b.png", []),
    ("MEDIA:~ a.png", []),
    ("MEDIA:~/a b.png", ["~/a b.png"]),
    ("MEDIA:/a/./b c.png", ["/a/./b c.png"]),
    ("MEDIA:/tmp/my file.png", ["/tmp/my file.png"]),
    ("MEDIA:/tmp/a.png word", ["/tmp/a.png word"]),
]


@pytest.mark.parametrize(("line", "urls"), SPACED_LINES, ids=[r[0] for r in SPACED_LINES])
def test_spaced_paths_keep_the_traversal_rules(line: str, urls: list[str]) -> None:
    from richout import PROFILES, split_media

    for profile in PROFILES:
        split = split_media(line, profile=profile)
        assert split.media_urls == urls, profile
        assert split.text == ""
        refused = 0 if urls else 1
        assert split.rejected_media_count == (refused if profile == "next" else 0)


# Directive lines of one bare name (no ":", "/", "\" or "~"), which the single-token steps
# judge by the bare-filename rule alone (single_token._bare_name): ".." is a traversal in
# every wrapping, a name needs an extension, and a percent-encoded or dotted name is a name,
# as the reference reads it. (A bare ".env" is delivered under both profiles, and under
# Policy.strict(): the extension rule reads ".env" as a name with one; of the policy's
# switches only allow_local_files=False refuses it.)
BARE_NAME_LINES: list[tuple[str, list[str]]] = [
    ("MEDIA:..", []),
    ('MEDIA:".."', []),
    ("MEDIA:`..`", []),
    ("MEDIA:[..]", []),
    ('MEDIA:.."]', []),
    ("MEDIA:%2e%2e", []),
    ("MEDIA:...", []),
    ("MEDIA:passwd", []),
    ("MEDIA:" + "a" * 4100 + ".png", []),
    ("MEDIA:..png", ["..png"]),
    ('MEDIA:"..png', ["..png"]),
    ("MEDIA:...png", ["...png"]),
    ("MEDIA:..%2fetc%2fpasswd.png", ["..%2fetc%2fpasswd.png"]),
    ("MEDIA:=.1]", ["=.1"]),
    ('MEDIA:"=.1]', ["=.1"]),
    ("MEDIA:.env", [".env"]),
]


@pytest.mark.parametrize(
    ("line", "urls"), BARE_NAME_LINES, ids=[r[0][:40] for r in BARE_NAME_LINES]
)
def test_bare_name_lines_keep_the_traversal_and_extension_rules(line: str, urls: list[str]) -> None:
    from richout import PROFILES, parse_reply, split_media

    for profile in PROFILES:
        for explain in (False, True):
            split = split_media(line, profile=profile, explain=explain)
            assert split.media_urls == urls, (profile, explain)
            # Delivered: the line leaves; refused: nothing looks local, so it stays as text.
            assert split.text == ("" if urls else line), (profile, explain)
            assert split.rejected_media_count == 0
        assert parse_reply(line, profile=profile).media_urls == urls
