"""Fuzz every public entry point with texts built from the protocol's pieces.

    python benchmarks/fuzz.py [--seconds N] [--seed S] [--engine auto|atheris|random]

A case is a text joined from pieces of the protocol (``MEDIA:`` lines, quotes, backticks,
fences, list markers, ``>``, ``[[``/``]]`` tags, ``[embed``/``/]`` shortcodes and attributes,
Markdown links and images, CR, U+2028, NBSP, NUL, lone and paired surrogates, long runs),
a way of cutting it into stream chunks, and a choice of options. :func:`check` runs it
through every public text function (``richout.__all__``), the envelope functions that read
text, ``richout.faces.jsonl`` and ``StreamingParser``, in every profile, and asserts:

* nothing raises but ``richout.InvalidInput``, and every result serializes;
* ``richout.rebuild(result) == text`` for each text-side result, eager (``explain=True``) and
  lazy, and the lazy result's wire form equals the eager one;
* every reference ``split_media``, ``parse_reply`` and ``render_reply`` deliver passes the
  reference policy of the profile;
* the streaming spans partition the fed text and ``result()`` is ``parse_reply`` of it;
* ``jsonl`` answers each request line with exactly one line, never ``internal_error``, and
  its outputs equal the functions' wire forms.

Engines: ``atheris`` (coverage-guided libFuzzer, ``pip install atheris``) drives the piece
choices from its byte input; ``random`` is a plain seeded generator over the same pieces and
needs nothing. ``auto`` (the default) uses atheris when it imports. Either prints the
executions and, for the first failure, a minimal reproducer (the failing case shrunk by
deleting text while the same target fails the same way), then exits 1.
``tests/test_fuzz.py`` runs :func:`check` under Hypothesis with a small fixed budget.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import richout
from richout import envelope
from richout.faces import jsonl
from richout.policy import is_valid_reference

# --------------------------------------------------------------------------- the pieces

PIECES: tuple[str, ...] = (
    # MEDIA: lines and references
    "MEDIA:",
    "media:",
    "  MEDIA: ",
    "MEDIA:https://example.com/a.png",
    "MEDIA:/srv/a.png",
    "MEDIA:./b c.png",
    "MEDIA:~/x.ogg",
    "MEDIA:file:///srv/a%20b.png",
    "MEDIA:file://host/x",
    "MEDIA:http://127.0.0.1/x",
    "MEDIA:https://0x7f.1/x",
    "MEDIA:https://[::ffff:10.0.0.1]/x",
    "MEDIA:media://inbound/ab_1",
    'MEDIA:"/srv/q t.png"',
    "MEDIA:`/srv/c.png`",
    "MEDIA:C:\\x\\y.png",
    "MEDIA:\\\\host\\share\\z.png",
    "https://example.com/p.png",
    "/srv/x.png",
    "../",
    "x.png",
    "%2e%2e/",
    # quotes, code, containers
    '"',
    "'",
    "`",
    "``",
    "```",
    "~~~",
    "    ",
    "\t",
    "- ",
    "* ",
    "1. ",
    "+ ",
    ">",
    "> ",
    "|",
    " | ",
    "---",
    "# ",
    "**",
    "_",
    "\\",
    "<div>",
    "</div>",
    "&amp;",
    "&#xD83D;",
    # tags
    "[[",
    "]]",
    "[[reply_to_current]]",
    "[[reply_to:42]]",
    "[[reply_to: ]]",
    "[[reply_to:a\nb]]",
    "[[audio_as_voice]]",
    "[[reply_to_current]",
    "[[ reply_to:",
    "[[tts:x]]",
    "[",
    "]",
    # embeds
    "[embed ",
    '[embed ref="cv_1" /]',
    '[embed ref=\'x\' title="T" height="320" /]',
    '[embed url="https://example.com/c" height="200.5"]',
    "[/embed]",
    "/]",
    "[view ",
    ' ref="cv_1"',
    ' url="/__openclaw__/canvas/x"',
    ' height="1e3"',
    ' title="a\\"b"',
    " ref=unquoted",
    "=",
    # Markdown links and images
    "[a](",
    ")",
    "](",
    "![alt](",
    "![](https://example.com/i.png)",
    "![i](/srv/i.png)",
    "[x](`y`)",
    "<https://e.com/>",
    "<http://\ud83d\ude00.com/>",
    "[](\ud83d\ude00",
    "](<\ud83d",
    "(\ude00 ",
    # line breaks and odd spaces
    "\n",
    "\r",
    "\r\n",
    "\n\n",
    "\u2028",
    "\u2029",
    "\u0085",
    "\u00a0",
    "\u3000",
    "\ufeff",
    "\x00",
    "\x0b",
    "\x0c",
    "\x1c",
    # surrogates and other characters
    "\ud83d",
    "\ude00",
    "\ud83d\ude00",
    "\udcff",
    "😀",
    "é",
    # silent replies
    "NO_REPLY",
    "NO",
    "_REPLY",
    '"NO_REPLY"',
    '{"action": "NO_REPLY"}',
    "<think>",
    "</think>",
    # filler
    "x",
    " ",
    "  ",
    "word ",
    "Hello",
)

#: Pieces repeated into long runs (quadratic-cost hunting and deep nesting).
RUNS: tuple[str, ...] = (
    "[",
    "[[",
    "]]",
    "`",
    "> ",
    "- ",
    " ",
    "\n",
    "\r",
    "a",
    "MEDIA:x\n",
    "[[reply_to:",
    "[embed ",
    "![](",
    "\ud83d",
    "\\",
)

#: Characters the engines may also insert one by one (outside the pieces).
ODD_CHARS = "\x00\x01\t\n\r \u00a0\u2028\u200b\ud800\udbff\udc00\udfff\ufffd\U0001f600[]`>:/\"'="

PROFILES = tuple(richout.PROFILES)
PIPELINES = ("split_media", "parse_directives", "parse_reply", "extract_embeds", "render_reply")
CHANNELS = ("webchat", "telegram", "discord")


@dataclass(frozen=True)
class Case:
    """One fuzz input: the text, where the stream is cut, and the options."""

    text: str
    cuts: tuple[int, ...] = ()
    images: bool = False
    preserve: bool = False
    current: str | None = None
    role: str = "assistant"
    ascii_json: bool = False
    variant: int = 0

    def chunks(self) -> list[str]:
        """The text cut at ``cuts`` (each clamped to the text; empty chunks kept)."""
        bounds = [0, *sorted(min(c, len(self.text)) for c in self.cuts), len(self.text)]
        return [self.text[a:b] for a, b in itertools.pairwise(bounds)]


class FuzzFailure(AssertionError):
    """A property broke: ``target`` names the check, ``call`` a Python reproducer."""

    def __init__(self, target: str, kind: str, detail: str, call: str) -> None:
        super().__init__(f"{target}: {kind}: {detail}\n  reproduce: {call}")
        self.target = target
        self.kind = kind
        self.call = call

    @property
    def signature(self) -> tuple[str, str]:
        return self.target, self.kind


# --------------------------------------------------------------------------- the checks


def _call(target: str, call: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``; InvalidInput gives None, any other exception a failure."""
    try:
        return fn(*args, **kwargs)
    except richout.InvalidInput:
        return None
    except Exception as exc:
        raise FuzzFailure(target, type(exc).__name__, str(exc)[:300], call) from exc


