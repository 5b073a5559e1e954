"""`python -m papertui` runs the same entry point as the `papertui` script."""

from papertui.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
