"""Layer 1, text facts and edits: JavaScript character facts (`chars`) and edit lists (`patch`).

Nothing here knows a directive; every layer above measures and cuts text through these.
"""