def _expect(ok: bool, target: str, kind: str, detail: str, call: str) -> None:
    if not ok:
        raise FuzzFailure(target, kind, detail, call)


def _lossless(target: str, call: str, result: Any, text: str) -> None:
    """The result rebuilds ``text`` and serializes (to_wire and JSON)."""
    rebuilt = _call(target, call, richout.rebuild, result)
    _expect(rebuilt == text, target, "rebuild", f"rebuilt {rebuilt!r}", call)
    wire = _call(target, call + ".to_wire()", result.to_wire)
    _call(target, call + " -> json", json.dumps, wire)


def _eager_and_lazy(target: str, call: str, fn: Callable[..., Any], text: str, **kw: Any) -> Any:
    """Run ``fn`` eager and lazy; both rebuild ``text``; lazy explains as eager did."""
    eager = _call(target, f"{call}, explain=True)", fn, text, explain=True, **kw)
    lazy = _call(target, f"{call})", fn, text, **kw)
    if eager is None or lazy is None:
        return eager
    _lossless(target, f"{call}, explain=True)", eager, text)
    _lossless(target, f"{call})", lazy, text)
    _expect(
        lazy.to_wire() == eager.to_wire(), target, "lazy!=eager", "wire forms differ", call + ")"
    )
    return eager


