"""``python -m webapp.cli``: the same as the ``hidato`` command."""

from . import main

raise SystemExit(main())
