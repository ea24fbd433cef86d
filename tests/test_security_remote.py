"""Hostile remote references and their verdicts (MEDIA.md §7, §8.1, §17.2; PROFILES.md).

Each row is a candidate as the payload tokenizer would hand it to the policy, and the
verdict each profile's rules give it: ``OK`` or the exact rejection code. A plain verdict
holds in every profile; ``by_profile(next, release)`` gives the two when they differ (only
IPv6 literal hosts do: PROFILES.md rule 6). Rows marked with ``SPACES`` are judged with
spaces allowed (a quoted payload).
"""

from __future__ import annotations

import pytest

from richout.policy import check_hostname, check_reference, check_remote, is_valid_reference
from richout.profiles import DEFAULT_PROFILE, PROFILES

OK = "ok"
NOT_HTTPS = "media.remote.not_https"
INVALID = "media.remote.invalid_url"
CREDS = "media.remote.credentials"
HOST = "media.remote.host_blocked"
IP = "media.remote.ip_blocked"
V6 = "media.remote.ipv6_literal"
SCHEME = "media.scheme_unsupported"
NOT_REF = "media.not_a_reference"
TOO_LONG = "media.too_long"
SPACES = "spaces"

NEXT = "next"
RELEASE = "release-2026.9.6"

Verdict = str | dict[str, str]


def by_profile(next_verdict: str, release_verdict: str) -> dict[str, str]:
    """A verdict that differs between the profiles."""
    return {NEXT: next_verdict, RELEASE: release_verdict}


def expected_for(expected: Verdict, profile: str) -> str:
    return expected if isinstance(expected, str) else expected[profile]