def _policy(target: str, call: str, urls: list[str], profile: str) -> None:
    prof = richout.PROFILES[profile]
    for url in urls:
        ok = is_valid_reference(url, allow_spaces=True, allow_bare_filename=True, profile=prof)
        _expect(ok, target, "policy", f"delivered {url!r}", call)


#: Less common options, one set per ``Case.variant`` (0: defaults), for each function.
VARIANTS: tuple[dict[str, dict[str, Any]], ...] = (
    {},
    {
        "split_media": {"extract_media_directives": False},
        "parse_reply": {"extract_media_directives": False},
        "parse_directives": {"strip_audio_tag": False},
    },
    {
        "split_media": {"extract_audio_directives": False},
        "parse_directives": {"strip_reply_tags": False},
        "parse_reply": {"silent_token": "OK"},
    },
    {"split_media": {"markdown_image_allowlist": ["example.com", "*.example.com"]}},
)


def _kwargs(fname: str, case: Case, name: str) -> dict[str, Any]:
    """The keyword arguments ``fname`` gets for ``case`` in profile ``name``."""
    kw: dict[str, Any] = {}
    if fname in ("split_media", "parse_reply"):
        kw["extract_markdown_images"] = case.images
        kw["preserve_trailing_whitespace"] = case.preserve
    if fname in ("parse_directives", "parse_reply"):
        kw["current_message_id"] = case.current
    if fname == "render_reply":
        kw["role"] = case.role
    kw.update(VARIANTS[case.variant % len(VARIANTS)].get(fname, {}))
    kw["profile"] = name
    return kw


def check_text_side(case: Case) -> None:
    """Every text function of ``richout.__all__`` in every profile."""
    t = case.text
    for name in PROFILES:
        results: dict[str, Any] = {}
        calls: dict[str, str] = {}
        for fname in PIPELINES:
            kw = _kwargs(fname, case, name)
            args = ", ".join([repr(t), *(f"{k}={v!r}" for k, v in kw.items())])
            call = f"richout.{fname}({args}"
            calls[fname] = call + ")"
            results[fname] = _eager_and_lazy(fname, call, getattr(richout, fname), t, **kw)
        for fname, urls in (
            ("split_media", lambda r: r.media_urls),
            # parse_reply turns an accepted file: URL into a path; the path must pass too.
            ("parse_reply", lambda r: r.media_urls),
            ("render_reply", lambda r: [a["url"] for a in r.attachments]),
        ):
            if results[fname] is not None:
                _policy(fname, calls[fname], urls(results[fname]), name)
    _call("delivery_strip", f"richout.delivery_strip({t!r})", richout.delivery_strip, t)
    _call("is_silent", f"richout.is_silent({t!r})", richout.is_silent, t)
    token = t or "x"
    _call("is_silent", f"richout.is_silent({t!r}, {token!r})", richout.is_silent, t, token)
    _call("file_url_to_path", f"richout.file_url_to_path({t!r})", richout.file_url_to_path, t)


