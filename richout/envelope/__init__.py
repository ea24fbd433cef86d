"""The envelope module (ENVELOPE.md, SKILL_ENVELOPE.md)."""
