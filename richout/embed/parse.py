"""`[embed ...]` shortcodes: find them, turn them into canvas previews (EMBED.md §1-§7, §13).

The reference finds shortcodes with two regexes that backtrack heavily on hostile input. Here a
pre-scan lists, once, where every opener, every ``]`` and every ``[/embed]`` is; the two
independent scans of §2.3 then walk those lists with moving pointers, so each shortcode costs
O(1) to locate and thousands of unclosed openers stay linear. Only the opener slice of a
shortcode that is actually handled goes through the grammar (``grammars/embed.lark``).
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import quote

from richout.grammar import load_grammar

if TYPE_CHECKING:
    from lark import Token
from richout.errors import require_bool, require_str
from richout.markdown.codemap import CodeMap
from richout.models import (
    CanvasPreview,
    Diagnostic,
    EmbedResult,
    Explanation,
    Span,
)
from richout.models.canvas import MAX_HEIGHT, MIN_HEIGHT, normalize_preferred_height
from richout.models.diagnostics import Diagnostics
from richout.models.lossless import edit_records
from richout.profiles import DEFAULT_PROFILE, Profile, resolve_profile
from richout.text.chars import ascii_lower, is_js_ws, js_ltrim, js_trim
from richout.text.patch import Edit

__all__ = [
    "Attribute",
    "Opener",
    "embeds_for_delivery_diagnostics",
    "encode_uri_component",
    "extract_embeds",
    "js_number",
    "parse_opener",
]

# Literal, quantifier-free patterns: ASCII case-insensitive without lower-casing the text.
_OPENER = re.compile(r"\[[Ee][Mm][Bb][Ee][Dd]")
_CLOSER = re.compile(r"\[/[Ee][Mm][Bb][Ee][Dd]\]")
_CLOSER_LEN = len("[/embed]")
_VIEW = re.compile(r"\[[Vv][Ii][Ee][Ww]")
_CANVAS_DOCUMENTS = "/__openclaw__/canvas/documents/"
_SURFACE = "assistant_message"
#: Attributes §6 reads; every other pair name is reported as unknown.
_KNOWN = frozenset({"target", "url", "ref", "title", "height", "class", "class_name", "style"})
_UNSAFE_SCHEMES = frozenset({"javascript:", "data:", "vbscript:", "file:"})
_RENDERABLE_PREFIXES = ("/__openclaw__/canvas", "/__openclaw__/a2ui")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_DOC_ID = re.compile(r"[A-Za-z0-9._-]+")
_EVENT_HANDLER = re.compile(r"on[a-z]+")
# JavaScript Number() grammar after trimming (§6.2); every piece is bounded by a literal or
# the end, so matching is linear.
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INFINITY = re.compile(r"[+-]?Infinity")
_RADIX = {"x": (16, re.compile(r"[0-9a-fA-F]+")), "o": (8, re.compile(r"[0-7]+")),
          "b": (2, re.compile(r"[01]+"))}  # fmt: skip
_WORD_CHARS = _NAME_CHARS - {"-"}


# --------------------------------------------------------------------------- JS semantics


def js_number(value: str) -> float:
    """JavaScript ``Number(value)`` for a string (NaN when it is not a number)."""
    s = js_trim(value)
    if not s:
        return 0.0
    if _DECIMAL.fullmatch(s):
        # Python's float() rounds decimal literals to the nearest double, as JavaScript does;
        # the regex has already refused what float() would accept beyond JS ("1_0", "nan").
        return float(s)
    if _INFINITY.fullmatch(s):
        return -math.inf if s[0] == "-" else math.inf
    if len(s) > 2 and s[0] == "0":
        radix = _RADIX.get(s[1].lower())
        if radix is not None and radix[1].fullmatch(s, 2):
            try:
                return float(int(s[2:], radix[0]))
            except OverflowError:
                return math.inf
    return math.nan


def encode_uri_component(value: str) -> str:
    """JavaScript ``encodeURIComponent``; raises ValueError on a lone surrogate."""
    # A surrogate pair spelled as two code points is one character to JavaScript; a UTF-16
    # round trip joins such pairs and refuses lone halves, as encodeURIComponent does.
    try:
        joined = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError as exc:
        raise ValueError("lone surrogate") from exc
    return quote(joined, safe="!~*'()")


# --------------------------------------------------------------------------- the grammar


@dataclass(frozen=True, slots=True)
class Attribute:
    """One ``name="value"`` pair of an opener; offsets are relative to the opener slice."""

    name: str
    value: str
    raw: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Opener:
    """An opener read by the grammar: its form, its pairs and its unquoted ``name=value`` text."""

    self_closing: bool
    attributes: tuple[Attribute, ...]
    unquoted: tuple[tuple[int, int], ...]


def _pair(token: Token) -> Attribute:
    text = str(token)
    n = len(text)
    i = 0
    while i < n and text[i] in _NAME_CHARS:
        i += 1
    name = ascii_lower(text[:i])
    j = text.index("=", i) + 1
    while is_js_ws(text[j]):
        j += 1
    raw = text[j + 1 : n - 1]
    start = token.start_pos or 0
    return Attribute(name, js_trim(raw), raw, start, start + n)


#: Openers up to this length are memoised: replies repeat the same few shortcodes, and a
#: bound keeps the cache from pinning huge hostile slices in memory.
_CACHED_OPENER_LEN = 1024


def parse_opener(slice_: str) -> Opener:
    """Read one opener slice (``[embed`` ... first ``]``) with ``grammars/embed.lark``."""
    if len(slice_) <= _CACHED_OPENER_LEN:
        return _parse_opener_cached(slice_)
    return _parse_opener(slice_)


@lru_cache(maxsize=2048)
def _parse_opener_cached(slice_: str) -> Opener:
    return _parse_opener(slice_)


def _parse_opener(slice_: str) -> Opener:
    from lark import Token, Tree  # loaded with the grammar, not with richout

    tree = load_grammar("embed.lark").parse(slice_)
    attr_text = tree.children[1]
    assert isinstance(attr_text, Tree)
    attrs: list[Attribute] = []
    unquoted: list[tuple[int, int]] = []
    # The attribute text stops before the self-closing "/" (§2.2); an unquoted value does too.
    limit = len(slice_) - (2 if tree.data == "self_closing" else 1)
    # An unquoted value runs to the next whitespace or quote. Tokens come left to right, so
    # the stop found for one value also ends every value starting before it ("a=a=a=x"):
    # remembering it keeps the scan linear.
    stop = -1
    for tok in attr_text.children:
        assert isinstance(tok, Token)
        if tok.type == "PAIR":
            attrs.append(_pair(tok))
        elif tok.type == "UNQUOTED":
            start = tok.start_pos or 0
            value_start = start + len(tok)
            if value_start > stop:
                stop = value_start
                while stop < limit and not is_js_ws(slice_[stop]) and slice_[stop] not in "\"'":
                    stop += 1
            if stop > value_start:
                unquoted.append((start, stop))
    return Opener(tree.data == "self_closing", tuple(attrs), tuple(unquoted))


# --------------------------------------------------------------------------- the pre-scan


class _Found(NamedTuple):
    """A shortcode found by one of the two scans (§2.3)."""

    start: int
    end: int
    close: int  # offset of the opener's "]"
    block: bool


def _positions(haystack: str, needle: str) -> list[int]:
    out: list[int] = []
    find = haystack.find
    i = find(needle)
    while i >= 0:
        out.append(i)
        i = find(needle, i + 1)
    return out


class _Index:
    """Where every opener, ``]`` and ``[/embed]`` of one text is (one pass each)."""

    __slots__ = ("brackets", "closers", "newlines", "openers", "quotes", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        n = len(text)
        self.openers = [
            m.start() for m in _OPENER.finditer(text) if m.end() < n and is_js_ws(text[m.end()])
        ]
        self.brackets = _positions(text, "]")
        self.closers = [m.start() for m in _CLOSER.finditer(text)]
        self.newlines: list[int] | None = None
        self.quotes: tuple[list[int], list[int]] | None = None

    def scan(self, block: bool) -> list[_Found]:
        """One of the two independent left-to-right scans of §2.3."""
        text = self.text
        brackets = self.brackets
        closers = self.closers
        nb, nc = len(brackets), len(closers)
        jb = jc = 0
        cursor = 0
        found: list[_Found] = []
        for s in self.openers:
            if s < cursor:
                continue
            # Openers only move right, so the "next ]" and "next [/embed]" pointers do too.
            while jb < nb and brackets[jb] <= s + 6:
                jb += 1
            if jb == nb:
                break
            r = brackets[jb]
            self_closing = text[r - 1] == "/"
            if not block:
                if self_closing:
                    found.append(_Found(s, r + 1, r, False))
                    cursor = r + 1
                continue
            if self_closing:
                continue  # PR #96449: a self-closing opener never starts a block
            while jc < nc and closers[jc] <= r:
                jc += 1
            if jc == nc:
                continue
            end = closers[jc] + _CLOSER_LEN
            found.append(_Found(s, end, r, True))
            cursor = end
        return found

    def line_end(self, pos: int) -> int:
        """Offset of the ``\\n`` ending the line of ``pos`` (or the end of the text)."""
        if self.newlines is None:
            self.newlines = _positions(self.text, "\n")
        k = bisect.bisect_left(self.newlines, pos)
        return self.newlines[k] if k < len(self.newlines) else len(self.text)

    def odd_quotes(self, start: int, end: int) -> bool:
        """Does ``[start, end)`` hold an odd number of ``"`` or of ``'``?"""
        if self.quotes is None:
            self.quotes = (_positions(self.text, '"'), _positions(self.text, "'"))
        for marks in self.quotes:
            if (bisect.bisect_left(marks, end) - bisect.bisect_left(marks, start)) % 2:
                return True
        return False

    def next_bracket(self, pos: int) -> int:
        """Offset of the first ``]`` at or after ``pos``, or -1."""
        k = bisect.bisect_left(self.brackets, pos)
        return self.brackets[k] if k < len(self.brackets) else -1


