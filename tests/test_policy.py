"""Unit tests and properties of richout.policy (MEDIA.md §1.5-§1.7, §6.6, §7, §8)."""

from __future__ import annotations

import ipaddress

import pytest
from ada_url import parse_url
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from richout.media.judge import Judge
from richout.policy import (
    OK,
    REJECTION_CODES,
    Verdict,
    bare_fallback_ok,
    bare_name_ok,
    check_hostname,
    check_reference,
    check_remote,
    has_file_extension,
    has_scheme_prefix,
    is_likely_local_path,
    is_traversal_or_unsupported_home,
    is_valid_reference,
    looks_local,
    starts_at_root,
    strip_file_prefix,
)
from richout.policy.inbound import decode_uri_component, parse_inbound
from richout.policy.ip import (
    blocked_ipv4_range,
    blocked_ipv6_range,
    embedded_ipv4,
    format_ipv4,
    is_canonical_dotted_decimal,
    is_legacy_ipv4_literal,
    legacy_ipv4_value,
    parse_canonical_ipv4,
    parse_ipv6,
)
from richout.policy.local import has_file_extension_in
from richout.policy.remote import normalize_hostname, whatwg_parse
from richout.profiles import PROFILES
from richout.text.chars import has_js_ws

FLAGS = [(False, False), (True, False), (False, True), (True, True)]

# ---------------------------------------------------------------- Verdict


def test_ok_is_the_accepting_singleton() -> None:
    assert OK.ok and OK.code is None and OK.reason == ""
    assert check_reference("/srv/a.png") is OK
    assert check_reference("https://example.com/a.png") is OK
    assert check_reference("media://inbound/a") is OK


def test_verdict_is_frozen() -> None:
    verdict = Verdict(False, "media.too_long", "x")
    with pytest.raises(AttributeError):
        verdict.ok = True  # type: ignore[misc]


# ---------------------------------------------------------------- §1.5-§1.7, §6.6, §8.3


@pytest.mark.parametrize(
    ("given_", "expected"),
    [
        ("file:///srv/a.png", "/srv/a.png"),
        ("file://srv/a.png", "srv/a.png"),
        ("file:/srv/a.png", "/srv/a.png"),
        ("file:srv", "srv"),
        ("FILE://x", "x"),
        ("FiLe:x", "x"),
        ("file:", ""),
        ("file://", ""),
        ("file:///", "/"),
        ("file:file:///x", "file:///x"),
        ("file:////x", "//x"),
        ("files:/x", "files:/x"),
        ("fil:/x", "fil:/x"),
        (" file:/x", " file:/x"),
        ("\u0130le:/x", "\u0130le:/x"),
        ("", ""),
    ],
)
def test_strip_file_prefix(given_: str, expected: str) -> None:
    assert strip_file_prefix(given_) == expected


@pytest.mark.parametrize(
    ("s", "expected"),
    [
        ("https:", True),
        ("a:", True),
        ("c:relative.png", True),
        ("a+b.c-d:x", True),
        ("x1:", True),
        ("1a:", False),
        ("+a:", False),
        (":x", False),
        ("a_b:x", False),
        ("a b:x", False),
        ("abc", False),
        ("", False),
        ("\u00e9:x", False),
        ("a" * 100_000, False),
        ("a" * 100_000 + ":", True),
    ],
)
def test_has_scheme_prefix(s: str, expected: bool) -> None:
    assert has_scheme_prefix(s) is expected


@pytest.mark.parametrize(
    ("s", "expected"),
    [
        ("a.png", True),
        (".png", True),
        ("a.p", True),
        ("a.abcdefghij", True),
        ("a.abcdefghijk", False),
        ("a.png.", False),
        ("a.", False),
        ("a", False),
        ("a.PN_G", True),
        ("a.p-g", False),
        ("a.p\u00f1g", False),
        ("a.png\n", False),
        ("a.\u0661\u0662", False),
        ("x/y.tar.gz", True),
        ("x.abcdefghij", True),
        ("x.abcdefghijk", False),
        ("", False),
        ("." + "a" * 100_000, False),
    ],
)
def test_has_file_extension(s: str, expected: bool) -> None:
    assert has_file_extension(s) is expected
    assert has_file_extension_in(" " + s + " ", 1, len(s) + 1) is expected


