"""Profile ``release-2026.9.6``: ``parse_directives`` results from the release's tag code.

The release rewrites text with a whitespace normalisation (CRLF to LF, blank-line runs to
two, space runs between words to one) instead of removing tags site by site, so its outputs
come from :mod:`richout.tags.release`. Explanations keep richout's promises in this profile
too: diagnostics and spans are those of the same input read by profile ``next`` (the tags
found are the same; UPSTREAM.md names where the wording can differ), and the edits are one
coarse edit from the input to the release's text, which rebuilds the input exactly.
:func:`finish` also explains the reply step's tag result inside the release's ``parse_reply``
(:mod:`richout.views.release`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from functools import partial
from typing import Any, TypeVar

from richout.models import Directives, Explained, Reply, rerun
from richout.models.lossless import edit_records
from richout.profiles import NEXT, Profile
from richout.tags import release as _release_tags
from richout.text.derive import diff_patch, spacing_patch

__all__ = ["finish", "release_directives"]

_R = TypeVar("_R", Directives, Reply)

#: At most this many edits for the release's whitespace rewrite; past it, one edit.
_SPACING_EDITS = 256


def finish(
    cls: type[_R],
    outputs: dict[str, Any],
    text: str,
    *,
    explainer: Callable[[], Explained],
    explain: bool,
    reference: Callable[[], Explained],
    removed_kinds: frozenset[str] = frozenset(),
) -> _R:
    """The result: lazy, or explained by ``next``'s reading plus one edit that rebuilds."""
    # Typed locals: mypyc's type check (the compiled build) reads these classmethods on a
    # constrained type variable as returning Any; plain mypy does not.
    result: _R
    if not explain:
        result = cls.lazy(explainer, **outputs)
        return result
    ref = reference()
    out = outputs["text"]
    # The tags of removed_kinds left the text and its whitespace was rewritten: an edit per
    # changed gap, so later stages' offsets map back to the characters they name; else
    # (the reading found other tags, more changed, or a hostile text's 40k changed gaps,
    # whose edits cost more to carry than the precision is worth) one edit over the
    # changed stretch.
    removed = [(s.start, s.end) for s in ref.spans if s.kind in removed_kinds]
    patch = spacing_patch(text, out, removed, _SPACING_EDITS) if removed_kinds else None
    result = cls.explained(
        **outputs,
        diagnostics=ref.diagnostics,
        spans=ref.spans,
        edits=edit_records(patch if patch is not None else diff_patch(text, out)),
    )
    return result


def release_directives(
    text: str,
    *,
    current_message_id: str | None,
    strip_audio_tag: bool,
    strip_reply_tags: bool,
    profile: Profile,
    explain: bool,
    pipeline: Callable[..., Directives],
) -> Directives:
    """``parse_directives`` (passed as ``pipeline``) under the release profile."""
    options: dict[str, Any] = {
        "current_message_id": current_message_id,
        "strip_audio_tag": strip_audio_tag,
        "strip_reply_tags": strip_reply_tags,
    }
    found = _release_tags.parse_inline_directives(text, **options)
    # ReleaseDirectives has exactly the output fields of Directives.
    return finish(
        Directives,
        asdict(found),
        text,
        explainer=rerun(pipeline, text, profile=profile, explain=True, **options),
        explain=explain,
        reference=partial(pipeline, text, profile=NEXT, explain=True, **options),
        removed_kinds=frozenset(
            kind
            for kind, on in (("audio_tag", strip_audio_tag), ("reply_tag", strip_reply_tags))
            if on
        ),
    )