# (candidate, expected, flags)
REMOTE_TABLE: list[tuple[str, Verdict, str]] = [
    # Legacy IPv4 spellings: WHATWG canonicalises them, then the range decides.
    ("https://2130706433/a.png", IP, ""),
    ("https://0177.0.0.1/a.png", IP, ""),
    ("https://0x7f.1/a.png", IP, ""),
    ("https://127.1/a.png", IP, ""),
    ("https://0x7f000001/a.png", IP, ""),
    ("https://0X7F.0.0.1/a.png", IP, ""),
    ("https://0x0a.0.0.1/a.png", IP, ""),
    ("https://012.0.0.1/a.png", IP, ""),
    ("https://0/a.png", IP, ""),
    ("https://0x/a.png", IP, ""),
    ("https://0xa9fea9fe/latest/meta-data", IP, ""),
    ("https://4294967295/a.png", IP, ""),
    ("https://0xffffffff/a.png", IP, ""),
    ("https://0x08080808/a.png", OK, ""),
    ("https://134744072/a.png", OK, ""),
    ("https://010.010.010.010/a.png", OK, ""),
    ("https://8.8.2056/a.png", OK, ""),
    ("https://4294967296/a.png", INVALID, ""),
    ("https://1.2.3.4.5/a.png", INVALID, ""),
    ("https://08.1.1.1/a.png", INVALID, ""),
    ("https://256.0.0.1/a.png", INVALID, ""),
    ("https://999999999999/a.png", INVALID, ""),
    ("https://127.0.0.1./a.png", IP, ""),
    ("https://127.0.0.1../a.png", IP, ""),
    # Edges of every blocked IPv4 range (first, last, and the neighbours outside).
    ("https://0.0.0.0/a.png", IP, ""),
    ("https://0.255.255.255/a.png", IP, ""),
    ("https://1.0.0.0/a.png", OK, ""),
    ("https://9.255.255.255/a.png", OK, ""),
    ("https://10.0.0.0/a.png", IP, ""),
    ("https://10.255.255.255/a.png", IP, ""),
    ("https://11.0.0.0/a.png", OK, ""),
    ("https://100.63.255.255/a.png", OK, ""),
    ("https://100.64.0.0/a.png", IP, ""),
    ("https://100.100.100.200/a.png", IP, ""),
    ("https://100.127.255.255/a.png", IP, ""),
    ("https://100.128.0.0/a.png", OK, ""),
    ("https://126.255.255.255/a.png", OK, ""),
    ("https://127.0.0.0/a.png", IP, ""),
    ("https://127.255.255.255/a.png", IP, ""),
    ("https://128.0.0.0/a.png", OK, ""),
    ("https://169.253.255.255/a.png", OK, ""),
    ("https://169.254.0.0/a.png", IP, ""),
    ("https://169.254.169.254/latest/meta-data", IP, ""),
    ("https://169.254.255.255/a.png", IP, ""),
    ("https://169.255.0.0/a.png", OK, ""),
    ("https://172.15.255.255/a.png", OK, ""),
    ("https://172.16.0.0/a.png", IP, ""),
    ("https://172.31.255.255/a.png", IP, ""),
    ("https://172.32.0.1/a.png", OK, ""),
    ("https://191.255.255.255/a.png", OK, ""),
    ("https://192.0.0.0/a.png", IP, ""),
    ("https://192.0.0.255/a.png", IP, ""),
    ("https://192.0.1.0/a.png", OK, ""),
    ("https://192.0.1.255/a.png", OK, ""),
    ("https://192.0.2.0/a.png", IP, ""),
    ("https://192.0.2.255/a.png", IP, ""),
    ("https://192.0.3.0/a.png", OK, ""),
    ("https://192.88.98.255/a.png", OK, ""),
    ("https://192.88.99.0/a.png", IP, ""),
    ("https://192.88.99.255/a.png", IP, ""),
    ("https://192.88.100.0/a.png", OK, ""),
    ("https://192.167.255.255/a.png", OK, ""),
    ("https://192.168.0.0/a.png", IP, ""),
    ("https://192.168.1.10/a.png", IP, ""),
    ("https://192.168.255.255/a.png", IP, ""),
    ("https://192.169.0.0/a.png", OK, ""),
    ("https://198.17.255.255/a.png", OK, ""),
    ("https://198.18.0.0/a.png", IP, ""),
    ("https://198.19.255.255/a.png", IP, ""),
    ("https://198.20.0.0/a.png", OK, ""),
    ("https://198.51.99.255/a.png", OK, ""),
    ("https://198.51.100.0/a.png", IP, ""),
    ("https://198.51.100.255/a.png", IP, ""),
    ("https://198.51.101.0/a.png", OK, ""),
    ("https://203.0.112.255/a.png", OK, ""),
    ("https://203.0.113.0/a.png", IP, ""),
    ("https://203.0.113.255/a.png", IP, ""),
    ("https://203.0.114.0/a.png", OK, ""),
    ("https://223.255.255.255/a.png", OK, ""),
    ("https://224.0.0.0/a.png", IP, ""),
    ("https://239.255.255.255/a.png", IP, ""),
    ("https://240.0.0.0/a.png", IP, ""),
    ("https://255.255.255.254/a.png", IP, ""),
    ("https://255.255.255.255/a.png", IP, ""),
    # Special-use space the reference deliberately leaves open.
    ("https://192.175.48.1/a.png", OK, ""),
    ("https://192.31.196.1/a.png", OK, ""),
    ("https://192.52.193.1/a.png", OK, ""),
    ("https://8.8.8.8/a.png", OK, ""),
    # IPv6 literals. The release blocks every one (G18: WHATWG serializes IPv6 without a dot,
    # so the single-label rule catches it). next reads an IP literal first (PROFILES.md rule
    # 6): a public address passes; the special-use blocks of MEDIA.md §8.1 rule 4, and any
    # address embedding a blocked IPv4 (mapped, RFC 6145, NAT64, 6to4, Teredo, compatible,
    # ISATAP), stay blocked.
    ("https://[::1]/a.png", by_profile(IP, V6), ""),
    ("https://[::]/a.png", by_profile(IP, V6), ""),
    ("https://[0::1]/a.png", by_profile(IP, V6), ""),
    ("https://[::ffff:127.0.0.1]/a.png", by_profile(IP, V6), ""),
    ("https://[::ffff:7f00:1]/a.png", by_profile(IP, V6), ""),
    ("https://[0:0:0:0:0:ffff:7f00:1]/a.png", by_profile(IP, V6), ""),
    ("https://[::ffff:a9fe:a9fe]/latest/meta-data", by_profile(IP, V6), ""),
    ("https://[::ffff:6440:1]/a.png", by_profile(IP, V6), ""),
    ("https://[::ffff:8.8.8.8]/a.png", by_profile(OK, V6), ""),
    ("https://[::127.0.0.1]/a.png", by_profile(IP, V6), ""),
    ("https://[::a00:1]/a.png", by_profile(IP, V6), ""),
    ("https://[::ffff:0:127.0.0.1]/a.png", by_profile(IP, V6), ""),
    ("https://[::ffff:0:a00:1]/a.png", by_profile(IP, V6), ""),
    ("https://[64:ff9b::127.0.0.1]/a.png", by_profile(IP, V6), ""),
    ("https://[64:ff9b::a9fe:a9fe]/a.png", by_profile(IP, V6), ""),
    ("https://[64:ff9b::808:808]/a.png", by_profile(OK, V6), ""),
    ("https://[64:ff9b:1::8.8.8.8]/a.png", by_profile(IP, V6), ""),
    ("https://[64:ff9b:1::a00:1]/a.png", by_profile(IP, V6), ""),
    ("https://[2002:7f00:1::]/a.png", by_profile(IP, V6), ""),
    ("https://[2002:a00:1::]/a.png", by_profile(IP, V6), ""),
    ("https://[2002:808:808::1]/a.png", by_profile(OK, V6), ""),
    ("https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/a.png", by_profile(IP, V6), ""),
    ("https://[fe80::5efe:7f00:1]/a.png", by_profile(IP, V6), ""),
    ("https://[2a00::5efe:a00:1]/a.png", by_profile(IP, V6), ""),
    ("https://[2001:4860:4860::8888]/a.png", by_profile(OK, V6), ""),
    ("https://[2001:4860:4860:0:0:0:0:8888]/a.png", by_profile(OK, V6), ""),
    ("https://[2001:4860:4860::8888]:8443/a.png", by_profile(OK, V6), ""),
    ("https://[2606:4700::1111]/a.png", by_profile(OK, V6), ""),
    ("https://[fe80::1]/a.png", by_profile(IP, V6), ""),
    ("https://[FC00::1]:443/a.png", by_profile(IP, V6), ""),
    ("https://[fd00:ec2::254]/latest/meta-data", by_profile(IP, V6), ""),
    ("https://[ff02::1]/a.png", by_profile(IP, V6), ""),
    ("https://[fec0::1]/a.png", by_profile(IP, V6), ""),
    ("https://[2001:db8::1]/a.png", by_profile(IP, V6), ""),
    ("https://[3fff::1]/a.png", by_profile(IP, V6), ""),
    ("https://[100::1]/a.png", by_profile(IP, V6), ""),
    ("https://[2001:2::1]/a.png", by_profile(IP, V6), ""),
    ("https://[2001:20::1]/a.png", by_profile(IP, V6), ""),
    ("file://https://[2001:4860:4860::8888]/a.png", by_profile(OK, V6), ""),
    ("https://user@[2001:4860:4860::8888]/a.png", CREDS, ""),
    ("https://[fe80::1%25eth0]/a.png", INVALID, ""),
    ("https://[2001:4860:4860::8888%25eth0]/a.png", INVALID, ""),
    ("https://[2001:4860:4860::8888]./a.png", INVALID, ""),
    ("https://[::ffff:127.0.0.1].example.com/a.png", INVALID, ""),
    ("https://[::1/a.png", INVALID, ""),
    ("https://[1::2::3]/a.png", INVALID, ""),
    ("https://[::ffff:0177.0.0.1]/a.png", INVALID, ""),
    # Userinfo, including the "@" tricks.
    ("https://user@example.com/a.png", CREDS, ""),
    ("https://user:pw@example.com/a.png", CREDS, ""),
    ("https://:pw@example.com/a.png", CREDS, ""),
    ("https://user:@example.com/a.png", CREDS, ""),
    ("https://example.com@127.0.0.1/a.png", CREDS, ""),
    ("https://127.0.0.1@example.com/a.png", CREDS, ""),
    ("https://a@b@example.com/a.png", CREDS, ""),
    ("https://user%40x@example.com/a.png", CREDS, ""),
    ("https://@example.com/a.png", OK, ""),
    ("https://:@example.com/a.png", OK, ""),
    ("https://example.com%40127.0.0.1/a.png", INVALID, ""),
    # Backslashes are slashes in special schemes.
    ("https://example.com\\@127.0.0.1/a.png", OK, ""),
    ("https://127.0.0.1\\@example.com/a.png", IP, ""),
    ("https://example.com\\..\\127.0.0.1\\a.png", OK, ""),
    ("https:\\\\example.com\\a.png", NOT_REF, ""),
    ("https:/\\127.0.0.1/a.png", NOT_REF, ""),
    ("https://localhost\\.example.com/a.png", HOST, ""),
    # Trailing dots.
    ("https://example.com./a.png", OK, ""),
    ("https://example.com../a.png", OK, ""),
    ("https://localhost./a.png", HOST, ""),
    ("https://foo.local./a.png", HOST, ""),
    ("https://metadata.google.internal./a.png", HOST, ""),
    ("https://./a.png", HOST, ""),
    ("https://../a.png", HOST, ""),
    # Percent-encoded hosts are decoded before judging.
    ("https://%31%32%37.0.0.1/a.png", IP, ""),
    ("https://%6c%6f%63%61%6c%68%6f%73%74/a.png", HOST, ""),
    ("https://%30x7f.1/a.png", IP, ""),
    ("https://example%2Ecom/a.png", OK, ""),
    ("https://exa%00mple.com/a.png", INVALID, ""),
    ("https://%zz.example.com/a.png", INVALID, ""),
    # IDN, punycode, and Unicode spellings of blocked names.
    ("https://例え.jp/a.png", OK, ""),
    ("https://xn--r8jz45g.jp/a.png", OK, ""),
    ("https://exämple.com/a.png", OK, ""),
    ("https://ex\u00adample.com/a.png", OK, ""),
    ("https://ＥＸＡＭＰＬＥ.com/a.png", OK, ""),
    ("https://ｌｏｃａｌｈｏｓｔ/a.png", HOST, ""),
    ("https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/a.png", HOST, ""),
    ("https://127。0。0。1/a.png", IP, ""),
    ("https://localhost\u3002/a.png", HOST, ""),
    ("https://\u00ad.com/a.png", HOST, ""),
    # Local and internal names.
    ("https://localhost/a.png", HOST, ""),
    ("https://LOCALHOST.localdomain/a.png", HOST, ""),
    ("https://foo.localhost/a.png", HOST, ""),
    ("https://printer.local/a.png", HOST, ""),
    ("https://db.internal/a.png", HOST, ""),
    ("https://metadata.google.internal/computeMetadata/v1/", HOST, ""),
    ("https://printer.lan/a.png", OK, ""),
    ("https://nas.home/a.png", OK, ""),
    ("https://intranet.corp/a.png", OK, ""),
    ("https://example.internal.com/a.png", OK, ""),
    ("https://127.0.0.1.nip.io/a.png", OK, ""),
    # Plain URLs, whose names are judged without the verdict's steps (plain_host_ok).
    ("https://PRINTER.LOCAL/a.png", HOST, ""),
    ("https://a.b.c.INTERNAL/x?y=1", HOST, ""),
    ("https://localhost.localdomain/a.png", HOST, ""),
    ("https://Metadata.Google.Internal/a.png#x", HOST, ""),
    ("https://a-.local/a.png", HOST, ""),
    ("https://x.localhost/a.png", HOST, ""),
    ("https://LocalHost/a.png", HOST, ""),
    ("https://0.local/a.png", HOST, ""),
    ("https://localhost.localdomain.example/a.png", OK, ""),
    ("https://local.example/a.png", OK, ""),
    ("https://a.localhostx/a.png", OK, ""),
    # Single-label hosts and empty labels.
    ("https://intranet/a.png", HOST, ""),
    ("https://printer/a.png", HOST, ""),
    ("https://metadata/a.png", HOST, ""),
    ("https://com/a.png", HOST, ""),
    ("https://0x7f/a.png", IP, ""),
    ("https://example..com/a.png", HOST, ""),
    ("https://.example.com/a.png", HOST, ""),
    ("https://a.b..c/a.png", HOST, ""),
    # Ports.
    ("https://example.com:99999/a.png", INVALID, ""),
    ("https://example.com:65536/a.png", INVALID, ""),
    ("https://example.com:-1/a.png", INVALID, ""),
    ("https://example.com:abc/a.png", INVALID, ""),
    ("https://example.com:65535/a.png", OK, ""),
    ("https://example.com:8443/a.png", OK, ""),
    ("https://example.com:/a.png", OK, ""),
    ("https://example.com:0/a.png", OK, ""),
    # Whitespace in the host: not a reference unless quoted, then not a URL.
    ("https://exa mple.com/a.png", NOT_REF, ""),
    ("https://exa mple.com/a.png", INVALID, SPACES),
    ("https://exa\u00a0mple.com/a.png", NOT_REF, ""),
    ("https://example.com/a b.png", OK, SPACES),
    ("https://exa\tmple.com/a.png", OK, SPACES),
    ("https:// example.com/a.png", INVALID, SPACES),
    # Scheme spelling and other schemes.
    ("HTTPS://EXAMPLE.COM/a.png", OK, ""),
    ("HtTpS://Example.Com/a.png", OK, ""),
    ("https:example.com/a.png", NOT_REF, ""),
    ("http://example.com/a.png", NOT_HTTPS, ""),
    ("HTTP://example.com/a.png", NOT_HTTPS, ""),
    ("http://127.0.0.1/a.png", NOT_HTTPS, ""),
    ("http://", NOT_HTTPS, ""),
    ("https://", INVALID, ""),
    ("ftp://example.com/a.png", SCHEME, ""),
    ("ws://example.com/a.png", SCHEME, ""),
    ("wss://example.com/a.png", SCHEME, ""),
    ("data:image/png;base64,AAAA", SCHEME, ""),
    ("javascript:alert(1)", SCHEME, ""),
    ("mailto:someone@example.com", SCHEME, ""),
    ("blob:https://example.com/uuid", SCHEME, ""),
    ("httpx://example.com/a.png", SCHEME, ""),
    ("file://https://evil.example/a.png", OK, ""),
    ("file://http://evil.example/a.png", NOT_HTTPS, ""),
    ("FILE:https://127.0.0.1/a.png", IP, ""),
    # Length: 4096 UTF-16 units after the file prefix; astral characters count 2.
    ("https://example.com/" + "a" * 4076, OK, ""),
    ("https://example.com/" + "a" * 4077, TOO_LONG, ""),
    ("https://example.com/" + "\U0001f600" * 2038, OK, ""),
    ("https://example.com/" + "\U0001f600" * 2038 + "a", TOO_LONG, ""),
    ("https://example.com/" + "\U0001f600" * 2039, TOO_LONG, ""),
    ("file://https://example.com/" + "a" * 4076, OK, ""),
    ("https://" + "a." * 50_000 + "com/a.png", TOO_LONG, ""),
    # Hostile characters after an otherwise fine URL.
    ("https://example.com/a.png\x00", OK, ""),
    ("https://example.com/\ud800.png", OK, ""),
    ("https://exa\ud800mple.com/a.png", INVALID, ""),
    ("https://example.com/a.png\r", NOT_REF, ""),
    ("https://example.com/a.png\u2028", NOT_REF, ""),
    ("https://example.com/a\x1c.png", OK, ""),
    ("https://example.com/a\x85.png", OK, ""),
]