@pytest.mark.parametrize(
    ("s", "expected"),
    [
        ("C:\\x", True),
        ("c:/x", True),
        ("/x", True),
        ("~", True),
        ("~user", True),
        ("./x", True),
        ("../x", True),
        (".\\x", True),
        ("..\\x", True),
        ("\\\\server", True),
        ("\\x", False),
        ("...\\x", False),
        ("C:x", False),
        ("1:\\x", False),
        ("\u00e9:\\x", False),
        ("\u212a:\\x", False),
        ("x/y", False),
        ("https://x", False),
        ("", False),
    ],
)
def test_starts_at_root(s: str, expected: bool) -> None:
    assert starts_at_root(s) is expected


@pytest.mark.parametrize(
    ("s", "traversal", "likely_local", "looks"),
    [
        ("/srv/a.png", False, True, True),
        ("./a.png", False, True, True),
        ("../a.png", True, False, True),
        ("..", True, False, False),
        ("~", True, False, True),
        ("~user/x", True, False, True),
        ("~/x", False, True, True),
        ("~\\x", False, True, True),
        ("C:\\x", False, True, True),
        ("C:\\..\\x", True, False, True),
        ("\\\\server\\x", False, True, True),
        ("media/x.png", False, True, True),
        ("a\\b", False, True, True),
        ("a/../b", True, False, True),
        ("a/..", True, False, True),
        ("..hidden", False, False, False),
        ("a..b/c", False, True, True),
        ("https://x/y", False, False, False),
        ("c:relative/x", False, False, False),
        ("x.png", False, False, False),
        ("", False, False, False),
    ],
)
def test_local_shape_tests(s: str, traversal: bool, likely_local: bool, looks: bool) -> None:
    assert is_traversal_or_unsupported_home(s) is traversal
    assert is_likely_local_path(s) is likely_local
    assert looks_local(s) is looks


# ---------------------------------------------------------------- ip


@pytest.mark.parametrize(
    ("s", "value"),
    [
        ("0.0.0.0", 0),
        ("255.255.255.255", 0xFFFFFFFF),
        ("8.8.8.8", 0x08080808),
        ("01.1.1.1", None),
        ("1.1.1", None),
        ("1.1.1.1.1", None),
        ("256.1.1.1", None),
        ("1.1.1.1 ", None),
        ("1.1.1.\u0661", None),
        ("1.1.1." + "9" * 5000, None),
        ("", None),
    ],
)
def test_parse_canonical_ipv4(s: str, value: int | None) -> None:
    assert parse_canonical_ipv4(s) == value
    assert is_canonical_dotted_decimal(s) is (value is not None)


@pytest.mark.parametrize(
    ("s", "legacy", "value"),
    [
        ("127.1", True, "127.0.0.1"),
        ("0x7f.1", True, "127.0.0.1"),
        ("0177.0.0.1", True, "127.0.0.1"),
        ("2130706433", True, "127.0.0.1"),
        ("0x08080808", True, "8.8.8.8"),
        ("0X7F.0.0.1", True, "127.0.0.1"),
        ("[127.1]", True, "127.0.0.1"),
        ("09.1.1.1", True, None),
        ("256.1.1.1", True, None),
        ("1.2.3.4", False, None),
        ("1.2.3.4.5", False, None),
        ("0x", False, None),
        ("1..2", False, None),
        ("a.1", False, None),
        ("::1", False, None),
        ("", False, None),
        ("0" * 5000 + "1.1", True, "1.0.0.1"),
        ("9" * 5000 + ".1", True, None),
    ],
)
def test_legacy_ipv4(s: str, legacy: bool, value: str | None) -> None:
    assert is_legacy_ipv4_literal(s) is legacy
    got = legacy_ipv4_value(s)
    assert (format_ipv4(got) if got is not None else None) == value


