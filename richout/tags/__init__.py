"""Layer 4, tags: `[[audio_as_voice]]`, `[[reply_to_current]]`, `[[reply_to:<id>]]`, silent replies.

`scan` finds candidates linearly, `close` applies the reference's gap-closing rules, `code`
answers code questions per stage, `parse` is `parse_directives`, `silent` the silent-reply
rules, `release` the tag and reply steps of profile `release-2026.9.6` (TAGS.md).
"""
