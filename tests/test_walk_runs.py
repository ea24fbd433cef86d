"""The line walk's run of plain directive lines (``Walker._plain_run``) reads as its loop.

After a plain directive line the walk decides the plain lines right after it in a loop of
its own, asking each only its shape and whether it is code before deciding it as the loop
does (``Walker._plain_line``); the walk's loop asks more of every line (the directive head,
rule 1, images, lines joined by a multi-line image). These tests compare every output, lazy
and explained, of the three views and the split with the run taken and with it declining,
on replies made of blocks of directive lines among the lines that must end a run.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fastpaths import _RENDER_OUT, _REPLY_OUT, _SPLIT_OUT, _outputs, _walked

import richout
from richout.media.walk import Walker
from richout.profiles import PROFILES

_LINES = st.sampled_from(
    [
        # accepted by the plain-line shortcut (quiet when explained)
        "MEDIA:/tmp/a.png",
        "MEDIA:/tmp/b.png",
        "MEDIA:`/tmp/c.png`",
        "MEDIA:https://example.com/d.png",
        "  MEDIA:./e.mp3",
        # plain in shape but refused, or with something to say when explained
        "MEDIA:https://127.0.0.1/f.png",
        "MEDIA:../g.png",
        "MEDIA:/tmp/h.png.",
        "MEDIA:/i/MEDIA:/j",
        "MEDIA:https://other.example/k.png",
        # not plain: the walk's loop decides them
        "MEDIA: /l.png /m.png",
        'MEDIA:"/n o.png"',
        "media: /p.png",
        "MEDIA:",
        "MEDıA:/q.png",
        # lines that hold code or change it
        "```",
        "    MEDIA:/r.png",
        "> MEDIA:/s.png",
        "- MEDIA:/t.png",
        # images (a multi-line image joins lines under profile next)
        "![a](/u.png)",
        "![a",
        "b](/v.png) MEDIA:/w.png",
        # text
        "Here:",
        "",
    ]
)
_BREAK = st.sampled_from(["\n", "\n", "\n", "\r\n", "\r"])


@st.composite
def _replies(draw: st.DrawFn) -> str:
    """Lines joined by drawn breaks, most of them plain accepted lines in blocks."""
    lines = draw(st.lists(_LINES, min_size=1, max_size=10))
    breaks = draw(st.lists(_BREAK, min_size=len(lines), max_size=len(lines)))
    return "".join(line + brk for line, brk in zip(lines, breaks, strict=True))[:-1]


_NARROW = richout.Policy(allow_local_files=True, allow_hosts=["example.com"])


def _everything(text: str, profile: str, policy: richout.Policy | None, images: bool) -> Any:
    """Every output of the split (with ``images``) and the views, lazy and explained."""
    split_kw: dict[str, Any] = {"profile": profile, "policy": policy}
    if images:
        split_kw["extract_markdown_images"] = True
    lazy = (
        _outputs(richout.split_media(text, **split_kw), _SPLIT_OUT),
        _outputs(
            richout.parse_reply(text, current_message_id="m1", profile=profile, policy=policy),
            _REPLY_OUT,
        ),
        _outputs(richout.render_reply(text, profile=profile, policy=policy), _RENDER_OUT),
    )
    explained = tuple(
        r.model_dump_json()
        for r in (
            richout.split_media(text, explain=True, **split_kw),
            richout.parse_reply(
                text, current_message_id="m1", profile=profile, policy=policy, explain=True
            ),
            richout.render_reply(text, profile=profile, policy=policy, explain=True),
        )
    )
    return lazy, explained


@pytest.mark.pure_python(why="replaces Walker._plain_run, a compiled class's method")
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_replies(), st.sampled_from(sorted(PROFILES)), st.booleans(), st.booleans())
def test_a_run_of_plain_lines_reads_as_the_walk_reads_each_line(
    text: str, profile: str, narrow: bool, images: bool
) -> None:
    policy = _NARROW if narrow else None
    real = Walker._plain_run
    with _walked():
        taken = _everything(text, profile, policy, images)
        Walker._plain_run = lambda self, order, k, lines: k  # type: ignore[method-assign]
        try:
            declined = _everything(text, profile, policy, images)
        finally:
            Walker._plain_run = real  # type: ignore[method-assign]
    assert taken == declined, text


@pytest.mark.pure_python(why="counts what Walker._plain_run decides, a compiled class's method")
def test_the_run_takes_the_plain_lines_after_a_plain_one_and_stops_where_it_must() -> None:
    """Not vacuous: a block of plain lines is decided by the run, refused ones too, which
    stops at a line in code or of another shape and leaves that one to the loop."""
    runs: list[tuple[int, int]] = []
    real = Walker._plain_run

    def recording(self: Walker, order: list[int], k: int, lines: dict[int, int]) -> int:
        end = real(self, order, k, lines)
        runs.append((k, end))
        return end

    text = (
        "MEDIA:/a.png\nMEDIA:/b.png\nMEDIA:/c.png\nMEDIA:https://127.0.0.1/d.png\n"
        "MEDIA:/e.png\n```\nMEDIA:/f.png\n```\nMEDIA:/g.png\nMEDIA: /h.png /i.png"
    )
    Walker._plain_run = recording  # type: ignore[method-assign]
    try:
        with _walked():
            got = richout.split_media(text, explain=True)
    finally:
        Walker._plain_run = real  # type: ignore[method-assign]
    # Lines by index among the visited ones: a.png opens a run that takes b, c, the refused
    # d and e, and stops at f (in code); g's run stops at once, at the two-path line.
    assert runs == [(1, 5), (7, 7)]
    assert got.media_urls == ["/a.png", "/b.png", "/c.png", "/e.png", "/g.png", "/h.png", "/i.png"]
    assert [s.value for s in got.spans][:3] == ["/a.png", "/b.png", "/c.png"]
