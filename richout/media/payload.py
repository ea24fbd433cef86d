"""One ``MEDIA:`` payload → accepted references and visible leftovers (MEDIA.md §6-§7).

The payload is read as the profile's upstream reads it (an explicit quoted list, one pair
of quotes, or whitespace tokens regrouped into parts, §6.6), each part is judged (§7, by a
memoising :class:`Judge`), then come the spaced-path rescue (§6.8) and the whole-payload
fallback (§6.9). Regrouping (:mod:`richout.media.regroup`) reads what a growing part
cleans to from its ends, where the reference re-cleans it for every new token. Parts are
judged once per distinct text, and a word or a plain absolute path (the shapes a payload of
many distinct tokens is made of) from its characters alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from richout.media.cleaning import (
    QUOTES,
    Cleaner,
    begins_independent_at,
    quoted_list,
    split_parts,
    unwrap_bounds,
)
from richout.media.fates import (
    ACCEPTED,
    COUNTED,
    LEFT,
    LIST_OPEN,
    Item,
    PayloadResult,
    fate,
    part_fate,
    tokens_apart,
)
from richout.media.judge import Judge
from richout.media.regroup import (
    WORD_CHARS,
    may_be_rooted,
    plain_path_run,
    regroup,
)
from richout.media.shapes import (
    QUOTED_PATH,
    QUOTED_URL,
    SPACED_PATH,
    URL_CHARS,
    names_join,
    paths_only,
    quoted_path,
    spaced_path,
)
from richout.media.single_token import single_token
from richout.policy import strip_file_prefix
from richout.policy.local import (
    looks_local,
)
from richout.policy.verdict import MAX_REFERENCE_UNITS
from richout.text.chars import JS_WS, JS_WS_CLASS, has_js_ws, js_trim

__all__ = [
    "CAPTIONED_URL",
    "Item",
    "Judge",
    "PayloadResult",
    "analyse_payload",
    "caption_words",
    "is_words_payload",
    "may_name_a_source",
]


#: A payload of words and spaces only (:func:`_words_only`); one character class, so the
#: match never backtracks.
_WORDS_AND_SPACES = re.compile(f"[{WORD_CHARS} ]+")


def analyse_payload(p: str, judge: Judge | None = None) -> PayloadResult:
    """MEDIA §6 for one payload ``p`` (not trimmed), under the judge's profile.

    The steps follow the profile's upstream: an explicit quoted list (profile ``next``),
    else the whole payload unwrapped from one pair of quotes, else whitespace tokens
    regrouped into parts (:func:`_read_parts`, :mod:`richout.media.regroup`); then per-part
    verdicts (:func:`_judge_parts`), the spaced-path rescue and the whole-payload fallback.
    Rejected parts that look like media sources are counted and hidden where the profile
    says so (``PayloadResult.counted``). A payload of one token takes
    :func:`~richout.media.single_token.single_token`, one of words and spaces
    :func:`_words_only`, one of plain absolute paths :func:`paths_only`, a path written with
    spaces :func:`spaced_path`, a plain URL followed by words :func:`_captioned_url`, a
    quoted path or URL :func:`quoted_path` (the last two only when their judge accepts;
    else the general steps decide).

    Any payload but a single token is read at most twice per judge: the judge keeps the
    record of its second reading and returns it for every later one (``Judge.payloads``),
    so a caller that changes a result changes a copy (``Walker._narrow``).
    """
    if judge is None:
        judge = Judge()
    n = len(p)
    if n and p[0] not in LIST_OPEN and not has_js_ws(p):
        return single_token(p, judge, PayloadResult())
    # A payload read a third time in the same reply is answered from the judge's memo: its
    # result is a function of its text under one profile (offsets are payload offsets). A
    # megabyte of one short refused line repeated cost 38 µs a line in the steps below. A
    # single token is not kept: its lane is about as cheap as the memo, and a reply of
    # 100k distinct tokens would pay for a memo it never reads.
    known = judge.payloads.get(p)
    if known is not None:
        return known
    res = _analyse(p, n, judge, PayloadResult())
    # Kept from its second reading on: keeping every payload's record cost distinct lines
    # 3-10% (100k live records for the collector to walk).
    if p in judge.seen:
        judge.payloads[p] = res
    else:
        judge.seen.add(p)
    return res


def _analyse(p: str, n: int, judge: Judge, res: PayloadResult) -> PayloadResult:
    """:func:`analyse_payload` for a payload of ``n`` characters that holds whitespace or
    opens with a quote, a backtick or ``[``: the shape lanes, else the general steps."""
    if n and not has_js_ws(p) and not _list_or_pair(p, judge):
        # One token that opens with a quote, a backtick or "[" and is neither an explicit
        # list nor one pair of quotes: the general steps read it as one part whose value is
        # the whole token, as single_token does (a megabyte of distinct `MEDIA:"=1]` lines
        # cost 45 µs a line in them).
        return single_token(p, judge, res)
    if n and p[0] in QUOTES:
        # Only the quoted lanes read a payload that opens with a quote: each other lane's
        # shape opens with blanks, a word character, a root or "http" (four regexes a line
        # of a megabyte of quoted paths, 6% of its split).
        if n <= MAX_REFERENCE_UNITS:
            for shape, local in ((QUOTED_PATH, True), (QUOTED_URL, False)):
                quoted = shape.fullmatch(p)
                if quoted is not None and quoted_path(quoted, judge, res, local=local):
                    return res
        return _read_payload(p, judge, res)
    url_first = n <= MAX_REFERENCE_UNITS and p.startswith("http")
    if url_first:
        # A URL and its caption, asked first (a megabyte of such lines asked three lanes
        # before): no payload of words, of plain paths or of a spaced path starts so (a word
        # holds no ':', the others start at a root).
        captioned = CAPTIONED_URL.fullmatch(p)
        if captioned is not None and _captioned_url(p, captioned, judge, res):
            return res
    if is_words_payload(p):
        return _words_only(p, res)
    if plain_path_run(p, 0, n):
        tokens = split_parts(p)
        if max(b - a for a, b in tokens) <= MAX_REFERENCE_UNITS:
            return paths_only(p, tokens, res)
    if n <= MAX_REFERENCE_UNITS:
        # The shape lane reads a payload as long as one reference at most: its regex
        # repeats once per token (two such regexes added 0.2 s to a megabyte payload of
        # 500k tokens), and a megabyte payload is the general steps' to read.
        spaced = SPACED_PATH.fullmatch(p)
        if spaced is not None and ".." not in p and names_join(p, spaced):
            return spaced_path(p, spaced, res)
        captioned = None if url_first else CAPTIONED_URL.fullmatch(p)
        if captioned is not None and _captioned_url(p, captioned, judge, res):
            return res
        quoted = QUOTED_PATH.fullmatch(p)
        if quoted is not None and quoted_path(quoted, judge, res, local=True):
            return res
        quoted = QUOTED_URL.fullmatch(p)
        if quoted is not None and quoted_path(quoted, judge, res, local=False):
            return res
    return _read_payload(p, judge, res)


def _list_or_pair(p: str, judge: Judge) -> bool:
    """Does the whitespace-free payload ``p`` read as an explicit quoted list under the
    judge's profile, or unwrap from one pair of quotes (:func:`_read_parts`' first two
    readings)?"""
    head = p[0]
    if judge.profile.quoted_lists and head in LIST_OPEN and quoted_list(p) is not None:
        return True
    return head in QUOTES and unwrap_bounds(p, 0, len(p)) is not None


#: A plain ``http://`` or ``https://`` URL, then blank-separated :data:`WORD_TOKEN` words,
#: blanks around (:func:`_captioned_url`). The URL holds no wrapper, quote, bracket, comma
#: or backslash, so cleaning keeps it whole and no JSON tail can be cut from the payload.
CAPTIONED_URL = re.compile(f"[ \t]*(https?://[{URL_CHARS}]+)((?:[ \t]+[{WORD_CHARS}]+)+)[ \t]*")


def caption_words(
    p: str, start: int, end: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int, str, bool, bool]]]:
    """The words of a :data:`CAPTIONED_URL` payload ``p`` (its second group, ``[start,
    end)``): their bounds, and each as the refused, visible part the payload steps list.

    Blank-separated word characters, which ``str.split`` reads as JS does, each found from
    where the last ended: no regex pass over the payload or comprehension (a third of
    :func:`_captioned_url` on a short line)."""
    words: list[tuple[int, int]] = []
    refused: list[tuple[int, int, str, bool, bool]] = []
    at = start
    for word in p[start:end].split():
        x = p.find(word, at)
        at = x + len(word)
        words.append((x, at))
        refused.append((x, at, word, True, True))
    return words, refused


def _captioned_url(p: str, m: re.Match[str], judge: Judge, res: PayloadResult) -> bool:
    """The steps for a :data:`CAPTIONED_URL` payload (at most ``MAX_REFERENCE_UNITS``
    long), filling ``res``; False, with ``res`` untouched, when the whole-payload fallback
    accepts it (the general steps read that rare case).

    It is :func:`_caption_parts`' shape with the URL's facts known from its characters:
    cleaning keeps it whole (it starts with ``h`` and ends with no wrapper character, and
    the payload holds no ``"``), it has a scheme, so it begins an independent source and
    its part is hidden and counted when refused under a profile that hides rejections
    (left visible otherwise); every word is left visible. The trimmed payload starts with
    the scheme, so it does not look local (§8.3) and the rescue (§6.8) never runs. A
    megabyte of ``MEDIA:https://…/a.png the chart`` lines spent three quarters of its time
    in the general steps' cleaning and dispatch.
    """
    a, b = m.span(1)
    token = p[a:b]
    accepted = judge.ok(token)
    if not accepted and judge.ok(p, True, True):
        return False
    words, refused = caption_words(p, b, m.end(2))
    res.parts = 1 + len(words)
    res.value_bounds = (a, words[-1][1])
    res.looks_local = False
    rejected = res.rejected
    if accepted:
        res.accepted = [Item(token, a, b, False, "part", False, "")]
        res.leftovers = words
    else:
        if judge.profile.hide_rejected:
            res.counted.append((a, b, token))
            rejected.append((a, b, token, True, False))
            res.leftovers = words
        else:
            rejected.append((a, b, token, True, True))
            res.leftovers = [(a, b), *words]
        res.fallback_failed = (0, len(p), p)
    rejected += refused
    return True


#: A reference followed by words (``https://…/a.png the chart``): one token, then
#: blank-separated :data:`WORD_TOKEN` words, blanks around. Group 1 is the token.
_CAPTIONED = re.compile(f"[ \t]*([^{JS_WS_CLASS}]+)(?:[ \t]+[{WORD_CHARS}]+)+[ \t]*")


def _caption_parts(
    p: str, cl: Cleaner, judge: Judge, res: PayloadResult
) -> tuple[list[Item], list[tuple[int, int]], list[tuple[int, int]]] | None:
    """§6.6-§6.7 for a :data:`_CAPTIONED` payload (at most ``MAX_REFERENCE_UNITS`` long)
    whose first token cannot be rooted and starts no quoted list or value: the accepted
    items, the visible leftovers and the bounds of every part after the first, with ``res``
    filled as ``_read_parts`` and ``_judge_parts`` fill it; None for any other payload.

    No word joins that token (it is not rooted, :func:`~richout.media.regroup.may_be_rooted`)
    and no word joins another (a word is never rooted): each token is a part.
    ``_judge_parts`` reads the token's fate; each word is left visible. The rescue and the
    fallback are the general steps'.
    """
    if len(p) > MAX_REFERENCE_UNITS:
        return None  # a regex repeat per token: a megabyte payload is tokens_apart's
    m = _CAPTIONED.fullmatch(p)
    if m is None:
        return None
    a, b = m.span(1)
    if p[a] in LIST_OPEN or may_be_rooted(p, a):
        return None
    words = split_parts(p)[1:]
    res.unwrapped = None
    res.quoted_list = False
    res.parts = 1 + len(words)
    res.value_bounds = (a, words[-1][1])
    accepted, leftovers = _judge_parts(p, cl, [[a, b, -1]], judge, res)
    # Each word's fate is LEFT (part_fate's word shape), listed in bulk: a caption of 2,000
    # words read one part at a time cost 1.6 times as much.
    leftovers += words
    res.rejected += [(x, y, p[x:y], True, True) for x, y in words]
    return accepted, leftovers, words


#: The characters a reference, a local-looking value or a counted source needs one of.
_SOURCE_MARKS = re.compile(r"[/\\~.:]")


def may_name_a_source(p: str) -> bool:
    """Can any reading of the payload ``p`` deliver, count or look local? Only if it holds
    one of ``/ \\ ~ . :``.

    Every candidate and value the steps judge is a slice of ``p``. §7 accepts an
    ``http(s)://`` or ``media://`` URL (a ``:``), a local shape (a ``/`` or ``\\``; a drive
    ``X:/``) or, as the whole payload, a bare name with an extension (a ``.``); a part is
    counted when it begins an independent source (a root: ``/ ~ ./ ../ .\\ \\\\`` or a
    drive; a scheme: a ``:``) or looks local (those, or a separator); the file prefix is
    ``file:``. Without those characters the line is kept as written, and its reading is
    only the explanation's (``tests/test_media_payload.py`` draws such payloads)."""
    return _SOURCE_MARKS.search(p) is not None


