"""``richout jsonl``: one JSON request per line in, one JSON response per line out (JSONL.md).

Nothing a request contains ends the process: every failure becomes an error response.

Lines, exactly:

- A line ends at LF (``\\n``) only; a CR before that LF (CRLF) is JSON whitespace and changes
  nothing. A lone CR, U+2028, U+2029, U+0085, ``\\x0b``, ``\\x0c`` or ``\\x1c``–``\\x1e`` never
  ends a line (Python's text-mode reading and :meth:`str.splitlines` would break there): a bare
  CR between JSON tokens is legal whitespace inside one request, and U+2028 inside a string is
  just a character. Standard input is read as bytes for this reason.
- Every line gets exactly one response, except a line that is empty or holds only JSON
  whitespace (space, tab, CR): those are skipped, so a blank keep-alive line needs no answer.
  Anything else — a line of only ``\\x1c``, ``\\x0b\\x0c``, NBSP, U+2028 or U+0085, which
  :meth:`str.strip` would call blank but JSON does not — gets a response (``invalid_json``).
- A response is one line too: besides the escapes JSON requires, U+0085, U+2028 and U+2029 are
  written as ``\\u`` escapes, so a client that splits lines on them still sees one line.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterable
from typing import IO, Any

from richout.errors import InvalidInput, RichoutError
from richout.faces.ops import OPS

__all__ = ["JSON_WS", "handle_line", "handle_request", "serve"]


def _error(rid: Any, kind: str, message: str) -> dict[str, Any]:
    return {"id": rid, "error": {"type": kind, "message": message}}


def handle_request(req: Any) -> dict[str, Any]:
    """Answer one decoded request object; never raises."""
    if not isinstance(req, dict):
        return _error(None, "invalid_request", "a request must be a JSON object with id and op")
    rid = req.get("id")
    if not isinstance(rid, str) or "op" not in req:
        return _error(
            rid if isinstance(rid, str) else None,
            "invalid_request",
            'a request needs a string "id" and an "op": {"id": "1", "op": "media", "input": "…"}',
        )
    op = req.get("op")
    if not isinstance(op, str) or op not in OPS:
        known = ", ".join(sorted(OPS))
        return _error(rid, "unknown_op", f"unknown op {op!r}; this build answers: {known}")
    options = req.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        return _error(rid, "invalid_input", '"options" must be a JSON object when given')
    try:
        output = OPS[op](req.get("input"), options)
    except RichoutError as exc:
        return _error(rid, exc.code, str(exc))
    except RecursionError:
        return _error(rid, "invalid_input", "input nested too deeply to process")
    except Exception as exc:  # a bug must not end the process; report it as such
        return _error(rid, "internal_error", f"{type(exc).__name__}: {exc}")
    return {"id": rid, "output": output}


def _reject_constant(name: str) -> Any:
    raise InvalidInput(f"{name} is not valid JSON")


def handle_line(line: str) -> dict[str, Any]:
    """Answer one raw request line; never raises."""
    try:
        req = json.loads(line, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        return _error(None, "invalid_json", f"the line is not a JSON object: {exc}")
    return handle_request(req)


_SURROGATE = re.compile("[\ud800-\udfff]")
_UNDECODED = re.compile("[\udc80-\udcff]")


def _dumps(obj: Any) -> str:
    try:
        s = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    except ValueError:
        obj = _finite(obj)
        s = json.dumps(obj, ensure_ascii=False)
    if _SURROGATE.search(s):
        # Lone surrogates (valid in JSON escapes, invalid in UTF-8) must stay escaped.
        s = json.dumps(obj, ensure_ascii=True)
    return s


def _finite(obj: Any) -> Any:
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_finite(v) for v in obj]
    return obj


#: JSON's whitespace (RFC 8259): a line of only these (or nothing) is skipped.
JSON_WS = " \t\r\n"

#: Line separators JSON allows raw inside strings that some line splitters break on.
_SEPARATORS = re.compile("[\u0085\u2028\u2029]")


def _escape_separators(line: str) -> str:
    return _SEPARATORS.sub(lambda m: f"\\u{ord(m.group()):04x}", line)


def _respond(raw: str | bytes) -> dict[str, Any] | None:
    """The response to one raw line, or None for a line JSON calls blank."""
    if isinstance(raw, bytes):
        if not raw.strip(JSON_WS.encode()):
            return None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return _error(None, "invalid_json", "the line is not valid UTF-8")
    else:
        if not raw.strip(JSON_WS):
            return None
        if _UNDECODED.search(raw):
            return _error(None, "invalid_json", "the line is not valid UTF-8")
        text = raw
    return handle_line(text)


def serve(lines: Iterable[str | bytes], out: IO[str]) -> None:
    """Answer every line of ``lines`` on ``out``, flushing after each response.

    ``lines`` are already split at LF (``str`` or UTF-8 ``bytes``, a trailing LF or CRLF
    optional). Exactly one response line per line, except for a line that is empty or only
    JSON whitespace (`` \\t\\r\\n``), which is skipped; see the module docstring.
    """
    for raw in lines:
        resp = _respond(raw)
        if resp is None:
            continue
        line = _dumps(resp)
        if _SEPARATORS.search(line):
            line = _escape_separators(line)
        out.write(line + "\n")
        out.flush()


def main_stdin() -> int:
    """Serve standard input to standard output, reading bytes so lines end at LF only."""
    inp = sys.stdin.buffer
    with open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False) as out:
        serve(inp, out)
    return 0
