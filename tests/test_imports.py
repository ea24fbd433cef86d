"""``import richout`` stays light: a plain reply loads neither lark nor markdown-it-py."""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import sys
import richout
for text in ("Hello there", "Two lines\\nof prose", "MEDIA:/srv/a.png"):
    richout.parse_reply(text)
    richout.render_reply(text)
    richout.split_media(text)
print(",".join(sorted(m for m in ("lark", "markdown_it") if m in sys.modules)))
"""


def _same_build(probe: str) -> str:
    """``probe`` failing unless the child imports the build this test process runs."""
    import richout

    expected = "True" if richout.is_compiled() else "False"
    return f"import richout\nassert str(richout.is_compiled()) == {expected!r}\n{probe}"


def _loaded(probe: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", _same_build(probe)], check=True, capture_output=True, text=True
    ).stdout
    return out.strip()


def test_plain_replies_load_no_grammar_and_no_markdown_parser() -> None:
    assert _loaded(_PROBE) == ""


def test_the_parsers_load_when_a_reply_needs_them() -> None:
    probe = _PROBE.replace(
        'print(",".join',
        'richout.parse_reply("x [[reply_to_current]]")\n'
        'richout.split_media("![a](https://example.com/a.png)", extract_markdown_images=True)\n'
        'print(",".join',
    )
    assert _loaded(probe) == "lark,markdown_it"
