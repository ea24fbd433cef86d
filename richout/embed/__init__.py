"""Layer 4, embeds: `[embed ... /]` shortcodes become stored canvas blocks (EMBED.md).

- `parse` -- the public entry: `extract_embeds` and `embeds_for_delivery_diagnostics`.
- `extract` -- the steps: pre-scan, read, preview, remove; and the removal edits.
- `scan` -- where a shortcode is found: the opener/`]`/`[/embed]` index and the scans of §2.3.
- `attributes` -- an opener's attributes read with the grammar, and the final set (§5).
- `rules` -- what preview a shortcode makes (§6), with JavaScript `Number()`/URI encoding.
- `diagnostics` -- the wording of every `embed.*` diagnostic, including the URL verdict (§11).
"""
