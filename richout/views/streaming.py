"""Streaming (TAGS.md §9): show a reply while it is generated, never half a directive.

:class:`StreamingParser` follows the reference accumulator
(``src/auto-reply/reply/streaming-directives.ts``), with hold-back rules that keep every held
construct whole (§9.2 as richout amends it; UPSTREAM.md §2.6): each call appends text, holds
back a tail that could still become a tag or a ``MEDIA:`` line, and returns what is left as
one delivery unit parsed on its own (§9.3), with a reply target that stays for the whole
message.

The reference rebuilds ``held tail + new chunk`` and rescans it on every call, so a tail that
stays held (an unclosed ``[[`` followed by thousands of small chunks) costs quadratic time.
Here the facts the hold-back rules ask about (the first ``[[`` that no ``]]`` follows, the
last line feed, how the last line begins) are kept up to date chunk by chunk, and text is
only copied when it leaves the parser, so every fed character is looked at a bounded number of
times. Offsets (``rawStart``/``rawEnd``, diagnostics) are code points of all text fed since the
last :meth:`StreamingParser.reset`.
"""

from __future__ import annotations

from richout.collector import gc_pause_threshold, pauses_collector
from richout.errors import InvalidInput
from richout.models import Diagnostic, Reply, Severity, StreamChunk
from richout.models.diagnostics import diagnostic
from richout.models.records import stream_chunk
from richout.policy import Policy
from richout.profiles import DEFAULT_PROFILE, Profile, resolve_profile
from richout.tags.parse import parse_directives
from richout.tags.pipeline import Finding, PartTags, read_part
from richout.tags.scan import TagMatch
from richout.tags.silent import (
    DEFAULT_TOKEN,
    is_silent_prefix,
    is_token_only,
    may_contain_token,
    strip_leading_token,
)
from richout.text.chars import has_double_bracket, js_rtrim, js_trim
from richout.text.quote import show
from richout.views.delivery_strip import strip_for_delivery
from richout.views.hold import Emitted, Facts, Fed
from richout.views.reply import parse_reply

__all__ = ["StreamingParser"]


