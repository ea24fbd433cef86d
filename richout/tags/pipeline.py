"""Both tag stages of :func:`richout.parse_directives` on one text, without its argument checks.

:class:`TagStages` runs the audio stage, the reply stage and the §5.1 boundary step
(:mod:`richout.tags.stages`, :mod:`richout.tags.close`) and keeps every intermediate text and
patch, so the outputs are read at once and the explanation only when asked.
:func:`read_part` is the streaming parser's read of one emitted part: an explained parse's
outputs and raw findings (:data:`Finding`), without its spans, edits and records, nor
``tag.current_without_id`` (a stream has no current message id by design).
:mod:`richout.tags.parse` holds the public function and checks its arguments; this module is
apart so that the optional compiled build can compile it (a compiled public function would
raise ``TypeError`` for a wrongly typed argument, where richout's contract is
``InvalidInput``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from richout.markdown.codemap import CodeMap
from richout.models import Directives, Span, span_record
from richout.models.diagnostics import Diagnostics, Finding, deferred
from richout.models.lossless import edit_records
from richout.tags.close import (
    boundaries_kept,
    close_sites,
    leading_breaks_end,
    normalize_boundaries,
)
from richout.tags.code import StageCode
from richout.tags.explain import (
    Recorder,
    Sink,
    explain_precedence,
    identity,
    in_code_words,
    unknown_stage,
)
from richout.tags.scan import AUDIO_HEAD, ReplyTagReader
from richout.tags.stages import FoundReply, audio_stage, reply_stage
from richout.text.chars import contains, has_double_bracket, js_trim
from richout.text.patch import OffsetMap, Patch, compose, offset_mapper

__all__ = ["Finding", "PartTags", "TagStages", "read_part", "stage_tags", "untagged"]


class PartTags(NamedTuple):
    """What ``parse_directives(part, explain=True)`` says of a part, minus spans and edits."""

    text: str
    audio_as_voice: bool
    has_audio_tag: bool
    has_reply_tag: bool
    reply_to_explicit_id: str | None
    reply_to_current: bool
    findings: list[Finding]


def read_part(text: str) -> PartTags:
    """``parse_directives(text, explain=True)`` (profile ``next``) for a text holding ``[[``,
    as the streaming parser reads each emitted part: outputs and findings, without the spans,
    edits and result records it would throw away, nor ``tag.current_without_id``, which a
    stream drops (``tests/test_streaming_properties.py``)."""
    code = StageCode(text)
    fast = _one_kind_only(text, code)
    if fast is not None:
        return fast
    sink = Sink(text, True, True, True)
    # Findings and outputs only: a stream part's edits are never asked for.
    run = TagStages(text, code, sink, True, True, edits=False)
    outputs = run.outputs(None)
    # The stream has no current message id by design: tag.current_without_id would be noise.
    findings = run.findings(outputs, None, current_without_id=False).records()
    return PartTags(
        outputs["text"],
        outputs["audio_as_voice"],
        outputs["has_audio_tag"],
        outputs["has_reply_tag"],
        outputs["reply_to_explicit_id"],
        outputs["reply_to_current"],
        findings,
    )


#: The spellings :func:`_one_kind_only` reads: the reply tag and the audio tag as most
#: assistants write them.
_CURRENT = "[[reply_to_current]]"
_AUDIO = "[[audio_as_voice]]"
#: What the stages say of each in code.
_CURRENT_IN_CODE = in_code_words(_CURRENT, "current")
_AUDIO_IN_CODE = in_code_words(_AUDIO, "audio")


def _one_kind_only(text: str, code: StageCode) -> PartTags | None:
    """:func:`read_part` of a part whose every ``[[`` opens ``[[reply_to_current]]``, or
    whose every ``[[`` opens ``[[audio_as_voice]]``; None for any other part (the stages
    read it).

    Such a part holds no other ``[[`` (a tag spelt otherwise, a malformed head, an unknown
    ``[[name]]``, a ``[`` before a tag), so the stages would find exactly these tags: a tag
    in code stays text and is explained (``tag.in_code``), and of the others they say
    nothing in a stream (no id to sanitise or override; ``tag.current_without_id`` is left
    out). Closing audio tags' gaps makes no ``[[`` (a ``[`` before or after a tag is
    separated by the space or break that closes it, and ``[[[`` is not read here), so the
    reply stage finds nothing after them. The outputs are those tags removed, gaps closed and
    §5.1 (when any was removed), by the stages' own steps. A streamed part of code spans and
    tags spent most of its read on the general reader's records, and a part whose block
    structure puts a tag in a span (a part of a table row cut inside a span) took the
    general read too (``tests/test_streaming_properties.py`` compares the two on generated
    parts).
    """
    opens = text.count("[[")
    if not opens or contains(text, "[[["):
        return None
    current = opens == text.count(_CURRENT)
    if current:
        tag, words = _CURRENT, _CURRENT_IN_CODE
    elif opens == text.count(_AUDIO):
        tag, words = _AUDIO, _AUDIO_IN_CODE
    else:
        return None
    sites: list[tuple[int, int]] = []
    found: list[Finding] = []
    width = len(tag)
    at = text.find(tag)
    while at >= 0:
        end = at + width
        if code.in_code(at):
            found.append((at, "tag.in_code", end, "info", words, None))
        else:
            sites.append((at, end))
        at = text.find(tag, end)
    if not sites:
        # No tag recognised: the boundary step does not run (TAGS.md §5.1).
        return PartTags(text, False, False, False, None, False, found)
    closed, _ = close_sites(text, sites, with_patch=False)
    code2 = StageCode(closed, like=code)
    final, _ = normalize_boundaries(closed, code2.in_code, code2.owns_tail, with_patch=False)
    return PartTags(final, not current, not current, current, None, current, found)


def untagged(text: str, code_map: CodeMap | None = None) -> tuple[str, Patch]:
    """What the tag stages leave of a text without ``[[``: §5.1 alone, and its patch."""
    if boundaries_kept(text):
        return text, []
    code = StageCode(text, code_map)
    return normalize_boundaries(text, code.in_code, code.owns_tail)


def stage_tags(
    text: str,
    *,
    strip_audio: bool,
    strip_reply: bool,
    current_message_id: str | None = None,
    code_map: CodeMap | None = None,
    like: CodeMap | None = None,
    tag_runs: list[TagStages] | None = None,
    constructs_only: bool = False,
) -> Directives:
    """``parse_directives(text, explain=True)`` (profile ``next``) for a stage inside
    ``split_media``, ``parse_reply`` or ``render_reply``: the arguments are the pipeline's
    own, and the findings are left to the next stage (:func:`~richout.models.diagnostics.
    findings_of`), which builds one record per finding over its own input. The run is
    appended to ``tag_runs`` (when given) for a view's tag layer to reuse. ``code_map``, when
    given, was built for exactly ``text``; ``like``, for the text ``text`` was made from
    (:class:`~richout.tags.code.StageCode`). ``constructs_only``: the caller (the split's
    tag pass) reads the edits, the audio spans and the findings about single constructs
    (:data:`~richout.models.diagnostics.PER_CONSTRUCT`) alone, so the reply tags' spans and
    their precedence findings are not made."""
    if not has_double_bracket(text):
        out, patch = untagged(text, code_map)
        return Directives.explained(text=out, edits=edit_records(patch))
    sink = Sink(text, strip_audio, strip_reply, True)
    record = tag_runs is not None
    code = StageCode(text, code_map, like)
    run = TagStages(text, code, sink, strip_audio, strip_reply, record=record)
    if tag_runs is not None:
        tag_runs.append(run)
    return run.deferred(current_message_id, constructs_only=constructs_only)


class TagStages:
    """Both tag stages run on one text holding ``[[``, with every intermediate text kept.

    ``text`` is the input, ``text2`` the text after the audio stage, ``text3`` the text after
    the reply stage and ``final`` the result after §5.1; ``patch1``-``patch3`` are the steps
    between them, composed only when explaining. ``patch2`` and ``patch3`` are built only when
    the run may be asked for its edits (``edits``); ``patch1`` also maps the reply stage's
    offsets back to the input, so it is built unless the run skips that stage and composes
    nothing (``read_replies=False`` without edits: then it is empty, and ``to_input`` raises).
    """

    __slots__ = (
        "audio",
        "code2",
        "edits",
        "final",
        "patch1",
        "patch2",
        "patch3",
        "recording",
        "replies",
        "sink",
        "text",
        "text2",
        "text3",
        "to_input",
    )

    def __init__(
        self,
        text: str,
        code1: StageCode,
        sink: Sink,
        strip_audio: bool,
        strip_reply: bool,
        *,
        record: bool = False,
        reuse: TagStages | None = None,
        shift: int = 0,
        edits: bool | None = None,
        read_replies: bool = True,
        trimmed: bool = False,
    ) -> None:
        """``record``: explaining, keep the reply stage's findings for a later run over the
        same text (:meth:`reusing`). ``reuse``, ``shift``: such a run's reply stage read this
        text's stage text with ``shift`` more characters in front (given by :meth:`reusing`).
        ``edits``: :meth:`spans_and_patch` may be called (default: when explaining); without,
        the removal and §5.1 steps build their texts only, not a patch per tag.
        ``read_replies=False``: nobody reads this run's reply tags (the split's own tag pass,
        which strips none and is not reused by a view); once an audio tag was recognised,
        §5.1 runs whatever the reply stage finds, so the stage is skipped and ``replies``
        stays empty. ``trimmed``: the caller right-trims ``final`` and reads no edits of the
        run, so §5.1 trims its tail without asking whether code owns it (the caller's trim
        would remove that whitespace either way)."""
        self.text = text
        self.sink = sink
        self.edits = with_patch = sink.explain if edits is None else edits
        self.audio = audio = audio_stage(text, code1, sink)
        skip_replies = not (read_replies or strip_reply or sink.explain)
        # No reply stage below and nothing explained or composed: nobody maps this run's
        # offsets back, so the audio tags' removal builds its text alone (1.2 against 3.5 µs
        # with the patch and its offset map, a corpus reply's tags).
        unmapped = skip_replies and not with_patch
        to_input: OffsetMap
        if strip_audio and audio:
            text2, patch1 = close_sites(text, audio, with_patch=not unmapped)
            code2 = StageCode(text2, like=code1)
            to_input = _no_offsets if unmapped else offset_mapper(patch1)
        else:
            text2, patch1, code2, to_input = text, [], code1, identity
        self.text2, self.patch1, self.code2, self.to_input = text2, patch1, code2, to_input

        self.recording: Recorder | None = None
        replies: list[FoundReply]
        if skip_replies and audio:
            replies = []
        elif reuse is not None:
            replies = [r.at_stage(shift) for r in reuse.replies]
            if reuse.recording is not None and sink.explain:
                # A view unions the recording run's findings before this run's.
                reuse.recording.replay(sink, _shifted(shift), reported=True)
        elif sink.explain and record:
            # Read into a recorder and replayed: a view's tag layer may read this text again.
            rec = self.recording = Recorder(text2)
            found = reply_stage(text2, code2, rec, identity, ReplyTagReader(text2))
            rec.replay(sink, to_input)
            replies = found if to_input is identity else [r.mapped(to_input) for r in found]
        else:
            replies = reply_stage(text2, code2, sink, to_input, ReplyTagReader(text2))
        self.replies: list[FoundReply] = replies
        if strip_reply and replies:
            text3, patch2 = close_sites(
                text2, [(r.start, r.end) for r in replies], with_patch=with_patch
            )
            code3 = StageCode(text3, like=code2)
        else:
            text3, patch2, code3 = text2, [], code2
        self.text3, self.patch2 = text3, patch2

        if audio or replies:
            owns_tail = _owns_none if trimmed and not with_patch else code3.owns_tail
            self.final, self.patch3 = normalize_boundaries(
                text3, code3.in_code, owns_tail, with_patch=with_patch
            )
        else:
            self.final, self.patch3 = text3, []

    def map_of(self, text: str) -> CodeMap | None:
        """The code map of ``text`` when it is exactly the text this run's reply stage read
        (the map is built on its first question), else None: a view's later stage over the
        split's text asks the same map rather than build a second of a text it equals."""
        return self.code2.map() if self.text2 == text else None

    @classmethod
    def outputs_only(
        cls, text: str, strip_audio: bool, strip_reply: bool, code_map: CodeMap | None = None
    ) -> TagStages:
        """Both stages over ``text`` (holding ``[[``) without explanations, for a caller that
        reads the outputs alone (a view's tag layer); ``code_map``: a map of exactly
        ``text``."""
        sink = Sink(text, strip_audio, strip_reply, False)
        return cls(text, StageCode(text, code_map), sink, strip_audio, strip_reply)

    @classmethod
    def reusing(
        cls,
        prior: TagStages | None,
        text: str,
        strip_audio: bool,
        strip_reply: bool,
        *,
        explain: bool = False,
        code_map: CodeMap | None = None,
    ) -> TagStages | None:
        """The stages over ``text``, reusing the reply tags ``prior`` read (and, explaining,
        what its reply stage recorded), when ``text`` is the text ``prior``'s reply stage
        read, trimmed at most; else None.

        A view's tag layer reads the split's text, which is the text the split's own tag
        pass read reply tags in, less the leading line breaks and trailing whitespace that
        §5.1 and the split's trims removed. Neither can change which tags are complete (a
        tag holds non-whitespace) or which code regions hold them (blank lines before a
        document and whitespace after its last character end no block and close no span);
        the leading blank §5.1 may also remove can (it shifts the first line's indentation),
        so a text trimmed that way is read afresh. The same tags are then found, and the
        same constructs. Explaining, the recording hands this run's sink the ranges its
        malformed and in-code findings claim and its id findings, not those two kinds of
        finding: the view adds the split's copies first and keeps each construct once
        (``Recorder.replay(reported=True)``), so this run's ``Directives`` lacks them and is
        for the view's own use (``tests/test_fastpaths.py`` compares the views with and
        without reuse, explained and not). ``code_map``: a map of exactly ``text``, used
        when ``prior`` read another text. ``text`` must hold ``[[`` (parse_directives treats
        a text without one apart), and when audio tags are to be stripped it must hold no
        audio head: removing one would change the text the reply stage reads.
        """
        if prior is None or "[[" not in text or (explain and prior.recording is None):
            return None
        if strip_audio and AUDIO_HEAD.search(text) is not None:
            return None
        shift = _trimmed_from(prior.text2, text)
        if shift < 0:
            return None
        if shift == 0 and len(text) == len(prior.text2):
            code = prior.code2
        else:
            code = StageCode(text, code_map)
        sink = Sink(text, strip_audio, strip_reply, explain)
        return cls(text, code, sink, strip_audio, strip_reply, reuse=prior, shift=shift)

    def outputs(self, current_message_id: str | None) -> dict[str, Any]:
        """The output fields; §2.3: the last explicit id wins, else the current message."""
        audio, replies = self.audio, self.replies
        last_explicit = None
        saw_current = False
        for r in replies:
            if r.id is not None:
                last_explicit = r.id
            elif r.kind == "current":
                saw_current = True
        reply_to_id = last_explicit
        if reply_to_id is None and saw_current:
            reply_to_id = js_trim(current_message_id or "") or None
        return {
            "text": self.final,
            "audio_as_voice": bool(audio),
            "reply_to_id": reply_to_id,
            "reply_to_explicit_id": last_explicit,
            "reply_to_current": saw_current,
            "has_audio_tag": bool(audio),
            "has_reply_tag": bool(replies),
        }

    def findings(
        self,
        outputs: dict[str, Any],
        current_message_id: str | None,
        *,
        current_without_id: bool = True,
        precedence: bool = True,
    ) -> Diagnostics:
        """Every finding over the input: the stages' own, unknown tags, precedence (§2.3);
        ``current_without_id=False`` leaves out ``tag.current_without_id``, and
        ``precedence=False`` every precedence finding."""
        sink, replies = self.sink, self.replies
        unknown_stage(self.text2, self.code2, sink, self.to_input)
        if not precedence:
            return sink.diags
        explicit = [r for r in replies if r.id is not None]
        currents = [r for r in replies if r.kind == "current"]
        if explicit or current_without_id:
            explain_precedence(sink, explicit, currents, outputs["reply_to_id"], current_message_id)
        return sink.diags

    def explained(self, outputs: dict[str, Any], current_message_id: str | None) -> Directives:
        """The eager result: every finding, the tag spans and the composed edits."""
        findings = self.findings(outputs, current_message_id)
        spans, patch = self.spans_and_patch()
        return Directives.explained(
            **outputs, diagnostics=findings.build(), spans=spans, edits=edit_records(patch)
        )

    def deferred(
        self, current_message_id: str | None, *, constructs_only: bool = False
    ) -> Directives:
        """The explained result, its findings left to the next stage (:func:`stage_tags`,
        which says what ``constructs_only`` leaves out)."""
        outputs = self.outputs(current_message_id)
        findings = self.findings(outputs, current_message_id, precedence=not constructs_only)
        spans, patch = self.spans_and_patch(reply_spans=not constructs_only)
        return deferred(Directives, findings, spans, patch, **outputs)

    def spans_and_patch(self, *, reply_spans: bool = True) -> tuple[list[Span], Patch]:
        """The tag spans (input offsets, in order; the audio tags' alone without
        ``reply_spans``) and the stages' patches composed."""
        if not self.edits:
            raise RuntimeError("TagStages built with edits=False has no patch to compose")
        audio = self.audio
        replies = self.replies if reply_spans else []
        # Spans and records hold values computed here: built without validation per record.
        spans = [span_record("audio_tag", s, e, None) for s, e in audio]
        spans.extend(span_record("reply_tag", r.in_start, r.in_end, r.id) for r in replies)
        if audio and replies:
            spans.sort(key=lambda sp: sp.start)
        patch: Patch = list(self.patch1)  # (the result's own: the stage's stays the stage's)
        if self.patch2:
            patch = compose(patch, self.patch2, self.text2)
        if self.patch3:
            patch = compose(patch, self.patch3, self.text3)
        return spans, patch


def _trimmed_from(read: str, text: str) -> int:
    """Where ``text`` starts in ``read`` when it is ``read`` less leading line breaks and
    trailing JavaScript whitespace (:meth:`TagStages.reusing`); -1 when it is not."""
    if read is text:
        return 0
    for start in (0, leading_breaks_end(read)):
        if read.startswith(text, start) and not js_trim(read[start + len(text) :]):
            return start
    return -1


def _owns_none(content_end: int) -> bool:
    """The tail question of a run whose caller right-trims its text (``trimmed``)."""
    return False


def _no_offsets(pos: int) -> int:
    """The offset map of a run that kept no patch of its audio stage (``TagStages``'s
    ``read_replies=False``, explaining nothing): asking it is a bug, said at once."""
    raise RuntimeError("this tag run kept no patch of its audio stage to map offsets by")


def _shifted(shift: int) -> OffsetMap:
    """Stage offsets of a run over a text ``shift`` characters longer in front -> this text."""
    if shift == 0:
        return identity
    return lambda pos: pos - shift
