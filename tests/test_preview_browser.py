"""The preview page in a real browser: headless Chromium from the OS packages, via playwright.

CI installs Debian's ``chromium`` (``.ci/run``); playwright drives it through
``executable_path`` (``playwright install`` is never run: browser downloads are not
available). Without ``/usr/bin/chromium`` the tests skip on a workstation, but fail when the
``CI`` environment variable is set: CI must run them. The first test saves
``artifacts/preview.png``, CI's screenshot artifact.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from richout.gateway.preview import PreviewItem, preview_html

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"

if not CHROMIUM.exists():
    if os.environ.get("CI"):
        pytest.fail(
            f"CI is set but {CHROMIUM} is missing: the browser tests must run in CI. "
            "Install Debian's chromium (apt-get install -y chromium); .ci/run does.",
            pytrace=False,
        )
    pytest.skip(
        f"{CHROMIUM} not installed (apt-get install chromium); CI runs these tests",
        allow_module_level=True,
    )

if os.environ.get("CI"):  # in CI a missing playwright is an error, not a skip
    from playwright import sync_api
else:
    sync_api = pytest.importorskip("playwright.sync_api")

HOSTILE = (
    "[[reply_to_current]] <script>window.__pwned=1</script> and "
    '<img src=x onerror="window.__pwned=1"> and <svg onload="window.__pwned=1"></svg>\n'
    'MEDIA:https://example.com/a.png"><img src=x onerror="window.__pwned=1">\n'
    "MEDIA:https://example.com/chart.png\n"
    '[embed url="javascript:window.__pwned=1" title="\\"><img src=x onerror=alert(1)>" /]\n'
    "Flip: abc\u202egnp.exe\u202c</style><script>alert(1)</script>"
)

REPLIES = [
    PreviewItem(
        "[[reply_to_current]] Here is the Q3 chart.\n"
        "MEDIA:https://example.com/q3.png\n"
        "MEDIA:http://intranet/secret.png\n"
        '[embed ref="cv_status" title="Status board" height="320" /]',
        current_message_id="msg-42",
        label="chart",
    ),
    PreviewItem("[[audio_as_voice]]\nMEDIA:/srv/voice/note.ogg\nListen to this.", label="voice"),
    PreviewItem(HOSTILE, label="hostile"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


@dataclass
class Opened:
    """A loaded page and what it tried to do: dialogs opened, URLs requested."""

    page: Any
    dialogs: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def network(self) -> list[str]:
        """Requests beyond the page's own file."""
        return [u for u in self.requests if not u.startswith("file:")]


@pytest.fixture
def open_page(browser: Any, tmp_path: Path) -> Iterator[Callable[[str], Opened]]:
    """Open generated HTML from a file:// URL, recording dialogs and requests."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})

    def load(html: str) -> Opened:
        path = tmp_path / "preview.html"
        path.write_text(html, encoding="utf-8")
        opened = Opened(context.new_page())

        def on_dialog(dialog: Any) -> None:
            opened.dialogs.append(dialog.message)
            dialog.dismiss()

        opened.page.on("dialog", on_dialog)
        opened.page.on("request", lambda req: opened.requests.append(req.url))
        opened.page.goto(path.as_uri())
        return opened

    yield load
    context.close()


def test_rendered_dom_attachments_highlights_pill_and_screenshot(
    open_page: Callable[[str], Opened],
) -> None:
    opened = open_page(preview_html(REPLIES, title="richout preview: browser test"))
    page = opened.page
    chart = page.locator("#reply-1")
    # The WebChat view: reply pill, attachments, canvas card (shown, not loaded).
    assert chart.locator(".webchat .reply-pill").inner_text() == "↩ replying to the current message"
    attachments = chart.locator(".webchat li.attachment").all_inner_texts()
    # (kind and source badges come first when the attachment records carry them)
    assert len(attachments) == 1 and attachments[0].endswith("https://example.com/q3.png")
    card = chart.locator(".canvas-card")
    assert "/__openclaw__/canvas/documents/cv_status/index.html" in card.inner_text()
    assert "320 px" in card.inner_text()
    assert page.locator("iframe, img, object, embed").count() == 0
    # The delivery view resolves the current message id and counts the rejected reference.
    delivery = chart.locator(".delivery")
    assert "msg-42" in delivery.inner_text()
    assert chart.get_attribute("data-rejected") == "1"
    assert page.locator("section.reply").first.get_attribute("id") == "reply-1"

    # Highlights carry their messages; the tip is hidden until hover or focus.
    error = chart.locator('pre.source mark.hl.error[data-codes~="media.remote.not_https"]')
    assert error.count() == 1
    tip = error.locator(".tip")
    assert not tip.is_visible()
    error.focus()
    assert tip.is_visible()
    assert "media.remote.not_https" in tip.inner_text()
    assert "https" in tip.inner_text()
    span = chart.locator('pre.source mark.hl[data-spans~="media"]').first
    span.hover()
    assert span.locator(".tip").is_visible()
    page.mouse.move(0, 0)  # no hover left over: the screenshot shows the focused message
    error.focus()

    # The page's own stylesheet applied (allowed by its CSP hash).
    colour = error.evaluate("el => getComputedStyle(el).backgroundColor")
    assert colour == "rgb(253, 226, 225)"
    voice = page.locator("#reply-2")
    assert voice.locator(".webchat .voice").inner_text() == "voice note"

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "preview.png"), full_page=True)
    assert opened.dialogs == []
    assert opened.network() == []


def test_hostile_reply_runs_nothing_and_shows_as_text(open_page: Callable[[str], Opened]) -> None:
    opened = open_page(preview_html([HOSTILE]))
    page = opened.page
    page.locator("pre.source mark.hl").first.hover()
    for mark in page.locator("pre.source mark.hl").all():
        mark.focus()
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert opened.dialogs == []
    assert page.locator("script, img, svg, iframe").count() == 0
    assert opened.network() == []
    source = page.locator("pre.source").inner_text()
    assert "<script>window.__pwned=1</script>" in source
    assert '<img src=x onerror="window.__pwned=1">' in source
    # The RLO is a visible badge, so the text reads in the order it was written.
    assert "abcRLOgnp.exe" in source.replace("\n", "")
    card = page.locator(".canvas-card")
    assert "javascript:window.__pwned=1" in card.inner_text()
    assert "never loaded" in card.inner_text()
    # A script injected after load is still refused by the page's CSP.
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.__pwned = 2'; document.body.appendChild(s); }"
    )
    assert page.evaluate("typeof window.__pwned") == "undefined"


def test_jsonl_summary_in_the_browser(open_page: Callable[[str], Opened]) -> None:
    items = [
        PreviewItem("fine", label="line 1"),
        PreviewItem("MEDIA:http://a.example/x.png", label="line 2"),
    ]
    page = open_page(preview_html(items)).page
    assert page.locator("section.reply").evaluate_all("els => els.map(e => e.id)") == [
        "reply-2",
        "reply-1",
    ]
    row = page.locator('tr[data-code="media.remote.not_https"]')
    assert row.locator("td.n").all_inner_texts() == ["1", "1"]
    page.locator('a[href="#reply-2"]').click()
    assert page.evaluate("location.hash") == "#reply-2"
