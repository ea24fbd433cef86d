"""The preview page's HTML: escaping, CSP, no assets, highlights, the --jsonl summary."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from richout.errors import InvalidInput, InvalidOptions
from richout.faces.cli import main
from richout.gateway.preview import CSP, PreviewItem, preview_html, read_jsonl

# Every element and attribute the page may contain: anything else came from a reply.
TAGS = {
    "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "section",
    "div", "span", "pre", "mark", "b", "table", "thead", "tbody", "tr", "th", "td", "ul",
    "ol", "li", "a", "dl", "dt", "dd", "details", "summary",
}  # fmt: skip
ATTRS = {
    "lang", "charset", "http-equiv", "content", "name", "class", "id", "title", "tabindex",
    "role", "href", "data-codes", "data-spans", "data-kind", "data-height", "data-rejected",
    "data-replies", "data-rejected-replies", "data-code",
}  # fmt: skip


class Page(HTMLParser):
    """Collects the parsed structure a browser would build from the page."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.shown: list[str] = []  # text outside the hover tips: what a reader sees
        self._open: list[tuple[str, bool]] = []  # element, inside a tip
        self.style = ""
        self._in_style = False
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_style = tag == "style"
        if tag != "meta":
            in_tip = bool(self._open and self._open[-1][1]) or dict(attrs).get("class") == "tip"
            self._open.append((tag, in_tip))

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False
        while self._open and self._open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.style += data
        else:
            self.text.append(data)
            if not (self._open and self._open[-1][1]):
                self.shown.append(data)

    def attr_values(self, name: str) -> list[str]:
        return [a[name] or "" for _, a in self.tags if name in a]


def assert_inert(page: str) -> Page:
    parsed = Page(page)
    for tag, attrs in parsed.tags:
        assert tag in TAGS, tag
        for name in attrs:
            assert name in ATTRS, (tag, name)
    assert all(v.startswith("#reply-") for v in parsed.attr_values("href"))
    page.encode("utf-8")  # lone surrogates were replaced, so the page can be written
    return parsed


