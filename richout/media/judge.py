"""MEDIA §7 verdicts for one reply, memoised (:class:`Judge`).

Apart from :mod:`richout.media.payload`, which reads payloads with it, so that the payload
module keeps to its steps.
"""

from __future__ import annotations

from richout.media.results import PayloadResult
from richout.policy import (
    OK,
    Policy,
    Verdict,
    check_reference,
    is_valid_reference,
    strip_file_prefix,
)
from richout.profiles import NEXT, Profile
from richout.text.chars import has_js_ws

__all__ = ["Judge"]

_NOT_A_REFERENCE = "media.not_a_reference"


class Judge:
    """MEDIA §7 verdicts for one reply under one profile, each candidate judged once.

    The reference validates the same string several times (per part, whole-payload
    fallback, and richout again to explain a rejection), and a remote verdict parses a URL.
    The switches are normalised to what can change the answer: *spaces* only for strings
    holding whitespace, *bare filenames* never for http(s):// or media:// strings.

    A gateway's :class:`~richout.policy.Policy` is kept apart: :meth:`verdict` and
    :meth:`ok` stay the profile's baseline (the payload is read as without a policy), and
    :meth:`narrowed` judges a reference the baseline accepted.
    """

    __slots__ = (
        "_asked",
        "_memo",
        "_narrowed",
        "_passes",
        "explains",
        "payloads",
        "policy",
        "profile",
        "seen",
    )

    def __init__(
        self, profile: Profile = NEXT, policy: Policy | None = None, *, explains: bool = True
    ) -> None:
        self.profile = profile
        self.policy = policy
        #: False: only :meth:`ok` is asked (a walk without explanations), and it is answered
        #: by :func:`~richout.policy.is_valid_reference`, which builds no reason text
        self.explains = explains
        self._memo: dict[tuple[str, bool, bool], Verdict] = {}
        #: a switched question's answer by the switches as asked, not as the key reduces
        #: them (:meth:`verdict`)
        self._asked: dict[tuple[str, bool, bool], Verdict] = {}
        self._passes: dict[tuple[str, bool, bool], bool] = {}
        self._narrowed: dict[str, Verdict] = {}
        #: :func:`~richout.media.payload.analyse_payload`'s results by payload, for the
        #: payloads its general steps read (shared: a caller that changes one copies it)
        self.payloads: dict[str, PayloadResult] = {}
        #: the payloads read once (the memo keeps a payload's result from its second reading)
        self.seen: set[str] = set()

    def narrowed(self, reference: str) -> Verdict:
        """The policy's verdict on an accepted ``reference`` (``OK`` without a policy)."""
        if self.policy is None:
            return OK
        v = self._narrowed.get(reference)
        if v is None:
            v = self.policy.check(reference)
            self._narrowed[reference] = v
        return v

    @staticmethod
    def _key(candidate: str, spaces: bool, bare: bool) -> tuple[str, bool, bool]:
        """The memo key: the switches kept only where they can change the answer, so that
        a fallback asking again with both on finds the first answer."""
        if spaces and not has_js_ws(candidate):
            spaces = False
        if bare:
            # (the usual spellings first, with no file prefix to strip or case to fold: the
            # whole-payload fallback of every refused line of a URL and a caption asks)
            if candidate.startswith(("https://", "http://")):
                bare = False
            else:
                head = strip_file_prefix(candidate[:15])[:8].lower()
                if head.startswith(("http://", "https://", "media://")):
                    bare = False
        return candidate, spaces, bare

    def verdict(self, candidate: str, spaces: bool = False, bare: bool = False) -> Verdict:
        """``check_reference`` with the given switches, memoised."""
        if spaces or bare:
            # Without the switches a candidate holding whitespace is refused as
            # media.not_a_reference (or media.too_long, which is asked first and which no
            # switch changes), and bare filenames only turn that code into another answer:
            # any other answer already known is the answer with them (tests/test_policy.py).
            # A refused token's fallback and its explanation ask again with the switches
            # on; the memo key below costs more than this look-up.
            v = self._memo.get((candidate, False, False))
            if v is not None and v.code != _NOT_A_REFERENCE:
                return v
            # Asked before as written: an explained line asks its words with spaces on and
            # its payload with both switches, in the walk and again in the explanation, and
            # each asking cost the key below (a megabyte of "MEDIA:http://… word" lines).
            asked = (candidate, spaces, bare)
            v = self._asked.get(asked)
            if v is not None:
                return v
            key = self._key(candidate, spaces, bare)
        else:
            asked = None
            key = (candidate, False, False)
        v = self._memo.get(key)
        if v is None:
            if key[2]:
                # Bare filenames are weighed last, after every rule that refuses or accepts
                # (§7), and the reason mentions them only for media.not_a_reference: any
                # other verdict without them is the verdict with them (tests/test_policy.py).
                # A refused token's fallback asks again with them: one check, not two.
                v = self._memo.get((candidate, key[1], False))
                if v is not None and v.code == "media.not_a_reference":
                    v = None
            if v is None:
                v = check_reference(
                    candidate,
                    allow_spaces=key[1],
                    allow_bare_filename=key[2],
                    profile=self.profile,
                )
            self._memo[key] = v
        if asked is not None:
            self._asked[asked] = v
        return v

    def decided(self, candidate: str, passes: bool) -> None:
        """Remember ``is_valid_reference(candidate)`` (no switches), asked by the caller."""
        self._passes[candidate, False, False] = passes

    def ok(self, candidate: str, spaces: bool = False, bare: bool = False) -> bool:
        """Is ``candidate`` acceptable (§7)?"""
        if self.explains:
            if not (spaces or bare):
                # Asked again (the walk's shortcut, then the payload steps): the memo first,
                # without verdict()'s call (a megabyte of refused directive lines), and
                # asked first, the check itself, as verdict() would make it.
                key = (candidate, False, False)
                v = self._memo.get(key)
                if v is None:
                    v = self._memo[key] = check_reference(candidate, profile=self.profile)
                return v.ok
            return self.verdict(candidate, spaces, bare).ok
        # The bare decision, equal to the verdict's (tests/test_policy.py and the security
        # tables prove it): the reason texts cost more than the decision on a word.
        key = self._key(candidate, spaces, bare) if spaces or bare else (candidate, False, False)
        passes = self._passes.get(key)
        if passes is None:
            passes = self._passes[key] = is_valid_reference(
                candidate, allow_spaces=key[1], allow_bare_filename=key[2], profile=self.profile
            )
        return passes
