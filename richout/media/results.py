"""The records a payload's reading yields (MEDIA.md §6-§9): :class:`Item`, one accepted
reference, and :class:`PayloadResult`, what one payload yields.

Apart from :mod:`richout.media.fates`, which decides them, so that the judge can keep the
results it has read (``Judge.payloads``) without importing the steps that read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Item", "PayloadResult"]


@dataclass(slots=True)
class Item:
    """One accepted reference with where it came from (payload offsets)."""

    value: str
    start: int
    end: int
    #: the serialized-JSON cut shortened it (§6.1 step 3)
    cut: bool = False
    #: ``part``, ``unwrapped``, ``rescue`` (§6.8) or ``fallback`` (§6.9)
    source: str = "part"
    #: regrouped (§6.6) after a first token that already ended with a file extension
    absorbed: bool = False
    #: what cleaning removed after the value (wrapper characters, a JSON tail)
    tail: str = ""


@dataclass(slots=True)
class PayloadResult:
    """What one payload yields (MEDIA §6-§9); offsets are payload offsets."""

    accepted: list[Item] = field(default_factory=list)
    #: leftover parts that stay visible (§6.7), as bounds
    leftovers: list[tuple[int, int]] = field(default_factory=list)
    #: ``trim(V)`` looks local or starts with the file prefix (§9.2)
    looks_local: bool = False
    #: parts judged and not accepted (§6.7): ``(start, end, candidate, spaces, visible)``;
    #: ``visible`` is False for a part discarded silently (traversal with spaces)
    rejected: list[tuple[int, int, str, bool, bool]] = field(default_factory=list)
    #: the §6.9 fallback that was tried and failed: ``(start, end, candidate)``
    fallback_failed: tuple[int, int, str] | None = None
    #: number of parts (§6.6)
    parts: int = 0
    #: bounds of the whole-payload value V after trimming (for payload-level diagnostics)
    value_bounds: tuple[int, int] = (0, 0)
    #: the whole-payload value was unwrapped from quotes (U set)
    unwrapped: str | None = None
    #: rejected parts that look like media sources, hidden and counted (profile ``next``):
    #: ``(start, end, candidate)``
    counted: list[tuple[int, int, str]] = field(default_factory=list)
    #: the payload was an explicit quoted list (PROFILES.md rule 3)
    quoted_list: bool = False
    #: the payload is words and spaces only (``payload._words_only``): every part is a word,
    #: left visible. Not compared: the general steps give the same result without knowing it.
    words: bool = field(default=False, compare=False)

    @property
    def ok(self) -> bool:
        """At least one reference was accepted."""
        return bool(self.accepted)

    def copy(self) -> PayloadResult:
        """This result with lists of its own, for a caller that changes them: the judge
        keeps the record it returned and returns it again for the same payload."""
        return PayloadResult(
            accepted=list(self.accepted),
            leftovers=list(self.leftovers),
            looks_local=self.looks_local,
            rejected=list(self.rejected),
            fallback_failed=self.fallback_failed,
            parts=self.parts,
            value_bounds=self.value_bounds,
            unwrapped=self.unwrapped,
            counted=list(self.counted),
            quoted_list=self.quoted_list,
            words=self.words,
        )