# --------------------------------------------------------------------------- previews


class _Outcome(NamedTuple):
    preview: CanvasPreview | None
    bad_ref: bool


def _final_attributes(opener: Opener) -> dict[str, Attribute]:
    """§5.2: lower-cased names, empty values dropped, a later pair replaces an earlier one."""
    final: dict[str, Attribute] = {}
    for attr in opener.attributes:
        if attr.value:
            final[attr.name] = attr
    return final


def _preview(final: Mapping[str, Attribute]) -> _Outcome:
    """§6: the preview a shortcode's attributes make, if any."""
    target = final.get("target")
    if target is not None and target.value != _SURFACE:
        return _Outcome(None, False)
    ref = final["ref"].value if "ref" in final else None
    url = final["url"].value if "url" in final else None
    if ref is None and url is None:
        return _Outcome(None, False)
    if url is None:
        assert ref is not None
        try:
            url = f"{_CANVAS_DOCUMENTS}{encode_uri_component(ref)}/index.html"
        except ValueError:
            # The reference throws here and fails the whole call; richout keeps the shortcode
            # as text instead (§6.1 decision).
            return _Outcome(None, True)
    height = None
    if "height" in final:
        height = normalize_preferred_height(js_number(final["height"].value))
    cls = final.get("class") or final.get("class_name")
    return _Outcome(
        CanvasPreview(
            url=url,
            view_id=ref,
            title=final["title"].value if "title" in final else None,
            preferred_height=height,
            class_name=cls.value if cls is not None else None,
            style=final["style"].value if "style" in final else None,
        ),
        False,
    )


