"""Layer 6, views: what a gateway delivers (`reply`), what WebChat shows (`render`), streaming.

Each view composes the syntax layers' patches; `release` glues profile `release-2026.9.6`'s
own steps into the same results.
"""