HOSTILE = [
    ("script tag", "<script>window.__pwned=1</script>", "<script>window.__pwned=1</script>"),
    ("img onerror", '<img src=x onerror="window.__pwned=1">', "onerror="),
    ("attribute breakout in MEDIA", 'MEDIA:https://example.com/a.png"><img src=x onerror=alert(1)>',
     '"><img src=x onerror=alert(1)>'),
    ("javascript embed", '[embed url="javascript:window.__pwned=1" /]',
     "javascript:window.__pwned=1"),
    ("breakout in embed title", '[embed ref="cv_1" title="\\"><svg onload=alert(1)>" /]', "<svg"),
    ("breakout in reply id", "[[reply_to:\"><script>x</script>]] hi",
     'replying to message "><script>x</script>'),
    ("style breakout", "</style><script>alert(1)</script>", "</style><script>"),
    ("comment and cdata", "<!-- x --><![CDATA[ y ]]>", "<!-- x -->"),
    ("entity", "&lt;script&gt; &amp; &#x3c;", "&lt;script&gt;"),
    ("base and meta refresh", '<base href="https://evil.example/"><meta http-equiv=refresh>',
     "<base"),
    ("iframe", '<iframe src="https://evil.example"></iframe>', "<iframe"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "reply", "shown"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_replies_are_text_not_markup(name: str, reply: str, shown: str) -> None:
    page = preview_html([reply])
    parsed = assert_inert(page)
    # What the reply wrote comes back as text a reviewer reads, never as elements.
    assert shown in "".join(parsed.shown)


def test_bidi_and_invisible_characters_are_shown_as_badges() -> None:
    reply = "abc\u202egnp.exe\u202c x\u200by\u2066z\u2069 \x1b[31m \ud800 end\r\nMEDIA:/a\u202e.png"
    page = preview_html([reply])
    parsed = assert_inert(page)
    for raw in ("\u202e", "\u202c", "\u200b", "\u2066", "\u2069", "\x1b", "\ud800", "\r"):
        assert raw not in page
    text = "".join(parsed.text)
    for badge in ("RLO", "U+202C", "U+200B", "U+2066", "U+2069", "ESC", "U+D800", "CR"):
        assert badge in text
    # Attribute values spell the characters out too (the reference is not in one here, but
    # the badge's own title is).
    assert "U+202E" in parsed.attr_values("title")


def test_csp_meta_forbids_everything_but_the_pages_own_stylesheet() -> None:
    page = preview_html(["Hi [[reply_to_current]]"])
    parsed = Page(page)
    metas = [a for t, a in parsed.tags if t == "meta" and a.get("http-equiv")]
    assert [m["http-equiv"] for m in metas] == ["Content-Security-Policy"]
    csp = metas[0]["content"]
    assert csp == CSP
    directives = dict(d.strip().split(" ", 1) for d in (csp or "").split(";"))
    assert directives["default-src"] == "'none'"
    assert "unsafe-inline" not in csp and "script-src" not in directives
    digest = base64.b64encode(hashlib.sha256(parsed.style.encode()).digest()).decode()
    assert directives["style-src"] == f"'sha256-{digest}'"
    # The CSP meta comes before anything it has to govern.
    assert page.index("Content-Security-Policy") < page.index("<style>")


def test_no_scripts_assets_or_network_references() -> None:
    page = preview_html(["Plain text [[audio_as_voice]]\nMEDIA:/srv/a.ogg"])
    parsed = assert_inert(page)
    assert "<script" not in page.lower()
    assert not re.search(r"https?://", page)  # nothing of the page's own points anywhere
    assert "url(" not in parsed.style and "@import" not in parsed.style
    assert not parsed.attr_values("src")
    assert not [t for t, _ in parsed.tags if t in ("link", "img", "iframe", "object", "embed")]


def test_reply_urls_appear_only_as_text() -> None:
    page = preview_html(['MEDIA:https://example.com/a.png\n[embed url="https://b.example/x" /]'])
    parsed = assert_inert(page)
    text = "".join(parsed.text)
    assert "https://example.com/a.png" in text and "https://b.example/x" in text
    assert "allowExternalEmbedUrls" in text  # the card says whether the Control UI frames it


def test_views_highlights_and_canvas_card() -> None:
    reply = (
        "[[reply_to_current]] Here is the chart.\nMEDIA:https://example.com/q3.png\n"
        'MEDIA:http://intranet/x.png\n[embed ref="cv_1" title="Status" height="320" /]'
    )
    page = preview_html([reply], current_message_id="m-42")
    parsed = assert_inert(page)
    codes = " ".join(parsed.attr_values("data-codes")).split()
    assert {
        "media.remote.not_https",
        "media.line_removed",
        "embed.not_rendered_on_delivery",
    } <= set(codes)
    spans = set(" ".join(parsed.attr_values("data-spans")).split())
    assert {"reply_tag", "media", "embed"} <= spans
    # Every highlight can take focus, so the keyboard reaches each message.
    marks = [a for t, a in parsed.tags if t == "mark" and "tabindex" in a]
    assert marks and all(a["tabindex"] == "0" for a in marks)
    text = "".join(parsed.text)
    assert "replying to the current message" in text  # the WebChat reply pill
    assert "m-42" in text  # the delivery view's target
    assert "/__openclaw__/canvas/documents/cv_1/index.html" in text
    assert "320 px" in text
    assert "canvas path: the Control UI frames it" in text
    assert parsed.attr_values("data-rejected") == ["1"]


def test_javascript_canvas_url_is_a_card_without_a_frame() -> None:
    page = preview_html(['[embed url="javascript:alert(1)" title="x" /]'])
    text = "".join(assert_inert(page).text)
    assert "javascript:alert(1)" in text and "never loaded" in text


def test_zero_width_and_overlapping_findings_are_all_reachable() -> None:
    # A warning over a MEDIA line overlaps the honoured span inside it; an empty payload
    # diagnostic can sit at one point. Each finding is on some highlight.
    reply = "**MEDIA:https://example.com/a.png**\nMEDIA:\nMEDIA:https://example.com/b.png"
    page = preview_html([reply])
    parsed = assert_inert(page)
    from richout import parse_reply, render_reply

    want = {d.code for d in parse_reply(reply, explain=True).diagnostics}
    want |= {d.code for d in render_reply(reply, explain=True).diagnostics}
    codes = set(" ".join(parsed.attr_values("data-codes")).split())
    assert want and want <= codes


def test_summary_counts_codes_and_puts_rejected_replies_first() -> None:
    items = [
        PreviewItem("Plain.", label="line 1"),
        PreviewItem("MEDIA:http://a.example/x.png\nMEDIA:http://b.example/y.png", label="line 2"),
        PreviewItem("Hi [[reply_to_current]]", current_message_id="m1", label="line 3"),
        PreviewItem("MEDIA:http://c.example/z.png", label="line 4"),
    ]
    page = preview_html(items)
    parsed = assert_inert(page)
    sections = [a["id"] for t, a in parsed.tags if t == "section"]
    assert sections == ["summary", "reply-2", "reply-4", "reply-1", "reply-3"]
    totals = next(a for t, a in parsed.tags if a.get("class") == "totals")
    assert totals["data-replies"] == "4" and totals["data-rejected-replies"] == "2"
    rows = re.findall(
        r'<tr data-code="([^"]+)">.*?<td class="n">(\d+)</td><td class="n">(\d+)</td>', page
    )
    counts = {code: (int(n), int(r)) for code, n, r in rows}
    assert counts["media.remote.not_https"] == (3, 2)
    assert counts["media.line_removed"] == (3, 2)


def test_read_jsonl_lines_and_errors() -> None:
    text = '"plain"\n\n{"text": "x", "currentMessageId": "m", "profile": "release-2026.9.6"}\r\n'
    text += json.dumps({"text": "a\u2028b"}, ensure_ascii=False) + "\n"
    items = read_jsonl(text)
    assert items == [
        PreviewItem("plain", label="line 1"),
        PreviewItem("x", "m", "release-2026.9.6", "line 3"),
        PreviewItem("a\u2028b", label="line 4"),
    ]
    for bad, words in [
        ("{", "line 1: not JSON"),
        ("[1]", "line 1: expected a JSON string"),
        ('"a"\n{"text": "x", "extra": 1}', "line 2: unknown keys 'extra'"),
        ('{"text": "x", "profile": "nope"}', "line 1: unknown profile"),
        ('{"text": "x", "currentMessageId": 5}', "currentMessageId"),
    ]:
        with pytest.raises(InvalidInput, match=re.escape(words)):
            read_jsonl(bad)


def test_preview_html_checks_its_arguments() -> None:
    with pytest.raises(InvalidInput):
        preview_html([b"bytes"])  # type: ignore[list-item]
    with pytest.raises(InvalidOptions):
        preview_html(["x"], profile="nope")


def test_cli_preview_file_jsonl_and_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reply = tmp_path / "reply.md"
    reply.write_text("Hi [[reply_to:7]]\nMEDIA:http://x.example/a.png\n", encoding="utf-8")
    out = tmp_path / "page.html"
    assert main(["preview", str(reply), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "replying to message 7" in page and "reply.md" in page
    assert_inert(page)

    lines = tmp_path / "t.jsonl"
    lines.write_text('"one"\n{"text": "MEDIA:http://x.example/a.png"}\n', encoding="utf-8")
    assert main(["preview", "--jsonl", str(lines), "--profile", "release-2026.9.6"]) == 0
    page = capsys.readouterr().out
    assert 'data-replies="2"' in page and "profile release-2026.9.6" in page

    lines.write_text('"one"\n{"txt": 1}\n', encoding="utf-8")
    assert main(["preview", "--jsonl", str(lines)]) == 2
    assert "line 2" in capsys.readouterr().err
    assert main(["preview", str(reply), "--jsonl", str(lines)]) == 2


def test_a_policy_narrows_both_views_and_is_named_on_the_page() -> None:
    from richout import Policy

    reply = "MEDIA:/etc/passwd\nMEDIA:/srv/ws/a.png"
    page = preview_html([reply], policy=Policy(workspace_root="/srv/ws"))
    parsed = assert_inert(page)
    assert "media.policy.outside_workspace" in " ".join(parsed.attr_values("data-codes"))
    assert parsed.attr_values("data-rejected") == ["1"]
    assert '{"workspaceRoot": "/srv/ws"}' in "".join(parsed.shown)
    assert "reference policy" in "".join(Page(preview_html([reply])).shown)


def test_cli_preview_policy_file(tmp_path: Path) -> None:
    reply = tmp_path / "reply.md"
    reply.write_text("MEDIA:/etc/passwd\nMEDIA:/srv/ws/a.png\n", encoding="utf-8")
    policy = tmp_path / "policy.toml"
    policy.write_text('workspace_root = "/srv/ws"\n', encoding="utf-8")
    out = tmp_path / "page.html"
    assert main(["preview", str(reply), "--policy", str(policy), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "media.policy.outside_workspace" in page and 'data-rejected="1"' in page
    policy.write_text("no_such_key = 1\n", encoding="utf-8")
    assert main(["preview", str(reply), "--policy", str(policy), "-o", str(out)]) == 2