def _id(row: tuple[str, Verdict, str]) -> str:
    text = row[0] if len(row[0]) <= 60 else f"{row[0][:40]}...({len(row[0])})"
    return f"{text!r}{'+spaces' if row[2] else ''}"


def test_table_is_large_and_unique() -> None:
    assert len(REMOTE_TABLE) >= 100
    keys = [(c, f) for c, _, f in REMOTE_TABLE]
    assert len(keys) == len(set(keys))


def test_split_verdicts_name_every_profile() -> None:
    for _, expected, _ in REMOTE_TABLE + [(h, e, "") for h, e in HOSTNAME_TABLE]:
        if isinstance(expected, dict):
            assert set(expected) == set(PROFILES)
            assert expected[NEXT] != expected[RELEASE]


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("row", REMOTE_TABLE, ids=_id)
def test_remote_reference_verdict(row: tuple[str, Verdict, str], profile: str) -> None:
    candidate, expected, flags = row
    want = expected_for(expected, profile)
    prof = PROFILES[profile]
    allow_spaces = flags == SPACES
    verdict = check_reference(candidate, allow_spaces=allow_spaces, profile=prof)
    assert (verdict.code or OK) == want, verdict.reason
    assert verdict.ok is (want == OK)
    if not verdict.ok:
        assert verdict.reason
    assert is_valid_reference(candidate, allow_spaces=allow_spaces, profile=prof) is verdict.ok
    # Bare filenames never rescue a URL-shaped candidate.
    assert (
        is_valid_reference(
            candidate, allow_spaces=allow_spaces, allow_bare_filename=True, profile=prof
        )
        is verdict.ok
    )