def is_words_payload(p: str) -> bool:
    """Is ``p`` :data:`WORD_TOKEN` words and spaces, not spaces alone? Holding a space, it
    takes :func:`_words_only`: every word is left visible, nothing is accepted or counted,
    and the payload does not look local."""
    return _WORDS_AND_SPACES.fullmatch(p) is not None and not p.isspace()


def _words_only(p: str, res: PayloadResult) -> PayloadResult:
    """The steps for a payload of :data:`WORD_TOKEN` words separated by spaces.

    No word starts at a root, so none joins another (§6.6) and each is a part; each part is
    left visible (§6.7); the whole payload has no quote to unwrap, no file prefix, no local
    shape, no scheme and no extension, so the §6.9 fallback is refused and it does not look
    local.
    """
    # The words are the pieces between single spaces (the payload holds no other
    # whitespace), read in one loop: the regex tokens and C-level maps this replaced cost
    # three times as much on a line of four words, and twice on a megabyte of 500k words.
    tokens: list[tuple[int, int]] = []
    rejected: list[tuple[int, int, str, bool, bool]] = []
    pos = 0
    for word in p.split(" "):
        if word:
            end = pos + len(word)
            tokens.append((pos, end))
            rejected.append((pos, end, word, True, True))
            pos = end + 1
        else:
            pos += 1
    res.parts = len(tokens)
    res.value_bounds = (tokens[0][0], tokens[-1][1])
    res.leftovers = tokens
    res.rejected = rejected
    res.fallback_failed = (0, len(p), p)
    res.words = True
    return res


