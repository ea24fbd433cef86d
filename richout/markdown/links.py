"""Links, images and autolinks that could hold a backtick (CommonMark 6.3-6.5, 6.7).

They bind tighter than code spans: a backtick in a link's destination or title, or inside
an autolink, pairs with nothing (and the parser keeps no code span in an image's alt
text), so a paragraph holding one cannot be paired from its backtick runs alone
(:func:`~richout.markdown.spans.para_unsafe`, :func:`~richout.markdown.reach.span_reach`).
Each reading here is conservative: it may say a backtick could be there when the parser
would find no link, never the reverse (``tests/test_codemap.py`` compares the answers with
the full parse).
"""

from __future__ import annotations

import re

from richout.text.chars import contains

__all__ = [
    "autolink_may_hold_backtick",
    "image_may_hold_backtick",
    "link_may_hold_backtick",
    "reference_may_hold_backtick",
]


#: What a link rule's read passes between its parts: spaces, tabs and line breaks.
_LINK_BLANKS = re.compile(r"[ \t\r\n]*")
#: A destination in ``<…>`` as markdown-it-py's ``parseLinkDestination`` reads it: group 1
#: is its closing ``>`` (None: no destination, so no link).
_ANGLE_DESTINATION = re.compile(r"<(?:[^\n<>\\]|\\\r\n|\\[\s\S])*(>)?")
#: Any other destination, up to the first space, control character or parenthesis not
#: escaped: exactly where the reader stops when no ``(`` comes first (then it counts
#: nesting, and :data:`_LOOSE_DESTINATION` bounds it).
#: (A backslash before a CRLF escapes the whole break: the parser reads it as one "\\n".)
_PLAIN_DESTINATION = re.compile(r"(?:[^\x00-\x20\x7f\\()]|\\\r\n|\\[^ ]|\\$)*")
_LOOSE_DESTINATION = re.compile(r"(?:[^\x00-\x20\x7f\\]|\\\r\n|\\[^ ]|\\$)*")
#: A title for each opening mark (``parseLinkTitle``): group 1 is its closing mark.
_TITLES = {
    '"': re.compile(r'"(?:[^"\\]|\\[\s\S])*(")?'),
    "'": re.compile(r"'(?:[^'\\]|\\[\s\S])*(')?"),
    "(": re.compile(r"\((?:[^()\\]|\\[\s\S])*(\))?"),
}


