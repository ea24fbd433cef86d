"""What preview a shortcode makes (EMBED.md §6), with the JavaScript semantics it relies on.

:func:`preview` turns a shortcode's final attributes (§5.2) into a
:class:`~richout.models.CanvasPreview`: ``target`` must name the assistant message surface,
``ref`` becomes a canvas document URL (``encodeURIComponent``), ``height`` is read with
JavaScript ``Number()`` (§6.2) and normalised.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import NamedTuple
from urllib.parse import quote

from richout.embed.attributes import Attribute
from richout.models import CanvasPreview
from richout.models.canvas import normalize_preferred_height, preview_record
from richout.text.chars import js_trim

__all__ = ["SURFACE", "Outcome", "encode_uri_component", "js_number", "preview"]

_CANVAS_DOCUMENTS = "/__openclaw__/canvas/documents/"
SURFACE = "assistant_message"
# JavaScript Number() grammar after trimming (§6.2); every piece is bounded by a literal or
# the end, so matching is linear.
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INFINITY = re.compile(r"[+-]?Infinity")
_RADIX = {"x": (16, re.compile(r"[0-9a-fA-F]+")), "o": (8, re.compile(r"[0-7]+")),
          "b": (2, re.compile(r"[01]+"))}  # fmt: skip


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


#: What ``encodeURIComponent`` leaves as it is: ASCII letters, digits and ``-_.!~*'()``.
_URI_UNRESERVED = re.compile(r"[A-Za-z0-9\-_.!~*'()]*")


def encode_uri_component(value: str) -> str:
    """JavaScript ``encodeURIComponent``; raises ValueError on a lone surrogate."""
    if _URI_UNRESERVED.fullmatch(value) is not None:
        # Most references (cv_123): nothing to encode, and urllib's quote costs several µs.
        return value
    # A surrogate pair spelled as two code points is one character to JavaScript; a UTF-16
    # round trip joins such pairs and refuses lone halves, as encodeURIComponent does.
    try:
        joined = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError as exc:
        raise ValueError("lone surrogate") from exc
    return quote(joined, safe="!~*'()")


# --------------------------------------------------------------------------- previews


class Outcome(NamedTuple):
    preview: CanvasPreview | None
    bad_ref: bool


def preview(final: Mapping[str, Attribute]) -> Outcome:
    """§6: the preview a shortcode's attributes make, if any."""
    target = final.get("target")
    if target is not None and target.value != SURFACE:
        return Outcome(None, False)
    ref = final["ref"].value if "ref" in final else None
    url = final["url"].value if "url" in final else None
    if ref is None and url is None:
        return Outcome(None, False)
    if url is None:
        assert ref is not None
        try:
            url = f"{_CANVAS_DOCUMENTS}{encode_uri_component(ref)}/index.html"
        except ValueError:
            # The reference throws here and fails the whole call; richout keeps the shortcode
            # as text instead (§6.1 decision).
            return Outcome(None, True)
    height = None
    if "height" in final:
        height = normalize_preferred_height(js_number(final["height"].value))
    cls = final.get("class") or final.get("class_name")
    record = preview_record(
        url,
        view_id=ref,
        title=final["title"].value if "title" in final else None,
        preferred_height=height,
        class_name=cls.value if cls is not None else None,
        style=final["style"].value if "style" in final else None,
    )
    return Outcome(record, False)
