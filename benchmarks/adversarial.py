"""Cost of every op on hostile inputs: seconds and seconds per MB, worst first.

    python benchmarks/adversarial.py [--ops media,directives,reply,embed,render]
                                     [--explain | --stream] [--only SUBSTR] [--top 15]
                                     [--over]
    python benchmarks/adversarial.py --growth [--explain | --stream]

The inputs are ``make_corpus.py``'s ``adversarial.json`` (60 inputs, 17 MB: 1 MB lines,
100k ``MEDIA:`` lines, 100k ``[[``, unclosed ``[[reply_to:`` runs, 50k-backtick runs,
1000-deep containers, lone surrogates ...) plus the families below (issue 8), each sized
about 1 MB. ``--explain`` runs every op with ``explain=True``; ``--stream`` feeds each input
to a :class:`richout.StreamingParser` in 64-byte chunks, then ``finish()``. Linear cost shows
as a flat seconds-per-MB column; the target is 0.5 s/MB (+5 ms) in every mode.
``--growth`` times each family at n and 4n and prints the ratio (about 4 when linear);
``--over`` lists every run over the budget.

Each run is timed once; a run over the budget is timed ``--retime`` more times (default 2)
and keeps its fastest time, since machine noise only ever slows a run down (on the shared
VM a 1 MB run measured alone at 0.47 s/MB read 0.82 inside a sweep). ``--retime 0`` keeps
the single timing, as before 2026-12-02. The count of runs that were over before the
retiming is printed too.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import make_corpus  # noqa: E402

SEED = 20260520
MB = 1 << 20
CHUNK = 64

# Hostile families (issue 8, item 3): each maps n to a text; ``FAMILY_N`` sizes it ~1 MB.
FAMILIES: dict[str, Callable[[int], str]] = {
    # named in the issue
    "reply_to_openers_one_close": lambda n: "[[reply_to:" * n + "\nx]]",
    "malformed_reply_tags_one_line": lambda n: "[[reply_to:a]" * n,
    "malformed_current_tags_one_line": lambda n: "[[reply_to_current] " * n,
    "malformed_audio_tags_one_line": lambda n: "[[audio_as_voice] " * n,
    "media_lines": lambda n: "\n".join(f"MEDIA:/tmp/x{i}.png" for i in range(n)),
    "reply_to_unclosed": lambda n: "[[reply_to:x " * n,
    "bracket_openers": lambda n: "MEDIA:/tmp/a.png\n" + "[" * n,
    "tilde_fences_unclosed": lambda n: "MEDIA:/tmp/a.png\n" + "~~~ x\n" * n,
    "blank_lines_with_media": lambda n: "MEDIA:/tmp/a.png" + "\n" * n + "end",
    # our own
    "unclosed_link_destinations": lambda n: "MEDIA:/tmp/a.png\n" + "[a](<b " * n,
    "unclosed_image_destinations": lambda n: "![a](https://x.test/" * n,
    "list_marker_lines": lambda n: ("- " * 2000 + "MEDIA:/tmp/a.png\n") * max(n // 2000, 1),
    "table_rows": lambda n: "| a | b |\n|---|---|\n" + "| MEDIA:/tmp/a.png | x |\n" * n,
    "brackets_before_reply_tag": lambda n: ("[" * 1000 + "[[reply_to:x]]\n") * max(n // 1000, 1),
    "cr_only_lines": lambda n: "MEDIA:/tmp/a.png\r[[audio_as_voice]] x\r" * n,
    "code_spans_with_tags": lambda n: "`a` [[reply_to_current]] ``b`` " * n,
    # 2026-12-03: "<", "\\", "|", "]:" or a link beside them (none can change the pairing
    # on this line) once sent the line to the CommonMark parser whole: 1.2-1.7 s/MB
    "code_spans_tags_and_angles": lambda n: "`a` [[reply_to_current]] List<T> ``b`` <b> " * n,
    "code_spans_tags_and_escapes": lambda n: "`a` [[reply_to_current]] C:\\dir ``b`` a\\b " * n,
    "code_spans_tags_and_pipes": lambda n: "`a` [[reply_to_current]] x | y ``b`` a]: b " * n,
    "code_spans_tags_and_links": lambda n: (
        "`a` [[reply_to_current]] [l](https://x.test/a 't') ``b`` [i](/p.png) " * n
    ),
    # the same on many lines of one paragraph: it was parsed whole, and mapping each span
    # back to its source line scanned every line (quadratic, 10 s/MB at 470 KB)
    "code_spans_tags_links_paragraph": lambda n: "`a` [[reply_to_current]] ``b`` [l](u)\n" * n,
    "code_spans_tags_pipes_paragraph": lambda n: "`a` [[reply_to_current]] ``b`` x | y\n" * n,
    # lines opening with what could start a block but does not ("2024 was", "-x")
    "code_spans_tags_digit_lines": lambda n: "2024 was `a` [[reply_to_current]] ``b``\n" * n,
    # 2026-12-03: indented MEDIA: lines inside one long paragraph (lazy continuations, not
    # code); a table or definition check that looked back a bounded number of lines parsed
    # them (5 s/MB)
    "lazy_indented_lines": lambda n: ("x\n" * 100 + "    MEDIA:/t.png\n") * max(n // 100, 1),
    # 2026-12-03: a block quote of one paragraph with tags and code spans: every tag asked
    # the CommonMark parser, which parsed the whole quote's inline content (2-3 s/MB)
    "quote_code_spans_tags": lambda n: "> `a` [[reply_to_current]] ``b``\n" * n,
    # escaped backticks beside tags and code spans: a paragraph holding one went to the
    # parser whole (1.6-2 s/MB)
    "escaped_backticks_tags": lambda n: "\\`a\\` [[reply_to_current]] \\`\\`b `c`\n" * n,
    # 2026-12-04: a run of one-character lines (no cut point divides it) that a heading,
    # quote, list item or break opens, or an underline or heading ends, with a tag in code:
    # the block at its end sent the whole run to the CommonMark parser (3.4-8.9 s/MB)
    "heading_then_lines_tag": lambda n: "# h\n" + "a\n" * n + "`[[reply_to_current]]`",
    "quote_then_lines_tag": lambda n: "> h\n" + "a\n" * n + "`[[reply_to_current]]`",
    "list_item_then_lines_tag": lambda n: "- h\n" + "a\n" * n + "`[[reply_to_current]]`",
    "lines_then_heading_tag": lambda n: "a\n" * n + "# `[[reply_to_current]]`",
    "lines_then_underline_tag": lambda n: "a\n" * n + "`[[reply_to_current]]`\n===",
    # the same with the block in the middle of the run, or a list item as its last line
    "lines_heading_lines_tag": lambda n: (
        "a\n" * (n // 2) + "# h\n" + "a\n" * (n // 2) + "`[[reply_to_current]]`"
    ),
    "lines_list_item_lines_tag": lambda n: (
        "a\n" * (n // 2) + "- h\n" + "a\n" * (n // 2) + "`[[reply_to_current]]`"
    ),
    "lines_then_list_item_tag": lambda n: "a\n" * n + "- `[[reply_to_current]]`",
    # a "]:" that is paragraph text (no definition interrupts a paragraph) sent its
    # paragraph, and any paragraph of a text holding one, to the parser (4-8 s/MB)
    "lines_then_definition_text": lambda n: "a\n" * n + "`[[reply_to_current]]`\n[x]: /u",
    # 2026-12-04 (twentieth stop): lines ended by lone CRs, which the parser reads as line
    # feeds and the code map's local readings did not, with a tag in code (3.9 s/MB)
    "cr_lines_tag_in_code": lambda n: "a\r" * n + "`[[reply_to_current]]`",
    # a link reference definition opening the run, on a line of its own (4.5 s/MB)
    "definition_then_lines_tag": lambda n: "[x]: /u\n" + "a\n" * n + "`[[reply_to_current]]`",
    # setext headings in a run: many, or one in its middle (2.0-3.1 s/MB)
    "setext_headings_tag": lambda n: "a\n=\n" * (n // 2) + "`[[reply_to_current]]`",
    "lines_underline_lines_tag": lambda n: (
        "a\n" * (n // 2) + "===\n" + "a\n" * (n // 2) + "`[[reply_to_current]]`"
    ),
    # 2026-12-04 (twenty-first stop): the same runs with CRLF line endings, whose CR the run
    # and quote readings took for a line break of its own (1.4-2.7 s/MB)
    "crlf_heading_then_lines_tag": lambda n: "# h\r\n" + "a\r\n" * n + "`[[reply_to_current]]`",
    "crlf_quote_code_spans_tags": lambda n: "> `a` [[reply_to_current]] ``b``\r\n" * n,
    # runs the parse read whole: empty list items, a quote whose lazy lines continue it
    # after a paragraph, indented lines continuing a paragraph (1.7-3 s/MB)
    "empty_items_then_tag": lambda n: "+\n" * n + "`[[reply_to_current]]`",
    "quote_lazy_lines_tag": lambda n: "a\n> q\n" + "a\n" * n + "`[[reply_to_current]]`",
    "indented_lines_paragraph_tag": lambda n: "a\n    b\n" * (n // 2) + "`[[reply_to_current]]`",
    # a definition whose next line opens a title never closed, or closed with more after it
    "definition_open_title_lines_tag": lambda n: (
        '[x]: /u\n"a\n' + "a\n" * n + "`[[reply_to_current]]`"
    ),
    "definition_quote_lines_tag": lambda n: "[x]: /u\n" + "'a\n" * n + "`[[reply_to_current]]`",
    # 2026-12-04 (twenty-second stop): a table of many rows with code spans and tags, rows
    # without pipes after a header, and a table whose short rows reach markdown-it-py's
    # limit of filled-in cells (65,536), where it ends; each went to the parser whole
    # (1.6-1.8 s/MB)
    "table_rows_code_spans_tags": lambda n: (
        "| a | b |\n|---|---|\n" + "| `x` [[reply_to_current]] | ``y`` z |\n" * n
    ),
    "table_pipeless_rows_tags": lambda n: (
        "| a | b |\n|---|---|\n" + "`x` [[reply_to_current]]\n" * n
    ),
    "table_past_its_cell_limit_tags": lambda n: (
        "| a | b | c | d |\n|-|-|-|-|\n" + "`x` [[reply_to_current]]\n" * n
    ),
    # 2026-12-04 (twenty-third stop): the same table rows under a paragraph line (the table
    # interrupts it), in a list item and in a block quote; each went to the parser whole
    # (1.7-2.8 s/MB, plain and explained)
    "paragraph_table_rows_tags": lambda n: (
        "a\n| a | b |\n|---|---|\n" + "| `x` [[reply_to_current]] | ``y`` z |\n" * n
    ),
    "paragraph_table_pipeless_rows_tags": lambda n: (
        "a\nb | c\n|---|---|\n" + "`x` [[reply_to_current]]\n" * n
    ),
    "item_table_rows_tags": lambda n: (
        "- | a | b |\n  |---|---|\n" + "  | `x` [[reply_to_current]] | ``y`` z |\n" * n
    ),
    "quote_table_rows_tags": lambda n: (
        "> | a | b |\n> |---|---|\n" + "> | `x` [[reply_to_current]] | ``y`` z |\n" * n
    ),
    # 2026-12-05 (twenty-fourth stop): a table interrupting a block quote's paragraph, a
    # table in a quote nested in a quote, a bulleted list of one-line items with code spans
    # and tags (each 1.9-2.4 s/MB, parsed whole), and a table interrupting a list item's
    # paragraph (1.9 s/MB, read from its lines since the twenty-fifth stop)
    "quote_paragraph_table_rows_tags": lambda n: (
        "> p `q`\n> a | b\n> |---|---|\n" + "> `x` [[reply_to_current]] | ``y`` z\n" * n
    ),
    "nested_quote_table_rows_tags": lambda n: (
        "> > | a | b |\n> > |---|---|\n" + "> > `x` [[reply_to_current]] | ``y`` z\n" * n
    ),
    "list_items_code_spans_tags": lambda n: "- `a` [[reply_to_current]] ``b`` c\n" * n,
    "item_paragraph_table_rows_tags": lambda n: (
        "- p `q`\n  a | b\n  |---|---|\n" + "  `x` [[reply_to_current]] | ``y`` z\n" * n
    ),
    # 2026-12-05 (twenty-fifth stop): lists whose items wrap onto a second line indented to
    # their content (a shape replies use), bulleted and ordered: parsed whole, 2.1-2.2 s/MB
    "list_items_wrapped_code_spans_tags": lambda n: (
        "- a `x` [[reply_to_current]] b\n  c ``y`` d [[reply_to_current]]\n" * n
    ),
    "ordered_items_wrapped_code_spans_tags": lambda n: (
        "1. a `x` [[reply_to_current]] b\n   c ``y`` d [[reply_to_current]]\n" * n
    ),
    # 2026-12-05: one list item of backtick runs of distinct widths, none closed (about n
    # characters): a streamed part's one-search pairing, unbounded, read to the line's end
    # from each run (1.3 s for 180 KB)
    "item_of_distinct_tick_runs": lambda n: (
        "- " + " ".join("`" * i for i in range(1, int((2 * n) ** 0.5))) + " [[reply_to_current]]"
    ),
    # a megabyte of small fenced blocks, then a tag in a code span and a directive line
    "fenced_blocks_then_tag": lambda n: (
        "```\nx\n```\n\n" * n + "a `[[reply_to_current]]` b [[reply_to_current]]\nMEDIA:/a.png\n"
    ),
    # 2026-12-05 (twenty-ninth stop): the same edits before the blocks, and amid them: each
    # stage's fence scan takes over its parent's reading after the edit, not only before it
    "tag_then_fenced_blocks": lambda n: (
        "MEDIA:/a.png\na `[[reply_to_current]]` b [[reply_to_current]]\n" + "```\nx\n```\n\n" * n
    ),
    "fenced_blocks_tag_fenced_blocks": lambda n: (
        "```\nx\n```\n\n" * (n // 2)
        + "MEDIA:/a.png\na `[[reply_to_current]]` b [[reply_to_current]]\n"
        + "```\nx\n```\n\n" * (n // 2)
    ),
    "bracket_run": lambda n: "[" * n,
    "current_tag_run": lambda n: "[[reply_to_current]]" * n,
    "regrouped_root_tokens": lambda n: "MEDIA:" + " /" * n,
    # payloads of many tokens (2026-12-02): distinct ones defeat the per-text memo, wrapper
    # characters at a growing part's end once made the regrouping copy it per token
    "distinct_word_tokens": lambda n: "MEDIA:" + "".join(f" x{i}" for i in range(n)),
    "distinct_path_tokens": lambda n: "MEDIA:" + "".join(f" /a{i}" for i in range(n)),
    "wrapped_regroup_tokens": lambda n: "MEDIA:/a" + " b)" * n,
    # with a JSON tail in the payload, a grown part's cleaned end is found from the part
    "wrapped_tokens_after_json_tail": lambda n: 'MEDIA:/z.png"] /a' + " b)" * n,
    "merged_word_tokens": lambda n: "MEDIA:/a" + " b" * n,
    "alternating_root_tokens": lambda n: "MEDIA:" + " / ~" * n,
    "two_path_lines": lambda n: "\n".join(f"MEDIA: /a{i} /b" for i in range(n)),
    # 2026-12-03: a megabyte of directive lines of each shape that misses the walk's plain-line
    # shortcuts, so every line takes the general payload steps (and, explained, §17's checks)
    "refused_reference_lines": lambda n: "\n".join(f"MEDIA:http://x/a{i}.png" for i in range(n)),
    "traversal_lines": lambda n: "\n".join(f"MEDIA:../a{i}.png" for i in range(n)),
    # one refused line repeated: a distinct refused plain token is read without the line
    # memo (2026-12-07, fifth session), which such a repeat no longer answers from
    "repeated_traversal_lines": lambda n: "MEDIA:../a.png\n" * n,
    "reference_and_word_lines": lambda n: "\n".join(
        f"MEDIA:https://e.example/a{i}.png word" for i in range(n)
    ),
    "refused_reference_and_word_lines": lambda n: "\n".join(
        f"MEDIA:http://x/a{i}.png  word" for i in range(n)
    ),
    "path_and_word_lines": lambda n: "\n".join(f"MEDIA:/tmp/a{i}.png word" for i in range(n)),
    "spaced_path_lines": lambda n: "\n".join(f"MEDIA:/tmp/my file{i}.png" for i in range(n)),
    "quoted_path_lines": lambda n: "\n".join(f'MEDIA:"/tmp/a {i}.png"' for i in range(n)),
    "backticked_path_lines": lambda n: "\n".join(f"MEDIA:`/tmp/a{i}.png`" for i in range(n)),
    "prose_payload_lines": lambda n: "\n".join(f"MEDIA: see the chart {i}" for i in range(n)),
    # a reference then 2,000 words left visible, line after line: a rewritten line's edits
    "reference_then_many_words": lambda n: "\n".join(
        ["MEDIA:https://e.example/a.png " + "w " * 2000] * max(n // 2000, 1)
    ),
    # 2026-12-07, from a random search over compositions of hostile pieces (two per line
    # shape). Images in one long paragraph with backticks: any "![" sent it to the parser
    # whole (explained extract_embeds 22 s/MB, parse_directives 4.9 s/MB); an image label
    # ending at its first "]" and a destination that ends its line are now read locally.
    "image_lines_escaped_ticks_tags": lambda n: "<!--![a](NO_REPLY\\`[[reply_to:x]]\n" * n,
    "escaped_image_lines_embed_openers": lambda n: '\\![a](:[embed ref="`\n' * n,
    "link_destination_lines_ticks_tags": lambda n: "[a]([[audio_as_voice]]`=.png\n" * n,
    # The shortest directive lines the general payload steps read (~40 µs a line, 100k
    # lines a MB). (Since the next session a link whose destination nests a parenthesis on
    # one long line, with no ")" after it, opens no link, and lines that open like a fence
    # but hold a backtick in their info string are paragraph text.) 2026-12-07, third
    # session: a payload is read once a reply, and one holding none of / \\ ~ . : is kept
    # unread; the numbered lines below are each distinct, so no memo answers them, and the
    # last two hold a "." (each delivers its bare name: 20-45 µs a line, still over).
    "short_quoted_payload_lines": lambda n: 'MEDIA:"=]\n' * n,
    "numbered_quoted_payload_lines": lambda n: "".join(f'MEDIA:"={i}]\n' for i in range(n)),
    "numbered_crlf_quoted_payload_lines": lambda n: "".join(f'MEDIA:"={i}]\r\n' for i in range(n)),
    "numbered_bare_name_lines": lambda n: "".join(f"MEDIA:=.{i}]\n" for i in range(n)),
    "numbered_quoted_bare_name_lines": lambda n: "".join(f'MEDIA:"=.{i}]\n' for i in range(n)),
    "nested_paren_links_one_line": lambda n: (
        "][[audio_as_voice]]MEDIA:https://e.example/a.png``[a](http://" * n
    ),
    "fence_like_lines_tags": lambda n: "```NO_REPLYNO_REPLY``[[reply_to:x]]\n" * n,
    # 2026-12-07, second session: a delimiter row under each unclosed tag line (a row under
    # a line without "|" heads no table; the first line's row sent the paragraph to the
    # parser whole, 23-44 s/MB explained), and lists and quotes whose paragraphs take lines
    # lazily (the parse of the whole, 3.8-48 s/MB; an item's indented directive line is
    # lazy in the explained tag stage's text, where the media stage has trimmed it).
    "delimiter_rows_under_tag_lines": lambda n: "|---|\nMEDIA:[[reply_to:`1. \n" * n,
    "quoted_delimiter_rows_under_tag_lines": lambda n: "> |---|\n> [[reply_to:`1. \n" * n,
    "lazy_item_lines_ticks_tags": lambda n: "- a `x\nb` [[reply_to_current]]\n" * n,
    "lazy_quote_lines_ticks_tags": lambda n: "> a `x\nb [[reply_to_current]]\n" * n,
    "items_indented_directive_lines": lambda n: "- a\n  MEDIA:[[reply_to:`1. \n" * n,
    "quote_lazy_directive_lines": lambda n: "> a\nMEDIA:[[reply_to:`1. \n" * n,
    # One long line of links that open no inline link (no ")" after them) whose
    # destinations hold backticks, escaped or not (85-140 and 19-27 s/MB in parse_reply).
    "escaped_tick_links_one_line": lambda n: "[[reply_to:---<div>[a](\\`" * n,
    "tick_links_one_line": lambda n: "[[reply_to:x]]---../`\\`[a](" * n,
}


def family_n(make: Callable[[int], str], size: int = MB) -> int:
    """The n that makes the family about ``size`` characters."""
    unit = max(len(make(1000)) / 1000, 1e-3)
    return max(int(size / unit), 1)


def inputs(
    only: str | None, *, families: bool = True
) -> list[tuple[str, str, dict[str, Any] | None]]:
    """The corpus inputs and (unless ``families`` is false) the families, ~1 MB each."""
    out = [(n, t, o) for n, t, _, o in make_corpus.make_adversarial(SEED)]
    if families:
        out += [(f"family:{k}", f(family_n(f)), None) for k, f in FAMILIES.items()]
    return [x for x in out if only is None or only in x[0]]


def op_functions(options: dict[str, Any] | None, explain: bool) -> dict[str, Callable[[str], Any]]:
    """Each public pipeline, with the input's options where they apply."""
    import richout

    opts = options or {}
    media_kw = {
        "extract_markdown_images": bool(opts.get("extractMarkdownImages", False)),
        "markdown_image_allowlist": opts.get("markdownImageAllowlist"),
    }
    return {
        "media": lambda t: richout.split_media(t, explain=explain, **media_kw),
        "directives": lambda t: richout.parse_directives(t, explain=explain),
        "reply": lambda t: richout.parse_reply(t, explain=explain),
        "embed": lambda t: richout.extract_embeds(t, explain=explain),
        "render": lambda t: richout.render_reply(t, explain=explain),
    }


