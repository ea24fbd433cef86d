# Vendored from the project's shared corpus generator (../shared/corpus/make_corpus.py) so a
# fresh checkout can benchmark and run the adversarial tests without the shared tree.
# Deterministic: same seed, same output. Do not edit here; refresh the copy instead.
#!/usr/bin/env python3
"""Deterministic synthetic corpora of assistant replies for benchmarking and hardening richout.

Writes into --out (default: the current directory):
  replies.json            JSON array of >= 2,000 synthetic assistant replies (strings)
  replies_meta.json       [{"index", "category", "bytes"}] one per reply
  adversarial.json        JSON array of ~60 pathological inputs (strings)
  adversarial_meta.json   [{"index", "name", "note", "options"?}] one per input
  replies_in.jsonl        `richout jsonl` requests for replies.json (3 ops per reply)
  adversarial_in.jsonl    `richout jsonl` requests for adversarial.json (3 ops per input)

Usage: python3 make_corpus.py [--seed N] [--count N] [--out DIR]
Same seed + same script => byte-identical files.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------------------
# Vocabulary for assistant-style prose
# ---------------------------------------------------------------------------
OPENERS = [
    "Sure!", "Got it.", "Done.", "Here's what I found.", "Good question.", "Okay, quick update:",
    "Thanks for the details.", "I checked this for you.", "Short answer: yes.", "Short answer: not quite.",
    "Happy to help.", "Let me break this down.", "Here is a summary.", "All set.", "I looked into it.",
]
SUBJECTS = [
    "the deployment", "your calendar", "the build", "this function", "the migration", "the invoice",
    "the report", "the cron job", "your inbox", "the API response", "the database index", "the meeting notes",
    "the flight", "the config file", "the test suite", "the dashboard", "the release", "the backup",
    "the Docker image", "the spreadsheet", "the pull request", "the weather forecast", "the recipe",
]
VERBS = [
    "looks healthy", "was updated", "needs one more change", "is scheduled for tomorrow", "failed twice",
    "finished in 42 seconds", "is blocked on review", "has three open questions", "now passes locally",
    "was rolled back", "is waiting on approval", "uses about 2.3 GB", "timed out after 30s",
    "matches the spec", "drifted from the plan", "is ready to merge", "was archived",
]
CLAUSES = [
    "so you can safely ignore the warning", "which should fix the flaky test", "if you want I can retry",
    "because the token expired", "after the last restart", "once the cache warms up", "as we discussed",
    "unless you prefer the old behaviour", "and nothing else changed", "according to the logs",
    "without touching production", "but the numbers look odd", "so I left a note in the ticket",
]
FILLER = [
    "Let me know if you want more detail.", "I can also send a shorter version.",
    "Nothing urgent on your side.", "I'll keep an eye on it.", "Ping me if anything breaks.",
    "This should take five minutes.", "I double-checked the timestamps.", "No action needed right now.",
    "The next step is yours.", "I kept the original file as a backup.",
]
WORDS = (
    "alpha beta gamma delta service worker queue latency token cache branch commit merge review "
    "deploy staging production rollback metric alert budget invoice receipt schedule meeting agenda "
    "summary draft outline chapter figure table column row index schema field value payload header "
    "request response timeout retry backoff cluster node replica shard volume snapshot archive"
).split()
NON_ASCII_SENTENCES = [
    "Voilà, c'est fait — le rapport est prêt.",
    "Die Übersicht ist fertig; größere Änderungen gab es nicht.",
    "代码已经更新，测试全部通过。",
    "日程を確認しました。明日の会議は10時からです。",
    "Готово, я обновил конфигурацию.",
    "¡Listo! El archivo está en la carpeta compartida.",
    "완료했습니다. 다음 단계는 검토입니다.",
    "Done ✅ — took about 3 min 🚀",
    "مرحبا، تم تحديث الملف.",
]
LANGS = ["python", "js", "ts", "bash", "json", "yaml", "go", "rust", "sql", "text", ""]
CODE_LINES = {
    "python": ["def main():", "    print('hello')", "    return 0", "for i in range(3):", "    total += i", "import os"],
    "js": ["const x = 1;", "function f(a) {", "  return a * 2;", "}", "console.log(f(x));"],
    "ts": ["export type A = { id: string };", "const a: A = { id: 'x' };", "async function run(): Promise<void> {}"],
    "bash": ["set -euo pipefail", "ls -la /tmp", "grep -rn TODO src/ | head", "echo \"done\""],
    "json": ["{", "  \"name\": \"demo\",", "  \"version\": \"1.0.0\",", "  \"private\": true", "}"],
    "yaml": ["services:", "  web:", "    image: nginx:1.27", "    ports:", "      - \"8080:80\""],
    "go": ["package main", "func main() {", "\tfmt.Println(\"hi\")", "}"],
    "rust": ["fn main() {", "    let v = vec![1, 2, 3];", "    println!(\"{:?}\", v);", "}"],
    "sql": ["SELECT id, name", "FROM users", "WHERE created_at > now() - interval '1 day';"],
    "text": ["plain text block", "second line", "  indented line"],
    "": ["something", "else"],
}


def sentence(r: random.Random) -> str:
    kind = r.random()
    if kind < 0.55:
        s = f"{r.choice(SUBJECTS).capitalize()} {r.choice(VERBS)}, {r.choice(CLAUSES)}."
    elif kind < 0.75:
        s = r.choice(FILLER)
    elif kind < 0.93:
        n = r.randint(6, 16)
        s = " ".join(r.choice(WORDS) for _ in range(n)).capitalize() + r.choice([".", ".", "!", "?"])
    else:
        s = r.choice(NON_ASCII_SENTENCES)
    # light inline markdown, no directives
    roll = r.random()
    if roll < 0.07:
        w = r.choice(WORDS)
        s = s.replace(" ", f" `{w}` ", 1)
    elif roll < 0.12:
        s = f"**{s}**"
    elif roll < 0.15:
        s = s + f" See https://docs.example.com/{r.choice(WORDS)}/{r.randint(1, 999)}."
    return s


def paragraph(r: random.Random, max_sentences: int = 6) -> str:
    return " ".join(sentence(r) for _ in range(r.randint(1, max_sentences)))


def prose_to_length(r: random.Random, target: int) -> str:
    parts = [r.choice(OPENERS)]
    size = len(parts[0].encode())
    while size < target:
        p = paragraph(r)
        parts.append(p)
        size += len(p.encode()) + 2
    text = "\n\n".join(parts) if r.random() < 0.8 else " ".join(parts)
    return text


# ---------------------------------------------------------------------------
# Markdown building blocks
# ---------------------------------------------------------------------------
def md_list(r: random.Random) -> str:
    lines = []
    ordered = r.random() < 0.35
    for i in range(r.randint(2, 7)):
        bullet = f"{i + 1}." if ordered else r.choice(["-", "*", "+"])
        lines.append(f"{bullet} {sentence(r)}")
        if r.random() < 0.3:
            for _ in range(r.randint(1, 3)):
                lines.append(f"  {r.choice(['-', '*'])} {sentence(r)}")
                if r.random() < 0.2:
                    lines.append(f"    - {r.choice(WORDS)} {r.choice(WORDS)}")
    return "\n".join(lines)


def md_quote(r: random.Random) -> str:
    lines = [f"> {sentence(r)}" for _ in range(r.randint(1, 4))]
    if r.random() < 0.3:
        lines.append(f">> {sentence(r)}")
    return "\n".join(lines)


def md_table(r: random.Random) -> str:
    cols = r.randint(2, 5)
    head = [r.choice(WORDS).capitalize() for _ in range(cols)]
    rows = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] * cols) + "|"]
    for _ in range(r.randint(1, 8)):
        rows.append("| " + " | ".join(str(r.choice([r.randint(0, 9999), r.choice(WORDS), f"{r.random():.2f}"])) for _ in range(cols)) + " |")
    return "\n".join(rows)


def md_fence(r: random.Random, body: list[str] | None = None) -> str:
    lang = r.choice(LANGS)
    marker = "~~~" if r.random() < 0.12 else ("````" if r.random() < 0.05 else "```")
    if body is None:
        pool = CODE_LINES[lang]
        body = [r.choice(pool) for _ in range(r.randint(1, 10))]
    return "\n".join([f"{marker}{lang}", *body, marker])


def md_indented_code(r: random.Random, body: list[str] | None = None) -> str:
    if body is None:
        body = [r.choice(CODE_LINES["python"]).strip() for _ in range(r.randint(1, 4))]
    return "\n".join(("\t" if r.random() < 0.2 else "    ") + b for b in body)


def md_heading(r: random.Random) -> str:
    return f"{'#' * r.randint(1, 3)} {r.choice(SUBJECTS).capitalize()}"


def markdown_reply(r: random.Random, target: int) -> str:
    blocks = [r.choice(OPENERS)]
    size = len(blocks[0])
    makers: list[Callable[[random.Random], str]] = [md_list, md_quote, md_table, md_fence, md_heading, paragraph, md_indented_code]
    weights = [4, 2, 2, 3, 2, 4, 1]
    while size < target:
        maker = r.choices(makers, weights)[0]
        b = maker(r)
        if maker is md_indented_code:
            blocks.append("")  # indented code needs a blank line before it
        blocks.append(b)
        size += len(b.encode()) + 2
    return "\n\n".join(blocks)


# ---------------------------------------------------------------------------
# MEDIA: references
# ---------------------------------------------------------------------------
def media_ref(r: random.Random) -> str:
    name = f"{r.choice(WORDS)}_{r.randint(1, 99999)}"
    ext = r.choice(["png", "jpg", "jpeg", "gif", "webp", "mp3", "ogg", "opus", "mp4", "pdf", "wav", "svg"])
    kind = r.random()
    if kind < 0.30:
        host = r.choice(["cdn.example.com", "images.example.org", "files.acme.io", "media.example.net", "s3.amazonaws.com/bucket-x"])
        q = f"?sig={r.getrandbits(64):x}&exp={r.randint(10**9, 2 * 10**9)}" if r.random() < 0.3 else ""
        return f"https://{host}/{r.choice(WORDS)}/{name}.{ext}{q}"
    if kind < 0.50:
        return r.choice([f"/tmp/openclaw/{name}.{ext}", f"/tmp/tts-{r.getrandbits(24):06x}/voice-{r.randint(10**12, 2 * 10**12)}.opus",
                         f"/Users/pete/Downloads/{name}.{ext}", f"/home/agent/.openclaw/media/out/{name}.{ext}",
                         f"/var/folders/x/{name}.{ext}"])
    if kind < 0.62:
        return r.choice([f"~/Pictures/{name}.{ext}", f"~/.openclaw/media/browser/{name}.{ext}", f"~/Desktop/Screen Shot {r.randint(1, 28)}.png"])
    if kind < 0.70:
        return f"./{r.choice(['out', 'screenshots', 'media', 'build'])}/{name}.{ext}"
    if kind < 0.80:
        q = r.choice(['"', "'", "`"])
        inner = r.choice([f"/Users/pete/My Files/{name} final.{ext}", f"~/Pictures/My File {r.randint(1, 9)}.{ext}",
                          f"/tmp/{name}.{ext}", f"https://cdn.example.com/a b/{name}.{ext}"])
        return f"{q}{inner}{q}"
    if kind < 0.84:
        return f"C:\\Users\\pete\\Pictures\\{name}.{ext}"
    if kind < 0.87:
        return f"file:///tmp/{name}.{ext}"
    if kind < 0.90:
        return f"{name}.{ext}"  # bare filename
    if kind < 0.93:
        return f"/tmp/{name}.{ext} /tmp/{name}_2.{ext}"  # two refs on one line
    # invalid / rejected forms, all realistic model mistakes
    return r.choice([
        f"http://example.com/{name}.{ext}", f"https://localhost/{name}.{ext}", f"https://127.0.0.1/{name}.{ext}",
        f"https://192.168.1.20/{name}.{ext}", f"../../{name}.{ext}", "screenshot", f"https://intranet/{name}.{ext}",
        f"https://user:pw@example.com/{name}.{ext}", f"https://169.254.169.254/latest/meta-data",
    ])


def media_line(r: random.Random) -> str:
    ref = media_ref(r)
    style = r.random()
    if style < 0.70:
        return f"MEDIA:{ref}"
    if style < 0.85:
        return f"MEDIA: {ref}"
    if style < 0.90:
        return f"  MEDIA:{ref}"
    if style < 0.94:
        return f"MEDIA:`{ref}`"
    if style < 0.97:
        return f"media:{ref}"  # lowercase directive
    return f"Media: {ref}"


def media_reply(r: random.Random, target: int) -> str:
    lines = []
    if r.random() < 0.85:
        lines.append(prose_to_length(r, max(40, target // 2)))
    for _ in range(r.choices([1, 2, 3], [6, 3, 1])[0]):
        lines.append(media_line(r))
        if r.random() < 0.25:
            lines.append(sentence(r))
    if r.random() < 0.5:
        lines.append(prose_to_length(r, max(30, target // 3)))
    if r.random() < 0.1:
        lines.insert(0, "[[audio_as_voice]]")
    return "\n".join(lines) if r.random() < 0.7 else "\n\n".join(lines)


def media_in_code_reply(r: random.Random, target: int) -> str:
    ref = media_ref(r)
    kind = r.random()
    head = prose_to_length(r, max(40, target // 3))
    if kind < 0.35:
        block = md_fence(r, [f"# example directive", f"MEDIA:{ref}", "echo done"])
    elif kind < 0.50:
        block = "~~~text\n" + f"MEDIA:{ref}" + "\n~~~"
    elif kind < 0.75:
        block = f"To attach a file, write `MEDIA:{ref}` on its own line."
    elif kind < 0.90:
        block = "\n" + md_indented_code(r, ["# directive example", f"MEDIA: {ref}"])
    else:
        block = f"```\nMEDIA:{ref}\n``` not a closing fence\nMEDIA:{media_ref(r)}"
    parts = [head, block]
    if r.random() < 0.3:
        parts.append(media_line(r))  # one real directive outside the code
    parts.append(paragraph(r))
    return "\n\n".join(parts)


def tag_reply(r: random.Random, target: int) -> str:
    body = prose_to_length(r, target) if r.random() < 0.6 else markdown_reply(r, target)
    tag = r.choice([
        "[[audio_as_voice]]", "[[reply_to_current]]", "[[reply_to:abc123]]", "[[ reply_to : 12345 ]]",
        "[[reply_to: msg_9f8e7d ]]", "[[ audio_as_voice ]]", "[[REPLY_TO_CURRENT]]", "[[reply_to:]]",
    ])
    where = r.random()
    if where < 0.55:
        out = f"{tag} {body}" if r.random() < 0.6 else f"{tag}\n{body}"
    elif where < 0.80:
        out = f"{body}\n{tag}"
    else:
        words = body.split(" ")
        k = r.randint(0, len(words))
        out = " ".join(words[:k] + [tag] + words[k:])
    if r.random() < 0.25:
        out = "[[reply_to_current]] " + out
    if r.random() < 0.2:
        out += "\n" + media_line(r)
    return out


def embed_reply(r: random.Random, target: int) -> str:
    parts = [prose_to_length(r, max(40, target // 2))]
    for i in range(r.randint(1, 3)):
        title = r.choice(["x", "Quarterly chart", "CV draft", "Map", "Résumé"])
        extra = r.choice(["", ' height="320"', ' kind="canvas"'])
        parts.append(f'[embed ref="cv_{i + 1}" title="{title}"{extra} /]')
    if r.random() < 0.4:
        parts.append(paragraph(r))
    return "\n\n".join(parts)


def prose_with_media_word(r: random.Random, target: int) -> str:
    text = prose_to_length(r, target)
    phrase = r.choice(["Social media: it drove most of the traffic.", "Media: none attached this time.",
                       "Mixed media: watercolor and ink.", "The MEDIA: tag fails to deliver sometimes."])
    words = text.split(" ")
    k = r.randint(0, len(words))
    return " ".join(words[:k] + [phrase] + words[k:])


def mixed_reply(r: random.Random, target: int) -> str:
    parts = [markdown_reply(r, target // 2), media_line(r)]
    if r.random() < 0.5:
        parts.append(md_fence(r, [f"MEDIA:{media_ref(r)}"]))
    parts.append(r.choice(["[[audio_as_voice]]", "[[reply_to_current]]", '[embed ref="cv_1" title="x" /]']))
    r.shuffle(parts)
    return "\n\n".join(parts)


CATEGORIES: list[tuple[str, float, Callable[[random.Random, int], str]]] = [
    ("plain_prose", 0.60, prose_to_length),
    ("prose_mentions_media_word", 0.02, prose_with_media_word),
    ("markdown", 0.12, markdown_reply),
    ("media_directives", 0.11, media_reply),
    ("media_in_code", 0.05, media_in_code_reply),
    ("directive_tags", 0.06, tag_reply),
    ("embed_shortcodes", 0.02, embed_reply),
    ("mixed", 0.02, mixed_reply),
]


def target_length(r: random.Random) -> int:
    # log-normal around a median of ~800 bytes, clipped to [50, 20000]
    v = int(math.exp(r.gauss(math.log(730), 0.95)))
    return max(50, min(20000, v))


def clip_bytes(text: str, target: int, r: random.Random) -> str:
    """Keep replies inside [50 B, 20 KB]; trim overly long ones at a line boundary."""
    hard_max = 20000
    data = text.encode()
    if len(data) <= hard_max:
        return text
    cut = data[:hard_max].decode("utf-8", errors="ignore")
    nl = cut.rfind("\n")
    return cut[:nl] if nl > 50 else cut


def make_replies(seed: int, count: int) -> tuple[list[str], list[dict]]:
    r = random.Random(seed)
    names = [c[0] for c in CATEGORIES]
    weights = [c[1] for c in CATEGORIES]
    fns = {c[0]: c[2] for c in CATEGORIES}
    replies, meta = [], []
    for i in range(count):
        cat = r.choices(names, weights)[0]
        target = target_length(r)
        text = clip_bytes(fns[cat](r, target), target, r)
        while len(text.encode()) < 50:
            text += " " + sentence(r)
        replies.append(text)
        meta.append({"index": i, "category": cat, "bytes": len(text.encode())})
    return replies, meta


# ---------------------------------------------------------------------------
# Adversarial inputs
# ---------------------------------------------------------------------------
def make_adversarial(seed: int) -> list[tuple[str, str, str, dict | None]]:
    r = random.Random(seed + 1)
    MB = 1 << 20
    prose_line = " ".join(r.choice(WORDS) for _ in range(200000))[:MB]
    A: list[tuple[str, str, str, dict | None]] = []

    def add(name: str, text: str, note: str, options: dict | None = None) -> None:
        A.append((name, text, note, options))

    # --- size / fast-path vs slow-path -------------------------------------
    add("one_mb_single_line_prose", prose_line, "1 MB single line, no directive (fast path)")
    add("one_mb_single_line_then_media", prose_line + "\nMEDIA:/tmp/a.png", "1 MB line + one MEDIA line (slow path over 1 MB)")
    add("one_mb_media_payload_no_spaces", "MEDIA:/" + "a" * MB, "MEDIA: with a 1 MB payload without spaces")
    add("one_mb_media_payload_spaces", "MEDIA:" + " x" * (MB // 2), "MEDIA: payload of 512k space-separated parts")
    add("media_token_x100k_no_sep", "MEDIA:" * 100_000, "'MEDIA:' repeated 100k times on one line")
    add("media_token_x100k_space_sep", "MEDIA: " * 100_000, "'MEDIA: ' repeated 100k times on one line")
    add("media_lines_x100k", "\n".join(f"MEDIA:/tmp/x{i}.png" for i in range(100_000)), "100k valid MEDIA lines")
    add("media_lines_x20k_https", "\n".join(f"MEDIA:https://cdn.example.com/i/{i}.png" for i in range(20_000)), "20k https MEDIA lines (URL parse each)")
    add("one_mb_many_lines_prose_then_media", "\n".join(paragraph(r) for _ in range(6000)) + "\nMEDIA:/tmp/a.png", "~1 MB multi-line prose + MEDIA")

    # --- [[ directive tags ------------------------------------------------
    add("open_brackets_x100k", "[[" * 100_000, "100k '[[' on one line")
    add("open_brackets_x100k_lines", "[[\n" * 100_000, "100k '[[' lines")
    add("audio_tag_x50k", "[[audio_as_voice]] " * 50_000, "50k audio tags")
    add("reply_to_unclosed_x20k", "[[reply_to:x " * 20_000, "20k unclosed '[[reply_to:x' on one line (REPLY_TAG_RE backtracking)")
    add("reply_to_unclosed_x5k", "[[reply_to:x " * 5_000, "5k unclosed '[[reply_to:x' (scaling point)")
    add("reply_to_spaces_20k_unclosed", "[[reply_to:" + " " * 20_000 + "x", "'[[reply_to:' + 20k spaces, no closing ]] (nested \\s* / group overlap)")
    add("reply_to_spaces_5k_unclosed", "[[reply_to:" + " " * 5_000 + "x", "'[[reply_to:' + 5k spaces (scaling point)")
    add("audio_tag_spaces_100k", "[[" + " " * 100_000 + "audio", "'[[' + 100k spaces + 'audio' (no close)")

    # --- backticks / fences -----------------------------------------------
    add("backticks_50k_plain", "`" * 50_000, "50k backticks, no directive (fast path)")
    add("backticks_50k_with_media", "MEDIA:/tmp/a.png\n" + "`" * 50_000 + "\nafter", "50k-backtick line in slow path")
    add("backticks_2k_with_media", "MEDIA:/tmp/a.png\n" + "`" * 2_000 + "\nafter", "2k-backtick line in slow path (scaling point)")
    add("backticks_500_with_media", "MEDIA:/tmp/a.png\n" + "`" * 500 + "\nafter", "500-backtick line in slow path (scaling point)")
    add("backticks_50k_directives_only", "`" * 50_000 + "\n[[reply_to_current]]", "50k backticks + reply tag")
    add("media_payload_50k_backticks", "MEDIA:" + "`" * 50_000, "MEDIA: followed by 50k backticks")
    add("media_path_50k_quotes_then_x", "MEDIA:/tmp/" + "'" * 50_000 + "x.png", "quote run inside a MEDIA path (cleanCandidate trailing-strip regex)")
    add("media_path_5k_quotes_then_x", "MEDIA:/tmp/" + "'" * 5_000 + "x.png", "scaling point for the quote run")
    add("inline_code_pairs_25k", "MEDIA:/tmp/a.png\n" + "``x`` " * 25_000, "25k inline double-backtick spans")
    add("fence_markers_10k_plain", "```\n" * 10_000, "10k fence marker lines, no directive (fast path)")
    add("fence_markers_10k_with_media", "MEDIA:/tmp/a.png\n" + "```\n" * 10_000 + "MEDIA:/tmp/b.png", "10k fence marker lines in slow path (per-line span scan)")
    add("fence_markers_40k_with_media", "MEDIA:/tmp/a.png\n" + "```\n" * 40_000 + "MEDIA:/tmp/b.png", "40k fence marker lines in slow path (scaling point)")
    add("fence_backticks_then_cr_20k", "MEDIA:/tmp/a.png\n" + "`" * 20_000 + "\rX", "20k backticks then a lone CR (FENCE_LINE_RE backtracking)")
    add("fence_backticks_then_u2028_20k", "MEDIA:/tmp/a.png\n" + "`" * 20_000 + "\u2028X", "20k backticks then U+2028")
    add("tilde_fences_unclosed_10k", "MEDIA:/tmp/a.png\n" + "~~~ x\n" * 10_000, "10k tilde fences that never close (info string blocks close)")

    # --- whitespace runs ---------------------------------------------------
    add("space_run_100k_mid_line_with_media", "MEDIA:/tmp/a.png\nx" + " " * 100_000 + "y", "100k-space run inside a kept line ([ \\t]+$ style regexes)")
    add("space_run_20k_mid_line_with_media", "MEDIA:/tmp/a.png\nx" + " " * 20_000 + "y", "20k-space run (scaling point)")
    add("tab_run_100k_mid_line_with_tag", "[[audio_as_voice]]\nx" + "\t" * 100_000 + "y", "100k-tab run with audio tag")
    add("blank_lines_100k_with_media", "MEDIA:/tmp/a.png" + "\n" * 100_000 + "end", "100k blank lines")
    add("spaces_newlines_alternating", "MEDIA:/tmp/a.png\n" + " \n" * 200_000, "200k ' \\n' lines")

    # --- nesting -------------------------------------------------------------
    add("nested_list_1000", "MEDIA:/tmp/a.png\n" + "\n".join("  " * i + f"- item {i}" for i in range(1000)), "1000-level nested list")
    add("nested_quote_1000", "MEDIA:/tmp/a.png\n" + "\n".join("> " * i + f"level {i}" for i in range(1, 1001)), "1000-level nested blockquote")
    add("nested_quote_1000_media", ("> " * 1000) + "MEDIA:/tmp/x.png", "MEDIA inside 1000 nested blockquotes")
    add("brackets_nested_20k", "MEDIA:/tmp/a.png\n" + "[" * 20_000 + "]" * 20_000, "20k nested [ ]")

    # --- markdown images (extractMarkdownImages) ---------------------------
    img_opts = {"extractMarkdownImages": True}
    add("img_openers_100k", "![" * 100_000, "100k '![' on one line (> 20k line cap)", img_opts)
    add("img_openers_lines_19998", "\n".join(["![" * 9_999] * 50), "50 lines of 9,999 '![' (below the 20k line cap)", img_opts)
    add("img_unclosed_alt_lines", "\n".join(["![" + "a" * 19_990] * 50), "50 lines with an unclosed alt text", img_opts)
    add("img_many_valid_one_line", " ".join(f"![i](https://cdn.example.com/{i}.png)" for i in range(400)), "400 images on one line (50/line cap)", img_opts)
    add("img_paren_depth_10k", "![x](https://example.com/" + "(" * 9_000 + ")", "deep paren nesting in a destination", img_opts)

    # --- differential hazards (JS semantics a Python port must copy) --------
    add("crlf_line_endings", "Here you go\r\nMEDIA:/tmp/a.png\r\n[[audio_as_voice]]\r\nThanks\r\n", "CRLF line endings")
    add("u2028_line_separator", "Caption\u2028MEDIA:/tmp/a.png\u2029more", "U+2028/2029 are not line breaks for split('\\n') (Python splitlines() differs)")
    add("nel_x85_between_paths", "MEDIA:/tmp/a.png\x85/tmp/b.png", "U+0085: Python \\s matches it, JS \\s does not")
    add("file_separator_x1c", "MEDIA:/tmp/a.png\x1c/tmp/b.png", "U+001C: Python \\s/strip() treat it as space, JS does not")
    add("bom_ufeff_between_paths", "\ufeffMEDIA:/tmp/a.png\ufeff/tmp/b.png", "U+FEFF: JS \\s and trim() include it, Python does not")
    add("nbsp_between_paths", "MEDIA:/tmp/a.png\u00a0/tmp/b.png", "NBSP inside a MEDIA payload")
    add("dotless_i_media", "medıa:/tmp/a.png\nMEDİA:/tmp/b.png", "toUpperCase() maps dotless/dotted I to 'MEDIA:'")
    add("non_ascii_extension", "MEDIA:photo.jpé\nMEDIA:报告.图片\nMEDIA:image.png", "ASCII-only \\w in JS regexes vs Unicode \\w in Python")
    add("url_numeric_hosts", "\n".join([
        "MEDIA:https://0x7f.0.0.1/a.png", "MEDIA:https://2130706433/a.png", "MEDIA:https://127.1/a.png",
        "MEDIA:https://[::ffff:127.0.0.1]/a.png", "MEDIA:https://[fd00:ec2::254]/a.png", "MEDIA:https://100.100.100.200/a.png",
        "MEDIA:https://198.18.0.1/a.png", "MEDIA:https://[64:ff9b::8.8.8.8]/a.png", "MEDIA:https://[2002:7f00:1::]/a.png",
    ]), "WHATWG URL host canonicalisation + SSRF IP policy")
    add("url_weird_forms", "\n".join([
        "MEDIA:https://EXAMPLE.com./A.PNG", "MEDIA:https://ex%41mple.com/a.png", "MEDIA:https://例え.jp/a.png",
        "MEDIA:https://example.com:99999/a.png", "MEDIA:https://user:pw@example.com/a.png", "MEDIA:https:\\\\example.com\\a.png",
        "MEDIA:HTTPS://example.com/a.png", "MEDIA:https://a......b.com/a.png", "MEDIA:https://exa mple.com/a.png",
    ]), "WHATWG URL parsing corner cases")
    add("lone_surrogate_in_path", "MEDIA:/tmp/\ud83d.png\nok", "lone UTF-16 surrogate inside a path")
    add("nul_and_controls", "MEDIA:/tmp/a\x00b.png\nx\x07y\x1b[31mred\x1b[0m", "NUL and control characters")
    add("json_tail_after_path", 'MEDIA:/path/to/image.png"}],"details":{"provider":"openai"}', "serialized JSON after the extension")
    add("empty_and_ws_only", " \t\n\r\n  ", "whitespace-only input")
    return A


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20260520)
    ap.add_argument("--count", type=int, default=2400)
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    out_dir = args.out
    os.makedirs(out_dir, exist_ok=True)

    replies, meta = make_replies(args.seed, args.count)
    adv = make_adversarial(args.seed)

    def dump(name: str, obj) -> None:
        with open(os.path.join(out_dir, name), "w", encoding="utf-8", newline="\n") as f:
            json.dump(obj, f, ensure_ascii=True, indent=None if isinstance(obj, list) and obj and isinstance(obj[0], str) else 1)
            f.write("\n")

    dump("replies.json", replies)
    dump("replies_meta.json", meta)
    dump("adversarial.json", [a[1] for a in adv])
    dump("adversarial_meta.json", [
        {"index": i, "name": n, "note": note, **({"options": o} if o else {}), "chars": len(t)}
        for i, (n, t, note, o) in enumerate(adv)
    ])

    def ops_for(id_prefix: str, text: str, options: dict | None) -> list[dict]:
        media_opts = options or None
        img_opts = {**(options or {}), "extractMarkdownImages": True}
        out = [{"id": f"{id_prefix}:media", "op": "media", "input": text}]
        if media_opts:
            out[0]["options"] = media_opts
        if not (options or {}).get("extractMarkdownImages"):
            out.append({"id": f"{id_prefix}:media+img", "op": "media", "input": text, "options": img_opts})
        out.append({"id": f"{id_prefix}:directives", "op": "directives", "input": text, "options": {"currentMessageId": "msg-1"}})
        return out

    with open(os.path.join(out_dir, "replies_in.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        for i, text in enumerate(replies):
            for rec in ops_for(f"r{i:05d}", text, None):
                f.write(json.dumps(rec, ensure_ascii=True) + "\n")
    with open(os.path.join(out_dir, "adversarial_in.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        for i, (name, text, _note, options) in enumerate(adv):
            for rec in ops_for(f"a{i:02d}:{name}", text, options):
                f.write(json.dumps(rec, ensure_ascii=True) + "\n")

    sizes = sorted(m["bytes"] for m in meta)
    cats: dict[str, int] = {}
    for m in meta:
        cats[m["category"]] = cats.get(m["category"], 0) + 1
    print(f"replies: {len(replies)}  bytes total={sum(sizes)}  min={sizes[0]}  median={sizes[len(sizes) // 2]}  max={sizes[-1]}")
    print("categories:", json.dumps(cats, sort_keys=True))
    print(f"adversarial: {len(adv)} inputs, total chars={sum(len(a[1]) for a in adv)}")


if __name__ == "__main__":
    main()