# --------------------------------------------------------------------------- diagnostics


def _attribute_diagnostics(diags: Diagnostics, opener: Opener, base: int) -> None:
    """Syntax findings inside one handled opener (§13: unquoted, escapes, names)."""
    for a, b in opener.unquoted:
        diags.add(
            "embed.unquoted_attribute",
            "warning",
            'This attribute value has no quotes, so it is ignored; write name="value".',
            base + a,
            base + b,
        )
    last_seen: dict[str, int] = {}
    for idx, attr in enumerate(opener.attributes):
        if attr.value:
            last_seen[attr.name] = idx
    for idx, attr in enumerate(opener.attributes):
        start, end = base + attr.start, base + attr.end
        if attr.raw.endswith("\\"):
            diags.add(
                "embed.escaped_quote",
                "warning",
                "This value ends with a backslash: shortcodes have no escapes, so the value "
                "stops at the first matching quote. Use the other quote style around a value "
                "that contains a quote.",
                start,
                end,
            )
        if attr.value and last_seen.get(attr.name, idx) != idx:
            diags.add(
                "embed.duplicate_attribute",
                "info",
                f"Attribute {attr.name!r} is given again later; the last non-empty value wins.",
                start,
                end,
            )
        if attr.name not in _KNOWN:
            if _EVENT_HANDLER.fullmatch(attr.name):
                diags.add(
                    "embed.unknown_attribute",
                    "warning",
                    f"Event-handler attribute {attr.name!r} is ignored; embeds never run "
                    "inline script. Remove it.",
                    start,
                    end,
                )
            else:
                diags.add(
                    "embed.unknown_attribute",
                    "info",
                    f"Attribute {attr.name!r} is not read (known: ref, url, title, height, "
                    "target, class, class_name, style); it has no effect.",
                    start,
                    end,
                )


