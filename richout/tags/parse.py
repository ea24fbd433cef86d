"""``[[audio_as_voice]]``, ``[[reply_to_current]]`` and ``[[reply_to:<id>]]`` (TAGS.md §1-§6).

:func:`parse_directives` reads the tags the way the reference does, in two stages
(:mod:`richout.tags.stages`):

1. audio tags on the input text (code regions of the input);
2. reply tags on the text after the audio tags were removed and their gaps closed (code
   regions of that text);

then closes the reply gaps and, when any tag outside code was recognised (or the text has no
``[[`` at all), normalises the message boundaries (§5.1). Each stage records a patch over its
own input; the composed patch is the result's ``edits``, so ``rebuild(result) == text``.

Everything is linear in the input: candidate ``[[`` are found by head regexes that cannot
backtrack, the first ``]`` after a value is remembered across candidates, the grammar only
sees one candidate slice at a time, and every gap is closed with amortised O(1) work.

The readers (:func:`read_audio_tag`, :class:`~richout.tags.scan.ReplyTagReader`,
:func:`read_reply_tag`) are shared with the delivery strip (§7.1) and the streaming parser.
"""

from __future__ import annotations

from typing import Any

from richout.collector import pauses_collector
from richout.errors import InvalidInput, require_bool, require_str
from richout.markdown.codemap import CodeMap
from richout.models import Directives, Span, rerun
from richout.models.lossless import edit_records
from richout.profiles import DEFAULT_PROFILE, Profile, resolve_profile
from richout.tags.close import close_sites, normalize_boundaries
from richout.tags.code import StageCode
from richout.tags.explain import OffsetMap, Sink, explain_precedence, identity, unknown_stage
from richout.tags.release_result import release_directives
from richout.tags.scan import ReplyTagReader, TagMatch, read_audio_at
from richout.tags.stages import audio_stage, reply_stage
from richout.text.chars import js_trim
from richout.text.patch import Patch, compose, offset_mapper

__all__ = [
    "parse_directives",
    "read_audio_tag",
    "read_reply_tag",
    "untagged_text",
]


def read_audio_tag(text: str, pos: int) -> TagMatch | None:
    """A complete audio tag (§1.1) starting exactly at ``pos`` (a ``[[``), or None."""
    return read_audio_at(text, pos)


def read_reply_tag(text: str, pos: int) -> TagMatch | None:
    """A complete reply tag (§1.2-§1.4) starting exactly at ``pos``, or None.

    One-off convenience: to read many positions of one text use a :class:`ReplyTagReader`,
    which keeps the walk linear.
    """
    return ReplyTagReader(text).read(pos)


def untagged_text(text: str) -> str:
    """``parse_directives(text).text`` for a ``text`` without ``[[`` (§5.1 trimming only)."""
    code = StageCode(text)
    return normalize_boundaries(text, code.in_code, code.owns_tail)[0]