@pytest.mark.parametrize(
    ("s", "expected"),
    [
        ("::", "::"),
        ("::1", "::1"),
        ("[::1]", "::1"),
        ("1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"),
        ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"),
        ("::1:2:3:4:5:6:7", "0:1:2:3:4:5:6:7"),
        ("::1:2:3:4:5:6:7:8", None),  # "::" must stand for at least one group
        ("1:2:3:4::5:6:7:8", None),
        ("1:2:3:4:5:6::8.8.8.8", None),
        ("1:2:3:4:5::8.8.8.8", "1:2:3:4:5:0:808:808"),
        ("::ffff:1.2.3.4", "::ffff:102:304"),
        ("1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"),
        ("FE80::1", "fe80::1"),
        ("1:2:3:4:5:6:7", None),
        ("1:2:3:4:5:6:7:8:9", None),
        ("1::2::3", None),
        (":1::", None),
        ("1:::2", None),
        ("12345::", None),
        ("::1.2.3", None),
        ("::01.2.3.4", None),
        ("1.2.3.4::", None),
        ("fe80::1%eth0", None),
        ("::g", None),
        ("\uff11::", None),
        ("1.2.3.4", None),
        ("", None),
    ],
)
def test_parse_ipv6(s: str, expected: str | None) -> None:
    got = parse_ipv6(s)
    assert (ipaddress.IPv6Address(got).compressed if got is not None else None) == (
        ipaddress.IPv6Address(expected).compressed if expected else None
    )


@given(st.integers(min_value=0, max_value=2**128 - 1))
def test_parse_ipv6_reads_every_standard_spelling(n: int) -> None:
    address = ipaddress.IPv6Address(n)
    assert parse_ipv6(address.compressed) == n
    assert parse_ipv6(address.exploded) == n
    assert parse_ipv6(f"[{address.compressed.upper()}]") == n
    v4 = ipaddress.IPv4Address(n & 0xFFFFFFFF)
    head = address.exploded.rsplit(":", 2)[0]
    assert parse_ipv6(f"{head}:{v4}") == n


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_ipv4_ranges_agree_with_ipaddress(n: int) -> None:
    text = str(ipaddress.IPv4Address(n))
    assert parse_canonical_ipv4(text) == n
    block = blocked_ipv4_range(n)
    if block is not None:
        assert ipaddress.IPv4Address(n) in ipaddress.IPv4Network(block.cidr)
    # Independent restatement of MEDIA.md §8.1 rule 4 (IPv4).
    spec = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
        "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16",
        "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
        "255.255.255.255/32",
    ]  # fmt: skip
    in_spec = any(ipaddress.IPv4Address(n) in ipaddress.IPv4Network(c) for c in spec)
    assert (block is not None) is in_spec
    assert check_hostname(text).ok is (not in_spec)


def test_ipv6_range_edges() -> None:
    for cidr in ("fe80::/10", "fc00::/7", "2001::/23", "3fff::/20", "64:ff9b:1::/48"):
        net = ipaddress.IPv6Network(cidr)
        first, last = int(net.network_address), int(net.broadcast_address)
        assert blocked_ipv6_range(first) is not None
        assert blocked_ipv6_range(last) is not None
    assert blocked_ipv6_range(int(ipaddress.IPv6Address("fe7f:ffff::"))) is None
    assert blocked_ipv6_range(int(ipaddress.IPv6Address("2001:200::"))) is None
    assert blocked_ipv6_range(int(ipaddress.IPv6Address("3fff:1000::"))) is None
    assert blocked_ipv6_range(int(ipaddress.IPv6Address("100:0:0:1::"))) is None
    assert blocked_ipv6_range(int(ipaddress.IPv6Address("2001:4860::8888"))) is None


