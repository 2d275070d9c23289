"""``python -m fastnoise``: the ``fastnoise`` command line (see fastnoise.cli)."""

from fastnoise.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
