"""Layer 3, the Markdown code map: where code is, judged by markdown-it-py.

`engine` is the only module that calls markdown-it-py; `codemap.CodeMap` answers "is this
offset in code?" from bounded local evidence and parses only when nesting decides.
"""
