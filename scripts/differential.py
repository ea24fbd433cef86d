"""Differential check between two `richout jsonl`-protocol programs on generated replies.

Generates deterministic assistant replies (prose, Markdown containers, code, every line-ending
style, MEDIA: lines, reply/audio tags, [embed] shortcodes, hostile references, whitespace
runs), sends each one to both programs for every reference op (media, directives, reply,
embed) and compares the fields the conformance spec compares for that op (JSONL.md): a key
that is absent equals one that is null, and an absent boolean flag equals false.

    python scripts/differential.py                    # richout vs the openclaw release driver
    python scripts/differential.py --count 500 --show 5 --json /tmp/diff.json
    python scripts/differential.py --b ".venv/bin/richout jsonl" --b-profile next

By default program A is `.venv/bin/richout jsonl` with `options.profile` set to `--profile`
(release-2026.9.6), and program B is `node scripts/openclaw_driver.mjs`, which needs the
package folder in OPENCLAW_DIR (see scripts/check_release.sh). Both run as long-lived
subprocesses, one request per line. Exit status: 0 when everything agrees, 1 on any
disagreement, 2 when a program cannot be run.

Standard library only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import shlex
import subprocess
import sys
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

SCRIPTS = Path(__file__).resolve().parent
REPO = SCRIPTS.parent

#: The fields compared for each reference op (JSONL.md, "Ops").
COMPARED: dict[str, tuple[str, ...]] = {
    "media": ("text", "mediaUrls", "audioAsVoice", "segments", "rejectedMediaCount"),
    "directives": (
        "text",
        "audioAsVoice",
        "replyToId",
        "replyToExplicitId",
        "replyToCurrent",
        "hasAudioTag",
        "hasReplyTag",
    ),
    "reply": (
        "text",
        "mediaUrls",
        "mediaUrl",
        "audioAsVoice",
        "replyToId",
        "replyToCurrent",
        "replyToTag",
        "isSilent",
    ),
    "embed": ("text", "previews"),
}
OPS: tuple[str, ...] = tuple(COMPARED)
CURRENT_MESSAGE_ID = "MSG_CUR"

Json = Any


# --------------------------------------------------------------------------------------------
# JSONL programs


class ProgramError(RuntimeError):
    """A program could not be started, died, or broke the protocol."""


class JsonlProgram:
    """A long-lived subprocess speaking the `richout jsonl` protocol."""

    def __init__(self, command: str, label: str) -> None:
        self.command = command
        self.label = label
        try:
            self._proc = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE
            )
        except OSError as exc:
            raise ProgramError(f"{label}: cannot start {command!r}: {exc}") from exc

    def _stdin(self) -> IO[bytes]:
        assert self._proc.stdin is not None
        return self._proc.stdin

    def _stdout(self) -> IO[bytes]:
        assert self._proc.stdout is not None
        return self._proc.stdout

    def run(self, requests: list[dict[str, Json]]) -> list[dict[str, Json]]:
        """Sends every request (pipelined) and returns the responses, in order."""
        failure: list[BaseException] = []

        def feed() -> None:
            try:
                stdin = self._stdin()
                for request in requests:
                    stdin.write(json.dumps(request, ensure_ascii=True).encode("ascii") + b"\n")
                stdin.flush()
            except (BrokenPipeError, OSError) as exc:  # reported by the reader below
                failure.append(exc)

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        responses: list[dict[str, Json]] = []
        stdout = self._stdout()
        for request in requests:
            line = stdout.readline()
            if not line:
                status = self._proc.poll()
                raise ProgramError(
                    f"{self.label}: {self.command!r} ended (status {status}) before answering "
                    f"request {request.get('id')!r}" + (f" ({failure[0]})" if failure else "")
                )
            try:
                response = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise ProgramError(
                    f"{self.label}: answered with a line that is not JSON: {exc}"
                ) from exc
            if not isinstance(response, dict) or response.get("id") != request.get("id"):
                raise ProgramError(
                    f"{self.label}: answer {line[:200]!r} does not match request "
                    f"{request.get('id')!r}"
                )
            responses.append(response)
        writer.join()
        return responses

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._stdin().close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()

    def __enter__(self) -> JsonlProgram:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------------------------
# Comparison (JSONL.md, "Conformance cases")


def strip_nulls(value: Json) -> Json:
    """Drops null-valued object keys at every depth (absent == null)."""
    if isinstance(value, dict):
        return {key: strip_nulls(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [strip_nulls(item) for item in value]
    return value


def canonical(value: Json) -> str:
    """A string that is equal for two JSON values exactly when the spec calls them equal."""
    return json.dumps(strip_nulls(value), sort_keys=True, ensure_ascii=False)


def compared_fields(op: str, output: dict[str, Json]) -> dict[str, Json]:
    """The compared top-level fields of an output; null and false count as absent."""
    fields: dict[str, Json] = {}
    for key in COMPARED[op]:
        value = output.get(key)
        if value is None or value is False:
            continue
        fields[key] = strip_nulls(value)
    return fields


def differing_keys(op: str, a: dict[str, Json], b: dict[str, Json]) -> list[str]:
    fa, fb = compared_fields(op, a), compared_fields(op, b)
    return [key for key in COMPARED[op] if canonical(fa.get(key)) != canonical(fb.get(key))]


# --------------------------------------------------------------------------------------------
# Reply generator

WORDS = (
    "the",
    "chart",
    "is",
    "ready",
    "here",
    "see",
    "attached",
    "render",
    "final",
    "version",
    "of",
    "report",
    "done",
    "ok",
    "note:",
    "this",
    "is",
    "a",
    "plain",
    "sentence",
    "with",
    "media",
    "and",
    "MEDIA",
    "words",
    "but",
    "no",
    "directive",
)

URLS = (
    "https://example.com/a.png",
    "https://cdn.example.org/path/to/image.jpg?x=1&y=2",
    "https://example.com/a%20b.png",
    "https://example.com/files/report.pdf#page=2",
    "https://EXAMPLE.com/Upper.PNG",
    "http://example.com/a.png",
    "https://example.com/a.png)",
    "https://example.com/a.png,",
)
PATHS = (
    "/tmp/a.png",
    "/tmp/album.v1/photo.png copy.png",
    "/Users/pete/My Files/render final.png",
    "/tmp/my file.png",
    "./out/chart.svg",
    "~/Pictures/cat.jpg",
    "C:\\Users\\pete\\a.png",
    "C:/data/b.wav",
    "\\\\server\\share\\a.png",
    "media/inbound/image.png",
    "out/b.mp3",
    "report.pdf",
    "screenshot",
    "/tmp/a.png and some words after it",
    "/tmp/dir with spaces/x.mp4 trailing",
)
QUOTED = (
    '"/tmp/my file.png"',
    "'/tmp/b.png'",
    "`/tmp/c.png`",
    '"/tmp/b.png" "/tmp/c.png"',
    "'/tmp/b.png' '/tmp/c.png'",
    '["/a.png","/b.png"]',
    '["/a.png", "/b.png"]',
    "`/a.png /b.png`",
    '"/tmp/unclosed.png',
    "'a.png', 'b.png'",
    '{"path":"/tmp/x.png"}',
    '"/tmp/x.png\\"',
)
HOSTILE = (
    "https://10.0.0.1/a.png",
    "https://127.0.0.1/a.png",
    "https://192.168.1.20/x.png",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/a.png",
    "https://[2606:4700::1111]/a.png",
    "https://[fd00::1]/a.png",
    "https://[::ffff:127.0.0.1]/a.png",
    "https://user:pass@example.com/a.png",
    "https://user@example.com/a.png",
    "https://localhost/a.png",
    "https://metadata.google.internal/a.png",
    "https://printer.local/a.png",
    "https://0x7f.1/a.png",
    "https://2130706433/a.png",
    "https://example..com/a.png",
    "../etc/passwd",
    "/tmp/../etc/shadow.png",
    "~root/a.png",
    "~/../x.png",
    "..\\windows\\a.png",
    "file:///etc/passwd",
    "file:/tmp/a.png",
    "file://localhost/tmp/a.png",
    "file:///tmp/my%20file.png",
    "media://inbound/abc.png",
    "media://inbound/../x.png",
    "data:image/png;base64,iVBORw0KGgo=",
    "javascript:alert(1)",
    "ftp://example.com/a.png",
)
REPLY_TAGS = (
    "[[reply_to_current]]",
    "[[ reply_to_current ]]",
    "[[REPLY_TO_CURRENT]]",
    "[[reply_to:12345]]",
    "[[reply_to: abc-123 ]]",
    "[[reply_to:]]",
    "[[reply_to:a b]]",
    "[[reply_to:msg_9]]",
)
AUDIO_TAGS = ("[[audio_as_voice]]", "[[ audio_as_voice ]]", "[[AUDIO_AS_VOICE]]")
EMBEDS = (
    '[embed ref="cv_1" /]',
    '[embed ref="cv_2" title="Status" /]',
    "[embed ref='cv_3' height=\"480\" /]",
    '[embed url="https://example.com/canvas" /]',
    '[embed url="/__openclaw__/canvas/x/index.html" title="T"]body[/embed]',
    '[embed ref="cv_4" target="node_panel" /]',
    '[embed ref="cv 5" class="wide" style="color: red" /]',
    '[embed ref="" /]',
    "[embed /]",
    '[EMBED ref="cv_6" /]',
    "[embedded] is not a shortcode",
    '[embed ref="cv_7" height="90" /]',
)
IMAGES = (
    "![chart](https://example.com/chart.png)",
    "![x](/tmp/a.png)",
    '![a](https://10.0.0.1/a.png "title")',
    "![](https://example.com/b.jpg)",
    "![alt text](<https://example.com/c d.png>)",
)
SPACES = (" ", " ", " ", "  ", "   ", "\t", " \t ")
ENDINGS = ("\n", "\r\n", "\r")


@dataclass
class Reply:
    """One generated reply and the media options it is parsed with."""

    index: int
    text: str
    media_options: dict[str, Json] = field(default_factory=dict)


class ReplyGenerator:
    """Deterministic replies built from Markdown blocks and directive fragments."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    # small pieces --------------------------------------------------------------------------

    def pick(self, items: tuple[str, ...]) -> str:
        return self.rng.choice(items)

    def space(self) -> str:
        return self.pick(SPACES) if self.rng.random() < 0.3 else " "

    def words(self, low: int = 2, high: int = 9) -> str:
        count = self.rng.randint(low, high)
        out = self.rng.choice(WORDS)
        for _ in range(count - 1):
            out += self.space() + self.rng.choice(WORDS)
        return out

    def reference(self) -> str:
        roll = self.rng.random()
        if roll < 0.25:
            return self.pick(URLS)
        if roll < 0.5:
            return self.pick(PATHS)
        if roll < 0.65:
            return self.pick(QUOTED)
        if roll < 0.9:
            return self.pick(HOSTILE)
        # several references on one line
        count = self.rng.randint(2, 3)
        parts = [self.pick(URLS + PATHS[:8] + HOSTILE) for _ in range(count)]
        return self.rng.choice((" ", "  ", ", ", ",")).join(parts)

    def media_directive(self) -> str:
        keyword = self.rng.choice(("MEDIA:", "MEDIA:", "MEDIA:", "media:", "Media:"))
        gap = self.rng.choice(("", "", " ", "  ", "\t"))
        payload = self.reference()
        if self.rng.random() < 0.1:
            payload = f"`{payload}`"
        tail = self.rng.choice(("", "", "", " ", "  ", "\t"))
        return f"{keyword}{gap}{payload}{tail}"

    def inline(self) -> str:
        """Something to drop inside a line of prose."""
        roll = self.rng.random()
        if roll < 0.2:
            return self.pick(REPLY_TAGS)
        if roll < 0.35:
            return self.pick(AUDIO_TAGS)
        if roll < 0.5:
            return self.pick(EMBEDS)
        if roll < 0.6:
            return self.pick(IMAGES)
        if roll < 0.75:
            inner = self.rng.choice(
                (self.pick(REPLY_TAGS), self.pick(EMBEDS), "MEDIA:/tmp/a.png", self.words(1, 3))
            )
            return f"`{inner}`"
        if roll < 0.85:
            return self.media_directive()
        return self.words(1, 3)

    def prose_line(self) -> str:
        line = self.words()
        for _ in range(self.rng.choice((0, 0, 1, 1, 2))):
            pieces = line.split(" ")
            at = self.rng.randint(0, len(pieces))
            pieces.insert(at, self.inline())
            line = self.space().join(pieces) if self.rng.random() < 0.2 else " ".join(pieces)
        if self.rng.random() < 0.15:
            line += self.rng.choice(("  ", " ", "\t"))
        return line

    def content_line(self) -> str:
        roll = self.rng.random()
        if roll < 0.35:
            return self.media_directive()
        if roll < 0.5:
            return self.pick(REPLY_TAGS + AUDIO_TAGS)
        if roll < 0.6:
            return self.pick(EMBEDS)
        return self.prose_line()

    # blocks ----------------------------------------------------------------------------------

    def block(self) -> list[str]:
        roll = self.rng.random()
        if roll < 0.2:
            return [self.prose_line() for _ in range(self.rng.randint(1, 2))]
        if roll < 0.4:
            indent = self.rng.choice(("", "", "", " ", "  ", "   "))
            return [indent + self.media_directive()]
        if roll < 0.48:
            return [self.rng.choice(("", " ", "  ")) + self.pick(REPLY_TAGS + AUDIO_TAGS)]
        if roll < 0.54:
            return [self.pick(EMBEDS)]
        if roll < 0.62:
            marker = self.rng.choice(("- ", "* ", "1. ", "2) ", "  - ", "+ "))
            return [marker + self.content_line() for _ in range(self.rng.randint(1, 3))]
        if roll < 0.68:
            marker = self.rng.choice(("> ", ">", "> > "))
            return [marker + self.content_line() for _ in range(self.rng.randint(1, 2))]
        if roll < 0.78:
            return self.fence()
        if roll < 0.83:
            return ["", *("    " + self.content_line() for _ in range(self.rng.randint(1, 2)))]
        if roll < 0.88:
            return self.table()
        if roll < 0.95:
            return [self.rng.choice(("", "", " ", "\t"))] * self.rng.randint(1, 4)
        return ["MEDIA:" + self.space() + self.pick(PATHS) + self.space() + self.words(1, 3)]

    def fence(self) -> list[str]:
        indent = self.rng.choice(("", "", "", " ", "  "))
        opener = self.rng.choice(("```", "```", "```python", "~~~", "````", "``` sh"))
        lines = [indent + opener]
        lines += [self.content_line() for _ in range(self.rng.randint(1, 3))]
        roll = self.rng.random()
        if roll < 0.8:
            closer = (
                "~~~" if opener.startswith("~") else opener[: len(opener) - len(opener.lstrip("`"))]
            )
            lines.append(indent + closer)
        elif roll < 0.9:
            lines.append("   ```")
        # else: left unclosed
        return lines

    def table(self) -> list[str]:
        def cell() -> str:
            pad = self.rng.choice(("", " ", "  "))
            content = self.rng.choice(
                (self.words(1, 2), self.pick(REPLY_TAGS), self.media_directive(), "`code`")
            )
            return f"{pad}{content}{pad}"

        cols = self.rng.randint(2, 3)
        rows = [
            "| " + " | ".join(self.words(1, 1) for _ in range(cols)) + " |",
            "|" + "|".join("---" for _ in range(cols)) + "|",
        ]
        for _ in range(self.rng.randint(1, 2)):
            rows.append("|" + "|".join(cell() for _ in range(cols)) + "|")
        return rows

    # replies ---------------------------------------------------------------------------------

    def reply(self, index: int) -> Reply:
        if self.rng.random() < 0.02:
            text = self.rng.choice(("NO_REPLY", " NO_REPLY ", "NO_REPLY\n", "no_reply"))
            return Reply(index, text)
        lines: list[str] = []
        if self.rng.random() < 0.1:
            lines += [""] * self.rng.randint(1, 2)
        for _ in range(self.rng.randint(1, 6)):
            lines += self.block()
        mode = self.rng.random()
        if mode < 0.55:
            text = "\n".join(lines)
        elif mode < 0.75:
            text = "\r\n".join(lines)
        elif mode < 0.85:
            text = "\r".join(lines)
        else:
            text = lines[0] if lines else ""
            for line in lines[1:]:
                text += self.pick(ENDINGS) + line
        if self.rng.random() < 0.15:
            text += self.rng.choice(("\n", "\r\n", "  ", "\n\n\n"))
        options: dict[str, Json] = {}
        roll = self.rng.random()
        if roll < 0.1:
            options["extractMarkdownImages"] = True
        elif roll < 0.14:
            options["markdownImageAllowlist"] = [
                self.rng.choice(("/tmp/a.png", "file:///tmp/a.png"))
            ]
        return Reply(index, text, options)


