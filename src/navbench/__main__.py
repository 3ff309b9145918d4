"""``python -m navbench`` — same as the ``navbench`` command."""

from navbench.cli import main

main()