class StreamingParser:
    """Streams a reply chunk by chunk, holding back incomplete tags and ``MEDIA:`` lines.

    Each returned chunk is a delivery unit parsed on its own, as the reference accumulator
    does, so whitespace at chunk boundaries is judged per chunk: in a chunk where a tag is
    recognised, the chunk's trailing whitespace, its leading line breaks and a single leading
    blank are removed (the message-boundary step of ``parse_directives``, TAGS.md §5.1), and
    whitespace trimmed before a held ``[`` or ``[[`` is given back only when the next text
    starts with ``[`` (§9.3 step 3). Joined, the chunk texts can therefore differ from
    ``parse_reply(whole).text`` in whitespace at chunk boundaries: feeding
    ``"[[reply_to_current]] Sure "`` then ``"— here"`` streams ``"Sure"`` and ``"— here"``
    (``"Sure— here"`` joined) where ``parse_reply`` gives ``"Sure — here"``. :meth:`result`
    is the authoritative text.
    """

    def __init__(
        self,
        *,
        current_message_id: str | None = None,
        silent_token: str = DEFAULT_TOKEN,
        profile: str | Profile = DEFAULT_PROFILE,
        policy: Policy | None = None,
    ) -> None:
        """A parser for one assistant message at a time (call :meth:`reset` between them).

        ``current_message_id`` is the message being answered: with it, a chunk after
        ``[[reply_to_current]]`` carries it as ``reply_to_id`` (TAGS.md §2.3; an explicit id
        still wins), and :meth:`result` uses it unless given another. ``profile`` names the
        upstream behaviour the chunks and :meth:`result` follow; ``policy``
        (:class:`richout.Policy`) narrows the references :meth:`result` delivers.
        """
        if not isinstance(silent_token, str):
            raise InvalidInput(f"silent_token must be a string, got {type(silent_token).__name__}")
        if current_message_id is not None and not isinstance(current_message_id, str):
            raise InvalidInput(
                "current_message_id must be a string or None, got "
                f"{type(current_message_id).__name__}"
            )
        self.current_message_id = current_message_id
        self.silent_token = silent_token
        self.profile = resolve_profile(profile)
        if policy is not None and not isinstance(policy, Policy):
            raise InvalidInput(
                f"policy must be a richout.Policy or None, got {type(policy).__name__}"
            )
        self.policy = policy
        self.reset()

    # ------------------------------------------------------------------ public API

    def reset(self) -> None:
        """Forget everything: the next call starts a new assistant message at offset 0."""
        self._fed = Fed()
        self._facts = Facts()
        self._consumed = 0
        self._sep = ""
        self._reply_to_id: str | None = None
        self._reply_to_current = False
        self._reply_to_tag = False
        self._returned_text = False
        self._diagnostics: list[Diagnostic] = []

    def feed(self, chunk: str) -> StreamChunk | None:
        """Add ``chunk``; return the text that is safe to show now, or None (§9.2-§9.3)."""
        return self._consume(chunk, final=False)

    def finish(self, chunk: str = "") -> StreamChunk | None:
        """Add the last ``chunk`` and flush everything held (the message is complete)."""
        return self._consume(chunk, final=True)

    def result(self, current_message_id: str | None = None) -> Reply:
        """``parse_reply`` of all text fed since :meth:`reset`: the authoritative delivery view.

        ``current_message_id`` defaults to the one the parser was built with.
        """
        if current_message_id is None:
            current_message_id = self.current_message_id
        return parse_reply(
            self._fed.text(),
            current_message_id=current_message_id,
            silent_token=self.silent_token,
            profile=self.profile,
            policy=self.policy,
        )

    @property
    def consumed(self) -> int:
        """Code points of the fed text consumed so far (the next call's ``rawStart``)."""
        return self._consumed

    @property
    def held(self) -> str:
        """The held tail: fed text not consumed yet."""
        return self._fed.slice(self._consumed, self._fed.n)

    @property
    def text(self) -> str:
        """All text fed since the last :meth:`reset`."""
        return self._fed.text()

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Every diagnostic of this message so far, including calls that returned None."""
        return list(self._diagnostics)

    # ------------------------------------------------------------------ the accumulator

    def _consume(self, chunk: str, *, final: bool) -> StreamChunk | None:
        if not isinstance(chunk, str):
            raise InvalidInput(f"chunk must be a string, got {type(chunk).__name__}")
        fed = self._fed
        start = self._consumed
        had_tail = fed.n > start
        held_sep = self._sep
        self._sep = ""
        fed.append(chunk)
        diags: list[Diagnostic] = []

        rules: list[int] = []
        if final:
            h, trim = fed.n - start, False
            self._facts = Facts()
        else:
            facts = self._facts
            facts.extend(chunk)
            h, trim, rules = facts.hold()
            facts.drop(h, lambda a, b: fed.slice(start + a, start + b))
        end = start + h
        part = fed.slice(start, end)
        # Only rules 1 and 2 trim, and both hold something back.
        emitted = js_rtrim(part) if trim else part
        if end < fed.n:
            diags.append(self._held_diagnostic(end, rules))
            separator = part[len(emitted) :]
            self._sep = separator if emitted else held_sep + separator
        self._consumed = end
        out = None
        if emitted:
            unit = Emitted(emitted, start, end, had_tail, held_sep, final)
            limit = gc_pause_threshold()
            if limit is not None and len(emitted) >= limit:
                out = _process_paused(emitted, self, unit, diags)
            else:
                # A short part (most of them) skips the pausing wrapper's argument packing.
                out = self._process(unit, diags)
        self._diagnostics.extend(diags)
        return out

    def _process(self, e: Emitted, diags: list[Diagnostic]) -> StreamChunk | None:
        """§9.3 on one emitted part; findings are appended to ``diags``."""
        token = self.silent_token
        d = self._read_tags(e.text) if has_double_bracket(e.text) else None
        recognised = d is not None and (d.has_reply_tag or d.has_audio_tag)
        text = d.text if d is not None and recognised else e.text
        # Both token rules need the token in the text: asked once (a 64-character part pays
        # for each whole-text question).
        maybe = may_contain_token(text, token)
        silent = (maybe and is_token_only(text, token)) or is_silent_prefix(text, token)
        if silent:
            text = ""
        elif maybe:
            stripped = strip_leading_token(text, token)
            if stripped is not None:
                text = stripped
        if e.had_tail and e.held_sep and text.startswith("["):
            # A held "[" that turned out not to be a tag gets its space back.
            text = e.held_sep + text
        prefix_at: int | None = None
        if e.final and not self._returned_text:
            # Only a message-leading malformed reply marker is delivery control (§7.1).
            strip = strip_for_delivery(text)
            for r in strip.removed:
                if not r.tag.complete:
                    prefix_at = self._explain_prefix(e, text, r.tag, diags)
            text = strip.text
        if d is not None:
            if d.findings:
                diags.extend(self._directive_diagnostics(d.findings, e.raw_start, prefix_at))
            if d.reply_to_explicit_id is not None:
                self._reply_to_id = d.reply_to_explicit_id
            self._reply_to_current = self._reply_to_current or d.reply_to_current
            self._reply_to_tag = self._reply_to_tag or d.has_reply_tag
        audio = d.audio_as_voice if d is not None else False
        if not text and not audio:
            return None
        self._returned_text = self._returned_text or bool(text)
        return stream_chunk(
            text,
            reply_to_id=self._reply_target(),
            reply_to_explicit_id=d.reply_to_explicit_id if d is not None else None,
            reply_to_current=self._reply_to_current,
            reply_to_tag=self._reply_to_tag,
            audio_as_voice=audio,
            is_silent=silent,
            raw_start=e.raw_start,
            raw_end=e.raw_end,
            diagnostics=diags,
        )

    def _read_tags(self, text: str) -> PartTags:
        """``parse_directives(text, explain=True)``'s outputs and findings for one part.

        Every chunk reports its tag findings, so they are read in the same pass (a lazy
        result would parse the part again when they are read). Under ``next`` the stages run
        directly (:func:`~richout.tags.pipeline.read_part`): the spans, edits and result
        records an explained ``parse_directives`` also builds were most of a 64-character
        chunk's cost, and a stream throws them away. ``read_part`` also leaves out the
        ``tag.current_without_id`` findings, which :meth:`_directive_diagnostics` drops from
        the release profile's read.
        """
        if not self.profile.normalize_rewritten_whitespace:
            return read_part(text)
        d = parse_directives(text, profile=self.profile, explain=True)
        found: list[Finding] = [
            (x.start, x.code, x.end, x.severity, x.message, x.field)
            for x in d.diagnostics
            if x.start is not None and x.end is not None  # every tag finding has a span
        ]
        return PartTags(
            d.text,
            d.audio_as_voice,
            d.has_audio_tag,
            d.has_reply_tag,
            d.reply_to_explicit_id,
            d.reply_to_current,
            found,
        )

    def _reply_target(self) -> str | None:
        """§2.3 on the sticky state: the explicit id, else the current message's id."""
        if self._reply_to_id is not None:
            return self._reply_to_id
        if self._reply_to_current and self.current_message_id is not None:
            return js_trim(self.current_message_id) or None
        return None

    # ------------------------------------------------------------------ diagnostics

    def _diag(
        self, code: str, severity: Severity, message: str, start: int, end: int
    ) -> Diagnostic:
        line, column = self._fed.line_col(start)
        # Values computed here, of the declared types: built directly, no validation (a part
        # of 20k malformed tags makes 20k of these).
        return diagnostic(code, severity, message, start=start, end=end, line=line, column=column)

    def _held_diagnostic(self, at: int, rules: list[int]) -> Diagnostic:
        key = tuple(rules)
        reasons = _HELD_REASONS.get(key)
        if reasons is None:
            # One wording per set of rules (at most 15), built once per process.
            reasons = _HELD_REASONS[key] = "; ".join(f"rule 9.2.{r}: {_HELD_WHY[r]}" for r in rules)
        return self._diag(
            "stream.held",
            "info",
            f"{self._fed.n - at} character(s) are held back until more text arrives ({reasons}); "
            "they are released by a later feed() or by finish().",
            at,
            self._fed.n,
        )

    def _directive_diagnostics(
        self, found: list[Finding], base: int, prefix_at: int | None
    ) -> list[Diagnostic]:
        """The chunk's tag findings in fed-text offsets.

        Streaming reads reply tags without a current message id by design (the caller maps
        ``replyToCurrent`` itself), so ``tag.current_without_id`` would only be noise; a
        malformed prefix removed at ``finish`` is explained by its own record.
        """
        out = []
        # _diag written out: a part held to the end can carry 95k findings.
        line_col = self._fed.line_col
        for start, code, end, severity, message, _field in found:
            if code == "tag.current_without_id":
                continue
            if code == "tag.malformed" and prefix_at is not None and start == prefix_at:
                continue
            line, column = line_col(base + start)
            out.append(
                diagnostic(
                    code,
                    severity,
                    message,
                    start=base + start,
                    end=base + end,
                    line=line,
                    column=column,
                )
            )
        return out

    def _explain_prefix(
        self, e: Emitted, text: str, tag: TagMatch, diags: list[Diagnostic]
    ) -> int | None:
        """``tag.malformed_prefix_stripped`` for a prefix removed at finish; its offset in ``e``.

        The prefix starts the message, and nothing before it in the emitted part survived
        into ``text``, so its first occurrence in the emitted part is the one removed.
        """
        core = text[tag.start : tag.end].rstrip(" \t")
        at = e.text.find(core)
        if at < 0:
            return None
        diags.append(
            self._diag(
                "tag.malformed_prefix_stripped",
                "warning",
                f"{show(core)} at the start of the message is a malformed reply tag; it was "
                "removed before delivery and sets no reply target. Write [[reply_to_current]] "
                "or [[reply_to:<id>]] with both closing brackets.",
                e.raw_start + at,
                e.raw_start + at + len(core),
            )
        )
        return at


#: Why each hold-back rule (TAGS.md §9.2) holds text back, for ``stream.held``.
_HELD_WHY = {
    1: "an unclosed '[[' (a tag may still be completing)",
    2: "a trailing '[' (it may start a tag)",
    3: "a MEDIA: line that has not ended (its reference may still be streaming)",
    4: "a line that may be the start of MEDIA:",
}
_HELD_REASONS: dict[tuple[int, ...], str] = {}


@pauses_collector
def _process_paused(
    text: str, parser: StreamingParser, part: Emitted, diags: list[Diagnostic]
) -> StreamChunk | None:
    """``parser._process(part, diags)`` with the collector paused when ``text`` (the part's
    text) is long, as the pipelines pause it: a part held until :meth:`finish` can be the
    whole message."""
    return parser._process(part, diags)