def _read_payload(p: str, judge: Judge, res: PayloadResult, *, lane: bool = True) -> PayloadResult:
    """:func:`analyse_payload` by the general steps; with ``lane``, a reference followed by
    words (:func:`_caption_parts`) and a payload of many tokens none of which can join
    another (:func:`~richout.media.fates.tokens_apart`) find their parts' fates without
    regrouping."""
    cl = Cleaner(p)
    apart = None
    if lane:
        apart = _caption_parts(p, cl, judge, res) or tokens_apart(p, cl, judge, res)
    later: Iterable[tuple[int, int]]
    if apart is not None:
        accepted, leftovers, later = apart
        stripped, vs, ve = None, 0, len(p)
    else:
        parts, stripped, vs, ve = _read_parts(p, cl, judge, res)
        accepted, leftovers = _judge_parts(p, cl, parts, judge, res)
        later = ((a, b) for a, b, _ in parts[1:])
    members = res.quoted_list
    unwrapped = res.unwrapped
    value = p[vs:ve]

    local_value = js_trim(stripped if stripped is not None else p)
    res.looks_local = looks_local(local_value) or strip_file_prefix(local_value) != local_value
    if (
        not members
        and not unwrapped
        and len(accepted) == 1
        and leftovers
        and has_js_ws(value)
        and res.looks_local
        and not any(begins_independent_at(cl, a, b) for a, b in later)
    ):
        fa, fb, fcut = cl.bounds(vs, ve)
        rescue = p[fa:fb]
        if judge.ok(rescue, True):
            vb = max(fb, res.value_bounds[1])
            accepted = [Item(rescue, fa, vb, fcut, "rescue", tail=p[fb:vb])]
            leftovers = []
            res.rejected = [r for r in res.rejected if (r[0], r[1], r[2]) in res.counted]

    if not accepted and not members:
        if unwrapped is not None:
            fa, fb, fcut = vs, ve, False
            fallback = unwrapped
        else:
            fa, fb, fcut = cl.bounds(vs, ve)
            fallback = p[fa:fb]
        if judge.ok(fallback, True, True):
            vb = max(fb, res.value_bounds[1])
            accepted = [Item(fallback, fa, vb, fcut, "fallback", tail=p[fb:vb])]
            leftovers = []
            res.rejected = [r for r in res.rejected if (r[0], r[1], r[2]) in res.counted]
        else:
            res.fallback_failed = (fa, fb, fallback)
    elif unwrapped:
        for item in accepted:
            item.source = "unwrapped"

    res.accepted = accepted
    res.leftovers = leftovers
    return res


