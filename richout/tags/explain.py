"""What :func:`~richout.tags.parse.parse_directives` says about the tags (TAGS.md §10).

The wording of every ``tag.*`` diagnostic lives here, with the reasoning that picks it: why a
``[[`` that looks like a tag is not one, where such a malformed construct ends, which reply tag
overrides which (§2.3), and the ``tag.unknown`` pass over ``[[name]]`` constructs that are none
of the three tags. The stages (:mod:`richout.tags.stages`) only decide *what* was found and
hand it to a :class:`Sink`; outputs never depend on anything in this module.

Findings carry input offsets. A stage reads a text from which earlier stages removed tags, so
its offsets go through an :data:`~richout.text.patch.OffsetMap`
(:func:`~richout.text.patch.end_in_input` maps a range's end).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from richout.models.diagnostics import Diagnostics
from richout.tags.code import StageCode
from richout.tags.scan import (
    MAX_REPLY_ID_LENGTH,
    TAG_NAMES,
    UNSAFE_ID_CHARS,
    Finder,
    ReplyHead,
    ReplyTagReader,
    TagKind,
    ws_end,
)
from richout.text.chars import js_trim
from richout.text.patch import OffsetMap, end_in_input, identity
from richout.text.quote import SHOW_MAX, show

__all__ = [
    "Ends",
    "Recorder",
    "ReplySite",
    "Sink",
    "clip",
    "explain_precedence",
    "identity",
    "in_code_words",
    "malformed_reason",
    "reply_malformed_row",
    "unclosed_reply_rows",
    "unknown_stage",
]

# tag.unknown candidates: "[[" directly followed by a name character (§10), where no audio or
# reply head starts (those are explained by their own stage). The heads are excluded in the
# regex, not by reading each match again: a run of 80k malformed reply heads read them twice.
# (No candidate can start inside an excluded head's name, so finditer sees the same ones.)
_UNKNOWN_HEAD = re.compile(
    rf"\[\[(?=[A-Za-z0-9_:-])(?!{TAG_NAMES})[A-Za-z0-9_:-]+", re.IGNORECASE | re.ASCII
)


def clip(text: str, start: int, end: int) -> str:
    """``text[start:end]`` cut just past what :func:`_show` displays.

    A run of malformed tags on one long line would otherwise copy the rest of the line once
    per tag (quadratic); the message shows at most ``SHOW_MAX`` characters anyway.
    """
    return text[start : min(end, start + SHOW_MAX + 1)]


class Ends:
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


def malformed_reason(text: str, close_at: int) -> str:
    """Why ``[[`` + name (audio or current) did not form a tag; ``close_at`` follows the name."""
    if close_at >= len(text):
        return "nothing closes it before the end of the message"
    if text[close_at] == "]":
        return "it is closed by a single ']' instead of ']]'"
    return "other text follows the tag name"


def _malformed(construct: str, fix: str, reason: str) -> str:
    return (
        f"{show(construct)} looks like a tag but is not one: {reason}. It stays visible "
        f"as text; write {fix}."
    )


def _unknown(construct: str) -> str:
    return (
        f"{show(construct)} is not a tag this layer reads ([[audio_as_voice]], "
        "[[reply_to_current]], [[reply_to:<id>]]); it is left as text."
    )


def in_code_words(literal: str, kind: TagKind) -> str:
    """The message of a ``tag.in_code`` finding about the tag ``literal`` (clipped)."""
    what = "audio" if kind == "audio" else "reply"
    return (
        f"{show(literal)} is inside code (a code span or block), so it stays literal text "
        f"and sets no {what} directive; move it outside the code to make it a tag."
    )


class Sink:
    """Diagnostics of one call, with spans in input offsets."""

    __slots__ = ("_words", "claimed", "diags", "explain", "strip_audio", "strip_reply")

    def __init__(self, text: str, strip_audio: bool, strip_reply: bool, explain: bool) -> None:
        #: findings are recorded only when explaining (outputs never need them)
        self.explain = explain
        self.diags = Diagnostics(text)
        self.strip_audio = strip_audio
        self.strip_reply = strip_reply
        # Input ranges already explained (tags, in-code tags, malformed heads): a tag.unknown
        # candidate inside one of them is part of that construct.
        self.claimed: list[tuple[int, int]] = []
        # The wording of findings that come in runs (a line of 80k malformed heads quotes the
        # same piece each time), built once per distinct piece and call: kept with the call,
        # not between calls, so no user text outlives it.
        self._words: dict[tuple[str, str, str], str] = {}

    def in_code(self, start: int, end: int, kind: TagKind, literal: str) -> None:
        self.claimed.append((start, end))
        self.diags.add("tag.in_code", "info", in_code_words(literal, kind), start, end)

    def malformed_words(self, construct: str, fix: str, reason: str) -> str:
        """The message of a ``tag.malformed`` finding (the same for every sink)."""
        key = (construct, fix, reason)
        words = self._words.get(key)
        if words is None:
            words = self._words[key] = _malformed(construct, fix, reason)
        return words

    def malformed(self, start: int, end: int, construct: str, fix: str, reason: str) -> None:
        self.claimed.append((start, end))
        words = self.malformed_words(construct, fix, reason)
        self.diags.add("tag.malformed", "warning", words, start, end)

    def malformed_worded(self, rows: list[tuple[str, int, int]]) -> None:
        """:meth:`malformed` for each ``(message, start, end)`` whose message
        :meth:`malformed_words` gave, in order (a replayed run of 80k malformed heads: one
        call, not two per head)."""
        self.claimed.extend([(start, end) for _, start, end in rows])
        self.diags.add_all("tag.malformed", "warning", rows)

    def unknown(self, start: int, end: int, construct: str) -> None:
        key = (construct, "", "")
        words = self._words.get(key)
        if words is None:
            words = self._words[key] = _unknown(construct)
        self.diags.add("tag.unknown", "info", words, start, end)

    def reply_id_empty(self, start: int, end: int, literal: str) -> None:
        """tag.reply_id_empty: an explicit tag whose id sanitises to nothing (§2.1)."""
        self.diags.add(
            "tag.reply_id_empty",
            "warning",
            f"{show(literal)} has an empty id, so it sets no reply target; it was "
            + ("removed" if self.strip_reply else "left in the text")
            + ". Put the message id after the colon, or use [[reply_to_current]].",
            start,
            end,
        )

    def reply_id_sanitized(self, start: int, end: int, id_text: str, id_: str) -> None:
        """tag.reply_id_sanitized: the id §2.1 keeps differs from the id written."""
        cut = len(js_trim(UNSAFE_ID_CHARS.sub("", id_text))) > MAX_REPLY_ID_LENGTH
        what = (
            f"cut to {MAX_REPLY_ID_LENGTH} of its {len(id_text)} code points"
            if cut
            else "control characters or brackets removed"
        )
        self.diags.add(
            "tag.reply_id_sanitized",
            "warning",
            f"the reply id {show(id_text)} was changed to {show(id_)} ({what}); send the "
            "message id exactly, without brackets or control characters.",
            start,
            end,
        )


#: One reply-stage finding in stage offsets: what it is (the :class:`Sink` method), its range
#: and that method's text arguments (unused ones are ""; a malformed head's is its message).
_Event = tuple[int, int, int, str, str]
_IN_CODE, _MALFORMED, _ID_EMPTY, _ID_SANITIZED = 0, 1, 2, 3


class Recorder(Sink):
    """A :class:`Sink` for the reply stage that keeps its findings in stage offsets.

    The reply stage reads one text; the sinks that want its findings differ in how stage
    offsets map to their input and in the strip flags that word their messages. Run with
    the identity map into a recorder, the stage is read once and :meth:`replay` hands the
    same calls to each sink with its own map (``TagStages.reusing``: the split's tag pass
    and a view's tag layer read the same text; the layer's sink gets the claims of the
    findings the split already reported, not the findings). Stage offsets are what the stage
    itself passes when its map is the identity.
    """

    __slots__ = ("events",)

    def __init__(self, text: str) -> None:
        super().__init__(text, False, False, True)
        self.events: list[_Event] = []

    def in_code(self, start: int, end: int, kind: TagKind, literal: str) -> None:
        self.events.append((_IN_CODE, start, end, kind, literal))

    def malformed(self, start: int, end: int, construct: str, fix: str, reason: str) -> None:
        # Worded once here, not by each sink a replay reaches.
        words = self.malformed_words(construct, fix, reason)
        self.events.append((_MALFORMED, start, end, words, ""))

    def malformed_worded(self, rows: list[tuple[str, int, int]]) -> None:
        self.events.extend([(_MALFORMED, start, end, words, "") for words, start, end in rows])

    def reply_id_empty(self, start: int, end: int, literal: str) -> None:
        self.events.append((_ID_EMPTY, start, end, literal, ""))

    def reply_id_sanitized(self, start: int, end: int, id_text: str, id_: str) -> None:
        self.events.append((_ID_SANITIZED, start, end, id_text, id_))

    def replay(self, sink: Sink, to_input: OffsetMap, *, reported: bool = False) -> None:
        """Make ``sink`` the calls the stage made here, ranges mapped as the stage maps them
        (start through ``to_input``, end through :func:`end_in_input`), in the same order.

        ``reported``: the findings ``sink`` collects are unioned after those of the run that
        recorded them, whose malformed and in-code findings sit at the same input starts (a
        view's tag layer reusing its split's reading, ``TagStages.reusing``). Those two kinds
        are ``PER_CONSTRUCT`` codes, which the view's union keeps once, from the earlier run
        (``Diagnostics.extend_records(once_per_construct=True)``); so only the ranges they
        claim are handed on, and the id findings, not those two kinds (80k malformed heads
        cost a replay and a union pass each)."""
        if reported:
            self._replay_claims(sink, to_input)
            return
        same = to_input is identity
        # Runs of malformed heads go to the sink in one call; any other finding first has
        # the run before it handed on, so the sink sees the stage's order.
        run: list[tuple[str, int, int]] = []
        for op, s, e, a, b in self.events:
            if same:
                start, end = s, (e if e > s else s)
            else:
                start, end = to_input(s), end_in_input(to_input, s, e)
            if op == _MALFORMED:
                run.append((a, start, end))
                continue
            if run:
                sink.malformed_worded(run)
                run = []
            if op == _IN_CODE:
                sink.in_code(start, end, "audio" if a == "audio" else "current", b)
            elif op == _ID_EMPTY:
                sink.reply_id_empty(start, end, a)
            else:
                sink.reply_id_sanitized(start, end, a, b)
        if run:
            sink.malformed_worded(run)
        # The tags read outside code, which the stage claims directly.
        if same:
            sink.claimed.extend(self.claimed)
        else:
            sink.claimed.extend(
                (to_input(s), end_in_input(to_input, s, e)) for s, e in self.claimed
            )

    def _replay_claims(self, sink: Sink, to_input: OffsetMap) -> None:
        """:meth:`replay` with ``reported``: the claimed ranges, and the id findings."""
        same = to_input is identity
        claimed = sink.claimed
        for op, s, e, a, b in self.events:
            if same:
                start, end = s, (e if e > s else s)
            else:
                start, end = to_input(s), end_in_input(to_input, s, e)
            if op in (_MALFORMED, _IN_CODE):
                claimed.append((start, end))
            elif op == _ID_EMPTY:
                sink.reply_id_empty(start, end, a)
            else:
                sink.reply_id_sanitized(start, end, a, b)
        if same:
            claimed.extend(self.claimed)
        else:
            claimed.extend((to_input(s), end_in_input(to_input, s, e)) for s, e in self.claimed)


def reply_malformed_row(
    text: str,
    p: int,
    *,
    head: ReplyHead,
    reader: ReplyTagReader,
    sink: Sink,
    to_input: OffsetMap,
    ends: Ends,
) -> tuple[str, int, int]:
    """The tag.malformed finding for a reply head at ``p`` (stage offsets) that forms no
    tag, as a row of :meth:`Sink.malformed_worded`: its message and its range in input
    offsets (the caller hands a run of them to the sink at once)."""
    if head.kind == "current":
        reason = malformed_reason(text, head.value_start)
        fix = _FIX_CURRENT
    else:
        fix = _FIX_EXPLICIT
        v = head.value_start
        close = reader.first_close(v)
        if close >= len(text):
            reason = _NOTHING_CLOSES
        elif not text.startswith("]]", close):
            reason = "the first ']' after the id is not doubled (a single ']', or a ']' in the id)"
        elif close == v:
            reason = "the id is empty (nothing, or only line feeds, after the colon)"
        else:
            reason = "the id contains a line feed"
    end = ends(p)
    words = sink.malformed_words(clip(text, p, end), fix, reason)
    if to_input is identity:
        return words, p, end
    return words, to_input(p), end_in_input(to_input, p, end)


_FIX_CURRENT = "[[reply_to_current]]"
_FIX_EXPLICIT = "[[reply_to:<id>]]"
_NOTHING_CLOSES = "no ']]' closes it"


def unclosed_reply_rows(
    text: str,
    heads: Iterator[re.Match[str]],
    *,
    in_code: Callable[[int], bool],
    sink: Sink,
    to_input: OffsetMap,
    ends: Ends,
) -> list[tuple[str, int, int]]:
    """:func:`reply_malformed_row` for every reply head left in ``heads`` (matches of
    :data:`~richout.tags.scan.REPLY_HEAD`) outside code, when no ``]`` follows the head
    before them: none of them can form a tag, an explicit one's reason is that nothing
    closes it, and a current one's is read after its name, so each row is written without
    reading its head as a tag. (The stream of 20k unclosed ``[[reply_to:x`` the corpus holds
    paid about half its time reading each head.)"""
    rows: list[tuple[str, int, int]] = []
    mapped = to_input is not identity
    for m in heads:
        p = m.start()
        if in_code(p):
            continue
        if m.group(1):
            reason, fix = malformed_reason(text, ws_end(text, m.end())), _FIX_CURRENT
        else:
            reason, fix = _NOTHING_CLOSES, _FIX_EXPLICIT
        end = ends(p)
        words = sink.malformed_words(clip(text, p, end), fix, reason)
        if mapped:
            rows.append((words, to_input(p), end_in_input(to_input, p, end)))
        else:
            rows.append((words, p, end))
    return rows


def unknown_stage(text: str, code: StageCode, sink: Sink, to_input: OffsetMap) -> None:
    """tag.unknown: ``[[name ... ]]`` on one line that is none of the three tags (§10)."""
    claimed = sorted(sink.claimed)
    ci = 0
    resume = 0
    reader = ReplyTagReader(text)
    for m in _UNKNOWN_HEAD.finditer(text):
        p = m.start()
        if p < resume:
            continue
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
        sink.unknown(in_start, end_in_input(to_input, p, end), clip(text, p, end))


class ReplySite(Protocol):
    """What the precedence notes read of a recognised reply tag."""

    @property
    def id(self) -> str | None: ...
    @property
    def in_start(self) -> int: ...
    @property
    def in_end(self) -> int: ...


def explain_precedence(
    sink: Sink,
    explicit: Sequence[ReplySite],
    currents: Sequence[ReplySite],
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
                f"this reply target ({show(r.id or '')}) is replaced by the later explicit tag "
                f"with id {show(winner.id or '')}: the last [[reply_to:<id>]] wins. Keep one "
                "reply tag.",
                r.in_start,
                r.in_end,
            )
        for r in currents:
            sink.diags.add(
                "tag.reply_overridden",
                "info",
                f"[[reply_to_current]] is overridden by the explicit id {show(winner.id or '')}:"
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