def check_streaming(case: Case) -> None:
    """StreamingParser over the case's chunks, in every profile."""
    chunks = case.chunks()
    for name in PROFILES:
        call = f"feed each of {chunks!r}, finish() (profile={name!r})"
        sp = richout.StreamingParser(profile=name)
        cursor = 0
        for i, piece in enumerate([*chunks, ""]):
            final = i == len(chunks)
            out = _call("streaming", call, sp.finish if final else sp.feed, piece)
            _expect(sp.consumed >= cursor, "streaming", "span", "consumed went back", call)
            if out is not None:
                _expect(
                    (out.raw_start, out.raw_end) == (cursor, sp.consumed),
                    "streaming",
                    "span",
                    f"chunk span {(out.raw_start, out.raw_end)} after {cursor}",
                    call,
                )
                _call("streaming", call, out.to_wire)
            cursor = sp.consumed
        _expect(cursor == len(case.text), "streaming", "span", "text not consumed", call)
        for d in sp.diagnostics:
            _expect(
                d.start is not None and d.end is not None and 0 <= d.start <= d.end <= cursor,
                "streaming",
                "diagnostic",
                f"{d.code} at {d.start}..{d.end}",
                call,
            )
        got = _call("streaming", call + "; result()", sp.result, case.current)
        got = got if got is None else got.to_wire()
        want = richout.parse_reply(case.text, current_message_id=case.current, profile=name)
        _expect(got == want.to_wire(), "streaming", "result", "result() != parse_reply", call)


def check_envelope(case: Case) -> None:
    """The envelope functions that read text (payloads, dedupe, sends, skills)."""
    t = case.text
    chunks = [c for c in case.chunks() if c]
    target = "envelope"
    for parse in (False, True):
        call = f"envelope.resolve_payload({{'text': {t!r}}}, parse_final_directives={parse})"
        res = _call(
            target,
            call,
            envelope.resolve_payload,
            {"text": t, "mediaUrls": chunks[:2]},
            parse_final_directives=parse,
            current_message_id=case.current,
            extract_markdown_images=case.images,
        )
        if res is not None:
            _call(target, call + ".to_wire()", res.to_wire)
    payload = _call(
        target,
        f"envelope.intake_payload({{'text': {t!r}}})",
        envelope.intake_payload,
        {"text": t, "mediaUrl": t},
    )
    if payload is not None:
        _call(target, "intake.to_wire()", payload.to_wire)
    _call(
        target,
        f"envelope.merge_final_directives(ReplyPayload(text={t!r}))",
        lambda: envelope.merge_final_directives(
            envelope.ReplyPayload(text=t), current_message_id=case.current
        ),
    )
    call = f"envelope text helpers on {t!r}"
    _call(target, call, envelope.message_tool_mode_findings, t)
    _call(target, call, envelope.normalize_for_duplicate, t)
    _call(target, call, envelope.is_duplicate_text, t, [t, *chunks])
    _call(target, call, envelope.ref_key, t)
    _call(target, call, envelope.ref_key, t, legacy=True)
    _call(target, call, envelope.same_ref, t, t)
    _call(target, call, envelope.posix_normalize, t)
    for channel in CHANNELS:
        _call(target, call, envelope.place_display_md, t, [t, {"display_md": t}], channel)
        got = _call(target, call, envelope.explain_display_md, t, [t], channel)
        if got is not None:
            _call(target, call, got.to_wire)
    got = _call(
        target,
        f"envelope.capture_commentary(channel='webchat', blocks=[{{'text': {t!r}}}], ...)",
        envelope.capture_commentary,
        channel="webchat",
        reply_mode="auto",
        captured_refs=chunks[:3],
        blocks=[{"text": c} for c in chunks] or [{"text": t}],
    )
    if got is not None:
        _call(target, call, got.to_wire)
    _call(target, call, envelope.background_text, {"message": t})
    for value in ({"success": False, "error": t}, {"ok": True, "text": t, "display_md": t}):
        got = _call(target, f"envelope.classify({value!r})", envelope.classify, value)
        if got is not None:
            _call(target, call, got.to_wire)
        _call(target, f"envelope.lint({value!r})", envelope.lint, value)
        _call(target, f"envelope.materialize_plan({value!r})", envelope.materialize_plan, value)
    send = {"action": "send", "message": t, "media": t, "attachments": chunks[:2]}
    _call(target, f"envelope.validate_send({send!r})", envelope.validate_send, send)
    _call(target, f"envelope.collect_send({send!r})", envelope.collect_send, send)
    _call(target, f"envelope.build_send([{t!r}], message=...)", envelope.build_send, [t], message=t)
    ledger_call = f"DeliveryLedger: blocks {chunks!r}, finalize([{{'text': {t!r}}}])"
    ledger = envelope.DeliveryLedger()
    for c in chunks:
        _call(target, ledger_call, ledger.record_block, {"text": c})
    _call(target, ledger_call, ledger.record_message_send, send)
    done = _call(
        target,
        ledger_call,
        ledger.finalize,
        [{"text": t}],
        parse_final_directives=True,
        current_message_id=case.current,
    )
    if done is not None:
        _call(target, ledger_call + ".to_wire()", done.to_wire)


