"""A gateway's Policy narrows the reference policy and never widens it (issue 10 item 1).

Tables of bypass attempts per rule, judged through ``split_media`` in both profiles; the
narrowing proof over the hostile tables of the other security tests and generated
policies; what a narrowed rejection does to the text, the count and the diagnostics; the
jsonl and command-line plumbing.
"""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_security_local import INBOUND_TABLE, LOCAL_TABLE
from test_security_remote import HOSTNAME_TABLE, REMOTE_TABLE

import richout
from richout import InvalidInput, InvalidOptions, Policy
from richout.faces.cli import main
from richout.faces.ops import OPS
from richout.policy import POLICY_CODES

NEXT = "next"
RELEASE = "release-2026.9.6"
BOTH = [NEXT, RELEASE]
OK = "ok"

STRICT = Policy.strict()
WS = Policy(workspace_root="/srv/ws")
DENY = Policy(deny_hosts=["*.corp.example", "evil.example"])
ALLOW = Policy(allow_hosts=["cdn.example.com", "*.media.example"])

# (policy, reference after "MEDIA:", expected code or OK)
RULE_TABLE: list[tuple[Policy, str, str | None]] = [
    # Control characters anywhere (strict).
    (STRICT, "\x00https://127.0.0.1/a.png", "media.policy.control_character"),
    (STRICT, "\x01https://127.0.0.1/a.png", "media.policy.control_character"),
    (STRICT, "\x1bhttps://example.com/a.png", "media.policy.control_character"),
    (STRICT, "h\tttps://127.0.0.1/a.png", "media.policy.control_character"),
    (STRICT, "/srv/.\x00./etc/passwd", "media.policy.control_character"),
    (STRICT, "/srv/a\x7f.png", "media.policy.control_character"),
    (STRICT, "/srv/a\x85.png", "media.policy.control_character"),
    # Protocol-relative: a URL resolver reads a host after two separators.
    (STRICT, "//169.254.169.254/latest/meta-data", "media.policy.protocol_relative"),
    (STRICT, "//example.com/a.png", "media.policy.protocol_relative"),
    (STRICT, "///example.com/a.png", "media.policy.protocol_relative"),
    (STRICT, "/\\example.com/a.png", "media.policy.protocol_relative"),
    (Policy(allow_protocol_relative=False), "\\\\host\\a.png", "media.policy.protocol_relative"),
    # UNC and device paths.
    (STRICT, "\\\\127.0.0.1\\share\\a.png", "media.policy.unc_path"),
    (STRICT, "\\\\localhost\\c$\\secret.txt", "media.policy.unc_path"),
    (STRICT, "\\\\?\\C:\\x.png", "media.policy.unc_path"),
    (STRICT, "\\\\.\\PhysicalDrive0", "media.policy.unc_path"),
    (STRICT, "\\/host/share/a.png", "media.policy.unc_path"),
    (STRICT, "\\??\\C:\\x.png", "media.policy.unc_path"),
    (Policy(allow_unc_paths=False), "//host/share/a.png", "media.policy.unc_path"),
    (Policy(allow_unc_paths=False), "file://host/share/a.png", "media.policy.unc_path"),
    # Traversal hidden behind encoding, NUL, compatibility characters.
    (STRICT, "/srv/%2e%2e/etc/passwd", "media.policy.encoded_traversal"),
    (STRICT, "%2e%2e/%2e%2e/etc/passwd", "media.policy.encoded_traversal"),
    (STRICT, "/srv/media/..%2fetc/passwd", "media.policy.encoded_traversal"),
    (STRICT, "/srv/..%2f..%2fetc", "media.policy.encoded_traversal"),
    (STRICT, "..%00/x.png", "media.policy.encoded_traversal"),
    (STRICT, "/srv/.%2E/x.png", "media.policy.encoded_traversal"),
    (STRICT, "/srv/%252e%252e/x.png", "media.policy.encoded_traversal"),
    (STRICT, "/srv/%25252525252e%25252525252e/x.png", "media.policy.encoded_traversal"),
    (STRICT, "/srv/%c0%ae%c0%ae/x.png", "media.policy.encoded_traversal"),
    (STRICT, "/srv/%2e%2e%5cetc", "media.policy.encoded_traversal"),
    (STRICT, "/srv/\u2025/x.png", "media.policy.encoded_traversal"),
    (STRICT, "/srv/\uff0e\uff0e/x.png", "media.policy.encoded_traversal"),
    (STRICT, "file:///srv/%2e%2e/x.png", "media.policy.encoded_traversal"),
    (STRICT, "media://inbound/../x", "media.policy.encoded_traversal"),
    (STRICT, "media://inbound/%2e%2e/x.png", "media.policy.encoded_traversal"),
    (Policy(allow_encoded_traversal=False), "/srv/.\x00./etc", "media.policy.encoded_traversal"),
    # file: URLs with a host (a network share).
    (STRICT, "file://host/etc/passwd", "media.policy.file_url_host"),
    (STRICT, "file://127.0.0.1/etc/passwd", "media.policy.file_url_host"),
    (STRICT, "FILE://evil/share/a.png", "media.policy.file_url_host"),
    # IP-literal hosts in any spelling.
    (STRICT, "https://93.184.216.34/a.png", "media.policy.ip_host"),
    (STRICT, "https://93.184.216.34./a.png", "media.policy.ip_host"),
    (STRICT, "https://1572395042/a.png", "media.policy.ip_host"),
    (STRICT, "https://0x5db8d822/a.png", "media.policy.ip_host"),
    (STRICT, "https://0135.0270.0330.042/a.png", "media.policy.ip_host"),
    (STRICT, "https://0x08080808/a.png", "media.policy.ip_host"),
    (STRICT, "https://8.8.8.8:443/a.png", "media.policy.ip_host"),
    (STRICT, "https://[2606:4700::1]/a.png", "media.policy.ip_host"),
    (STRICT, "https://[::ffff:93.184.216.34]/a.png", "media.policy.ip_host"),
    (STRICT, "file:https://8.8.8.8/a.png", "media.policy.ip_host"),
    # What strict keeps.
    (STRICT, "https://example.com/a.png", OK),
    (STRICT, "/srv/media/a.png", OK),
    (STRICT, "./a.png", OK),
    (STRICT, "~/a.png", OK),
    (STRICT, "file:///srv/a.png", OK),
    (STRICT, "file://localhost/srv/a.png", OK),
    (STRICT, "media://inbound/a.png", OK),
    (STRICT, "C:\\media\\a.png", OK),
    # file: URLs at all.
    (Policy(allow_file_urls=False), "file:///srv/a.png", "media.policy.file_url"),
    (Policy(allow_file_urls=False), "FILE:/srv/a.png", "media.policy.file_url"),
    (Policy(allow_file_urls=False), "file:https://example.com/a.png", "media.policy.file_url"),
    (Policy(allow_file_urls=False), "file://localhost/srv/a.png", "media.policy.file_url"),
    (Policy(allow_file_urls=False), "/srv/file:/a.png", OK),
    # Home paths.
    (Policy(allow_home_paths=False), "~/a.png", "media.policy.home_path"),
    (Policy(allow_home_paths=False), "~\\a.png", "media.policy.home_path"),
    (Policy(allow_home_paths=False), "file:~/a.png", "media.policy.home_path"),
    (Policy(allow_home_paths=False), "/home/me/a.png", OK),
    # media://inbound.
    (Policy(allow_inbound=False), "media://inbound/a.png", "media.policy.inbound"),
    (Policy(allow_inbound=False), "MEDIA://inbound/a.png", "media.policy.inbound"),
    (Policy(allow_inbound=False), "file:media://inbound/a.png", "media.policy.inbound"),
    # Local files at all.
    (Policy(allow_local_files=False), "/srv/a.png", "media.policy.local_file"),
    (Policy(allow_local_files=False), "./a.png", "media.policy.local_file"),
    (Policy(allow_local_files=False), "a.png", "media.policy.local_file"),
    (Policy(allow_local_files=False), "C:\\a.png", "media.policy.local_file"),
    (Policy(allow_local_files=False), "~/a.png", "media.policy.local_file"),
    (Policy(allow_local_files=False), "file:///a.png", "media.policy.local_file"),
    (Policy(allow_local_files=False), "//host/share/a.png", "media.policy.local_file"),
    (Policy(allow_local_files=False), "https://example.com/a.png", OK),
    (Policy(allow_local_files=False), "media://inbound/a.png", OK),
    # The workspace, judged lexically.
    (WS, "/etc/passwd", "media.policy.outside_workspace"),
    (WS, "/srv/wsx/a.png", "media.policy.outside_workspace"),
    (WS, "/srv/ws", "media.policy.outside_workspace"),
    (WS, "/srv/ws/", "media.policy.outside_workspace"),
    (WS, "/SRV/ws/a.png", "media.policy.outside_workspace"),
    (WS, "//srv/ws/a.png", "media.policy.outside_workspace"),
    (WS, "\\srv\\ws\\a.png", "media.policy.outside_workspace"),
    (WS, "~/a.png", "media.policy.outside_workspace"),
    (WS, "C:\\srv\\ws\\a.png", "media.policy.outside_workspace"),
    (WS, "\\\\host\\srv\\ws\\a.png", "media.policy.outside_workspace"),
    (WS, "file:///etc/passwd", "media.policy.outside_workspace"),
    (WS, "file:///srv/ws/%2e%2e/x.png", "media.policy.outside_workspace"),
    (WS, "file:///srv/ws/sub/%2e%2e/%2e%2e/x.png", "media.policy.outside_workspace"),
    (WS, "file://host/srv/ws/a.png", "media.policy.outside_workspace"),
    (WS, "/srv/ws/a.png", OK),
    (WS, "/srv//ws/./sub/a.png", OK),
    (WS, "a.png", OK),
    (WS, "./sub/a.png", OK),
    (WS, "sub\\a.png", OK),
    (WS, "file:///srv/ws/a.png", OK),
    (WS, "file:///srv/ws/sub/%2e%2e/a.png", OK),
    (WS, "https://example.com/a.png", OK),
    (Policy(workspace_root="C:\\ws"), "c:/ws/a.png", OK),
    (Policy(workspace_root="C:\\ws"), "C:\\wsx\\a.png", "media.policy.outside_workspace"),
    (Policy(workspace_root="~/media"), "~/media/a.png", OK),
    (Policy(workspace_root="~/media"), "~/.ssh/id_rsa", "media.policy.outside_workspace"),
    # Denied hosts: ASCII case-insensitive on the WHATWG-serialised hostname.
    (DENY, "https://a.corp.example/x.png", "media.policy.host_denied"),
    (DENY, "https://b.a.corp.example/x.png", "media.policy.host_denied"),
    (DENY, "https://A.CORP.EXAMPLE/x.png", "media.policy.host_denied"),
    (DENY, "https://a.corp.example./x.png", "media.policy.host_denied"),
    (DENY, "https://a%2ecorp.example/x.png", "media.policy.host_denied"),
    (DENY, "https://evil.example/x.png", "media.policy.host_denied"),
    (DENY, "https://evil.example:443/x.png", "media.policy.host_denied"),
    (DENY, "https://evil.example\\@good.example/x.png", "media.policy.host_denied"),
    (DENY, "https://\uff45\uff56\uff49\uff4c.example/x.png", "media.policy.host_denied"),
    (DENY, "https://evil\u3002example/x.png", "media.policy.host_denied"),
    (DENY, "file:https://evil.example/x.png", "media.policy.host_denied"),
    (DENY, "https://corp.example/x.png", OK),
    (DENY, "https://notevil.example/x.png", OK),
    (DENY, "https://evil.example.com/x.png", OK),
    (DENY, "/srv/evil.example/x.png", OK),
    # Allowed hosts.
    (ALLOW, "https://example.com/x.png", "media.policy.host_not_allowed"),
    (ALLOW, "https://cdn.example.com.evil.io/x.png", "media.policy.host_not_allowed"),
    (ALLOW, "https://evilcdn.example.com/x.png", "media.policy.host_not_allowed"),
    (ALLOW, "https://media.example/x.png", "media.policy.host_not_allowed"),
    (ALLOW, "https://cdn.example.com@evil.io/x.png", None),  # baseline: credentials
    (ALLOW, "https://CDN.Example.COM/x.png", OK),
    (ALLOW, "https://cdn.example.com./x.png", OK),
    (ALLOW, "https://a.media.example/x.png", OK),
    (ALLOW, "/srv/a.png", OK),
    (Policy(allow_hosts=[]), "https://example.com/x.png", "media.policy.host_not_allowed"),
    (
        Policy(allow_hosts=["example.com"], deny_hosts=["example.com"]),
        "https://example.com/x.png",
        "media.policy.host_denied",
    ),
]