def stream(text: str) -> None:
    """Feed ``text`` to a streaming parser in 64-character chunks, then finish."""
    import richout

    p = richout.StreamingParser()
    for i in range(0, len(text), CHUNK):
        p.feed(text[i : i + CHUNK])
    p.finish()


def runs(args: argparse.Namespace, options: dict[str, Any] | None) -> dict[str, Callable[..., Any]]:
    if args.stream:
        return {"stream": stream}
    fns = op_functions(options, args.explain)
    return {op: fn for op, fn in fns.items() if op in args.ops.split(",")}


def timed(fn: Callable[[str], Any], text: str, repeat: int = 1) -> float:
    """The best of ``repeat`` timings of ``fn(text)``."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(text)
        best = min(best, time.perf_counter() - t0)
    return best


#: Touches every lazily built part (markdown-it's block and inline parsers, the grammars,
#: the URL parser and its IDNA tables, which ada builds on the first non-ASCII host: ~5 ms)
#: so that no hostile input pays the one-time set-up (~20 ms) for the others.
WARM_UP = (
    "```\nx\n```\n    code\n![a](https://x.test/a.png) `c`\n"
    "[[reply_to_current]] [[audio_as_voice]] [[reply_to:x]]\n"
    'MEDIA:/tmp/a.png\nMEDIA:https://x.test/b.png\n[embed ref="cv_1" /]\n| a |\n|---|\n'
    "MEDIA:https://bücher.example/c.png\n"
)


def _budget(mb: float) -> float:
    """Issue 8's budget for a run over ``mb`` MB, in seconds: 0.5 s per MB plus 5 ms."""
    return 0.5 * mb + 0.005


