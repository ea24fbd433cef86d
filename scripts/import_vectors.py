"""Copy the shared reference vectors into the bundled conformance cases.

Usage: python scripts/import_vectors.py ../shared/vectors conformance/cases

Each profile's four reference ops are copied as they are, one JSON array per op, to
``conformance/cases/profiles/<profile>/<op>.json`` (the runner sets ``options.profile`` from
the folder's name). The envelope cases are merged into ``<op>.json`` (one array per op,
sorted by id): a case with an imported id is replaced, hand-written cases are kept.
``retired-009d683`` is not imported: it is kept upstream of us for comparison only.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

REFERENCE_OPS = ("media", "directives", "reply", "embed")
ENVELOPE_SOURCE = "model of ENVELOPE.md / SKILL_ENVELOPE.md rules (not reference code)"


def main(src: str, dst: str) -> int:
    """Copy every profile's reference cases and split the envelope cases into files."""
    vectors = Path(src)
    out = Path(dst)
    count = 0
    for folder in sorted((vectors / "profiles").iterdir()):
        if not folder.is_dir():
            continue
        target = out / "profiles" / folder.name
        target.mkdir(parents=True, exist_ok=True)
        for op in REFERENCE_OPS:
            shutil.copyfile(folder / f"{op}.json", target / f"{op}.json")
            count += len(json.loads((target / f"{op}.json").read_text(encoding="utf-8")))
    by_op: dict[str, dict[str, dict[str, object]]] = {}
    for case in json.loads((vectors / "envelope.json").read_text(encoding="utf-8")):
        case.setdefault("source", f"vectors/envelope.json: {ENVELOPE_SOURCE}")
        by_op.setdefault(case["op"], {})[case["id"]] = case
        count += 1
    for op, imported in by_op.items():
        path = out / f"{op}.json"
        kept = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
        merged = {c["id"]: c for c in kept} | imported
        cases = [merged[k] for k in sorted(merged)]
        path.write_text(json.dumps(cases, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{count} cases written under {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:3]))