def _height_diagnostics(diags: Diagnostics, attr: Attribute, base: int) -> None:
    start, end = base + attr.start, base + attr.end
    number = js_number(attr.value)
    if not math.isfinite(number) or number < MIN_HEIGHT:
        diags.add(
            "embed.height_ignored",
            "warning",
            f"height={attr.value!r} is not a finite number of at least {MIN_HEIGHT}, so the "
            'preview has no preferred height; write a plain number such as height="320".',
            start,
            end,
        )
        return
    whole = math.trunc(number)
    if whole > MAX_HEIGHT:
        diags.add(
            "embed.height_clamped",
            "warning",
            f"height={attr.value!r} is above {MAX_HEIGHT}; it is stored as {MAX_HEIGHT}.",
            start,
            end,
        )
    elif whole != number:
        diags.add(
            "embed.height_truncated",
            "info",
            f"height={attr.value!r} is fractional; it is stored as {whole}.",
            start,
            end,
        )


def _url_diagnostics(diags: Diagnostics, url: str, start: int, end: int) -> None:
    """§11: how the Control UI will treat the preview URL (resolved against localhost)."""
    protocol: str | None = None
    origin: str | None = None
    pathname: str | None = None
    # Browsers parse a USVString: lone surrogates become U+FFFD before the URL parser runs.
    usv = url.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    from ada_url import URL

    try:
        parsed = URL(usv, base="http://localhost")
        protocol, origin, pathname = parsed.protocol, parsed.origin, parsed.pathname
    except ValueError:
        pass  # not a URL at all: the card gets no frame
    if protocol in _UNSAFE_SCHEMES:
        diags.add(
            "embed.unsafe_url",
            "error",
            f"The preview URL uses the {protocol} scheme, which the Control UI never loads; "
            'the card shows without a frame. Use a canvas document (ref="...") or an '
            "http(s) URL.",
            start,
            end,
        )
        return
    if origin == "http://localhost" and pathname is not None:
        if any(pathname == p or pathname.startswith(p + "/") for p in _RENDERABLE_PREFIXES):
            return
    elif protocol in ("http:", "https:"):
        diags.add(
            "embed.external_url",
            "info",
            "The preview URL is an absolute external http(s) URL; the Control UI loads it "
            "only when gateway.controlUi.allowExternalEmbedUrls is true.",
            start,
            end,
        )
        return
    diags.add(
        "embed.url_not_renderable",
        "warning",
        "The preview URL is neither under /__openclaw__/canvas or /__openclaw__/a2ui nor an "
        "absolute http(s) URL, so the Control UI shows the card without a frame.",
        start,
        end,
    )