@pauses_collector
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

    ``code_map`` is an optional :class:`~richout.markdown.codemap.CodeMap` the caller already built
    for exactly ``text`` (reused, with whatever it has computed; ignored for another text).
    ``profile`` names the upstream behaviour to reproduce (:data:`richout.PROFILES`).
    Diagnostics, spans and edits are computed when first read (``explain=True``: now).
    """
    prof = resolve_profile(profile)
    # The checks are inline: a call for them costs ~0.15 µs of a ~4 µs reply without "[[".
    require_str(text)
    require_str(current_message_id, "current_message_id", optional=True)
    if code_map is not None and not isinstance(code_map, CodeMap):
        raise InvalidInput(
            "code_map must be a richout.markdown.codemap.CodeMap or None, "
            f"got {type(code_map).__name__}"
        )
    if not (type(strip_audio_tag) is bool and type(strip_reply_tags) is bool):
        require_bool(strip_audio_tag, "strip_audio_tag")
        require_bool(strip_reply_tags, "strip_reply_tags")
    if type(explain) is not bool:
        require_bool(explain, "explain")
    if prof.normalize_rewritten_whitespace:
        return release_directives(
            text,
            current_message_id=current_message_id,
            strip_audio_tag=strip_audio_tag,
            strip_reply_tags=strip_reply_tags,
            profile=prof,
            explain=explain,
            pipeline=parse_directives,
        )
    if not text:
        return Directives.explained(text="")
    if code_map is not None and code_map.text is not text and code_map.text != text:
        code_map = None
    code1 = StageCode(text, code_map)
    if "[[" not in text:
        out, patch = normalize_boundaries(text, code1.in_code, code1.owns_tail)
        if explain:
            return Directives.explained(text=out, edits=edit_records(patch))
        outputs: dict[str, Any] = {"text": out}
    else:
        sink = Sink(text, strip_audio_tag, strip_reply_tags, explain)
        run = _Stages(text, code1, sink, strip_audio_tag, strip_reply_tags)
        outputs = run.outputs(current_message_id)
        if explain:
            return run.explained(outputs, current_message_id)
    # Built only for a lazy result: the explainer is this call again with explain=True.
    explainer = rerun(
        parse_directives,
        text,
        current_message_id=current_message_id,
        strip_audio_tag=strip_audio_tag,
        strip_reply_tags=strip_reply_tags,
        profile=prof,
        explain=True,
    )
    return Directives.lazy(explainer, **outputs)


class _Stages:
    """Both tag stages run on one text holding ``[[``, with every intermediate text kept.

    ``text`` is the input, ``text2`` the text after the audio stage, ``text3`` the text after
    the reply stage and ``final`` the result after §5.1; ``patch1``-``patch3`` are the steps
    between them, composed only when explaining.
    """

    __slots__ = (
        "audio",
        "code2",
        "final",
        "patch1",
        "patch2",
        "patch3",
        "replies",
        "sink",
        "text",
        "text2",
        "text3",
        "to_input",
    )

    def __init__(
        self, text: str, code1: StageCode, sink: Sink, strip_audio: bool, strip_reply: bool
    ) -> None:
        self.text = text
        self.sink = sink
        self.audio = audio = audio_stage(text, code1, sink)
        to_input: OffsetMap
        if strip_audio and audio:
            text2, patch1 = close_sites(text, audio)
            code2 = StageCode(text2)
            to_input = offset_mapper(patch1)
        else:
            text2, patch1, code2, to_input = text, [], code1, identity
        self.text2, self.patch1, self.code2, self.to_input = text2, patch1, code2, to_input

        reader = ReplyTagReader(text2)
        self.replies = replies = reply_stage(text2, code2, sink, to_input, reader)
        if strip_reply and replies:
            text3, patch2 = close_sites(text2, [(r.start, r.end) for r in replies])
            code3 = StageCode(text3)
        else:
            text3, patch2, code3 = text2, [], code2
        self.text3, self.patch2 = text3, patch2

        if audio or replies:
            self.final, self.patch3 = normalize_boundaries(text3, code3.in_code, code3.owns_tail)
        else:
            self.final, self.patch3 = text3, []

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

    def explained(self, outputs: dict[str, Any], current_message_id: str | None) -> Directives:
        """The eager result: every finding, the tag spans and the composed edits."""
        sink, audio, replies = self.sink, self.audio, self.replies
        unknown_stage(self.text2, self.code2, sink, self.to_input)
        explicit = [r for r in replies if r.id is not None]
        currents = [r for r in replies if r.kind == "current"]
        explain_precedence(sink, explicit, currents, outputs["reply_to_id"], current_message_id)

        # Spans and records hold values computed here: built without validation per record.
        spans = [Span.trusted(kind="audio_tag", start=s, end=e) for s, e in audio]
        spans.extend(
            Span.trusted(kind="reply_tag", start=r.in_start, end=r.in_end, value=r.id)
            for r in replies
        )
        if audio and replies:
            spans.sort(key=lambda sp: sp.start)
        patch: Patch = self.patch1
        if self.patch2:
            patch = compose(patch, self.patch2, self.text2)
        if self.patch3:
            patch = compose(patch, self.patch3, self.text3)
        return Directives.explained(
            **outputs,
            diagnostics=sink.diags.build(),
            spans=spans,
            edits=edit_records(patch),
        )