_IPV6_ROWS = [row for row in REMOTE_TABLE if row[0].lower().startswith("https://[")]


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("row", _IPV6_ROWS, ids=_id)
def test_check_remote_takes_the_profile_switch(row: tuple[str, Verdict, str], profile: str) -> None:
    url, expected, _ = row
    verdict = check_remote(url, ip_literal_first=PROFILES[profile].ip_literal_first)
    assert (verdict.code or OK) == expected_for(expected, profile), verdict.reason


def test_the_release_accepts_no_ipv6_literal_host() -> None:
    for candidate, expected, _ in REMOTE_TABLE:
        if "://[" in candidate:
            assert expected_for(expected, RELEASE) != OK, candidate
            assert not check_reference(candidate, profile=PROFILES[RELEASE]).ok, candidate


def test_next_accepts_public_ipv6_hosts_only() -> None:
    accepted = {c for c, e, _ in _IPV6_ROWS if expected_for(e, NEXT) == OK}
    assert "https://[2001:4860:4860::8888]/a.png" in accepted
    assert "https://[::1]/a.png" not in accepted
    assert len(accepted) < len(_IPV6_ROWS) // 2


def test_default_profile_is_next() -> None:
    assert DEFAULT_PROFILE == NEXT
    for candidate, expected, flags in REMOTE_TABLE:
        if isinstance(expected, dict):
            verdict = check_reference(candidate, allow_spaces=flags == SPACES)
            assert (verdict.code or OK) == expected[NEXT], candidate