def _preview_diagnostics(
    diags: Diagnostics, final: Mapping[str, Attribute], preview: CanvasPreview, base: int
) -> None:
    """Findings about a preview that was produced (heights, URL, document id)."""
    height = final.get("height")
    if height is not None:
        _height_diagnostics(diags, height, base)
    url_attr = final.get("url")
    if url_attr is not None:
        _url_diagnostics(diags, preview.url, base + url_attr.start, base + url_attr.end)
    else:
        ref = final["ref"]
        if not _DOC_ID.fullmatch(ref.value):
            diags.add(
                "embed.ref_not_document_id",
                "warning",
                f"ref={ref.value!r} is not a canvas document id (letters, digits, '.', '_', "
                "'-'), so the server will not find such a document.",
                base + ref.start,
                base + ref.end,
            )


def _body_diagnostics(diags: Diagnostics, text: str, found: _Found) -> None:
    body_start = found.close + 1
    body_end = found.end - _CLOSER_LEN
    body = text[body_start:body_end]
    if not js_trim(body):
        return
    diags.add(
        "embed.body_discarded",
        "info",
        "The text between ] and [/embed] was removed with the shortcode; put visible text "
        "outside the block or use the self-closing form [embed ... /].",
        body_start,
        body_end,
    )
    has_tag = False
    k = body.find("[[")
    if k >= 0 and body.find("]]", k + 2) >= 0:
        has_tag = True
    has_media = any(ascii_lower(js_ltrim(line)[:6]) == "media:" for line in body.split("\n")[1:])
    if has_tag or has_media:
        diags.add(
            "embed.directive_in_body",
            "warning",
            "The removed block body contained a [[...]] tag or a MEDIA: line, which is "
            "discarded with it; move directives outside the shortcode.",
            body_start,
            body_end,
        )


def _legacy_diagnostics(diags: Diagnostics, text: str, index: _Index, skip: _Skip) -> None:
    """``[view ...]`` and ``present_view`` are obsolete (§10); say so where they appear."""
    n = len(text)
    for m in _VIEW.finditer(text):
        i = m.start()
        nxt = text[i + 5] if i + 5 < n else ""
        if not (nxt == "]" or (nxt and is_js_ws(nxt))) or skip.hidden(i):
            continue
        line_end = index.line_end(i)
        close = index.next_bracket(i)
        end = close + 1 if 0 <= close < line_end else line_end
        diags.add(
            "embed.legacy_view",
            "warning",
            '[view ...] is obsolete and stays as literal text; use [embed ref="..." /] instead.',
            i,
            end,
        )
    for i in _positions(text, "present_view"):
        end = i + len("present_view")
        if (i > 0 and text[i - 1] in _WORD_CHARS) or (end < n and text[end] in _WORD_CHARS):
            continue
        if skip.hidden(i):
            continue
        diags.add(
            "embed.present_view",
            "info",
            'present_view is not recognised; to show a canvas document write [embed ref="..." /].',
            i,
            end,
        )


class _Skip:
    """Positions a diagnostic should not talk about: in code, or inside removed text."""

    __slots__ = ("_codes", "_ends", "_starts")

    def __init__(self, codes: CodeMap, removed: list[tuple[int, int]]) -> None:
        self._codes = codes
        self._starts = [a for a, _ in removed]
        self._ends = [b for _, b in removed]

    def inside(self, pos: int) -> bool:
        """Is ``pos`` strictly inside one of the spans (after its start)?"""
        k = bisect.bisect_left(self._starts, pos) - 1
        return k >= 0 and pos < self._ends[k]

    def hidden(self, pos: int) -> bool:
        """In code, or inside a handled shortcode."""
        return self.inside(pos) or self._codes.in_code(pos)


# --------------------------------------------------------------------------- extraction


@dataclass
class _Extraction:
    text: str
    previews: list[CanvasPreview]
    removed: list[_Found]
    diagnostics: Diagnostics


