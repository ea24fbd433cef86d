"""Search for hostile line shapes: random units of hostile pieces, repeated, timed per MB.

    python benchmarks/hunt.py [--seconds 600] [--seed 1] [--size 256000] [--over 3.0]
                              [--growth 6.0]

``adversarial.py`` times the shapes someone thought of; this looks for the ones nobody did.
Each case is a unit of one to six pieces drawn from :data:`PIECES` (brackets, tags,
backticks, fences, escapes, ``MEDIA:`` heads, container marks, link and image openers,
CR and CRLF, ...), with a line break after it or not, repeated to ``--size / 4`` and to
``--size`` characters. Every op runs on both, plain and explained, and the streaming parser
takes both in 64-byte chunks. A run is flagged when the larger text costs more than
``--over`` seconds per MB, or more than ``--growth`` times the smaller one's time (4× the
size: about 4 when linear); a flagged run is timed twice more on both sizes and printed
only if it still is (machine noise only ever slows a run down). Flagged shapes are leads:
time them at 1 MB with ``adversarial.py``'s families before calling one superlinear.

On 2026-12-07 ten minutes of two seeds flagged thirteen shapes; seven became families of
``adversarial.py`` (README, Speed, "fortieth stop").

``--parses`` looks for the costliest class instead, with no timing of its own to disturb:
texts the code map sends to markdown-it-py whole. Each shape is repeated to ``--size / 8``
characters and run through ``parse_reply`` (plain and explained) and ``render_reply``; a
run is printed when the parser was handed more than half the text and spent more than
``--over`` seconds per MB of it there (the parse time alone), with the count of parses. That
search found the shapes of the forty-first stop (README, Speed), at 10-140 s/MB.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from adversarial import op_functions, stream, timed

PIECES = [
    "[", "]", "[[", "]]", "[[reply_to:", "[[reply_to_current]", "[[audio_as_voice]]",
    "[[reply_to:x]]", "`", "``", "```", "~~~", "\\", "\\`", "MEDIA:", "MEDIA:/tmp/a.png",
    "MEDIA:https://e.example/a.png", " ", "\t", "> ", "- ", "1. ", "    ", "|", "| a |",
    "|---|", "(", ")", "<", ">", "[a](", "![a](", "<b ", '"', "'", "*", "_", "[embed",
    '[embed ref="cv_1" /]', '[embed ref="', "/]", "=", "---", "#", "x", "word ", "../", "~",
    "file:", "http://", "https://", ":", ".png", "\r", "\r\n", "\n", "\n\n", "&amp;", "<!--",
    "-->", "<div>", "NO_REPLY",
]  # fmt: skip


def units(seed: int, seconds: float) -> Iterator[str]:
    """Random units of one to six pieces, most with a line break after them, until
    ``seconds`` have passed."""
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        unit = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6)))
        yield unit + ("\n" if rng.random() < 0.6 else "")


def runs() -> list[tuple[str, Callable[[str], Any]]]:
    """Every op plain and explained (``adversarial.py``'s), and the streaming parser."""
    out = [(f"plain {k}", f) for k, f in op_functions(None, False).items()]
    out += [(f"explained {k}", f) for k, f in op_functions(None, True).items()]
    return [*out, ("streamed", stream)]


def per_mb(seconds: float, text: str) -> float:
    return seconds / (len(text.encode("utf-8", "surrogatepass")) / (1 << 20))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=600, help="how long to search")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", type=int, default=256_000, help="the larger text's characters")
    ap.add_argument("--over", type=float, default=3.0, help="flag above this many s/MB")
    ap.add_argument("--growth", type=float, default=6.0, help="flag above this ratio at 4x")
    ap.add_argument("--parses", action="store_true", help="find texts parsed whole instead")
    args = ap.parse_args()
    if args.parses:
        return parses(args)
    tried = flagged = 0
    for unit in units(args.seed, args.seconds):
        small = unit * max(1, args.size // 4 // len(unit))
        big = unit * max(1, args.size // len(unit))
        for name, fn in runs():
            a, b = timed(fn, small), timed(fn, big)
            for attempt in range(3):  # the first timing, then two more
                slow = per_mb(b, big) > args.over
                if not slow and (b < 0.05 or b / max(a, 1e-4) <= args.growth):
                    break
                if attempt < 2:
                    a, b = min(a, timed(fn, small)), min(b, timed(fn, big))
            else:
                flagged += 1
                print(
                    f"{name:18s} {per_mb(b, big):6.2f} s/MB  x{b / max(a, 1e-4):4.1f} at 4x  "
                    f"unit={unit!r}",
                    flush=True,
                )
        tried += 1
    print(f"{tried} shapes tried, {flagged} runs flagged")
    return 0


def parses(args: argparse.Namespace) -> int:
    """The ``--parses`` search: texts the code map hands to markdown-it-py whole."""
    import richout
    from richout.markdown import codemap, engine, regions

    handed: list[int] = []
    spent = [0.0]
    real = engine.parse_code

    def counting(text: str, **kwargs: Any) -> Any:
        handed.append(len(text))
        t0 = time.perf_counter()
        try:
            return real(text, **kwargs)
        finally:
            spent[0] += time.perf_counter() - t0

    for module in (codemap, regions):
        module.parse_code = counting  # type: ignore[attr-defined]
    ops: dict[str, Callable[[str], Any]] = {
        "parse_reply": richout.parse_reply,
        "parse_reply explained": lambda t: richout.parse_reply(t, explain=True),
        "render_reply": richout.render_reply,
    }
    tried = flagged = 0
    for unit in units(args.seed, args.seconds):
        text = unit * max(1, args.size // 8 // len(unit))
        for name, fn in ops.items():
            handed.clear()
            spent[0] = 0.0
            fn(text)
            if sum(handed) > len(text) / 2 and per_mb(spent[0], text) > args.over:
                flagged += 1
                print(
                    f"{name:22s} parsed {sum(handed) / len(text):4.1f}x the text in "
                    f"{len(handed)} parse(s), {per_mb(spent[0], text):6.2f} s/MB  unit={unit!r}",
                    flush=True,
                )
                break
        tried += 1
    print(f"{tried} shapes tried, {flagged} flagged")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
