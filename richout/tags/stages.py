"""The two tag stages of ``parse_directives`` (TAGS.md §4): where a tag is recognised.

1. :func:`audio_stage` reads audio tags on the input text (§4.1);
2. :func:`reply_stage` reads reply tags on the text after the audio tags were removed and
   their gaps closed (§4.2-§4.3), sanitising each explicit id (§2.1).

Each stage asks its own text's code regions (:class:`~richout.tags.code.StageCode`) and reads
candidates found by the head regexes of :mod:`richout.tags.scan`, left to right, in linear
time. What a stage finds decides the outputs; what it could not read (malformed heads, tags in
code, rewritten ids) goes to the :class:`~richout.tags.explain.Sink`, which records it only
when explaining.
"""

from __future__ import annotations

from richout.tags.code import StageCode
from richout.tags.explain import (
    Ends,
    Sink,
    clip,
    malformed_reason,
    reply_malformed_row,
    unclosed_reply_rows,
)
from richout.tags.scan import (
    AUDIO_HEAD,
    REPLY_HEAD,
    ReplyTagReader,
    TagKind,
    TagMatch,
    read_audio_at,
    sanitize_reply_id,
    ws_end,
)
from richout.text.patch import OffsetMap, end_in_input

__all__ = ["FoundReply", "audio_stage", "reply_stage"]

#: The rows of the reply heads left when no "]" follows (a name tests replace with a reading
#: of each head, to compare the two).
unclosed_rows = unclosed_reply_rows


class FoundReply:
    """A reply tag recognised outside code, in stage-2 and input offsets."""

    __slots__ = ("end", "id", "in_end", "in_start", "kind", "start")

    def __init__(self, tag: TagMatch, in_start: int, in_end: int, id_: str | None) -> None:
        self.start = tag.start
        self.end = tag.end
        self.kind: TagKind = tag.kind
        self.in_start = in_start
        self.in_end = in_end
        self.id = id_

    def mapped(self, to_input: OffsetMap) -> FoundReply:
        """This tag with its stage offsets mapped to input offsets as the stage maps them."""
        tag = TagMatch(self.start, self.end, self.kind)
        return FoundReply(
            tag, to_input(self.start), end_in_input(to_input, self.start, self.end), self.id
        )

    def at_stage(self, shift: int) -> FoundReply:
        """This tag in a text that is the stage text less its first ``shift`` characters,
        with those offsets as input offsets (a run over that text)."""
        if not shift and self.in_start == self.start and self.in_end == self.end:
            # The same tag (a view's tag layer reading the very text the split's reply stage
            # read): shared, as nothing changes a FoundReply once made.
            return self
        start, end = self.start - shift, self.end - shift
        return FoundReply(TagMatch(start, end, self.kind), start, end, self.id)


def audio_stage(text: str, code: StageCode, sink: Sink) -> list[tuple[int, int]]:
    """§4.1: audio tags outside code, left to right, non-overlapping."""
    found: list[tuple[int, int]] = []
    ends = Ends(text)
    for m in AUDIO_HEAD.finditer(text):
        # A head spans only "[[", whitespace and the name: no other "[[" can start inside it,
        # and after a tag the rest of it is whitespace and "]]", so finditer's resumption
        # point never skips a candidate.
        p = m.start()
        tag = read_audio_at(text, p)
        if tag is not None:
            if code.in_code(p):
                if sink.explain:
                    sink.in_code(p, tag.end, "audio", clip(text, p, tag.end))
            else:
                found.append((p, tag.end))
            continue
        if not sink.explain or code.in_code(p):
            continue
        end = ends(p)
        sink.malformed(
            p,
            end,
            clip(text, p, end),
            "[[audio_as_voice]]",
            malformed_reason(text, ws_end(text, m.end())),
        )
    return found


def reply_stage(
    text: str, code: StageCode, sink: Sink, to_input: OffsetMap, reader: ReplyTagReader
) -> list[FoundReply]:
    """§4.2-§4.3: reply tags read at each ``[[`` of the text after the audio stage."""
    found: list[FoundReply] = []
    resume = 0
    ends = Ends(text)
    explain = sink.explain
    # The malformed heads since the last tag, handed to the sink as one run before its next
    # call (the sink's order is the text's): a run of 95k unclosed openers paid two calls
    # and a dedupe key per head.
    malformed: list[tuple[str, int, int]] = []
    heads = REPLY_HEAD.finditer(text)
    for m in heads:
        p = m.start()
        if p < resume:
            continue  # inside the value of the tag read before (searching resumes after it)
        if not explain and not reader.may_start_tag(p):
            continue  # no tag, and nothing to say about it (a run of malformed heads)
        head = reader.head_of(m)
        tag = reader.read_head(p, head)
        if tag is None:
            if explain and not code.in_code(p):
                malformed.append(
                    reply_malformed_row(
                        text, p, head=head, reader=reader, sink=sink, to_input=to_input, ends=ends
                    )
                )
                if reader.first_close(p) >= len(text):
                    # No "]" from here on: no head left forms a tag (all are explained).
                    malformed += unclosed_rows(
                        text, heads, in_code=code.in_code, sink=sink, to_input=to_input, ends=ends
                    )
            continue
        if malformed:
            sink.malformed_worded(malformed)
            malformed = []
        resume = tag.end
        in_start, in_end = to_input(p), end_in_input(to_input, p, tag.end)
        if code.in_code(p):
            if sink.explain:
                sink.in_code(in_start, in_end, tag.kind, clip(text, p, tag.end))
            continue
        sink.claimed.append((in_start, in_end))
        if tag.kind == "current":
            found.append(FoundReply(tag, in_start, in_end, None))
            continue
        id_text = tag.id_text or ""
        id_ = sanitize_reply_id(id_text)
        if not id_:
            sink.reply_id_empty(in_start, in_end, text[p : tag.end])
        elif id_ != id_text:
            id_start = head.value_start
            id_end = id_start + len(id_text)
            sink.reply_id_sanitized(
                to_input(id_start), end_in_input(to_input, id_start, id_end), id_text, id_
            )
        found.append(FoundReply(tag, in_start, in_end, id_ or None))
    if malformed:
        sink.malformed_worded(malformed)
    return found