_TEXT_OPS = {
    "media": lambda t, c, n: richout.split_media(
        t, extract_markdown_images=c.images, profile=n, explain=True
    ),
    "directives": lambda t, c, n: richout.parse_directives(
        t, current_message_id=c.current, profile=n, explain=True
    ),
    "reply": lambda t, c, n: richout.parse_reply(
        t, current_message_id=c.current, extract_markdown_images=c.images, profile=n, explain=True
    ),
    "embed": lambda t, c, n: richout.extract_embeds(t, profile=n, explain=True),
    "render": lambda t, c, n: richout.render_reply(t, profile=n, explain=True),
}


def _options(op: str, case: Case, name: str) -> dict[str, Any]:
    opts: dict[str, Any] = {"profile": name}
    if op in ("media", "reply"):
        opts["extractMarkdownImages"] = case.images
    if op in ("directives", "reply") and case.current is not None:
        opts["currentMessageId"] = case.current
    return opts


def _json_line(req: dict[str, Any], ascii_only: bool) -> str:
    """A request line as a client writes it: raw UTF-8, or escaped (always for surrogates)."""
    line = json.dumps(req, ensure_ascii=ascii_only)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(req, ensure_ascii=True)
    return line


def check_jsonl(case: Case) -> None:
    """One response line per request line, never internal_error; outputs match the API."""
    t = case.text
    lines: list[str] = []
    expected: list[Any] = []
    for name in PROFILES:
        for op, run in _TEXT_OPS.items():
            req = {"id": f"{op}/{name}", "op": op, "input": t, "options": _options(op, case, name)}
            line = _json_line(req, case.ascii_json)
            lines.append(line)
            # A JSON decoder joins an escaped surrogate pair into one character: expect what
            # the function gives for the decoded input; the response is JSON too, so compare
            # with the wire form read back the same way.
            wire = run(json.loads(line)["input"], case, name).to_wire()
            expected.append(json.loads(json.dumps(wire)))
    envelope_reqs: list[dict[str, Any]] = [
        {"op": "payload", "input": {"text": t}, "options": {"parseFinalDirectives": True}},
        {"op": "refKey", "input": t},
        {"op": "dedupe", "input": {"streamed": [{"text": t}], "final": {"text": t}}},
        {"op": "skillResult", "input": {"success": False, "error": t}},
    ]
    for i, req in enumerate(envelope_reqs):
        lines.append(_json_line({"id": f"env{i}", **req}, case.ascii_json))
        expected.append(None)
    # The raw text as a request line too (nearly always invalid_json).
    if "\n" not in t and t.strip(" \t\r\n"):
        lines.append(t)
        expected.append(None)
    call = f"printf %s {lines!r} | richout jsonl"
    out = io.StringIO()
    # Standard input is bytes: a raw surrogate (only possible in the raw text line) arrives
    # as bytes that are not UTF-8.
    raw_lines = [line.encode("utf-8", "surrogatepass") for line in lines]
    _call("jsonl", call, jsonl.serve, raw_lines, out)
    responses = out.getvalue().split("\n")
    _expect(responses[-1] == "", "jsonl", "lines", "output does not end in LF", call)
    responses.pop()
    _expect(
        len(responses) == len(lines),
        "jsonl",
        "lines",
        f"{len(lines)} requests, {len(responses)} responses",
        call,
    )
    for raw, want in zip(responses, expected, strict=True):
        resp = json.loads(raw)
        err = resp.get("error") or {}
        _expect(err.get("type") != "internal_error", "jsonl", "internal_error", raw[:300], call)
        if want is not None:
            _expect("output" in resp, "jsonl", "error", raw[:300], call)
            _expect(resp["output"] == want, "jsonl", "output", f"{resp['id']} differs", call)


