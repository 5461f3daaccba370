"""`python -m referee` runs the command line (through the front door, as the `referee` script)."""

from referee.answers import main

main()
