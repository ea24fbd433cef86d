"""Layer 3, the Markdown code map: where code is, judged by markdown-it-py.

- `engine` -- the only module that calls markdown-it-py: code regions, images, block structure.
- `codemap` -- `CodeMap`: "is this line in a code block, this offset in code?" for one text,
  answered by fast paths, else by a parse computed once (or per piece of a long text).
- `linescan` -- the line scans behind the fast paths: fences, container prefixes, indentation.
- `regions` -- where a long text can be parsed in independent pieces.
- `spans` -- a plain paragraph's code spans from its backtick runs, and what makes that unsafe.
- `links` -- links, images and autolinks that could hold a backtick (one thing that does).
- `quotes` -- the code spans of a block quote's plain paragraph, its markers taken off.
- `reach` -- where inline code could lie in a short text, whatever its blocks turn out to be.
"""
