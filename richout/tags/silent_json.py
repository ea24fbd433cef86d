"""Strict JSON readers for the silent JSON forms (TAGS.md §8.2, §8.3).

A reply is silent when it is exactly a JSON string holding the token (§8.2) or a JSON object
``{"action": T}`` (§8.3); the rules themselves are in :mod:`richout.tags.silent`. Reading
must not recurse on nesting depth or backtrack on long strings, so JSON is checked here by an
iterative validator that only keeps the top-level members, with regexes of one alternative per
character.
"""

from __future__ import annotations

import json
import re

__all__ = ["json_object_members", "json_string_value"]

_JSON_WS = re.compile(r"[ \t\n\r]*")
# One alternative per character (a plain character or one escape): no nested quantifier, so a
# long unterminated string fails in linear time.
_JSON_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NOT_A_STRING = object()


def _jws(s: str, pos: int) -> int:
    """First offset at or after ``pos`` that is not JSON whitespace."""
    m = _JSON_WS.match(s, pos)
    return pos if m is None else m.end()


def _json_scalar(s: str, pos: int, decode: bool) -> tuple[int, object] | None:
    """A JSON string, number or literal at ``pos``: (its end, the decoded string or a sentinel)."""
    c = s[pos]
    if c == '"':
        m = _JSON_STRING.match(s, pos)
        if m is None:
            return None
        return m.end(), (json.loads(m.group()) if decode else _NOT_A_STRING)
    if c in "-0123456789":
        m = _JSON_NUMBER.match(s, pos)
        return None if m is None else (m.end(), _NOT_A_STRING)
    for lit in ("true", "false", "null"):
        if s.startswith(lit, pos):
            return pos + len(lit), _NOT_A_STRING
    return None


def json_object_members(s: str) -> list[tuple[str, object]] | None:
    """Top-level members of the JSON object ``s``; None unless ``s`` is exactly valid JSON.

    Iterative (a stack of open containers), so nesting depth costs no recursion; values other
    than top-level strings are validated but kept as a sentinel. Strict JSON as ``JSON.parse``
    reads it: no ``NaN``/``Infinity``, no trailing commas, no control characters in strings.
    """
    n = len(s)
    pos = _jws(s, 0)
    if pos >= n or s[pos] != "{":
        return None
    stack = ["{"]
    pos += 1
    members: list[tuple[str, object]] = []
    key = ""
    expect = "key_or_close"
    while True:
        pos = _jws(s, pos)
        if pos >= n:
            return None
        c = s[pos]
        top_level = len(stack) == 1
        if expect == "colon":
            if c != ":":
                return None
            pos += 1
            expect = "value"
            continue
        if expect in ("key_or_close", "key") and not (c == "}" and expect == "key_or_close"):
            m = _JSON_STRING.match(s, pos)
            if m is None:
                return None
            if top_level:
                key = json.loads(m.group())
            pos = m.end()
            expect = "colon"
            continue
        if expect in ("value", "value_or_close") and not (c == "]" and expect == "value_or_close"):
            if c in "{[":
                if top_level:
                    members.append((key, _NOT_A_STRING))
                stack.append(c)
                pos += 1
                expect = "key_or_close" if c == "{" else "value_or_close"
                continue
            scalar = _json_scalar(s, pos, top_level)
            if scalar is None:
                return None
            pos, value = scalar
            if top_level:
                members.append((key, value))
            expect = "comma_or_close"
            continue
        if expect == "comma_or_close" and c == ",":
            pos += 1
            expect = "key" if stack[-1] == "{" else "value"
            continue
        # What is left is a closing bracket, which must match the open container.
        if c != ("}" if stack[-1] == "{" else "]"):
            return None
        stack.pop()
        pos += 1
        if not stack:
            return members if _jws(s, pos) == n else None
        expect = "comma_or_close"


def json_string_value(s: str) -> object:
    """The decoded value of ``s`` when it is exactly one JSON string, else None."""
    if _JSON_STRING.fullmatch(s) is None:
        return None
    return json.loads(s)
