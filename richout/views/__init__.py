"""Layer 6, views: what a gateway delivers, what WebChat shows, and the stream between.

- `reply` -- `parse_reply`, the delivery view (TAGS.md §7): media, reply tags, delivery strip,
  silent rule, `file:` URLs as paths.
- `delivery_strip` -- §7.1: what must never reach a channel, removed last (`delivery_strip`).
- `reply_stages` -- stages 2-4 of the delivery view, their record (`Stages`), the output fields.
- `reply_explain` -- the delivery view's diagnostics, spans and edits (explanations only).
- `render` -- `render_reply`, the WebChat / Control UI view (EMBED.md §9).
- `render_stages` -- the WebChat view's fields and explanation from its three layers.
- `streaming` -- `StreamingParser` (TAGS.md §9): show a reply while it is generated.
- `hold` -- what the stream holds back and the text it was fed (§9.2).
- `release` -- `parse_reply` under profile `release-2026.9.6`, from the release's reply step.
"""
