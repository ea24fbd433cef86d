"""``richout jsonl``: one JSON request per line in, one JSON response per line out (JSONL.md).

Nothing a request contains ends the process: every failure becomes an error response.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

from .errors import InvalidInput, RichoutError

__all__ = ["Handler", "handle_line", "handle_request", "ops", "serve"]

#: An op handler: ``(input, options) -> output`` (wire names); raises InvalidInput.
Handler = Callable[[Any, dict[str, Any]], dict[str, Any]]


def ops() -> dict[str, Handler]:
    """Every op this build answers, by name."""
    from .ops import OPS

    return OPS


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
    table = ops()
    if not isinstance(op, str) or op not in table:
        known = ", ".join(sorted(table))
        return _error(rid, "unknown_op", f"unknown op {op!r}; this build answers: {known}")
    options = req.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        return _error(rid, "invalid_input", '"options" must be a JSON object when given')
    try:
        output = table[op](req.get("input"), options)
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


def serve(lines: Iterable[str], out: IO[str]) -> None:
    """Answer every line of ``lines`` on ``out``, flushing after each response."""
    for raw in lines:
        if not raw.strip():
            continue
        if _UNDECODED.search(raw):
            resp = _error(None, "invalid_json", "the line is not valid UTF-8")
        else:
            resp = handle_line(raw)
        out.write(_dumps(resp) + "\n")
        out.flush()


def main_stdin() -> int:
    """Serve standard input to standard output; a line that is not UTF-8 gets an error."""
    with (
        open(sys.stdin.fileno(), encoding="utf-8", errors="surrogateescape", closefd=False) as inp,
        open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False) as out,
    ):
        serve(inp, out)
    return 0