CHECKS: dict[str, Callable[[Case], None]] = {
    "text": check_text_side,
    "streaming": check_streaming,
    "envelope": check_envelope,
    "jsonl": check_jsonl,
}


def check(case: Case, groups: tuple[str, ...] = tuple(CHECKS)) -> None:
    """Run the named check groups on ``case``; raise :class:`FuzzFailure` on a broken property."""
    for g in groups:
        try:
            CHECKS[g](case)
        except FuzzFailure:
            raise
        except RecursionError as exc:  # pragma: no cover - reported like any other failure
            raise FuzzFailure(g, "RecursionError", str(exc), repr(case)) from exc


# --------------------------------------------------------------------------- generating


def build_case(choose: Callable[[int], int], max_pieces: int = 24) -> Case:
    """A case from a source of choices (``choose(n)`` returns an int in ``[0, n)``)."""
    parts: list[str] = []
    for _ in range(choose(max_pieces + 1)):
        kind = choose(20)
        if kind == 0:
            run = RUNS[choose(len(RUNS))]
            parts.append(run * (1 + choose(400 if choose(8) == 0 else 40)))
        elif kind == 1:
            parts.append(ODD_CHARS[choose(len(ODD_CHARS))])
        else:
            parts.append(PIECES[choose(len(PIECES))])
    text = "".join(parts)
    cuts = tuple(choose(len(text) + 1) for _ in range(choose(6)))
    current = (None, "msg-1", " ", "\ud800")[choose(4)]
    return Case(
        text=text,
        cuts=cuts,
        images=choose(2) == 1,
        preserve=choose(4) == 0,
        current=current,
        role="assistant" if choose(8) else "user",
        ascii_json=choose(2) == 1,
        variant=choose(len(VARIANTS)) if choose(3) == 0 else 0,
    )


def random_cases(seed: int) -> Iterator[Case]:
    """Cases from a seeded ``random.Random`` (the plain engine)."""
    rng = random.Random(seed)
    while True:
        yield build_case(lambda n: rng.randrange(n) if n > 1 else 0)


# --------------------------------------------------------------------------- shrinking


def _fails_same(case: Case, signature: tuple[str, str], groups: tuple[str, ...]) -> bool:
    try:
        check(case, groups)
    except FuzzFailure as f:
        return f.signature == signature
    return False


def _group_of(target: str) -> tuple[str, ...]:
    if target in CHECKS:
        return (target,)
    if target in ("streaming", "envelope", "jsonl"):
        return (target,)
    return ("text",)


