"""``[[audio_as_voice]]``, ``[[reply_to_current]]`` and ``[[reply_to:<id>]]`` (TAGS.md §1-§6).

:func:`parse_directives` reads the tags the way the reference does, in two stages:

1. audio tags on the input text (code regions of the input);
2. reply tags on the text after the audio tags were removed and their gaps closed (code
   regions of that text);

then closes the reply gaps and, when any tag outside code was recognised (or the text has no
``[[`` at all), normalises the message boundaries (§5.1). Each stage records a patch over its
own input; the composed patch is the result's ``edits``, so ``rebuild(result) == text``.

Everything is linear in the input: candidate ``[[`` are found by head regexes that cannot
backtrack, the first ``]`` after a value is remembered across candidates, the grammar only
sees one candidate slice at a time, and every gap is closed with amortised O(1) work.

The readers (:func:`read_audio_tag`, :class:`ReplyTagReader`, :func:`read_reply_tag`) and
:func:`sanitize_reply_id` are shared with the delivery strip (§7.1) and the streaming parser.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from richout.errors import InvalidInput, require_bool, require_str
from richout.markdown.codemap import CodeMap
from richout.models import Directives, Span, rerun
from richout.models.diagnostics import Diagnostics
from richout.models.lossless import edit_records
from richout.profiles import DEFAULT_PROFILE, NEXT, Profile, resolve_profile
from richout.tags.close import close_sites, normalize_boundaries
from richout.tags.code import StageCode
from richout.tags.release_result import release_directives
from richout.tags.scan import (
    AUDIO_HEAD,
    MAX_REPLY_ID_LENGTH,
    REPLY_HEAD,
    UNSAFE_ID_CHARS,
    Finder,
    ReplyHead,
    ReplyTagReader,
    TagKind,
    TagMatch,
    read_audio_at,
    sanitize_reply_id,
    ws_end,
)
from richout.text.chars import js_trim
from richout.text.patch import compose, offset_mapper

__all__ = [
    "MAX_REPLY_ID_LENGTH",
    "ReplyTagReader",
    "TagKind",
    "TagMatch",
    "parse_directives",
    "read_audio_tag",
    "read_reply_tag",
    "sanitize_reply_id",
]


# tag.unknown candidates: "[[" directly followed by a name character (§10).
_UNKNOWN_HEAD = re.compile(r"\[\[[A-Za-z0-9_:-]+")
_SHOW_MAX = 60


def read_audio_tag(text: str, pos: int) -> TagMatch | None:
    """A complete audio tag (§1.1) starting exactly at ``pos`` (a ``[[``), or None."""
    return read_audio_at(text, pos)


def read_reply_tag(text: str, pos: int) -> TagMatch | None:
    """A complete reply tag (§1.2-§1.4) starting exactly at ``pos``, or None.

    One-off convenience: to read many positions of one text use a :class:`ReplyTagReader`,
    which keeps the walk linear.
    """
    return ReplyTagReader(text).read(pos)


# --------------------------------------------------------------------------- helpers


def _clip(text: str, start: int, end: int) -> str:
    """``text[start:end]`` cut just past what :func:`_show` displays.

    A run of malformed tags on one long line would otherwise copy the rest of the line once
    per tag (quadratic); the message shows at most ``_SHOW_MAX`` characters anyway.
    """
    return text[start : min(end, start + _SHOW_MAX + 1)]


def _show(s: str) -> str:
    """A construct quoted for a message, shortened when long."""
    if len(s) > _SHOW_MAX:
        s = s[: _SHOW_MAX - 1] + "…"
    return repr(s)


class _Ends:
    """End of a malformed construct (§10): the first ``]]`` (included), ``\\n`` or the end.

    Malformed heads are met left to right, so both searches are remembered (linear walk).
    """

    __slots__ = ("_dclose", "_lf", "n", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self._dclose: Finder | None = None
        self._lf: Finder | None = None

    def __call__(self, start: int) -> int:
        if self._lf is None or self._dclose is None:
            self._lf = Finder(self.text, "\n")
            self._dclose = Finder(self.text, "]]")
        lf = self._lf.find(start + 2)
        dclose = self._dclose.find(start + 2)
        if lf < dclose:
            return lf
        return min(dclose + 2, self.n)


def _malformed_reason(text: str, close_at: int) -> str:
    """Why ``[[`` + name (audio or current) did not form a tag; ``close_at`` follows the name."""
    if close_at >= len(text):
        return "nothing closes it before the end of the message"
    if text[close_at] == "]":
        return "it is closed by a single ']' instead of ']]'"
    return "other text follows the tag name"


class _Sink:
    """Diagnostics of one call, with spans in input offsets."""

    __slots__ = ("claimed", "diags", "explain", "strip_audio", "strip_reply")

    def __init__(self, text: str, strip_audio: bool, strip_reply: bool, explain: bool) -> None:
        #: findings are recorded only when explaining (outputs never need them)
        self.explain = explain
        self.diags = Diagnostics(text)
        self.strip_audio = strip_audio
        self.strip_reply = strip_reply
        # Input ranges already explained (tags, in-code tags, malformed heads): a tag.unknown
        # candidate inside one of them is part of that construct.
        self.claimed: list[tuple[int, int]] = []

    def in_code(self, start: int, end: int, kind: TagKind, literal: str) -> None:
        self.claimed.append((start, end))
        what = "audio" if kind == "audio" else "reply"
        self.diags.add(
            "tag.in_code",
            "info",
            f"{_show(literal)} is inside code (a code span or block), so it stays literal text "
            f"and sets no {what} directive; move it outside the code to make it a tag.",
            start,
            end,
        )

    def malformed(self, start: int, end: int, construct: str, fix: str, reason: str) -> None:
        self.claimed.append((start, end))
        self.diags.add(
            "tag.malformed",
            "warning",
            f"{_show(construct)} looks like a tag but is not one: {reason}. It stays visible "
            f"as text; write {fix}.",
            start,
            end,
        )

    def unknown(self, start: int, end: int, construct: str) -> None:
        self.diags.add(
            "tag.unknown",
            "info",
            f"{_show(construct)} is not a tag this layer reads ([[audio_as_voice]], "
            "[[reply_to_current]], [[reply_to:<id>]]); it is left as text.",
            start,
            end,
        )


class _Reply:
    """A reply tag recognised outside code, in stage-2 and input offsets."""

    __slots__ = ("end", "id", "in_end", "in_start", "kind", "start")

    def __init__(self, tag: TagMatch, in_start: int, in_end: int, id_: str | None) -> None:
        self.start = tag.start
        self.end = tag.end
        self.kind = tag.kind
        self.in_start = in_start
        self.in_end = in_end
        self.id = id_


# --------------------------------------------------------------------------- stages


def _audio_stage(text: str, code: StageCode, sink: _Sink) -> list[tuple[int, int]]:
    """§4.1: audio tags outside code, left to right, non-overlapping."""
    found: list[tuple[int, int]] = []
    ends = _Ends(text)
    for m in AUDIO_HEAD.finditer(text):
        # A head spans only "[[", whitespace and the name: no other "[[" can start inside it,
        # and after a tag the rest of it is whitespace and "]]", so finditer's resumption
        # point never skips a candidate.
        p = m.start()
        tag = read_audio_at(text, p)
        if tag is not None:
            if code.in_code(p):
                if sink.explain:
                    sink.in_code(p, tag.end, "audio", _clip(text, p, tag.end))
            else:
                found.append((p, tag.end))
            continue
        if not sink.explain or code.in_code(p):
            continue
        end = ends(p)
        sink.malformed(
            p,
            end,
            _clip(text, p, end),
            "[[audio_as_voice]]",
            _malformed_reason(text, ws_end(text, m.end())),
        )
    return found


def _reply_malformed(
    text: str,
    p: int,
    *,
    head: ReplyHead,
    reader: ReplyTagReader,
    sink: _Sink,
    to_input: _Map,
    ends: _Ends,
) -> None:
    if not sink.explain:
        return
    if head.kind == "current":
        reason = _malformed_reason(text, head.value_start)
        fix = "[[reply_to_current]]"
    else:
        fix = "[[reply_to:<id>]]"
        v = head.value_start
        close = reader.first_close(v)
        if close >= len(text):
            reason = "no ']]' closes it"
        elif not text.startswith("]]", close):
            reason = "the first ']' after the id is not doubled (a single ']', or a ']' in the id)"
        elif close == v:
            reason = "the id is empty (nothing, or only line feeds, after the colon)"
        else:
            reason = "the id contains a line feed"
    end = ends(p)
    sink.malformed(to_input(p), _end_in_input(to_input, p, end), _clip(text, p, end), fix, reason)


_Map = Callable[[int], int]


def _identity(pos: int) -> int:
    return pos


def _end_in_input(to_input: _Map, start: int, end: int) -> int:
    """Input offset of the exclusive ``end`` of a stage range ``[start, end)``.

    Mapped through its last character, so a deletion that starts right after the range (an
    audio tag removed next to a reply tag) is not pulled into it. That character is never an
    inserted space: the closing inserts one only in front of content.
    """
    return to_input(end - 1) + 1 if end > start else to_input(start)


def _reply_stage(
    text: str, code: StageCode, sink: _Sink, to_input: _Map, reader: ReplyTagReader
) -> list[_Reply]:
    """§4.2-§4.3: reply tags read at each ``[[`` of the text after the audio stage."""
    found: list[_Reply] = []
    resume = 0
    ends = _Ends(text)
    for m in REPLY_HEAD.finditer(text):
        p = m.start()
        if p < resume:
            continue  # inside the value of the tag read before (searching resumes after it)
        head = reader.head_of(m)
        tag = reader.read_head(p, head)
        if tag is None:
            if not code.in_code(p):
                _reply_malformed(
                    text, p, head=head, reader=reader, sink=sink, to_input=to_input, ends=ends
                )
            continue
        resume = tag.end
        in_start, in_end = to_input(p), _end_in_input(to_input, p, tag.end)
        if code.in_code(p):
            if sink.explain:
                sink.in_code(in_start, in_end, tag.kind, _clip(text, p, tag.end))
            continue
        sink.claimed.append((in_start, in_end))
        if tag.kind == "current":
            found.append(_Reply(tag, in_start, in_end, None))
            continue
        id_text = tag.id_text or ""
        id_ = sanitize_reply_id(id_text)
        if not id_:
            sink.diags.add(
                "tag.reply_id_empty",
                "warning",
                f"{_show(text[p : tag.end])} has an empty id, so it sets no reply target; it was "
                + ("removed" if sink.strip_reply else "left in the text")
                + ". Put the message id after the colon, or use [[reply_to_current]].",
                in_start,
                in_end,
            )
        elif id_ != id_text:
            id_start = head.value_start
            id_end = id_start + len(id_text)
            cut = len(js_trim(UNSAFE_ID_CHARS.sub("", id_text))) > MAX_REPLY_ID_LENGTH
            what = (
                f"cut to {MAX_REPLY_ID_LENGTH} of its {len(id_text)} code points"
                if cut
                else "control characters or brackets removed"
            )
            sink.diags.add(
                "tag.reply_id_sanitized",
                "warning",
                f"the reply id {_show(id_text)} was changed to {_show(id_)} ({what}); send the "
                "message id exactly, without brackets or control characters.",
                to_input(id_start),
                _end_in_input(to_input, id_start, id_end),
            )
        found.append(_Reply(tag, in_start, in_end, id_ or None))
    return found


def _unknown_stage(text: str, code: StageCode, sink: _Sink, to_input: _Map) -> None:
    """tag.unknown: ``[[name ... ]]`` on one line that is none of the three tags (§10)."""
    claimed = sorted(sink.claimed)
    ci = 0
    resume = 0
    reader = ReplyTagReader(text)
    for m in _UNKNOWN_HEAD.finditer(text):
        p = m.start()
        if p < resume or AUDIO_HEAD.match(text, p) or reader.head(p) is not None:
            continue  # tag heads are explained by their own stage
        close = reader.first_close(m.end())
        if not text.startswith("]]", close) or reader.first_lf(p) < close:
            continue
        end = close + 2
        in_start = to_input(p)
        while ci < len(claimed) and claimed[ci][1] <= in_start:
            ci += 1
        if ci < len(claimed) and claimed[ci][0] <= in_start:
            continue
        if code.in_code(p):
            continue
        resume = end
        sink.unknown(in_start, _end_in_input(to_input, p, end), _clip(text, p, end))


# --------------------------------------------------------------------------- public


def untagged_text(text: str) -> str:
    """``parse_directives(text).text`` for a ``text`` without ``[[`` (§5.1 trimming only)."""
    code = StageCode(text)
    return normalize_boundaries(text, code.in_code, code.owns_tail)[0]


def parse_directives(
    text: str,
    *,
    current_message_id: str | None = None,
    strip_audio_tag: bool = True,
    strip_reply_tags: bool = True,
    code_map: CodeMap | None = None,
    profile: str | Profile = DEFAULT_PROFILE,
    explain: bool = False,
) -> Directives:
    """Read the audio and reply tags of ``text`` (TAGS.md §6); remove the stripped kinds.

    ``code_map`` is an optional :class:`~richout.codemap.CodeMap` the caller already built
    for exactly ``text`` (reused, with whatever it has computed; ignored for another text).
    ``profile`` names the upstream behaviour to reproduce (:data:`richout.PROFILES`).
    Diagnostics, spans and edits are computed when first read (``explain=True``: now).
    """
    prof = resolve_profile(profile)

    options: dict[str, Any] = {
        "current_message_id": current_message_id,
        "strip_audio_tag": strip_audio_tag,
        "strip_reply_tags": strip_reply_tags,
    }
    explainer = rerun(parse_directives, text, profile=prof, **options)

    require_str(text)
    require_str(current_message_id, "current_message_id", optional=True)
    if code_map is not None and not isinstance(code_map, CodeMap):
        raise InvalidInput(
            f"code_map must be a richout.codemap.CodeMap or None, got {type(code_map).__name__}"
        )
    if not (type(strip_audio_tag) is bool and type(strip_reply_tags) is bool):
        require_bool(strip_audio_tag, "strip_audio_tag")
        require_bool(strip_reply_tags, "strip_reply_tags")
    if type(explain) is not bool:
        require_bool(explain, "explain")
    if prof.normalize_rewritten_whitespace:
        return release_directives(
            text,
            **options,
            explainer=explainer,
            explain=explain,
            reference=partial(parse_directives, text, profile=NEXT, explain=True, **options),
        )
    if not text:
        return Directives.explained(text="")
    if code_map is not None and code_map.text is not text and code_map.text != text:
        code_map = None
    code1 = StageCode(text, code_map)
    if "[[" not in text:
        out, patch = normalize_boundaries(text, code1.in_code, code1.owns_tail)
        if not explain:
            return Directives.lazy(explainer, text=out)
        return Directives.explained(text=out, edits=edit_records(patch))

    sink = _Sink(text, strip_audio_tag, strip_reply_tags, explain)
    audio = _audio_stage(text, code1, sink)
    if strip_audio_tag and audio:
        text2, patch1 = close_sites(text, audio)
        code2 = StageCode(text2)
        to_input: _Map = offset_mapper(patch1)
    else:
        text2, patch1, code2, to_input = text, [], code1, _identity

    reader = ReplyTagReader(text2)
    replies = _reply_stage(text2, code2, sink, to_input, reader)
    if strip_reply_tags and replies:
        text3, patch2 = close_sites(text2, [(r.start, r.end) for r in replies])
        code3 = StageCode(text3)
    else:
        text3, patch2, code3 = text2, [], code2

    if audio or replies:
        final, patch3 = normalize_boundaries(text3, code3.in_code, code3.owns_tail)
    else:
        final, patch3 = text3, []

    # §2.3: the last explicit id wins; else the current message when a current tag was seen.
    explicit = [r for r in replies if r.id is not None]
    currents = [r for r in replies if r.kind == "current"]
    last_explicit = explicit[-1].id if explicit else None
    reply_to_id = last_explicit
    if reply_to_id is None and currents:
        reply_to_id = js_trim(current_message_id or "") or None
    outputs: dict[str, Any] = {
        "text": final,
        "audio_as_voice": bool(audio),
        "reply_to_id": reply_to_id,
        "reply_to_explicit_id": last_explicit,
        "reply_to_current": bool(currents),
        "has_audio_tag": bool(audio),
        "has_reply_tag": bool(replies),
    }
    if not explain:
        return Directives.lazy(explainer, **outputs)
    _unknown_stage(text2, code2, sink, to_input)
    _explain_precedence(sink, explicit, currents, reply_to_id, current_message_id)

    # Spans and records hold values computed here: built without validation per record.
    spans = [Span.trusted(kind="audio_tag", start=s, end=e) for s, e in audio]
    spans.extend(
        Span.trusted(kind="reply_tag", start=r.in_start, end=r.in_end, value=r.id) for r in replies
    )
    if audio and replies:
        spans.sort(key=lambda sp: sp.start)
    patch = patch1
    if patch2:
        patch = compose(patch, patch2, text2)
    if patch3:
        patch = compose(patch, patch3, text3)
    return Directives.explained(
        **outputs,
        diagnostics=sink.diags.build(),
        spans=spans,
        edits=edit_records(patch),
    )


def _explain_precedence(
    sink: _Sink,
    explicit: list[_Reply],
    currents: list[_Reply],
    reply_to_id: str | None,
    current_message_id: str | None,
) -> None:
    """tag.reply_overridden and tag.current_without_id (§10); outputs are already decided."""
    if explicit:
        winner = explicit[-1]
        for r in explicit[:-1]:
            sink.diags.add(
                "tag.reply_overridden",
                "info",
                f"this reply target ({_show(r.id or '')}) is replaced by the later explicit tag "
                f"with id {_show(winner.id or '')}: the last [[reply_to:<id>]] wins. Keep one "
                "reply tag.",
                r.in_start,
                r.in_end,
            )
        for r in currents:
            sink.diags.add(
                "tag.reply_overridden",
                "info",
                f"[[reply_to_current]] is overridden by the explicit id {_show(winner.id or '')}:"
                " an explicit [[reply_to:<id>]] wins whatever the order. Keep one reply tag.",
                r.in_start,
                r.in_end,
            )
        return
    if reply_to_id is None:
        why = "is not set" if current_message_id is None else "is blank"
        for r in currents:
            sink.diags.add(
                "tag.current_without_id",
                "info",
                f"[[reply_to_current]] was recognised but the current message id {why}, so "
                "there is no reply target; pass current_message_id (jsonl: "
                "options.currentMessageId), or use [[reply_to:<id>]].",
                r.in_start,
                r.in_end,
            )
