"""The tag pass inside the split (MEDIA.md §3 step 6): audio tags read in the walked text.

:func:`read_tags` runs it over the text the line walk (or the fused split) left, and
:func:`tag_pass_shortcut` answers without reading tags where the outputs are certain. Apart
from :mod:`richout.media.pipeline` so that :mod:`richout.media.fused` runs the same pass.
"""

from __future__ import annotations

from richout.markdown.codemap import CodeMap
from richout.models import Directives
from richout.profiles import Profile
from richout.tags.code import StageCode
from richout.tags.explain import Sink
from richout.tags.parse import parse_directives
from richout.tags.pipeline import TagStages, stage_tags, untagged
from richout.tags.scan import AUDIO_HEAD, REPLY_HEAD
from richout.text.chars import has_double_bracket, is_js_ws, js_rtrim

__all__ = ["read_tags", "tag_pass_shortcut"]


def tag_pass_shortcut(
    core: str, walked: bool, cmap: CodeMap | None, profile: Profile, *, trimmed: bool = False
) -> str | None:
    """What ``parse_directives(core, strip_reply_tags=False).text`` gives, when the audio
    flag it would report is certainly False and the answer needs no tag reading; else None.
    ``trimmed``: the caller right-trims the answer, so only that trimmed form must agree.

    Only the outputs are replaced (explanations run the full pass). Profile ``next``'s tag
    pass reads audio tags only at :data:`AUDIO_HEAD` matches and reply tags only at
    :data:`REPLY_HEAD` matches, and normalises the boundaries (TAGS.md §5.1) when it
    recognised a tag or the text holds no ``[[``:

    * no ``[[``: the pass is exactly that normalisation (``tests/test_fastpaths.py``);
    * no audio head: no audio tag, so when the walk consumed nothing the split keeps its
      raw text and the tag text is never read; with no reply head either, the text is kept;
    * no audio head, and the answer right-trimmed: reply tags are kept, so recognising one
      only applies §5.1, whose trailing trim the caller's trim covers, and whose leading
      steps change nothing when the text opens with no line break and no single blank
      before a non-blank.
    """
    if profile.normalize_rewritten_whitespace:
        return None  # the release has its own tag module
    if not has_double_bracket(core):
        return untagged(core, cmap)[0]
    if AUDIO_HEAD.search(core) is not None:
        return None
    if not walked or REPLY_HEAD.search(core) is None:
        return core
    if trimmed and core[0] not in "\r\n" and not (core[0] in " \t" and not is_js_ws(core[1])):
        return core  # core holds "[[", so core[1] exists
    return None


def read_tags(
    visible: str,
    raw: str,
    raw_map: CodeMap | None,
    profile: Profile,
    *,
    walked: bool,
    preserve: bool,
    explain: bool,
    tag_runs: list[TagStages] | None,
) -> tuple[str, bool, Directives | None]:
    """The tag pass over the walked text: the text it leaves, the audio flag, and its
    ``Directives`` result (None when :func:`tag_pass_shortcut` answered for it, or under
    profile ``next`` without explanations, where the stages run directly). ``raw_map`` is
    the code map of the walked reply ``raw``, when one was built: the map of ``visible``
    when the two are equal, else the map its fence scan resumes from.

    With ``preserve`` the tags are read in the text before its trailing whitespace, which
    then ends the result unchanged.
    """
    core = js_rtrim(visible) if preserve else visible
    cmap = raw_map if core == raw else None
    like = raw_map if cmap is None else None
    release = profile.normalize_rewritten_whitespace
    if not explain:
        # A view's tag layer reuses the stages' reading (tag_runs): then they run.
        shortcut = tag_pass_shortcut(
            core, walked, cmap, profile, trimmed=not preserve and tag_runs is None
        )
        if shortcut is not None:
            return shortcut + visible[len(core) :], False, None
        if not release:
            # Profile next with "[[" in core (else the shortcut answered): the stages run
            # directly, and a view's tag layer may reuse their reading (TagStages.reusing).
            run = TagStages(
                core,
                StageCode(core, cmap, like),
                Sink(core, True, False, False),
                True,
                False,
                read_replies=tag_runs is not None,
                trimmed=not preserve,
            )
            if tag_runs is not None:
                tag_runs.append(run)
            return run.final + visible[len(core) :], bool(run.audio), None
    if explain and not release:
        # The explanation below reads the findings as tuples: no record per finding here.
        directives = stage_tags(
            core,
            strip_audio=True,
            strip_reply=False,
            code_map=cmap,
            like=like,
            tag_runs=tag_runs,
            constructs_only=True,  # (the split keeps no reply tag span or precedence)
        )
    else:
        directives = parse_directives(
            core,
            strip_audio_tag=True,
            strip_reply_tags=False,
            explain=explain,
            code_map=cmap,
            profile=profile,
        )
    return directives.text + visible[len(core) :], directives.audio_as_voice, directives
