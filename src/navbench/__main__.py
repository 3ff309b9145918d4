"""``python -m navbench`` — same as the ``navbench`` command."""

from navbench.cli import main

if __name__ == "__main__":  # worker processes re-import this module; they must not run the CLI
    main()
