"""The §3 step 4 line walk: find the lines that can change and decide each (MEDIA.md).

Only lines that hold ``media:`` (or, with images on, a Markdown image) are visited, in
document order, and only those lines ask the :class:`~richout.markdown.codemap.CodeMap`
whether they are code. A directive line (§5) has its payload read by
:func:`~richout.media.payload.analyse_payload` (§6-§7) and is then accepted, removed or
kept (§9); an image line has its images lifted or left (§13: :mod:`richout.media.images`).
Everything found is recorded in a :class:`~richout.media.lines.Walk`, with each changed
line as a :class:`~richout.media.lines.LineChange` for :mod:`richout.media.segments`.
"""

from __future__ import annotations

import re
from typing import Literal

from richout.markdown.codemap import CodeMap
from richout.markdown.engine import ImageSpan
from richout.media.captioned import spaced_path_line, url_caption_line
from richout.media.fates import plain_path
from richout.media.heads import HEAD, HEAD_STOPS, PLAIN_DIRECTIVE, plain_paths
from richout.media.images import image_line, images_by_line
from richout.media.lines import (
    MEDIA_AT_BOUNDARY,
    DirectiveLine,
    LineChange,
    SegmentItem,
    Walk,
    leftover_text,
    lines_holding,
    lower_same_length,
    next_directive_token,
    passes_rule1,
    payload_start,
    record_references,
    refused_change,
    says_nothing,
)
from richout.media.payload import Item, Judge, PayloadResult, analyse_payload, may_name_a_source
from richout.media.refused import refused_token_line
from richout.media.single_token import read_clean_token
from richout.models import Span, span_record
from richout.policy import Policy, Verdict
from richout.profiles import Profile
from richout.text.chars import LineBreaks, collapse_blank_runs

__all__ = ["PLAIN_DIRECTIVE", "Walker", "plain_paths"]

#: A token of such a line ending in ``.``: sentence punctuation §17.3 warns about.
_DOT_AT_TOKEN_END = re.compile(r"\.(?![^ \t])")