def _rid(row: tuple[Policy, str, str | None]) -> str:
    return f"{row[0].to_wire()}-{row[1]!r}"


def test_every_code_has_a_bypass_row() -> None:
    assert {code for _, _, code in RULE_TABLE if code and code != OK} == POLICY_CODES
    assert all(code.startswith("media.policy.") for code in POLICY_CODES)


@pytest.mark.parametrize("profile", BOTH)
@pytest.mark.parametrize("row", RULE_TABLE, ids=_rid)
def test_rule_table(row: tuple[Policy, str, str | None], profile: str) -> None:
    policy, ref, code = row
    text = "Hi\nMEDIA:" + ref
    base = richout.split_media(text, profile=profile)
    got = richout.split_media(text, profile=profile, policy=policy, explain=True)
    if code is None or base.media_urls != [ref]:
        # Not accepted by this profile's baseline: the policy has nothing to narrow.
        assert got.to_wire() == richout.split_media(text, profile=profile, explain=True).to_wire()
        return
    codes = [d.code for d in got.diagnostics if d.code.startswith("media.policy.")]
    assert policy.check(ref).code == (None if code == OK else code)
    if code == OK:
        assert got.media_urls == [ref]
        assert codes == []
        return
    assert got.media_urls == []
    assert codes == [code]
    (diag,) = [d for d in got.diagnostics if d.code == code]
    assert diag.severity == "error"
    assert "policy " in diag.message
    if profile == NEXT:
        assert got.rejected_media_count == base.rejected_media_count + 1
        assert got.text == "Hi"
        assert "counted in rejected_media_count" in diag.message
    else:
        assert got.rejected_media_count == 0
        if got.text == "Hi":
            assert "looks like a local path" in diag.message
        else:
            assert got.text == text
            assert "stayed visible" in diag.message