def _read_parts(
    p: str, cl: Cleaner, judge: Judge, res: PayloadResult
) -> tuple[list[list[int]], str | None, int, int]:
    """§6.2-§6.6: the parts of a payload that is not one plain token, as the profile reads it.

    Records on ``res`` whether the payload was a quoted list or unwrapped, the bounds of its
    whole-payload value V and the number of parts. Returns the parts (``[start, end,
    absorbed]``), the payload unwrapped from one pair of quotes even when it was read as a
    list (its ``looks_local`` test uses it), and the bounds ``vs, ve`` of V before trimming.
    """
    profile = judge.profile
    n = len(p)
    head = p.lstrip(JS_WS)[:1]
    members = quoted_list(p) if profile.quoted_lists and head in LIST_OPEN else None
    ub = unwrap_bounds(p, 0, n) if head and head in QUOTES else None
    stripped = p[ub[0] : ub[1]] if ub is not None else None
    unwrapped = None if members is not None else stripped
    res.unwrapped = unwrapped
    if unwrapped is not None and ub is not None:
        vs, ve = ub
    else:
        vs, ve = 0, n
    value = p[vs:ve]
    lt = len(value) - len(value.lstrip(JS_WS))
    res.value_bounds = (vs + lt, vs + len(value.rstrip(JS_WS))) if lt < len(value) else (vs, vs)
    res.quoted_list = members is not None

    if members is not None:
        parts: list[list[int]] = [[a, b, -1] for a, b in members]
    elif unwrapped:
        parts = [[vs, ve, -1]]
    else:
        parts = regroup(p, cl, split_parts(p), judge.ok)
    res.parts = len(parts)
    return parts, stripped, vs, ve