@pytest.mark.parametrize(
    ("address", "v4", "how"),
    [
        ("::ffff:7f00:1", "127.0.0.1", "IPv4-mapped"),
        ("::ffff:0:7f00:1", "127.0.0.1", "RFC 6145"),
        ("64:ff9b::a00:1", "10.0.0.1", "NAT64"),
        ("2002:c0a8:101::", "192.168.1.1", "6to4"),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45", "Teredo"),
        ("::a00:1", "10.0.0.1", "IPv4-compatible"),
        ("2a00::5efe:a00:1", "10.0.0.1", "ISATAP"),
        ("2a00::200:5efe:a00:1", "10.0.0.1", "ISATAP"),
        ("64:ff9b:1::a00:1", None, None),
        ("2a00::1", None, None),
    ],
)
def test_embedded_ipv4(address: str, v4: str | None, how: str | None) -> None:
    got = embedded_ipv4(int(ipaddress.IPv6Address(address)))
    if v4 is None:
        assert got is None
    else:
        assert got is not None
        assert format_ipv4(got[0]) == v4
        assert how is not None and how in got[1]


LEGACY_PART = st.one_of(
    st.integers(0, 2**33).map(str),
    st.integers(0, 2**33).map(lambda v: f"0x{v:x}"),
    st.integers(0, 2**33).map(lambda v: f"0{v:o}"),
)


@given(st.lists(LEGACY_PART, min_size=1, max_size=4))
def test_legacy_value_matches_whatwg(parts: list[str]) -> None:
    host = ".".join(parts)
    assume(not is_canonical_dotted_decimal(host))
    parsed = whatwg_parse(f"https://{host}/")
    value = legacy_ipv4_value(host)
    if value is None:
        assert parsed is None
    else:
        assert parsed is not None
        assert parsed["hostname"] == format_ipv4(value)
    # Rule 6 blocks every such spelling when a caller hands it over raw (if it has a dot).
    if "." in host:
        assert check_hostname(host).code == "media.remote.ip_blocked"


# ---------------------------------------------------------------- hostnames and URLs


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("Example.COM.", "example.com"),
        ("[::1]", "::1"),
        ("[::1", "::1"),
        ("::1]", "::1"),
        ("[[::1]]", "[::1]"),
        (" localhost \n", "localhost"),
        ("a...", "a"),
        ("...", ""),
    ],
)
def test_normalize_hostname(raw: str, normalized: str) -> None:
    assert normalize_hostname(raw) == normalized


HOST_LABEL = st.sampled_from(
    [
        *("example", "com", "localhost", "local", "internal", "127", "0x7f", "1", "0", "nip"),
        *("io", "xn--r8jz45g", "\u4f8b\u3048", "%31", "a-b", "LOCALHOST", "", "\u3002", "[::1]"),
        ":",
    ]
)


@settings(max_examples=400)
@given(st.lists(HOST_LABEL, min_size=1, max_size=5), st.sampled_from(["", ".", ":443", "./"]))
def test_check_remote_is_check_hostname_of_the_whatwg_host(labels: list[str], tail: str) -> None:
    url = "https://" + ".".join(labels) + tail + "/a.png"
    parsed = whatwg_parse(url)
    verdict = check_remote(url)
    if parsed is None:
        assert verdict.code == "media.remote.invalid_url"
    else:
        expected = check_hostname(parsed["hostname"])
        assert verdict.ok is expected.ok
        assert verdict.code == expected.code


def test_whatwg_parse_handles_surrogates_like_javascript() -> None:
    parsed = whatwg_parse("https://example.com/\ud83d\ude00\ud800")
    assert parsed is not None
    assert parsed["pathname"] == "/%F0%9F%98%80%EF%BF%BD"
    assert whatwg_parse("https://\udfff.example.com/") is None


# ---------------------------------------------------------------- inbound decoding


