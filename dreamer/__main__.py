"""``python -m dreamer``: the command line."""

from dreamer.cli import main

if __name__ == "__main__":
    main()