class Walker:
    """The §3 step 4 line walk over the lines that can change."""

    def __init__(
        self,
        raw: str,
        *,
        media_on: bool,
        directives_on: bool,
        images_on: bool,
        allowlist: dict[str, str] | None,
        profile: Profile,
        explain: bool = True,
        policy: Policy | None = None,
        cmap: CodeMap | None = None,
    ) -> None:
        self.explain = explain
        self.profile = profile
        self.lines = LineBreaks(raw, profile.cr_lines)
        self.raw = raw
        #: ``raw`` lower-cased, offsets preserved (the diagnostics pass reads it too)
        self.low = lower_same_length(raw)
        self.media_on = media_on
        self.directives_on = directives_on
        self.images_on = images_on
        self.allowlist = allowlist
        #: the code map of ``raw`` (built on first use, unless the caller has one)
        self._cmap = cmap
        self.walk = Walk(raw, judge=Judge(profile, policy, explains=explain))
        #: lines joined by a multi-line image: first line's start -> end of the last line
        self.merged: dict[int, int] = {}

    @property
    def cmap(self) -> CodeMap:
        """The one code map of *raw*, built on first use."""
        if self._cmap is None:
            self._cmap = CodeMap(self.raw)
        return self._cmap

    def code_map_if_built(self) -> CodeMap | None:
        """The code map when some line needed it or the caller gave it (the diagnostics
        pass and the tag pass reuse it)."""
        return self._cmap

    # ------------------------------------------------------------------ directives

    def _plain_accepted(self, m: re.Match[str], ls: int, le: int) -> bool:
        """A :data:`PLAIN_DIRECTIVE` line (``m``) whose token is delivered, recorded as the
        general path records it (outputs, and when explaining what the explanation reads:
        :meth:`_record_quiet`'s records); False, having recorded nothing, otherwise.

        For such a line :func:`~richout.media.payload.analyse_payload` takes its single-token
        steps with the token as the cleaned candidate, so an accepted token is the line's one
        reference and the whole line leaves the text (``tests/test_fastpaths.py`` compares the
        two paths). A refused token goes the general way, which explains and counts it.
        Explaining, so does a line §17.2-§17.3 could say something about (a backtick, a
        token that is not a quiet value, a second ``MEDIA:``).
        """
        backtick = m.start(1) < m.end(1)
        if backtick and not self.profile.skip_leading_backtick:
            return False
        token = m.group(2)
        walk, judge = self.walk, self.walk.judge
        # A plain absolute path is accepted from its characters (fates.plain_path).
        rooted = plain_path(token)
        if not (rooted or judge.ok(token)) or not judge.narrowed(token).ok:
            return False
        if self.explain:
            # The explanation is quiet only for a token that says nothing on its own and
            # holds no second directive (a ":" is the only way one could); backticks around
            # it are cleaned away, so they say nothing either. Of says_nothing's questions
            # a plain path (rooted; no quote, bracket, brace or ":") leaves only the last.
            if not (token[-1] != "." if rooted else says_nothing(token)):
                return False
            ps = m.start(2)
            if ":" in token and next_directive_token(self.raw, ps, le) >= 0:
                return False
            ms = self.raw.find(":", ls) - 5  # (_record_quiet's records, for one token)
            walk.spans.append(span_record("media", ms, le, token))
            walk.directives.append(DirectiveLine(ls, le, ms, ps, None, "accepted", True))
        walk.consumed = True
        walk.media.append(token)
        walk.changes.append(LineChange(ls, le, None, [("media", token)]))
        return True

    def _plain_line(self, m: re.Match[str], ls: int, le: int) -> None:
        """A :data:`PLAIN_DIRECTIVE` line (``m``) outside code: taken by the plain-line
        shortcut, else (explaining) by the refused-token one, else read the general way."""
        if not (
            self._plain_accepted(m, ls, le) or (self.explain and self._refused_token(m, ls, le))
        ):
            self._directive_line(ls, le, m)

    def _plain_run(self, order: list[int], k: int, lines: dict[int, int]) -> int:
        """The visited lines ``order[k:]`` (ends in ``lines``) after a plain directive line,
        each decided by :meth:`_plain_line` while it is a :data:`PLAIN_DIRECTIVE` line
        outside code; the index of the first line left to the walk's loop.

        The loop's other questions (the directive head, rule 1, images, a joined line) have
        their answer for such a line, and the caller has no joined lines: a block of 100k
        directive lines skips them. ``tests/test_walk_runs.py`` compares every output with
        the loop's.
        """
        raw = self.raw
        fullmatch = PLAIN_DIRECTIVE.fullmatch
        in_block = self.cmap.line_in_block
        plain_line = self._plain_line
        count = len(order)
        while k < count:
            ls = order[k]
            le = lines[ls]
            m = fullmatch(raw, ls, le)
            if m is None or in_block(ls, le):
                break
            plain_line(m, ls, le)
            k += 1
        return k

    def _directive_head(self, ls: int, le: int) -> re.Match[str] | None:
        """:data:`~richout.media.heads.HEAD` at the line's start (a method: tests decline it)."""
        return HEAD.match(self.raw, ls, le)

    def _refused_token(self, m: re.Match[str], ls: int, le: int) -> bool:
        """Explaining, a :data:`PLAIN_DIRECTIVE` line (``m``) of one token the profile
        refuses, recorded and explained as the general path would
        (:func:`~richout.media.refused.refused_token_line`); False, having recorded nothing,
        for any other line."""
        return refused_token_line(self.walk, self.raw, m, ls, le, profile=self.profile)

    def _caption(self, ps: int, ls: int, le: int) -> bool:
        """Explaining, a line whose payload (at ``ps``) is a URL and its caption or a path
        written with spaces, recorded and explained as the general path would
        (:mod:`richout.media.captioned`); False, having recorded nothing, for any other
        line."""
        if self.raw.startswith("http", ps):
            return url_caption_line(self.walk, self.raw, ps, ls, le, profile=self.profile)
        return spaced_path_line(self.walk, self.raw, ps, ls, le)

    def _record_quiet(self, ls: int, le: int, ps: int, tokens: list[str]) -> None:
        """Explaining a fast-path line (payload at ``ps``) whose ``tokens`` are all
        delivered and about which §17.2-§17.3 have nothing to say (the callers check):
        record its spans and a :class:`DirectiveLine` without a payload reading.

        The general path would find each token a plain part (no absorbed words, cut or
        tail), with nothing rejected or left beside them, so its checks reduce to each
        value's own (:func:`says_nothing`) and a second ``MEDIA:`` on the line. Spans share
        one record per value, as the general path's do.
        """
        ms = self.raw.find(":", ls) - 5  # the line opens with [ \t]*MEDIA:
        spans = self.walk.spans
        line_spans: dict[str, Span] = {}
        for t in tokens:
            span = line_spans.get(t)
            if span is None:
                span = line_spans[t] = span_record("media", ms, le, t)
            spans.append(span)
        self.walk.directives.append(DirectiveLine(ls, le, ms, ps, None, "accepted", True))

    def _plain_paths(self, ls: int, le: int) -> bool:
        """A line of plain paths (:data:`~richout.media.heads.PATHS_HEAD`), every one
        delivered, recorded as the general path records it (outputs, and when explaining what
        the explanation reads: :meth:`_record_quiet`); False, having recorded nothing,
        otherwise.

        The payload steps accept each path as its own part, leave nothing visible and count
        nothing, so the line leaves the text and its paths are its references, in order
        (``tests/test_fastpaths.py`` compares the two paths). Under a gateway policy that
        refuses one of them the general path decides where the refusal goes; explaining, so
        does a line with a path ending in ``.`` (§17.3 warns about it).
        """
        tokens = plain_paths(self.raw, ls, le)
        if tokens is None:
            return False
        judge = self.walk.judge
        if judge.policy is not None and not all(judge.narrowed(t).ok for t in tokens):
            return False
        if self.explain:
            # Plain-path tokens hold no ":" and no quote, bracket or brace, so says_nothing
            # asks only about a "." at a token's end.
            ps = self.raw.find("/", ls, le)
            if _DOT_AT_TOKEN_END.search(self.raw, ps, le) is not None:
                return False
            self._record_quiet(ls, le, ps, tokens)
        walk = self.walk
        walk.consumed = True
        walk.media.extend(tokens)
        walk.changes.append(LineChange(ls, le, None, [("media", t) for t in tokens]))
        return True

    def _directive_line(
        self,
        ls: int,
        le: int,
        plain: re.Match[str] | None = None,
        head: re.Match[str] | None = None,
    ) -> None:
        """§5 rule 2 and §6-§9 for a rule-1 line outside code (``plain``: PLAIN_DIRECTIVE's
        match, ``head``: :data:`~richout.media.heads.HEAD`'s)."""
        raw = self.raw
        walk = self.walk
        if plain is not None:
            # Blanks, MEDIA:, blanks, then the token (maybe after a backtick the profile
            # does not skip): where payload_start would put the payload, read off the match.
            ms = raw.find(":", ls) - 5
            backtick = plain.start(1) < plain.end(1)
            ps = plain.start(1 if backtick and not self.profile.skip_leading_backtick else 2)
        elif head is not None and head.end() < le and raw[head.end()] not in HEAD_STOPS:
            # What the search and payload_start find, read off the head (the usual line).
            ms = raw.find(":", ls) - 5
            ps = head.end()
        else:
            m = MEDIA_AT_BOUNDARY.search(raw, ls, le)
            if m is None:
                return  # rule 1 passed on a U+0131 spelling with no ASCII MEDIA: on the line
            if m.end() >= le:
                walk.empty_lines.append((ls, le))
                return
            ms = m.start()
            ps = payload_start(raw, m.end(), le, self.profile.skip_leading_backtick)
        payload = raw[ps:le]
        if not (self.explain or may_name_a_source(payload)):
            walk.changes.append(refused_change(raw, ls, ms, le, removed=False))
            return  # nothing to deliver, count or hide, and nothing to explain: kept
        clean = plain is not None and ps == plain.start(2) and plain.end(2) == le  # one token
        res = (read_clean_token if clean else analyse_payload)(payload, walk.judge)
        narrowed: list[tuple[Item, Verdict]] = []
        if walk.judge.policy is not None and res.accepted:
            res = res.copy()  # the judge returns its record again for the same payload
            narrowed = self._narrow(res)
        outcome: Literal["accepted", "removed", "kept"]
        if res.counted:
            walk.rejected_count += len(res.counted)
            walk.consumed = True
        if res.accepted:
            outcome = "accepted"
            walk.consumed = True
            before = raw[ls:ms]
            text = collapse_blank_runs(before) if before else ""
            segs: list[SegmentItem] = [("text", text)] if text else []
            record_references(walk, res.accepted, segs, span_of=(ms, le) if self.explain else None)
            cleaned, kept = leftover_text(raw[ps:le], res.leftovers)
            if cleaned:
                segs.append(("text", cleaned))
            change = LineChange(ls, le, cleaned or None, segs, kept, ps, " ")
        else:
            removed = res.looks_local or bool(res.counted)
            outcome = "removed" if removed else "kept"
            if removed:
                walk.consumed = True
            change = refused_change(raw, ls, ms, le, removed=removed)
        walk.changes.append(change)
        if self.explain:
            # Only the explanation reads the directive records (media/explain*.py).
            walk.directives.append(
                DirectiveLine(ls, le, ms, ps, res, outcome, change.replacement is None, narrowed)
            )

    def _narrow(self, res: PayloadResult) -> list[tuple[Item, Verdict]]:
        """Apply the gateway's policy to the references the profile accepted on one line.

        The payload was read as the profile reads it; a refused reference then goes where
        the profile puts its own refusals: hidden and counted where it hides them (``next``),
        else left as visible text (the whole line, unless it looks like a local path).
        """
        judge = self.walk.judge
        kept: list[Item] = []
        refused: list[tuple[Item, Verdict]] = []
        for item in res.accepted:
            verdict = judge.narrowed(item.value)
            if verdict.ok:
                kept.append(item)
            else:
                refused.append((item, verdict))
        if not refused:
            return refused
        res.accepted = kept
        if self.profile.hide_rejected:
            res.counted.extend((item.start, item.end, item.value) for item, _ in refused)
        elif kept:
            res.leftovers = sorted(res.leftovers + [(item.start, item.end) for item, _ in refused])
        return refused

    # ------------------------------------------------------------------ walk

    def run(self) -> Walk:
        """Visit the lines that can change, in document order."""
        raw = self.raw
        walk = self.walk
        lines: dict[int, int] = {}
        if self.media_on:
            for ls, le in lines_holding(self.low, self.lines, "media:"):
                lines[ls] = le
                walk.media_lines.append(ls)
        images: dict[int, list[ImageSpan]] = {}
        if self.images_on and "![" in raw:
            images = images_by_line(
                walk,
                self.lines,
                self.merged,
                multiline=self.profile.multiline_images,
                directives_on=self.directives_on,
            )
            for ls in images:
                lines[ls] = self.merged.get(ls) or self.lines.line_end(ls)
        skip_until = -1
        directives_on = self.directives_on
        # (Bound once: a 1 MB reply of directive lines visits 100k lines.)
        fullmatch = PLAIN_DIRECTIVE.fullmatch
        merged_get = self.merged.get
        order = sorted(lines)
        count = len(order)
        k = 0
        while k < count:
            ls = order[k]
            k += 1
            if ls < skip_until:
                continue  # inside a line joined by a multi-line image
            le = lines[ls]
            skip_until = merged_get(ls, -1)
            # A plain directive line passes rule 1: it opens with ASCII "MEDIA:", as does any
            # line with the head (asked only when the line is not plain).
            m = fullmatch(raw, ls, le) if directives_on else None
            h = self._directive_head(ls, le) if directives_on and m is None else None
            rule1 = (
                m is not None
                or h is not None
                or passes_rule1(raw, ls, le, self.profile.ascii_media_prefix)
            )
            # The option, not the presence of "media:", decides: a U+0131 spelling passes
            # rule 1 without any "media:" and is then neither a directive nor image-scanned.
            if rule1 and directives_on:
                if self.cmap.line_in_block(ls, le):
                    walk.code_lines.append((ls, le))
                elif m is not None:
                    self._plain_line(m, ls, le)
                    if not self.merged:
                        # The plain lines right after it (most often the rest of a block of
                        # directive lines) are decided without the questions above.
                        k = self._plain_run(order, k, lines)
                elif not (
                    # (a line of plain paths has a "/" where the head ends, one of a URL and
                    # its caption "http", one of a spaced path "/" or "~/")
                    ((h is None or raw.startswith("/", h.end())) and self._plain_paths(ls, le))
                    or (
                        self.explain
                        and h is not None
                        and raw.startswith(("http", "/", "~/"), h.end())
                        and self._caption(h.end(), ls, le)
                    )
                ):
                    self._directive_line(ls, le, None, h)
                continue
            line_images = images.get(ls)
            if line_images and not self.cmap.line_in_block(ls, le):
                image_line(
                    walk, ls, le, line_images, allowlist=self.allowlist, explain=self.explain
                )
        return walk
