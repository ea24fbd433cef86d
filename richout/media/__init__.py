"""Layer 5, media: where a `MEDIA:` line is judged (MEDIA.md).

- `split`: `split_media` and `split_for_views`, the public entries (argument checks).
- `pipeline`: the §3 pipeline joining the stages below, and the explanation over the input.
- `fused`: the common reply (plain directive lines, LF breaks) split in one pass.
- `walk`: the §3 step 4 line walk that finds directive and image lines and decides each.
- `lines`: the records the walk fills (`Walk`, `DirectiveLine`, …) and §5 rule 1.
- `segments`: the text the walk leaves, its removal patch, and the §12 segments.
- `tagpass`: the audio-tag pass over the walked text, and when it can be skipped.
- `cleaning`: a payload's §6.1-§6.3 readings (clean, unwrap, quoted list) as bounds.
- `regroup`: §6.6, whitespace tokens merged into parts, and what that asks of a token.
- `payload`: `analyse_payload`, a payload's parts judged by the memoising §7 `Judge`.
- `judge`: `Judge`, the §7 verdicts for one reply and the payloads read again, memoised.
- `results`: the records a payload's reading yields (`Item`, `PayloadResult`).
- `fates`: §6.7, the fate of each part (accepted, counted, left, dropped).
- `explain`: the §17 diagnostics entry points (`fast_path`, `explain`, policy refusals).
- `explain_lines`: §17.1, lines holding `MEDIA:` that are not directives, and why.
- `explain_directives`: §17.2-§17.3, rejected parts and warnings per accepted reference.
- `explain_structure`: §17.4-§17.5, Markdown changed around honoured lines; images left.
"""