@pytest.mark.parametrize(
    ("s", "expected"),
    [
        ("abc", "abc"),
        ("a%20b", "a b"),
        ("%C3%A9", "\u00e9"),
        ("%c3%a9", "\u00e9"),
        ("%F0%9F%98%80", "\U0001f600"),
        ("%25", "%"),
        ("%2F%5C%00", "/\\\x00"),
        ("%", None),
        ("%2", None),
        ("%zz", None),
        ("a%", None),
        ("%C3", None),
        ("%C3%", None),
        ("%80", None),
        ("%ED%A0%80", None),
        ("%C0%AF", None),
        ("%F4%90%80%80", None),
        ("%C3x%A9", None),
    ],
)
def test_decode_uri_component(s: str, expected: str | None) -> None:
    assert decode_uri_component(s) == expected


def _es_decode(s: str) -> str | None:
    """ECMAScript's Decode(string, reservedSet="") step by step, as an independent oracle."""
    out: list[str] = []
    k = 0
    n = len(s)

    def byte_at(i: int) -> int | None:
        pair = s[i + 1 : i + 3]
        if s[i] != "%" or len(pair) != 2 or any(c not in "0123456789abcdefABCDEF" for c in pair):
            return None
        return int(pair, 16)

    while k < n:
        if s[k] != "%":
            out.append(s[k])
            k += 1
            continue
        first = byte_at(k)
        if first is None:
            return None
        k += 3
        if first < 0x80:
            out.append(chr(first))
            continue
        if 0xC0 <= first < 0xE0:
            size = 2
        elif 0xE0 <= first < 0xF0:
            size = 3
        elif 0xF0 <= first < 0xF8:
            size = 4
        else:
            return None
        octets = [first]
        for _ in range(size - 1):
            nxt = byte_at(k) if k < n else None
            if nxt is None or nxt & 0xC0 != 0x80:
                return None
            octets.append(nxt)
            k += 3
        try:
            out.append(bytes(octets).decode("utf-8"))
        except UnicodeDecodeError:
            return None
    return "".join(out)


@settings(max_examples=500)
@given(
    st.lists(
        st.sampled_from(
            [
                *("%", "%C3", "%A9", "%E2", "%82", "%AC", "%F0", "%9F", "%98", "%80", "%ED"),
                *("%A0", "%41", "%2f", "%zz", "a", "0", "e", "\u00e9", "\ud800", "%c0", "%af"),
                "%F4",
            ]
        ),
        max_size=12,
    ).map("".join)
)
def test_decode_uri_component_matches_ecmascript(s: str) -> None:
    assert decode_uri_component(s) == _es_decode(s)


@given(st.text())
def test_decode_uri_component_inverts_percent_encoding(text: str) -> None:
    encoded = "".join(f"%{b:02X}" for b in text.encode("utf-8"))
    assert decode_uri_component(encoded) == text
    assert parse_inbound("media://inbound/" + encoded) in (
        None,
        text.lstrip("/"),
    )


# ---------------------------------------------------------------- properties of §7


ANY_TEXT = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=60)
FRAGMENTS = st.sampled_from(
    [
        *("https://", "http://", "HTTPS://", "media://", "inbound", "file:", "file://", "FILE:///"),
        *("/", "\\", "\\\\", "..", ".", "~", "~/", "a", ".png", "example.com", "127.0.0.1"),
        *("0x7f.1", "[::1]", "@", ":", "%2e", "%2F", "%", "?", "#", " ", "\u00a0", "\u2028"),
        *("\ufeff", "\x85", "\x1c", "C:", "c:/", "\ud800", "\U0001f600", "\x00", "data:", "\n"),
    ]
)
CANDIDATES = st.one_of(ANY_TEXT, st.lists(FRAGMENTS, max_size=8).map("".join))


@settings(max_examples=600)
@given(CANDIDATES)
def test_check_reference_total_and_agrees_with_is_valid(candidate: str) -> None:
    for allow_spaces, allow_bare in FLAGS:
        verdict = check_reference(
            candidate, allow_spaces=allow_spaces, allow_bare_filename=allow_bare
        )
        assert isinstance(verdict, Verdict)
        fast = is_valid_reference(
            candidate, allow_spaces=allow_spaces, allow_bare_filename=allow_bare
        )
        assert fast is verdict.ok
        if verdict.ok:
            assert verdict.code is None
        else:
            assert verdict.code in REJECTION_CODES
            assert verdict.reason