def generate(count: int, seed: int) -> list[Reply]:
    gen = ReplyGenerator(seed)
    return [gen.reply(index) for index in range(count)]


def base_options(op: str, reply: Reply) -> dict[str, Json]:
    if op == "media":
        return dict(reply.media_options)
    if op in ("directives", "reply"):
        return {"currentMessageId": CURRENT_MESSAGE_ID}
    return {}


# --------------------------------------------------------------------------------------------
# Running


def negotiate_extras(program: JsonlProgram, wanted: dict[str, Json]) -> dict[str, Json]:
    """The subset of `wanted` options (profile, explain) the program accepts."""
    attempts = [dict(wanted)]
    if "explain" in wanted:
        attempts.append({k: v for k, v in wanted.items() if k != "explain"})
    if wanted:
        attempts.append({})
    for extras in attempts:
        probe = {"id": "probe", "op": "media", "input": "probe", "options": extras}
        response = program.run([probe])[0]
        error = response.get("error")
        if not (isinstance(error, dict) and error.get("type") == "invalid_options"):
            dropped = sorted(set(wanted) - set(extras))
            if dropped:
                print(
                    f"note: {program.label} refuses options {dropped}; sent without them",
                    file=sys.stderr,
                )
            return extras
    return {}


@dataclass
class Disagreement:
    op: str
    index: int
    input: str
    options: dict[str, Json]
    keys: list[str]
    a: Json
    b: Json


