"""Layer 4, tags: `[[audio_as_voice]]`, `[[reply_to_current]]`, `[[reply_to:<id>]]`, silent replies.

Profile ``next`` (TAGS.md §1-§6, §10):

- `parse` -- the public entry: `parse_directives` (argument checks, result) and the readers.
- `pipeline` -- `TagStages` (both stages and §5.1, every step kept) and the stream's `read_part`.
- `stages` -- where a tag is recognised: the audio stage (§4.1) and the reply stage (§4.2-§4.3).
- `scan` -- the tag scanner: head regexes, `ReplyTagReader`, the grammar on one slice, ids (§2.1).
- `close` -- closing the gaps left by removed tags (§5) and message boundaries (§5.1).
- `code` -- which `[[` are in code, answered per stage text with exact shortcuts.
- `explain` -- the wording of every `tag.*` diagnostic and the findings only explanations need.

Silent replies (TAGS.md §8, §9.3):

- `silent` -- the rules §8.1-§8.4 and the streaming helpers of §9.3.
- `silent_tokens` -- token runs (`NO_REPLY NO_REPLY`) read forward.
- `silent_json` -- the strict JSON readers of §8.2 and §8.3.
- `silent_reasoning` -- reasoning blocks, prefixes and silent-intent sentences of §8.4.

Profile ``release-2026.9.6``:

- `release` -- the release's tag parse (`parse_inline_directives`) and reply step (`reply_text`).
- `release_reader` -- where the release recognises a tag (and the malformed leading prefix).
- `release_whitespace` -- the release's whitespace normalisation outside code.
- `release_delivery` -- the release's delivery strip.
- `release_result` -- `parse_directives` results under the release profile, explained by `next`.
"""
