"""Layer 9, faces: the CLI, the jsonl protocol and its op table, conformance, JSON Schema."""