# --------------------------------------------------------------------------- narrowing proof


def _hostile_references() -> list[str]:
    refs = [c for c, _, _ in REMOTE_TABLE]
    refs += [c for c, _, _ in LOCAL_TABLE + INBOUND_TABLE]
    refs += [f"https://{h}/a.png" for h, _ in HOSTNAME_TABLE]
    refs += [ref for _, ref, _ in RULE_TABLE]
    return sorted(set(refs))


HOSTILE = _hostile_references()

_HOSTS = ["example.com", "*.example.com", "*.corp.example", "evil.example", "8.8.8.8", "[::1]"]
_ROOTS = [None, "/srv", "/srv/ws", "/", "C:\\ws", "\\\\host\\share", "~/media", "~"]

policies = st.builds(
    Policy,
    workspace_root=st.sampled_from(_ROOTS),
    allow_hosts=st.none() | st.lists(st.sampled_from(_HOSTS), max_size=3),
    deny_hosts=st.lists(st.sampled_from(_HOSTS), max_size=3),
    allow_home_paths=st.booleans(),
    allow_unc_paths=st.booleans(),
    allow_file_urls=st.booleans(),
    allow_inbound=st.booleans(),
    allow_local_files=st.booleans(),
    allow_control_characters=st.booleans(),
    allow_protocol_relative=st.booleans(),
    allow_encoded_traversal=st.booleans(),
    allow_file_url_hosts=st.booleans(),
    allow_ip_hosts=st.booleans(),
) | st.just(STRICT)


