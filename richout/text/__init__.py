"""Layer 1, text facts and edits: nothing here knows a directive.

- `chars` -- what JavaScript says about a string: the whitespace set, trims, UTF-16 lengths,
  line breaks (LF, CRLF, CR per profile), line/column lookup, ASCII folding.
- `patch` -- edit lists over a text: build, apply, compose, invert, map offsets through.
- `quote` -- user text quoted inside a message, cut to a bounded length.
"""