def run(args: argparse.Namespace) -> int:
    replies = generate(args.count, args.seed)
    ops = [args.op] if args.op else list(OPS)
    wanted_a: dict[str, Json] = {"explain": False}
    if args.profile:
        wanted_a["profile"] = args.profile
    wanted_b: dict[str, Json] = {"explain": False}
    if args.b_profile:
        wanted_b["profile"] = args.b_profile

    requests: list[tuple[str, Reply]] = [(op, reply) for reply in replies for op in ops]
    results: dict[str, list[dict[str, Json]]] = {}
    errors: list[BaseException] = []
    try:
        with JsonlProgram(args.a, "A") as prog_a, JsonlProgram(args.b, "B") as prog_b:
            extras = {
                "A": negotiate_extras(prog_a, wanted_a),
                "B": negotiate_extras(prog_b, wanted_b),
            }

            def drive(program: JsonlProgram) -> None:
                batch = [
                    {
                        "id": f"{op}-{reply.index}",
                        "op": op,
                        "input": reply.text,
                        "options": {**base_options(op, reply), **extras[program.label]},
                    }
                    for op, reply in requests
                ]
                try:
                    results[program.label] = program.run(batch)
                except BaseException as exc:
                    errors.append(exc)

            threads = [threading.Thread(target=drive, args=(p,)) for p in (prog_a, prog_b)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    except ProgramError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if errors:
        print(f"error: {errors[0]}", file=sys.stderr)
        return 2

    totals: Counter[str] = Counter()
    agreed: Counter[str] = Counter()
    key_counts: dict[str, Counter[str]] = {op: Counter() for op in ops}
    error_counts: Counter[str] = Counter()
    disagreements: list[Disagreement] = []
    for (op, reply), ra, rb in zip(requests, results["A"], results["B"], strict=True):
        totals[op] += 1
        if "error" in ra or "error" in rb:
            same_error = (
                "error" in ra
                and "error" in rb
                and ra["error"].get("type") == rb["error"].get("type")
            )
            if same_error:
                agreed[op] += 1
                continue
            error_counts[op] += 1
            keys = ["error"]
            a_out, b_out = ra.get("error", ra.get("output")), rb.get("error", rb.get("output"))
        else:
            keys = differing_keys(op, ra["output"], rb["output"])
            if not keys:
                agreed[op] += 1
                continue
            a_out = compared_fields(op, ra["output"])
            b_out = compared_fields(op, rb["output"])
        key_counts[op].update(keys)
        disagreements.append(
            Disagreement(op, reply.index, reply.text, base_options(op, reply), keys, a_out, b_out)
        )

    print(f"A = {args.a}  (profile {args.profile or '-'})")
    print(f"B = {args.b}  (profile {args.b_profile or '-'})")
    print(f"{args.count} replies, seed {args.seed}")
    for op in ops:
        pct = 100.0 * agreed[op] / totals[op] if totals[op] else 100.0
        detail = ", ".join(f"{key} {n}" for key, n in key_counts[op].most_common())
        line = f"{op}: {agreed[op]}/{totals[op]} ({pct:.1f}%)"
        if detail:
            line += f"  differing: {detail}"
        if error_counts[op]:
            line += f"  (error on one side: {error_counts[op]})"
        print(line)

    if args.show:
        shown: Counter[str] = Counter()
        for item in disagreements:
            if shown[item.op] >= args.show:
                continue
            shown[item.op] += 1
            print(f"\n--- {item.op} reply #{item.index} differs on {', '.join(item.keys)}")
            print(f"input:   {json.dumps(item.input, ensure_ascii=False)}")
            if item.options:
                print(f"options: {json.dumps(item.options)}")
            print(f"A:       {json.dumps(item.a, ensure_ascii=False)}")
            print(f"B:       {json.dumps(item.b, ensure_ascii=False)}")

    if args.json:
        payload = [
            {
                "op": d.op,
                "reply": d.index,
                "input": d.input,
                "options": d.options,
                "keys": d.keys,
                "a": d.a,
                "b": d.b,
            }
            for d in disagreements
        ]
        Path(args.json).write_text(
            json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        print(f"\n{len(payload)} disagreements written to {args.json}")
    return 1 if disagreements else 0


def main(argv: list[str] | None = None) -> int:
    default_a = f"{shlex.quote(str(REPO / '.venv' / 'bin' / 'richout'))} jsonl"
    default_b = f"node {shlex.quote(str(SCRIPTS / 'openclaw_driver.mjs'))}"
    parser = argparse.ArgumentParser(
        description="Compare two jsonl programs on generated replies, op by op."
    )
    parser.add_argument("--count", type=int, default=2000, help="replies to generate (2000)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (1)")
    parser.add_argument("--a", default=default_a, help="program A (default: richout jsonl)")
    parser.add_argument(
        "--b", default=default_b, help="program B (default: the openclaw release driver)"
    )
    parser.add_argument(
        "--profile",
        default="release-2026.9.6",
        help="options.profile sent to A ('' for none; default release-2026.9.6)",
    )
    parser.add_argument("--b-profile", default="", help="options.profile sent to B (none)")
    parser.add_argument("--op", choices=OPS, help="only this op")
    parser.add_argument("--show", type=int, default=3, metavar="K", help="examples per op (3)")
    parser.add_argument("--json", metavar="FILE", help="write every disagreement to FILE")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
