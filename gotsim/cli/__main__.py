"""``python -m gotsim.cli``: the ``gotsim`` command."""

from gotsim.cli import main

raise SystemExit(main())