def _is_subsequence(small: list[str], big: list[str]) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def test_hostile_set_is_large() -> None:
    assert len(HOSTILE) >= 300


_BASELINE: dict[tuple[str, str], richout.MediaSplit] = {}


def _baseline(text: str, profile: str) -> richout.MediaSplit:
    key = (text, profile)
    if key not in _BASELINE:
        _BASELINE[key] = richout.split_media(text, profile=profile)
    return _BASELINE[key]


@pytest.mark.parametrize("profile", BOTH)
@settings(max_examples=25, deadline=None)
@given(policy=policies)
def test_no_policy_accepts_what_the_baseline_rejects(policy: Policy, profile: str) -> None:
    for ref in HOSTILE:
        for text in ("MEDIA:" + ref, f'MEDIA:"{ref}"'):
            base = _baseline(text, profile)
            got = richout.split_media(text, profile=profile, policy=policy)
            assert _is_subsequence(got.media_urls, base.media_urls), (ref, policy)
            assert got.rejected_media_count >= base.rejected_media_count


@pytest.mark.parametrize("profile", BOTH)
@settings(max_examples=100, deadline=None)
@given(
    policy=policies,
    refs=st.lists(st.sampled_from(HOSTILE), min_size=1, max_size=4),
    seps=st.lists(st.sampled_from([" ", "\nMEDIA:", "\n", ", ", "\nMEDIA: "]), min_size=4),
    quoted=st.booleans(),
    images=st.booleans(),
)
def test_narrowing_on_mixed_payloads(
    profile: str, *, policy: Policy, refs: list[str], seps: list[str], quoted: bool, images: bool
) -> None:
    parts = [f'"{r}"' if quoted else r for r in refs]
    text = "Intro\nMEDIA:" + "".join(p + s for p, s in zip(parts, seps, strict=False))
    text += "".join(f"\n![x]({r})" for r in refs) if images else ""
    kw = {"profile": profile, "extract_markdown_images": images}
    base = richout.split_media(text, **kw)  # type: ignore[arg-type]
    got = richout.split_media(text, policy=policy, **kw)  # type: ignore[arg-type]
    assert _is_subsequence(got.media_urls, base.media_urls)
    assert all(policy.check(u).ok for u in got.media_urls)
    if profile == RELEASE:
        assert got.rejected_media_count == base.rejected_media_count == 0
    reply = richout.parse_reply(text, policy=policy, **kw)  # type: ignore[arg-type]
    assert _is_subsequence(
        reply.media_urls,
        richout.parse_reply(text, **kw).media_urls,  # type: ignore[arg-type]
    )
    # Lazy and eager agree with a policy too, and the input can be rebuilt.
    eager = richout.split_media(text, policy=policy, explain=True, **kw)  # type: ignore[arg-type]
    assert got.to_wire() == eager.to_wire()
    assert richout.rebuild(eager) == text


