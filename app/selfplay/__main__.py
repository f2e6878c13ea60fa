"""``python -m app.selfplay``: see :mod:`app.selfplay.cli`."""

from app.selfplay.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
