"""Turn the shared reference vectors into conformance case files (one file per case).

Usage: python scripts/import_vectors.py ../shared/vectors conformance/cases

Case ids are kept; a case's file is ``<op>/<id>.json``. Existing files with the same id are
overwritten; cases written by hand (other ids) are left alone.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SOURCES = {
    "media.json": "reference splitMediaFromOutput (src/media/parse-output.ts @ 009d683)",
    "directives.json": "reference parseInlineDirectives (src/utils/directive-tags.ts)",
    "reply.json": "reference parseReplyDirectives (src/auto-reply/reply/reply-directives.ts)",
    "embed.json": "reference extractCanvasShortcodes (src/chat/canvas-render.ts, PR #96449)",
    "envelope.json": "model of ENVELOPE.md / SKILL_ENVELOPE.md rules (not reference code)",
}


def main(src: str, dst: str) -> int:
    out = Path(dst)
    count = 0
    for name, source in SOURCES.items():
        cases = json.loads((Path(src) / name).read_text(encoding="utf-8"))
        for case in cases:
            case.setdefault("source", f"vectors/{name}: {source}")
            target = out / case["op"] / f"{case['id']}.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(
                json.dumps(case, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
            )
            count += 1
    print(f"{count} cases written under {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:3]))
