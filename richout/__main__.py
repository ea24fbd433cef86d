"""``python -m richout`` is the ``richout`` command."""

from .cli import main

raise SystemExit(main())