def _extract(text: str, *, explain: bool) -> _Extraction:
    diags = Diagnostics(text)
    bracket = "[" in text
    # Whitespace-only text (§1) holds no opener, so one search covers the whole fast path.
    if not bracket or _OPENER.search(text) is None:
        if explain and ((bracket and _VIEW.search(text)) or "present_view" in text):
            _legacy_diagnostics(diags, text, _Index(text), _Skip(CodeMap(text), []))
        return _Extraction(text, [], [], diags)
    index = _Index(text)
    codes = CodeMap(text)
    surviving: list[_Found] = []
    in_code: list[_Found] = []
    for found in sorted(index.scan(True) + index.scan(False), key=lambda f: (f.start, not f.block)):
        (in_code if codes.in_code(found.start) else surviving).append(found)

    pieces: list[tuple[int, int, str | None]] = []
    previews: list[CanvasPreview] = []
    removed: list[_Found] = []
    handled: list[_Found] = []
    ignored: list[_Found] = []
    cursor = 0
    for found in surviving:
        if found.start < cursor:
            ignored.append(found)
            continue
        handled.append(found)
        cursor = found.end
        opener = parse_opener(text[found.start : found.close + 1])
        final = _final_attributes(opener)
        outcome = _preview(final)
        if outcome.preview is not None:
            previews.append(outcome.preview)
            removed.append(found)
            pieces.append((found.start, found.end, ""))
        if explain:
            _explain_shortcode(
                diags, text, found=found, opener=opener, final=final, outcome=outcome
            )

    if explain:
        skip = _Skip(codes, [(f.start, f.end) for f in handled])
        _explain_rest(
            diags,
            text,
            index=index,
            codes=codes,
            skip=skip,
            handled=handled,
            ignored=ignored,
            in_code=in_code,
            removed=removed,
        )
        removed_skip = _Skip(codes, [(f.start, f.end) for f in removed])
        _legacy_diagnostics(diags, text, index, removed_skip)

    if not removed:
        return _Extraction(text, [], [], diags)
    out: list[str] = []
    cur = 0
    for found in removed:
        out.append(text[cur : found.start])
        cur = found.end
    out.append(text[cur:])
    return _Extraction("".join(out), previews, removed, diags)


def _explain_shortcode(
    diags: Diagnostics,
    text: str,
    *,
    found: _Found,
    opener: Opener,
    final: Mapping[str, Attribute],
    outcome: _Outcome,
) -> None:
    base = found.start
    _attribute_diagnostics(diags, opener, base)
    target = final.get("target")
    if target is not None and target.value != _SURFACE:
        diags.add(
            "embed.bad_target",
            "error",
            f"target={target.value!r} is not assistant_message (case-sensitive), so the "
            'shortcode stays as text; drop target or write target="assistant_message".',
            base + target.start,
            base + target.end,
        )
    if "ref" not in final and "url" not in final:
        diags.add(
            "embed.missing_source",
            "error",
            "This shortcode has neither ref nor url, so it renders nothing and stays as text "
            '(inline HTML bodies are not rendered); add ref="<document id>" or url="...".',
            found.start,
            found.end,
        )
    if outcome.bad_ref:
        ref = final["ref"]
        diags.add(
            "embed.bad_ref",
            "error",
            "ref contains a lone UTF-16 surrogate, which cannot be put in a URL; the "
            "shortcode stays as text. Fix the document id.",
            base + ref.start,
            base + ref.end,
        )
    if outcome.preview is not None:
        _preview_diagnostics(diags, final, outcome.preview, base)
        if found.block:
            _body_diagnostics(diags, text, found)


