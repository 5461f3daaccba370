"""Liar's dice, one package: its rules engine (`engine`), its card (`card`), its rulings in
words (`words`) and its commands (`cli`). Nothing is imported here: a command loads only the
roles it needs (`show --json` no card, so no Rich)."""
