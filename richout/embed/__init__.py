"""Layer 4, embeds: `[embed ... /]` shortcodes become stored canvas blocks (EMBED.md)."""
