"""Layer 9, faces: how richout meets the outside (commands, protocols, contracts).

- ``cli``: the ``richout`` command and its subcommands' parsers (``parse``, ``render``,
  ``preview``, ``jsonl``, ``schema``, ``conformance``; ``envelope`` from ``envelope_cli``).
- ``console``: what the commands share: ``InputError``, reading a file as UTF-8, printing JSON.
- ``envelope_cli``: ``richout envelope classify | offload | lint``.
- ``jsonl``: the JSON Lines protocol (JSONL.md): one request per line in, one response out.
- ``op``: the shape of a jsonl op (the ``Op`` record), its option check and argument readers.
- ``text_ops``: the text ops (``media``, ``directives``, ``reply``, ``embed``, ``render``).
- ``envelope_ops``: the envelope ops (``payload``, ``refKey``, ``dedupe``, ``commentary``, ...).
- ``ops``: the one registry of every op, read by jsonl, conformance and schema.
- ``conformance_cases``: the ``Case`` record and the reader of case files (bundled or given).
- ``conformance``: the runner: in-process or through a jsonl program; compares responses.
- ``conformance_report``: failures, the run's ``Report`` (JSON, JUnit XML) and ``Progress``.
- ``schema``: the JSON Schema of the public models (``richout schema``).
"""