def minimize(case: Case, failure: FuzzFailure, budget: int = 3000) -> Case:
    """The case with as much text deleted as keeps the same failure (greedy ddmin)."""
    sig = failure.signature
    groups = _group_of(failure.target)
    tries = 0

    def fails(c: Case) -> bool:
        nonlocal tries
        tries += 1
        return _fails_same(c, sig, groups)

    defaults = Case(text="")
    for name in ("cuts", "images", "preserve", "current", "role", "ascii_json", "variant"):
        simpler = replace(case, **{name: getattr(defaults, name)})
        if simpler != case and fails(simpler):
            case = simpler
    size = max(len(case.text) // 2, 1)
    while size >= 1 and tries < budget:
        i = 0
        changed = False
        while i < len(case.text) and tries < budget:
            text = case.text[:i] + case.text[i + size :]
            cuts = tuple(c if c <= i else max(c - size, i) for c in case.cuts)
            cand = replace(case, text=text, cuts=cuts)
            if fails(cand):
                case = cand
                changed = True
            else:
                i += size
        if not changed:
            size //= 2
    return case


def report(case: Case, failure: FuzzFailure) -> str:
    """A failure and its shrunk reproducer, ready to paste into an issue."""
    small = minimize(case, failure)
    try:
        check(small, _group_of(failure.target))
        shrunk = failure
    except FuzzFailure as f:
        shrunk = f
    return (
        f"FAILURE in {failure.target} ({failure.kind})\n"
        f"  {shrunk}\n"
        f"  minimal case: {small!r}\n"
        f"  original case: {case!r}"
    )


# --------------------------------------------------------------------------- engines


@dataclass
class _Stats:
    executions: int = 0
    started: float = field(default_factory=time.monotonic)


def run_random(seconds: float, seed: int, groups: tuple[str, ...]) -> int:
    """The plain engine: seeded random cases until ``seconds`` have passed."""
    stats = _Stats()
    for case in random_cases(seed):
        if time.monotonic() - stats.started >= seconds:
            break
        stats.executions += 1
        try:
            check(case, groups)
        except FuzzFailure as f:
            print(report(case, f))
            print(f"engine random, seed {seed}: {stats.executions} executions, 1 failure")
            return 1
        if stats.executions % 500 == 0:
            elapsed = time.monotonic() - stats.started
            print(f"  {stats.executions} executions in {elapsed:.0f} s", flush=True)
    print(f"engine random, seed {seed}: {stats.executions} executions, 0 failures")
    return 0


def run_atheris(seconds: float, seed: int, groups: tuple[str, ...]) -> int:  # pragma: no cover
    """The coverage-guided engine: libFuzzer's bytes pick the pieces."""
    import os

    import atheris

    # Everything loaded so far (richout, markdown-it, lark, the policy) reports coverage.
    atheris.instrument_all()
    stats = _Stats()

    def one_input(data: bytes) -> None:
        if time.monotonic() - stats.started >= seconds:
            # libFuzzer ends the process from C, past Python's exit handlers: report first.
            print(f"engine atheris: {stats.executions} executions, 0 failures", flush=True)
            os._exit(0)
        fdp = atheris.FuzzedDataProvider(data)
        case = build_case(lambda n: fdp.ConsumeIntInRange(0, n - 1) if n > 1 else 0)
        stats.executions += 1
        try:
            check(case, groups)
        except FuzzFailure as f:
            print(report(case, f), flush=True)
            print(f"engine atheris: {stats.executions} executions, 1 failure", flush=True)
            raise

    argv = [
        sys.argv[0],
        f"-max_total_time={int(seconds) + 600}",
        f"-seed={seed}",
        "-rss_limit_mb=4096",
        "-max_len=512",
        "-len_control=0",
    ]
    atheris.Setup(argv, one_input)
    atheris.Fuzz()
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="how long to fuzz (default 60)")
    ap.add_argument("--seed", type=int, default=20261201, help="seed of either engine")
    ap.add_argument("--engine", choices=("auto", "atheris", "random"), default="auto")
    ap.add_argument(
        "--checks",
        default=",".join(CHECKS),
        help=f"comma-separated check groups (default: all of {','.join(CHECKS)})",
    )
    args = ap.parse_args(argv)
    groups = tuple(g for g in args.checks.split(",") if g)
    unknown = [g for g in groups if g not in CHECKS]
    if unknown:
        ap.error(f"unknown check group(s) {unknown}; known: {', '.join(CHECKS)}")
    engine = args.engine
    if engine == "auto":
        try:
            import atheris  # noqa: F401
        except ImportError:
            engine = "random"
        else:
            engine = "atheris"
    print(f"fuzzing for {args.seconds:g} s with the {engine} engine", flush=True)
    if engine == "atheris":
        return run_atheris(args.seconds, args.seed, groups)
    return run_random(args.seconds, args.seed, groups)


if __name__ == "__main__":
    sys.exit(main())
