"""Grammars are data: ``grammars/*.lark``, shipped in the wheel, loaded once per process."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lark import Lark

__all__ = ["grammar_text", "load_grammar"]


def _grammar_path(name: str) -> Path:
    packaged = resources.files("richout").joinpath("grammars").joinpath(name)
    if packaged.is_file():
        return Path(str(packaged))
    # Source checkout / editable install: the top-level grammars/ directory.
    return Path(__file__).resolve().parent.parent / "grammars" / name


def grammar_text(name: str) -> str:
    """The text of ``grammars/<name>``."""
    return _grammar_path(name).read_text(encoding="utf-8")


@cache
def load_grammar(name: str, start: str = "start", parser: str = "lalr") -> Lark:
    """The compiled grammar ``grammars/<name>`` (cached; LALR by default, which is linear).

    lark itself is imported here, on the first grammar use, so a reply without a tag or
    shortcode candidate never loads it.
    """
    from lark import Lark

    return Lark(grammar_text(name), start=start, parser=parser, maybe_placeholders=False)
