"""The public models as values: plain type checking, wire round trip, pickle, copy, equality."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# --------------------------------------------------------------------------- plain mypy

_TYPED_SNIPPET = """\
from richout import CanvasPreview, Diagnostic, MediaSplit, Reply, Segment, Span, StreamChunk
from richout.envelope import BudgetDecision, PayloadIntake, ReplyPayload, SendTarget

payload = ReplyPayload(text="hi")
listed = ReplyPayload(media_urls=["https://example.com/a.png"], audio_as_voice=True)
diag = Diagnostic(code="c", severity="info", message="m")
span = Span(kind="media", start=0, end=1)
seg = Segment(type="text", text="a")
split = MediaSplit(text="a")
reply = Reply(text="a", reply_to_id="m1")
preview = CanvasPreview(url="/canvas/cv_1")
chunk = StreamChunk(text="a", raw_start=0, raw_end=1)
target = SendTarget(to="u1")
decision = BudgetDecision(allowed=True)
intake = PayloadIntake(payload=payload)
text: str | None = payload.text
"""


def test_models_type_check_under_plain_mypy_strict(tmp_path: Path) -> None:
    # No pydantic plugin: a user's own mypy config need not load it to construct results
    # with only the fields they set (issue 9, defect 8).
    (tmp_path / "snippet.py").write_text(_TYPED_SNIPPET, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\n", encoding="utf-8")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(tmp_path / "mypy.ini"),
            "--cache-dir",
            str(tmp_path / "cache"),
            str(tmp_path / "snippet.py"),
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
