"""Layer 8, the gateway toolkit: what a chat gateway builds on the views.

- ``blocks``: ``BlockStreamer``, a reply streamed as deliverable blocks.
- ``preview``: the HTML preview of what replies become (``preview_html``, ``read_jsonl``).
- ``preview_sections``: the preview page's sections: summary, highlighted source, both views.
- ``preview_inert``: what keeps the preview inert: escaping untrusted text, the stylesheet.
"""