@pytest.mark.parametrize("profile", BOTH)
def test_the_default_policy_changes_nothing(profile: str) -> None:
    for ref in HOSTILE:
        text = "Hi\nMEDIA:" + ref + "\n![a](" + ref + ")"
        for images in (False, True):
            base = richout.split_media(
                text, profile=profile, extract_markdown_images=images, explain=True
            )
            got = richout.split_media(
                text, profile=profile, extract_markdown_images=images, explain=True, policy=Policy()
            )
            assert got.to_wire() == base.to_wire()


# --------------------------------------------------------------------------- text and count


def test_next_hides_and_counts_a_narrowed_part_beside_an_accepted_one() -> None:
    text = "See\nMEDIA:/srv/ws/a.png /etc/passwd"
    got = richout.split_media(text, policy=WS, explain=True)
    assert got.media_urls == ["/srv/ws/a.png"]
    assert got.rejected_media_count == 1
    assert got.text == "See"
    (d,) = [d for d in got.diagnostics if d.code == "media.policy.outside_workspace"]
    assert text[d.start : d.end] == "/etc/passwd"


def test_release_leaves_a_narrowed_part_visible_beside_an_accepted_one() -> None:
    text = "See\nMEDIA:/srv/ws/a.png /etc/passwd"
    got = richout.split_media(text, policy=WS, profile=RELEASE, explain=True)
    assert got.media_urls == ["/srv/ws/a.png"]
    assert got.rejected_media_count == 0
    assert got.text == "See\n/etc/passwd"
    (d,) = [d for d in got.diagnostics if d.code == "media.policy.outside_workspace"]
    assert "stays visible as text" in d.message


def test_release_keeps_a_remote_line_and_removes_a_local_one() -> None:
    remote = richout.split_media(
        "Hi\nMEDIA:https://evil.example/a.png", policy=DENY, profile=RELEASE
    )
    assert remote.text == "Hi\nMEDIA:https://evil.example/a.png"
    local = richout.split_media("Hi\nMEDIA:/etc/passwd", policy=WS, profile=RELEASE)
    assert local.text == "Hi"
    assert local.media_urls == []


