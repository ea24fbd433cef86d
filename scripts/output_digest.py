"""One SHA-256 over every pipeline's output on the reply corpus and hostile families.

    python scripts/output_digest.py [--count 2400]

``scripts/check_compiled.sh`` runs it once against the compiled build and once against this
checkout's pure-Python modules and requires the same digest: the compiled build must give
byte-identical results (text, media, flags, diagnostics, spans, edits, streamed chunks), not
only pass the same tests. Every profile; each pipeline once with ``explain=True`` (the whole
record) and once without (the outputs, read without touching the lazy explanation, so the
plain paths are the ones compared). Prints the digest and how many results it covers.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import adversarial
import make_corpus

#: Hostile families at a size that keeps the run short but still repeats each construct.
FAMILY_CHARS = 4_000


def texts(count: int) -> list[str]:
    """The corpus replies, then each of ``adversarial.py``'s families."""
    replies, _meta = make_corpus.make_replies(adversarial.SEED, count)
    families = [
        make(adversarial.family_n(make, FAMILY_CHARS)) for make in adversarial.FAMILIES.values()
    ]
    return [*replies, *families]


_EXPLANATION = ("diagnostics", "spans", "edits")


def _outputs(result: Any) -> dict[str, Any]:
    """A lazy result's output fields, read without computing its explanation."""
    return {
        name: getattr(result, name)
        for name in type(result).model_fields
        if name not in _EXPLANATION
    }


def _json(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else str(value)


def results(text: str, profile: str) -> list[Any]:
    """Every public pipeline on ``text`` under ``profile``, as JSON-ready values."""
    import richout

    calls = [
        lambda explain: richout.split_media(
            text, explain=explain, extract_markdown_images=True, profile=profile
        ),
        lambda explain: richout.parse_directives(
            text, explain=explain, current_message_id="m1", profile=profile
        ),
        lambda explain: richout.parse_reply(
            text, explain=explain, current_message_id="m1", profile=profile
        ),
        lambda explain: richout.extract_embeds(text, explain=explain, profile=profile),
        lambda explain: richout.render_reply(text, explain=explain, profile=profile),
    ]
    out: list[Any] = [richout.delivery_strip(text)]
    for call in calls:
        out.append(call(True).model_dump())
        out.append(_outputs(call(False)))
    stream = richout.StreamingParser(current_message_id="m1", profile=profile)
    for i in range(0, len(text), adversarial.CHUNK):
        chunk = stream.feed(text[i : i + adversarial.CHUNK])
        out.append(None if chunk is None else chunk.model_dump())
    last = stream.finish()
    out.append(None if last is None else last.model_dump())
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=2400, help="corpus replies (default 2400)")
    args = parser.parse_args()
    import richout

    digest = hashlib.sha256()
    n = 0
    for text in texts(args.count):
        for profile in richout.PROFILES:
            for value in results(text, profile):
                digest.update(json.dumps(value, sort_keys=True, default=_json).encode())
                n += 1
    build = "compiled" if richout.is_compiled() else "pure Python"
    print(f"{digest.hexdigest()}  {n} results, {build}, richout at {Path(richout.__file__).parent}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