def _reach(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """Where ``pattern`` (one that matches the empty string) stops, matched at ``pos``."""
    m = pattern.match(text, pos)
    return m.end() if m is not None else pos


#: Blanks, line breaks and block quote marks: what may stand between a destination that
#: ends its line and the next line's content (the parser strips the marks and indentation).
_LINE_GAP = re.compile(r"[ \t\r\n>]*")


def _link_end(source: str, paren: int) -> int:
    """Where the inline link whose ``(`` stands at ``paren`` closes, read as markdown-it-py's
    link rule reads it (every destination taken as valid: a refused one only makes the link
    fail); -1 when no link closes there; -2 when this reading cannot tell (a parenthesis
    nested in the destination, or a line break inside the link, where the parser strips
    container marks and indentation this source still holds)."""
    n = len(source)
    pos = _reach(_LINK_BLANKS, source, paren + 1)
    if pos >= n:
        return -1
    first = source[pos]
    if first == ")":
        return pos  # an empty destination
    if first == "<":
        m = _ANGLE_DESTINATION.match(source, pos)
        if m is None or m.group(1) is None:
            return -1
        reach = m.end()
    else:
        reach = _reach(_PLAIN_DESTINATION, source, pos)
        if reach < n and source[reach] == "(":
            return -2
        if reach == pos:
            return -1
    after = _reach(_LINK_BLANKS, source, reach)
    gap = source[reach:after]
    if "\n" in gap or "\r" in gap:
        # The next line goes on with a title or the ")", after the marks the parser strips:
        # content that opens neither (taking a ">" as a mark or as content alike) ends the
        # link here. (A 1 MB paragraph of image lines whose destinations ran to the line's
        # end went to the parser whole.)
        nxt = _reach(_LINE_GAP, source, reach)
        return -1 if source[nxt : nxt + 1] not in _GOES_ON else -2
    title = _TITLES.get(source[after : after + 1]) if after > reach else None
    if title is not None:
        m = title.match(source, after)
        if m is None or m.group(1) is None:
            return -1  # the title fails, and its mark is no ")"
        end = _reach(_LINK_BLANKS, source, m.end())
        if "\n" in source[reach:end] or "\r" in source[reach:end]:
            return -2
        after = end
    return after if source[after : after + 1] == ")" else -1


#: What may follow a destination in a link: its title's opening mark or the closing ")".
_GOES_ON = frozenset("\"'()")


#: A link's tail that holds no backtick, read up to its first ``)``: no backtick, nothing
#: that opens a title or an angle destination, no parenthesis, escape or line break before
#: it, so any link there closes at that ``)``. Bounded, so each ``](`` costs a few
#: characters.
_PLAIN_LINK_TAIL = re.compile(r"[^`\"'()<\\\r\n]{0,64}\)")


def link_may_hold_backtick(source: str) -> bool:
    """Could the destination or title of an inline link in ``source`` (a paragraph's
    source, NUL already read as U+FFFD) hold a backtick, or is there an image?

    A link skips its destination and title, so a backtick there pairs with nothing; its
    label is read with code spans first (a span holding its ``]`` makes the label end
    later), so a link's label leaves the pairing alone. An image's alt text does not: the
    reference keeps no code span there (:func:`image_may_hold_backtick`).

    Each ``](`` is read as the link rule reads it (:func:`_link_end`). Where that reading
    cannot tell, the region is taken as far as a destination could reach, with the title
    after it; such regions can overlap (``](`` inside a long destination), and past twice
    the text's length the text is left to the parser, so the cost stays linear. An inline
    link closes with a ``)``: a ``](`` after the last one opens none (a 1 MB line of links
    nesting their destinations' parentheses, none closed, went to the parser whole: 19-27
    s/MB in ``parse_reply``).
    """
    if contains(source, "![") and image_may_hold_backtick(source):
        return True
    n = len(source)
    budget = 2 * n + 64
    find = source.find
    last = source.rfind(")")
    i = find("](")
    while 0 <= i < last:
        paren = i + 1
        plain = _PLAIN_LINK_TAIL.match(source, paren + 1)
        if plain is not None:
            # (A link of its own a streamed part holds, [l](u): the full reading below is
            # four regex matches.)
            i = find("](", plain.end())
            continue
        end = _link_end(source, paren)
        if end == -2:
            start = _reach(_LINK_BLANKS, source, paren + 1)
            # A destination in <…> may hold blanks: read it as such (found in review).
            loose = _ANGLE_DESTINATION if source[start : start + 1] == "<" else _LOOSE_DESTINATION
            reach = _reach(loose, source, start)
            end = _reach(_LINK_BLANKS, source, reach)
            title = _TITLES.get(source[end : end + 1])
            if title is not None:
                end = _reach(_LINK_BLANKS, source, _reach(title, source, end))
        if end >= 0:
            if find("`", paren, end + 1) >= 0:
                return True
            budget -= end + 1 - paren
            if budget < 0:
                return True
        i = find("](", paren)
    return False


#: An image's label that ends at its first "]": nothing before it that the label reader
#: takes as a token that may hold a "]" or a backtick (a code span, an escape, an autolink,
#: a nested bracket).
_PLAIN_IMAGE_LABEL = re.compile(r"[^\]\[`\\<]*\]")


def image_may_hold_backtick(source: str) -> bool:
    """Could the alt text of an image in ``source`` hold a backtick?

    The parser keeps no code span in an image's alt text, so backticks there pair with
    nothing; a paragraph holding such an image is the parser's to read. An image's label
    ends at its first ``]`` when nothing before it is read as a token of its own (a
    backtick, ``\\``, ``<`` or ``[``): such a label holds no backtick, and the image (or the
    text ``![…]`` left when no image forms) leaves the pairing alone. Any other ``![`` is
    taken as an image that may hold one (an escaped ``\\!`` too: conservative). Each read
    stops at the first such character, where the next ``![`` is looked for: linear.
    """
    label = _PLAIN_IMAGE_LABEL.match
    find = source.find
    i = find("![")
    while i >= 0:
        m = label(source, i + 2)
        if m is None:
            return True
        i = find("![", m.end())
    return False


#: A full reference's ``][`` (blanks taken too).
_FULL_REFERENCE = re.compile(r"\][ \t\r\n]*\[")


def reference_may_hold_backtick(chunk: str) -> bool:
    """Could a reference link or image in ``chunk``, made by a definition elsewhere in the
    text, change which backticks pair? A full reference's second label (``[a][`x`]``) is no
    inline text, and an image's alt text keeps no code span (:func:`image_may_hold_backtick`;
    a shortcut ``![a `x`]`` is an image once ``[a `x`]`` is defined).

    A ``](`` that opens no inline link falls back to a reference, and markdown-it-py reads
    its second label at the character after the one where the inline reading stopped, which
    can be a ``[`` anywhere after the ``](`` (``[a](<[a `b`]`` is a link to ``[a `b`]``'s
    destination, its label no inline text): any ``[`` after a ``](`` counts."""
    if _FULL_REFERENCE.search(chunk) is not None or image_may_hold_backtick(chunk):
        return True
    at = chunk.find("](")
    return at >= 0 and chunk.find("[", at + 2) >= 0


#: What an autolink may hold between its ``<`` and ``>`` (markdown-it's URL and e-mail
#: autolink patterns both allow no more: no ``<``, ``>``, space or control character).
_AUTOLINK_BODY = re.compile(r"[^<>\x00-\x20]*")


def autolink_may_hold_backtick(chunk: str) -> bool:
    """Could an autolink in ``chunk`` hold a backtick (a ``<``, then characters an autolink
    may hold, one of them a backtick, then ``>``)?

    The code parser runs with HTML off, so of the constructs that bind tighter than code
    spans only autolinks are left, and one without a backtick leaves every backtick run
    where the pairing finds it: ``List<String>``, ``a < b`` and ``<br>`` beside inline code
    no longer send a paragraph to the parser (a 1 MB line of them took 1.5 s there). Each
    ``<`` is read up to the first character an autolink cannot hold, where the next read
    starts, so the cost is linear in the chunk.
    """
    body = _AUTOLINK_BODY.match
    find = chunk.find
    i = find("<")
    while i >= 0:
        m = body(chunk, i + 1)
        j = m.end() if m is not None else i + 1  # m is never None: the pattern matches ""
        if chunk.startswith(">", j) and find("`", i, j) >= 0:
            return True
        i = find("<", j)
    return False