def test_parse_reply_render_reply_and_streaming_take_the_policy() -> None:
    text = "[[reply_to_current]] Hi\nMEDIA:https://a.corp.example/x.png\nMEDIA:https://ok.example/y.png"
    reply = richout.parse_reply(text, policy=DENY, current_message_id="m1")
    assert reply.media_urls == ["https://ok.example/y.png"]
    assert reply.rejected_media_count == 1
    assert reply.reply_to_id == "m1"
    assert "media.policy.host_denied" in [d.code for d in reply.diagnostics]
    release = richout.parse_reply(text, policy=DENY, profile=RELEASE, explain=True)
    assert release.media_urls == ["https://ok.example/y.png"]
    assert "media.policy.host_denied" in [d.code for d in release.diagnostics]
    view = richout.render_reply(text, policy=DENY)
    assert [a["url"] for a in view.to_wire()["attachments"]] == ["https://ok.example/y.png"]
    assert "media.policy.host_denied" in [d.code for d in view.diagnostics]
    sp = richout.StreamingParser(policy=DENY)
    sp.feed(text)
    sp.finish()
    assert sp.result().media_urls == ["https://ok.example/y.png"]


def test_markdown_images_are_filtered_and_stay_in_the_text() -> None:
    text = "Look ![a](https://a.corp.example/x.png) and ![b](https://ok.example/y.png)"
    got = richout.split_media(text, extract_markdown_images=True, policy=DENY, explain=True)
    assert got.media_urls == ["https://ok.example/y.png"]
    assert "![a](https://a.corp.example/x.png)" in got.text
    assert got.rejected_media_count == 0
    codes = [d.code for d in got.diagnostics]
    assert "media.policy.host_denied" in codes
    assert "media.image.not_lifted" not in codes
    allow = richout.split_media(
        "![a](https://a.corp.example/x.png)",
        markdown_image_allowlist=["https://a.corp.example/x.png"],
        policy=DENY,
    )
    assert allow.media_urls == []


def test_functions_without_references_take_no_policy() -> None:
    with pytest.raises(TypeError):
        richout.parse_directives("x", policy=STRICT)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        richout.extract_embeds("x", policy=STRICT)  # type: ignore[call-arg]


# --------------------------------------------------------------------------- the Policy value


def test_policy_is_a_frozen_hashable_value() -> None:
    p = Policy(deny_hosts=["*.corp.example"])
    assert p == Policy(deny_hosts=("*.corp.example",))
    assert hash(p) == hash(Policy(deny_hosts=["*.corp.example"]))
    assert p.deny_hosts == ("*.corp.example",)
    with pytest.raises(FrozenInstanceError):
        p.allow_inbound = False  # type: ignore[misc]
    assert Policy.strict(workspace_root="/srv").workspace_root == "/srv"
    assert Policy.strict().to_wire() == {
        "allowUncPaths": False,
        "allowControlCharacters": False,
        "allowProtocolRelative": False,
        "allowEncodedTraversal": False,
        "allowFileUrlHosts": False,
        "allowIpHosts": False,
    }


@pytest.mark.parametrize(
    "kwargs",
    [
        {"workspace_root": "srv/ws"},
        {"workspace_root": "/srv/../.."},
        {"workspace_root": 3},
        {"deny_hosts": "example.com"},
        {"deny_hosts": ["exa mple.com"]},
        {"deny_hosts": ["*"]},
        {"allow_hosts": ["example.com/x"]},
        {"allow_hosts": ["a.*.example"]},
        {"allow_hosts": ["user@example.com"]},
        {"allow_ip_hosts": "no"},
    ],
)
def test_bad_policies_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidInput):
        Policy(**kwargs)  # type: ignore[arg-type]


def test_policy_argument_is_type_checked() -> None:
    with pytest.raises(InvalidInput):
        richout.split_media("MEDIA:/a.png", policy="strict")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        richout.StreamingParser(policy={"strict": True})  # type: ignore[arg-type]