@settings(max_examples=600)
@given(
    st.one_of(
        CANDIDATES,
        st.sampled_from(["../a.png", "~user/x.png", "http://x/a.png", "a.png", "a", "C:a.png"]),
    ),
    st.sampled_from(sorted(PROFILES)),
)
def test_bare_filenames_change_only_a_not_a_reference_verdict(candidate: str, name: str) -> None:
    """The judge answers a fallback (bare filenames or spaces allowed) from the verdict
    without them unless that one is ``media.not_a_reference`` (``media/judge.py``): every
    other verdict, reason included, is the same with them; and the judge's answers are
    check_reference's whichever order it is asked in."""
    profile = PROFILES[name]
    for spaces in (False, True):
        without = check_reference(candidate, allow_spaces=spaces, profile=profile)
        with_bare = check_reference(
            candidate, allow_spaces=spaces, allow_bare_filename=True, profile=profile
        )
        if without.code != "media.not_a_reference":
            assert with_bare == without
        first, then = Judge(profile), Judge(profile)
        assert first.verdict(candidate, spaces) == without
        assert first.verdict(candidate, spaces, True) == with_bare
        assert then.verdict(candidate, spaces, True) == with_bare
        assert then.verdict(candidate, spaces) == without
    # Nor does allowing spaces change any other verdict: without them a candidate holding
    # whitespace is media.not_a_reference (or too long, which comes first). The judge
    # answers every switch from the plain verdict when it is another code.
    plain = check_reference(candidate, profile=profile)
    judge = Judge(profile)
    assert judge.verdict(candidate) == plain
    for spaces, bare in FLAGS:
        full = check_reference(
            candidate, allow_spaces=spaces, allow_bare_filename=bare, profile=profile
        )
        if plain.code != "media.not_a_reference":
            assert full == plain
        assert judge.verdict(candidate, spaces, bare) == full


@settings(max_examples=800)
@given(
    st.one_of(
        CANDIDATES, st.lists(st.sampled_from([*".._-=]", "..", ".png", "a" * 2100])).map("".join)
    ),
    st.sampled_from(sorted(PROFILES)),
)
@example("a" * 4100 + ".png", "next")  # past MAX_REFERENCE_UNITS
@example("..", "release-2026.9.6")
def test_a_bare_name_is_judged_by_its_extension_alone(candidate: str, name: str) -> None:
    """``bare_name_ok`` is ``is_valid_reference`` with bare filenames allowed, for any
    string without whitespace and ``: / \\ ~``, whatever the profile and the spaces switch."""
    assume(not any(ch in candidate for ch in ":/\\~") and not has_js_ws(candidate))
    for spaces in (False, True):
        assert bare_name_ok(candidate) is is_valid_reference(
            candidate, allow_spaces=spaces, allow_bare_filename=True, profile=PROFILES[name]
        )
        assert not is_valid_reference(candidate, allow_spaces=spaces, profile=PROFILES[name])


@settings(max_examples=1500)
@given(CANDIDATES, st.sampled_from(sorted(PROFILES)))
@example("../a.png", "next")
@example("file:x.png", "next")
@example("media:x.png", "release-2026.9.6")
@example("C:a.png", "next")
@example("~user.png", "next")
@example("a" * 5000 + ".png", "next")  # past MAX_REFERENCE_UNITS
def test_a_refused_token_falls_back_by_the_bare_filename_rule(candidate: str, name: str) -> None:
    """``bare_fallback_ok`` is ``is_valid_reference`` with bare filenames allowed (and the
    spaces switch either way) for a whitespace-free string refused without them."""
    profile = PROFILES[name]
    assume(not has_js_ws(candidate) and not is_valid_reference(candidate, profile=profile))
    for spaces in (False, True):
        assert bare_fallback_ok(candidate) is is_valid_reference(
            candidate, allow_spaces=spaces, allow_bare_filename=True, profile=profile
        ), candidate


