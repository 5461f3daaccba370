"""Screens and words. Nothing here prints: the CLI owns the console.

Per game (named by the registry in `referee.games`): `referee.render.GAME` draws with Rich
(`card(state, title, width, compact)`, `card_lines(state, width, title)`), and
`referee.render.GAME_words` puts rulings into words without Rich (`words(ruling)`).
`referee.render.common` holds what every game's screens share.
"""