def warm_up(args: argparse.Namespace) -> None:
    """Run every op once, in the chosen mode, on :data:`WARM_UP` (not timed)."""
    for fn in runs(args, {"extractMarkdownImages": True}).values():
        fn(WARM_UP)


def growth(args: argparse.Namespace) -> int:
    """Each family at n and 4n (n sized ~256 KB): the time ratio per op."""
    print("| family | op | s at n | s at 4n | ratio |")
    print("|---|---|---:|---:|---:|")
    worst = 0.0
    for name, make in FAMILIES.items():
        if args.only and args.only not in name:
            continue
        n = family_n(make, MB // 4)
        small, large = make(n), make(4 * n)
        for op, fn in runs(args, None).items():
            # Best of two: a single timing of a 20 ms call can double on a busy machine.
            a, b = timed(fn, small, 2), timed(fn, large, 2)
            ratio = b / max(a, 1e-6)
            worst = max(worst, ratio)
            print(f"| {name} | {op} | {a:.3f} | {b:.3f} | {ratio:.1f} |", flush=True)
    print(f"\nworst ratio {worst:.1f} (4 is linear)")
    return 0


def main() -> int:
    """Time every op on every hostile input and print the worst cases."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default="media,directives,reply,embed,render")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--only", default=None, help="inputs whose name contains this")
    ap.add_argument(
        "--corpus-only",
        action="store_true",
        help="the corpus's adversarial.json inputs alone (issue 8's criterion), no families",
    )
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--explain", action="store_true", help="explain=True")
    mode.add_argument("--stream", action="store_true", help="StreamingParser, 64-byte chunks")
    ap.add_argument("--growth", action="store_true", help="families at n and 4n")
    ap.add_argument("--over", action="store_true", help="list every run over the budget")
    ap.add_argument(
        "--retime", type=int, default=2, help="extra timings of a run over the budget (best kept)"
    )
    args = ap.parse_args()
    warm_up(args)
    if args.growth:
        return growth(args)
    label = "stream" if args.stream else "explain" if args.explain else "plain"
    rows = []
    first_over = 0
    for name, text, options in inputs(args.only, families=not args.corpus_only):
        mb = max(len(text.encode("utf-8", "surrogatepass")) / 1e6, 1e-6)
        for op, fn in runs(args, options).items():
            dt = timed(fn, text)
            if dt > _budget(mb):
                first_over += 1
                if args.retime > 0:
                    dt = min(dt, timed(fn, text, args.retime))
            rows.append((dt / mb, dt, mb, op, name))
    rows.sort(reverse=True)
    print(f"mode {label}\n")
    print("| input | op | MB | s | s / MB |")
    print("|---|---|---:|---:|---:|")
    for per_mb, dt, mb, op, name in rows[: args.top]:
        print(f"| {name} | {op} | {mb:.2f} | {dt:.3f} | {per_mb:.3f} |")
    print("\nworst per op (by the budget, 0.5 s/MB + 5 ms):")
    for op in sorted({r[3] for r in rows}):
        w = max((r for r in rows if r[3] == op), key=lambda r: r[1] / _budget(r[2]))
        ok = "ok" if w[1] <= _budget(w[2]) else "OVER"
        print(f"  {op:10} {w[0]:7.3f} s/MB  {w[1]:7.3f} s  ({w[4]}, {w[2]:.2f} MB) {ok}")
    if args.over:
        over = [r for r in rows if r[1] > _budget(r[2])]
        print(f"\nover the budget: {len(over)} (at the first timing: {first_over})")
        for per_mb, dt, mb, op, name in over:
            print(f"  {name:40} {op:10} {mb:5.2f} MB {dt:7.3f} s {per_mb:7.3f} s/MB")
    total = sum(r[1] for r in rows)
    print(f"\n{len(rows)} runs, {total:.1f} s in all; worst {rows[0][0]:.3f} s/MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