def _explain_rest(
    diags: Diagnostics,
    text: str,
    *,
    index: _Index,
    codes: CodeMap,
    skip: _Skip,
    handled: list[_Found],
    ignored: list[_Found],
    in_code: list[_Found],
    removed: list[_Found],
) -> None:
    """Overlaps, shortcodes in code, and openers that start nothing."""
    handled_starts = [f.start for f in handled]
    removed_starts = {f.start for f in removed}
    for found in ignored:
        # Sorted by start and ignored only when it starts before the cursor: the enclosing
        # shortcode is the last handled one starting before it.
        outer = handled[bisect.bisect_left(handled_starts, found.start) - 1]
        fate = (
            "removed with that block's body"
            if outer.start in removed_starts
            else "kept as text inside it"
        )
        diags.add(
            "embed.overlap_ignored",
            "warning",
            f"This shortcode starts inside an earlier one and is ignored ({fate}); put "
            "shortcodes one after another, not inside a block.",
            found.start,
            found.end,
        )
    for found in in_code:
        if skip.inside(found.start):
            continue
        diags.add(
            "embed.in_code",
            "info",
            "This shortcode is inside code, so it is shown as literal text; move it out of "
            "the code span or block to render it.",
            found.start,
            found.end,
        )
    starts = set(handled_starts) | {f.start for f in ignored}
    code_starts = [f.start for f in in_code]
    for s in index.openers:
        if s in starts or skip.inside(s) or codes.in_code(s):
            continue
        k = bisect.bisect_left(code_starts, s) - 1
        swallowed = k >= 0 and in_code[k].end > s
        diags.add(
            "embed.unmatched",
            "warning",
            _unmatched_reason(index, s, swallowed),
            s,
            index.line_end(s),
        )


def _unmatched_reason(index: _Index, s: int, swallowed: bool) -> str:
    if swallowed:
        return (
            "This [embed opener lies inside a shortcode that starts in code, which hides it, "
            "so it stays as text; close the code span before it or move the example."
        )
    r = index.next_bracket(s + 7)
    if r < 0:
        return "This [embed opener has no closing ], so it stays as text; end it with /] or ]."
    if index.odd_quotes(s + 7, r):
        return (
            "A ] inside a quoted value ends this [embed opener early, so it stays as text; "
            "shortcode values cannot contain ]."
        )
    return (
        "This block [embed ...] has no [/embed] after it, so it stays as text; close it with "
        "[/embed] or use the self-closing form [embed ... /]."
    )


# --------------------------------------------------------------------------- public API


def extract_embeds(
    text: str, *, profile: str | Profile = DEFAULT_PROFILE, explain: bool = False
) -> EmbedResult:
    """Turn ``[embed ...]`` shortcodes outside code into canvas previews (EMBED.md §1-§7).

    Every profile reads shortcodes the same way; ``profile`` is checked and accepted so all
    parsing functions take the same arguments.
    Diagnostics, spans and edits are computed when first read (``explain=True``: now).
    """
    require_str(text)
    if profile is not DEFAULT_PROFILE:
        resolve_profile(profile)
    if type(explain) is not bool:
        require_bool(explain, "explain")
    ex = _extract(text, explain=explain)
    if not explain:

        def explainer() -> Explanation:
            return extract_embeds(text, explain=True).explanation()

        return EmbedResult.lazy(explainer, text=ex.text, previews=ex.previews)
    patch = _removal_patch(text, ex.removed)
    spans = [
        Span(kind="embed", start=f.start, end=f.end, value=p.view_id or p.url)
        for f, p in zip(ex.removed, ex.previews, strict=True)
    ]
    return EmbedResult.explained(
        text=ex.text,
        previews=ex.previews,
        diagnostics=ex.diagnostics.build(),
        spans=spans,
        edits=edit_records(patch),
    )


def _removal_patch(text: str, removed: list[_Found]) -> list[Edit]:
    """One edit per run of touching removed shortcodes (built in one slice, never by +=)."""
    patch: list[Edit] = []
    i, n = 0, len(removed)
    while i < n:
        start = removed[i].start
        end = removed[i].end
        i += 1
        while i < n and removed[i].start == end:
            end = removed[i].end
            i += 1
        patch.append(Edit(start, end, text[start:end], ""))
    return patch


def embeds_for_delivery_diagnostics(text: str) -> list[Diagnostic]:
    """``embed.not_rendered_on_delivery`` per shortcode extract_embeds would render (TAGS §7)."""
    require_str(text)
    ex = _extract(text, explain=False)
    diags = Diagnostics(text)
    for found in ex.removed:
        diags.add(
            "embed.not_rendered_on_delivery",
            "info",
            "This [embed ...] shortcode renders only in WebChat / the Control UI; on this "
            "channel it is delivered as literal text.",
            found.start,
            found.end,
        )
    return diags.build()
