"""``python -m richout`` is the ``richout`` command."""

from richout.faces.cli import main

raise SystemExit(main())
