"""One SHA-256 over every pipeline's explained output on the reply corpus and hostile families.

    python scripts/output_digest.py [--count 2400]

``scripts/check_compiled.sh`` runs it once against the compiled build and once against this
checkout's pure-Python modules and requires the same digest: the compiled build must give
byte-identical results (text, media, flags, diagnostics, spans, edits, streamed chunks), not
only pass the same tests. Prints the digest and how many results it covers.
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


def results(text: str) -> list[Any]:
    """Every public pipeline on ``text``, explained, as JSON-ready values."""
    import richout

    out: list[Any] = [
        richout.split_media(text, explain=True, extract_markdown_images=True).model_dump(),
        richout.parse_directives(text, explain=True, current_message_id="m1").model_dump(),
        richout.parse_reply(text, explain=True, current_message_id="m1").model_dump(),
        richout.extract_embeds(text, explain=True).model_dump(),
        richout.render_reply(text, explain=True).model_dump(),
        richout.delivery_strip(text),
    ]
    stream = richout.StreamingParser(current_message_id="m1")
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
        for value in results(text):
            digest.update(json.dumps(value, sort_keys=True, default=str).encode())
            n += 1
    build = "compiled" if richout.is_compiled() else "pure Python"
    print(f"{digest.hexdigest()}  {n} results, {build}, richout at {Path(richout.__file__).parent}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