REASONS: list[tuple[str, str, tuple[str, ...]]] = [
    ("https://10.0.0.5/a.png", "private range 10.0.0.0/8", (NEXT, RELEASE)),
    ("https://100.100.100.200/a.png", "100.64.0.0/10", (NEXT, RELEASE)),
    ("https://169.254.169.254/x", "169.254.0.0/16", (NEXT, RELEASE)),
    ("https://0x7f.1/a.png", "'0x7f.1'", (NEXT, RELEASE)),
    ("https://0x7f.1/a.png", "loopback range 127.0.0.0/8", (NEXT, RELEASE)),
    ("https://[::ffff:127.0.0.1]/a.png", "127.0.0.0/8", (NEXT, RELEASE)),
    ("https://[::1]/a.png", "IPv6 literal", (RELEASE,)),
    ("https://[2001:4860:4860::8888]/a.png", "IPv6 literal", (RELEASE,)),
    ("https://[::1]/a.png", "loopback range ::1/128", (NEXT,)),
    ("https://[fe80::1]/a.png", "link-local range fe80::/10", (NEXT,)),
    ("https://[fd00:ec2::254]/x", "unique local", (NEXT,)),
    ("https://[64:ff9b::a9fe:a9fe]/x", "169.254.0.0/16", (NEXT,)),
    ("http://example.com/a.png", "https://", (NEXT, RELEASE)),
    ("https://example.com:99999/a.png", "65535", (NEXT, RELEASE)),
    ("https://localhost/a.png", "single-label", (NEXT, RELEASE)),
    ("https://db.internal/a.png", ".internal", (NEXT, RELEASE)),
    ("https://example..com/a.png", "empty label", (NEXT, RELEASE)),
    ("https://user:pw@example.com/a.png", "user:password@", (NEXT, RELEASE)),
]


