"""``python -m backgammon.cli``: the same as the ``backgammon`` console script."""

from . import main

raise SystemExit(main())
