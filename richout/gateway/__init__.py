"""Layer 8, the gateway toolkit: `BlockStreamer` (`blocks`) and the HTML preview (`preview`)."""