@pytest.mark.parametrize(
    ("url", "fragment", "profile"),
    [(url, fragment, p) for url, fragment, profiles in REASONS for p in profiles],
)
def test_remote_reason_names_the_rule(url: str, fragment: str, profile: str) -> None:
    assert fragment in check_reference(url, profile=PROFILES[profile]).reason


def test_check_remote_rejects_non_http_schemes_itself() -> None:
    assert check_remote("ftp://example.com/a.png").code == SCHEME
    assert check_remote("not a url").code == INVALID
    assert check_remote("https://example.com/a.png").ok
    assert check_remote("https://[2001:4860:4860::8888]/a.png").ok
    v6 = check_remote("https://[2001:4860:4860::8888]/a.png", ip_literal_first=False)
    assert v6.code == V6


# Raw (non-canonical) hostnames: rules 4-IPv6, 5 and 6 for callers that do not run WHATWG.
HOSTNAME_TABLE: list[tuple[str, Verdict]] = [
    # Rule 4, IPv6 with a dotted tail (the only IPv6 spellings that survive rule 2).
    ("::ffff:127.0.0.1", IP),
    ("[::ffff:10.0.0.1]", IP),
    ("::ffff:8.8.8.8", OK),
    ("::127.0.0.1", IP),
    ("::8.8.8.8", OK),
    ("::ffff:0:127.0.0.1", IP),
    ("::ffff:0:8.8.8.8", OK),
    ("64:ff9b::127.0.0.1", IP),
    ("64:ff9b::8.8.8.8", OK),
    ("64:ff9b:1::8.8.8.8", IP),
    ("2002:7f00:1::1.2.3.4", IP),
    ("2002:808:808::1.2.3.4", OK),
    ("2001:0:4136:e378:8000:63bf:128.255.255.254", IP),
    ("2a00::5efe:127.0.0.1", IP),
    ("2a00::200:5efe:10.1.2.3", IP),
    ("2a00::5efe:8.8.8.8", OK),
    ("2a00::1.2.3.4", OK),
    ("fc00::1.2.3.4", IP),
    ("fd00:ec2::1.2.3.4", IP),
    ("fe80::1.2.3.4", IP),
    ("fec0::1.2.3.4", IP),
    ("ff02::1.2.3.4", IP),
    ("2001:db8::1.2.3.4", IP),
    ("3fff::1.2.3.4", IP),
    ("100::1.2.3.4", IP),
    ("2001:2::1.2.3.4", IP),
    ("2001:20::1.2.3.4", IP),
    ("2001:100::1.2.3.4", IP),
    ("2001:4860::8.8.8.8", OK),
    ("::FFFF:127.0.0.1", IP),
    # Rule 5: a colon but no parseable address.
    ("a:b.example.com", IP),
    ("::ffff:0177.0.0.1", IP),
    ("::ffff:1.2.3.04", IP),
    ("1:2:3:4:5:6:7:8.9", IP),
    ("fe80::1%eth0.example", IP),
    ("1::2::3.4.5.6", IP),
    ("00001::1.2.3.4", IP),
    ("[::1].example.com", IP),
    # Rule 6: legacy IPv4 literals that are not canonical dotted decimal.
    ("0x7f.1", IP),
    ("127.1", IP),
    ("0177.0.0.1", IP),
    ("01.1.1.1", IP),
    ("1.2.3.0x4", IP),
    ("0X7F.0.0.1", IP),
    ("256.1.1.1", IP),
    ("1.2.3.04", IP),
    ("8.8.8.8.", OK),
    # One pair of brackets is removed (§8.1): what is left is no legacy IPv4 literal.
    ("[[127.1]]", OK),
    ("[[0x7f.1]]", OK),
    ("1.2.3.4.5", OK),
    ("0x.1.1.1", OK),
    ("1.2.3.4a", OK),
    # Rules 1-3 on raw spellings.
    ("", HOST),
    (".", HOST),
    ("..", HOST),
    ("a..b", HOST),
    ("2130706433", HOST),
    ("LOCALHOST", HOST),
    (" localhost.localdomain ", HOST),
    ("[localhost]", HOST),
    ("Foo.Internal", HOST),
    ("example.com", OK),
    # IPv6 without a dot: the release gives the IPv6-literal code to every one; next judges
    # the address like any other IP literal.
    ("::1", by_profile(IP, V6)),
    ("[::1]", by_profile(IP, V6)),
    ("[2001:4860:4860::8888]", by_profile(OK, V6)),
    ("2606:4700::1111", by_profile(OK, V6)),
    ("fe80::1", by_profile(IP, V6)),
    ("fd00::1", by_profile(IP, V6)),
    ("::ffff:7f00:1", by_profile(IP, V6)),
    ("::ffff:808:808", by_profile(OK, V6)),
    ("2002:a9fe:a9fe::", by_profile(IP, V6)),
    # "::" standing for zero groups is no address (ada rejects it too): unparseable, blocked.
    ("1:2:3:4:5:6::8.8.8.8", IP),
    ("1:2:3:4:5:6::1.1.1.1", IP),
    ("::1:2:3:4:5:6:7:8", HOST),
]


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize(("hostname", "expected"), HOSTNAME_TABLE, ids=repr)
def test_check_hostname_raw(hostname: str, expected: Verdict, profile: str) -> None:
    verdict = check_hostname(hostname, ip_literal_first=PROFILES[profile].ip_literal_first)
    assert (verdict.code or OK) == expected_for(expected, profile), verdict.reason
    if profile == DEFAULT_PROFILE:
        assert check_hostname(hostname) == verdict


def test_raw_hostname_reasons() -> None:
    assert "127.0.0.0/8" in check_hostname("::ffff:127.0.0.1").reason
    assert "IPv4-mapped" in check_hostname("::ffff:127.0.0.1").reason
    assert "Teredo" in check_hostname("2001:0:4136:e378:8000:63bf:128.255.255.254").reason
    assert "local-use NAT64" in check_hostname("64:ff9b:1::8.8.8.8").reason
    assert "127.0.0.1" in check_hostname("0x7f.1").reason
    assert "not a parseable IP address" in check_hostname("a:b.example.com").reason