def test_from_mapping_names_the_known_keys() -> None:
    assert Policy.from_mapping({"strict": True, "allowIpHosts": True}, wire=True) == Policy.strict(
        allow_ip_hosts=True
    )
    assert Policy.from_mapping({"workspace_root": "/srv"}) == Policy(workspace_root="/srv")
    with pytest.raises(InvalidOptions, match="known keys: strict, workspaceRoot"):
        Policy.from_mapping({"workspace_root": "/srv"}, wire=True)
    with pytest.raises(InvalidOptions, match="allowHosts"):
        Policy.from_mapping({"allowHosts": "x"}, wire=True)


# --------------------------------------------------------------------------- jsonl and CLI


def test_jsonl_options_policy() -> None:
    opts = {"policy": {"strict": True, "workspaceRoot": "/srv/ws"}}
    out = OPS["media"]("MEDIA:/etc/passwd\nMEDIA:/srv/ws/a.png", opts)
    assert out["mediaUrls"] == ["/srv/ws/a.png"]
    assert out["rejectedMediaCount"] == 1
    out = OPS["reply"]("MEDIA:https://8.8.8.8/a.png", {"policy": {"strict": True}})
    assert "mediaUrls" not in out or out["mediaUrls"] == []
    out = OPS["render"](
        "MEDIA:https://a.corp.example/a.png", {"policy": {"denyHosts": ["*.corp.example"]}}
    )
    assert out["attachments"] == []
    with pytest.raises(InvalidOptions, match="known keys"):
        OPS["media"]("x", {"policy": {"bogus": 1}})
    with pytest.raises(InvalidOptions):
        OPS["media"]("x", {"policy": ["strict"]})
    for op in ("directives", "embed"):
        with pytest.raises(InvalidOptions, match="does not take"):
            OPS[op]("x", {"policy": {}})


def test_cli_policy_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reply = tmp_path / "r.md"
    reply.write_text("Hi\nMEDIA:/etc/passwd\nMEDIA:/srv/ws/a.png\n", encoding="utf-8")
    toml = tmp_path / "p.toml"
    toml.write_text('strict = true\nworkspace_root = "/srv/ws"\n', encoding="utf-8")
    assert main(["parse", str(reply), "--policy", str(toml)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mediaUrls"] == ["/srv/ws/a.png"]
    assert out["rejectedMediaCount"] == 1
    assert main(["render", str(reply), "--policy", str(toml)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [a["url"] for a in out["attachments"]] == ["/srv/ws/a.png"]
    toml.write_text("workspaceRoot = 1\n", encoding="utf-8")
    assert main(["parse", str(reply), "--policy", str(toml)]) == 2
    assert "known keys: strict, workspace_root" in capsys.readouterr().err
    toml.write_text("strict = [\n", encoding="utf-8")
    assert main(["parse", str(reply), "--policy", str(toml)]) == 2
    assert "not valid TOML" in capsys.readouterr().err


@pytest.mark.parametrize("profile", BOTH)
@pytest.mark.parametrize(
    "line",
    [
        "MEDIA:/tmp/a.png https://cdn.example/b.png",  # one part refused, one kept
        "MEDIA:/tmp/a.png /tmp/b.png",  # every part refused
        'MEDIA:"/tmp/a b.png"',  # an unwrapped value refused
    ],
)
def test_a_line_met_again_is_narrowed_again(profile: str, line: str) -> None:
    """The judge reads a payload once a reply and returns its record again for the same
    payload; the policy narrows every line, so the tenth copy of a line is refused, counted
    and explained as the first is (narrowing the kept record changed later lines)."""
    policy = Policy(allow_local_files=False)
    one = richout.parse_reply(line, policy=policy, profile=profile, explain=True)
    many = richout.parse_reply("\n".join([line] * 10), policy=policy, profile=profile, explain=True)
    assert one.diagnostics, "the policy refuses something on the line"
    assert many.rejected_media_count == 10 * one.rejected_media_count
    assert many.media_urls == 10 * one.media_urls
    assert many.text == ("\n".join([one.text] * 10) if one.text else "")
    shape = [(d.code, d.column, d.message) for d in one.diagnostics]
    for n in range(1, 11):
        assert [(d.code, d.column, d.message) for d in many.diagnostics if d.line == n] == shape