def _judge_parts(
    p: str, cl: Cleaner, parts: list[list[int]], judge: Judge, res: PayloadResult
) -> tuple[list[Item], list[tuple[int, int]]]:
    """§6.7 and §7 for each part: accepted, hidden and counted, left visible, or dropped.

    Returns the accepted items and the visible leftovers; rejections go to ``res``. Unless
    the payload was unwrapped as a whole, a part's fate is a function of its text (under one
    profile and one reading), so it is decided once per distinct text
    (:func:`~richout.media.fates.part_fate`).
    """
    unwrapped = res.unwrapped
    bare = res.quoted_list
    accepted: list[Item] = []
    leftovers: list[tuple[int, int]] = []
    memo: dict[str, tuple[int, int, bool, int]] = {}
    counted = res.counted
    rejected = res.rejected
    for a, b, absorbed in parts:
        key = p[a:b]
        if unwrapped is None:
            known = memo.get(key)
            if known is None:
                known = memo[key] = part_fate(p, cl, a, b, judge, bare=bare)
            fx, fy, cut, kind = known
            candidate = key[fx:fy]
            tail = key[fy:]
        else:
            # An empty unwrapped value still replaces every candidate in ``next``; the
            # release reads each whitespace part as written then.
            unwrap_all = unwrapped or judge.profile.unwrap_quoted_parts
            candidate = unwrapped if unwrap_all else key
            cut, tail = False, ""
            kind = fate(judge, candidate, key, bare)
        if kind == ACCEPTED:
            accepted.append(Item(candidate, a, b, cut, "part", absorbed == 1, tail))
        elif kind == COUNTED:
            counted.append((a, b, candidate))
            rejected.append((a, b, candidate, True, False))
        elif kind == LEFT:
            leftovers.append((a, b))
            rejected.append((a, b, candidate, True, True))
        else:
            rejected.append((a, b, candidate, True, False))
    return accepted, leftovers
