"""Layer 5, media: where a `MEDIA:` line is judged (MEDIA.md).

`split` walks the text and removes directive lines (`split_media`), `payload` cleans a payload
into references and asks the policy about each, `explain` writes the diagnostics.
"""
