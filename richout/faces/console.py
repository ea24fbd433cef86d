"""What every command-line face shares: reading an input file and printing JSON.

:class:`InputError` is a command-line input problem (the CLI exits 2 on it), :func:`read_text`
reads a file or standard input as strict UTF-8, :func:`emit_json` prints one result.
``richout`` (:mod:`richout.faces.cli`) and ``richout envelope``
(:mod:`richout.faces.envelope_cli`) both read and print through here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["InputError", "emit_json", "read_text"]


class InputError(Exception):
    """A command-line input problem (unreadable file, bad encoding): exit status 2."""


def read_text(source: str, *, replace_invalid: bool = False) -> str:
    """Read a file (``-`` = standard input) as UTF-8; invalid bytes are an error unless told."""
    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if replace_invalid:
            return data.decode("utf-8", errors="replace")
        raise InputError(
            f"{source} is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "pass --replace-invalid to read it with U+FFFD replacements"
        ) from exc


def emit_json(obj: Any, compact: bool) -> None:
    """Print ``obj`` as JSON (indented unless ``compact``); ASCII escapes if stdout needs them."""
    indent = None if compact else 2
    text = json.dumps(obj, ensure_ascii=False, indent=indent)
    try:
        sys.stdout.write(text + "\n")
    except UnicodeEncodeError:
        sys.stdout.write(json.dumps(obj, ensure_ascii=True, indent=indent) + "\n")