@settings(max_examples=300)
@given(CANDIDATES)
def test_switches_only_widen(candidate: str) -> None:
    base = is_valid_reference(candidate)
    assert not base or is_valid_reference(candidate, allow_spaces=True)
    assert not base or is_valid_reference(candidate, allow_bare_filename=True)
    assert not is_valid_reference(candidate, allow_spaces=True) or is_valid_reference(
        candidate, allow_spaces=True, allow_bare_filename=True
    )


@settings(max_examples=300)
@given(CANDIDATES, st.sampled_from(["file:", "FILE:", "file://", "File://"]))
def test_strip_file_prefix_strips_at_most_one(rest: str, prefix: str) -> None:
    stripped = strip_file_prefix(prefix + rest)
    if prefix.endswith("//") or not rest.startswith("//"):
        assert stripped == rest
    else:
        assert stripped == rest[2:]
    out = strip_file_prefix(rest)
    assert out == rest or rest.endswith(out)
    assert len(rest) - len(out) in (0, 5, 7)
    # Validation strips exactly one prefix, so a second one is judged, not removed: what
    # is left then has a scheme and can never be accepted.
    if strip_file_prefix(stripped) == stripped:
        assert check_reference(prefix + rest).ok is check_reference(stripped).ok
    else:
        assert not check_reference(prefix + rest, allow_bare_filename=True).ok


@settings(max_examples=300)
@given(CANDIDATES)
def test_traversal_is_never_accepted(candidate: str) -> None:
    s = strip_file_prefix(candidate)
    if is_traversal_or_unsupported_home(s) and not s.lower().startswith(("http", "media:")):
        for allow_spaces, allow_bare in FLAGS:
            verdict = check_reference(
                candidate, allow_spaces=allow_spaces, allow_bare_filename=allow_bare
            )
            assert not verdict.ok


@settings(max_examples=200)
@given(st.text(max_size=40))
def test_remote_accepts_only_https_without_credentials(path: str) -> None:
    for url in (f"https://user@example.com/{path}", f"http://example.com/{path}"):
        assert not check_remote(url).ok
    verdict = check_remote(f"https://example.com/{path}")
    parsed = whatwg_parse(f"https://example.com/{path}")
    assert verdict.ok is (parsed is not None)


def test_hostile_sizes_get_a_verdict() -> None:
    for candidate in (
        "a" * 1_000_000,
        "https://" + "1." * 200_000,
        "media://inbound/" + "%" * 100_000,
        "/" + "../" * 100_000,
        "\ud800" * 100_000,
        "MEDIA:" * 100_000,
    ):
        for allow_spaces, allow_bare in FLAGS:
            verdict = check_reference(
                candidate, allow_spaces=allow_spaces, allow_bare_filename=allow_bare
            )
            assert verdict.code in REJECTION_CODES
    assert check_hostname("1." * 100_000).ok is True
    assert check_hostname(":" * 100_000).code == "media.remote.host_blocked"
    assert check_hostname("a:" * 50_000 + ".b").code == "media.remote.ip_blocked"
    assert parse_ipv6("1:" * 100_000) is None
    assert decode_uri_component("%41" * 100_000) == "A" * 100_000
    assert parse_url("https://example.com/")["hostname"] == "example.com"


@settings(max_examples=500)
@given(st.text(alphabet=st.sampled_from(list("ab.-_Z9 é/")), max_size=18), st.data())
def test_has_file_extension_in_a_slice_is_has_file_extension_of_it(
    s: str, data: st.DataObject
) -> None:
    a = data.draw(st.integers(0, len(s)))
    b = data.draw(st.integers(a, len(s)))
    assert has_file_extension_in(s, a, b) == has_file_extension(s[a:b])
