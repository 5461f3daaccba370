"""`referee new kalooki`, the referee tools that need no session, and the shell's prompt and
words of `referee kalooki ...` (alias `kal`); the actions are declared on their events
(`games.kalooki.engine`).

The tools answer in one short line a person can read out at the table; `--json` gives the
document. Exit 0 means legal / yes, 1 illegal / no, 2 bad input. In the shell of a Kalooki
session they use the session's ruleset unless --ruleset says otherwise.
"""

from __future__ import annotations

from typing import Annotated

import typer

from referee import storage
from referee.cli import output
from referee.cli.common import (
    JsonOpt,
    ShellPlugin,
    workspace,
)
from referee.errors import UsageError
from referee.games.kalooki import engine as kg
from referee.games.kalooki import melds as k
from referee.games.kalooki.cards import parse_cards, show
from referee.session import Session

app = typer.Typer(
    help="Kalooki referee tools (alias: kal): check a meld or a lay-down, score, solve.",
    no_args_is_help=True,
)

RulesetOpt = Annotated[
    str | None,
    typer.Option(
        metavar="RULESET", help="Bundled ruleset NAME, or PATH to yours.", show_default=False
    ),
]
# One name a value, as the actions' (`fix ROUND PLAYER CARDS`) and the help text say it.
Cards = Annotated[
    list[str], typer.Argument(metavar="CARDS", help="Cards like 10H QS AC JK, spaces or commas.")
]
RoundArg = Annotated[int, typer.Argument(metavar="ROUND", help="The round, 1 to 9.")]


def _rules(ctx: typer.Context, ref: str | None) -> k.Rules:
    known = workspace(ctx).known
    if ref is None and known is not None and known.session.game == "kalooki":
        rules: k.Rules = known.state.rules  # in a Kalooki session's shell: its own rules
        return rules
    ref = ref or "kalooki"
    table = storage.load_ruleset(ref)
    if table.get("game") != "kalooki":
        raise UsageError(f"ruleset {ref!r} is for {table.get('game')}, not kalooki")
    return k.Rules.from_table(table, f"ruleset {table.get('name')}")


def _meld_doc(meld: k.Meld) -> dict[str, object]:
    return {
        "legal": meld.legal,
        "kind": meld.kind.value if meld.kind else None,
        "reading": [str(c) for c in meld.reading] if meld.legal else [],
        "stands_for": [str(c) for c in meld.stands_for],
        "reason": meld.reason or None,
    }


def _verdict(ok: bool) -> None:
    if not ok:
        raise typer.Exit(1)


# ---------------------------------------------------------------------------- the game's sheet


# ---------------------------------------------------------------------------- the tools


@app.command()
def check(
    ctx: typer.Context, cards: Cards, ruleset: RulesetOpt = None, json_out: JsonOpt = False
) -> None:
    """Is this meld legal?

    Says three, or four with each joker's place, or why not.
    """
    rules = _rules(ctx, ruleset)
    meld = k.check_meld(rules.check_cards(parse_cards(*cards), "meld"), rules)
    if json_out:
        output.print_json(_meld_doc(meld))
    else:
        output.print_wrapped(str(meld))
    _verdict(meld.legal)


@app.command()
def contract(
    ctx: typer.Context,
    round_number: RoundArg,
    melds: Annotated[
        list[str],
        typer.Argument(metavar="MELDS", help="Melds separated by /: 5H 5D JK / 7S 8S 9S 10S"),
    ],
    ruleset: RulesetOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Make the contract?

    Checks a lay-down against round ROUND's contract.
    """
    rules = _rules(ctx, ruleset)
    wanted = rules.contract(round_number)
    laid = k.parse_lay_down(melds)
    rules.check_cards([c for meld in laid for c in meld], "lay-down")
    result = k.check_contract(round_number, laid, rules)
    if json_out:
        output.print_json(
            {
                "legal": result.legal,
                "reason": result.reason or None,
                "contract": wanted.code,
                "melds": [_meld_doc(m) for m in result.melds],
            }
        )
    else:
        head = f"round {round_number} ({wanted.code}): "
        lines = [head + ("makes the contract" if result.legal else f"no: {result.reason}")]
        if result.legal:
            lines += [f"  {m}" for m in result.melds]
        output.print_wrapped("\n".join(lines))
    _verdict(result.legal)


@app.command()
def score(
    ctx: typer.Context, cards: Cards, ruleset: RulesetOpt = None, json_out: JsonOpt = False
) -> None:
    """Score a hand.

    The penalty of the cards left in hand, card by card.
    """
    hand = _rules(ctx, ruleset).check_cards(parse_cards(*cards))
    points = [k.penalty(c) for c in hand]
    if json_out:
        output.print_json(
            {
                "points": sum(points),
                "cards": [{"card": str(c), "points": p} for c, p in zip(hand, points, strict=True)],
            }
        )
        return
    detail = " + ".join(f"{c} {p}" for c, p in zip(hand, points, strict=True))
    output.print_wrapped(f"{sum(points)} points: {detail}" if hand else "0 points: no cards")


@app.command()
def solve(
    ctx: typer.Context,
    round_number: RoundArg,
    cards: Cards,
    ruleset: RulesetOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Can this hand make it?

    Finds the lay-down of round ROUND's contract that leaves the fewest points in hand.
    """
    rules = _rules(ctx, ruleset)
    wanted = rules.contract(round_number)
    hand = rules.check_cards(parse_cards(*cards), "hand to solve", rules.max_lay_down_hand)
    found = k.solve(round_number, hand, rules)
    if json_out:
        output.print_json(
            {
                "possible": found.possible,
                "contract": wanted.code,
                "melds": [[str(c) for c in m.reading] for m in found.melds],
                "left": [str(c) for c in found.left],
                "left_points": found.left_points,
            }
        )
    elif found.possible:
        lines = [f"round {round_number} ({wanted.code}): yes"]
        lines += [f"  {show(m.reading)}" for m in found.melds]
        lines.append(f"left: {show(found.left) or 'nothing'} ({found.left_points} points)")
        output.print_wrapped("\n".join(lines))
    else:
        output.print_text(f"round {round_number} ({wanted.code}): no, it cannot make it")
    _verdict(found.possible)


@app.command()
def contracts(ctx: typer.Context, ruleset: RulesetOpt = None, json_out: JsonOpt = False) -> None:
    """The round-contract sheet.

    Each round's contract in words and as 333/334/..., and the cards dealt.
    """
    rules = _rules(ctx, ruleset)
    rows = []
    for number, dealt in enumerate(rules.deal_sizes, start=1):
        c = rules.contract(number)
        rows.append({"round": number, "contract": c.code, "words": c.words(), "dealt": dealt})
    if json_out:
        output.print_json(rows)
        return
    lines = ["rnd contract             code  dealt"]
    lines += [f"{r['round']:>3} {r['words']:<20} {r['contract']:<5} {r['dealt']:>5}" for r in rows]
    output.print_text("\n".join(lines))


# ---------------------------------------------------------------------------- the shell


def shell_prompt(state: kg.State) -> str:
    """The round, its contract and the dealer: `R2 334 Bob deals`."""
    if state.is_over:
        return " and ".join(state.winners) + " won"
    code = state.rules.contract(state.round).code
    prompt = f"R{state.round} {code} {state.name(state.dealer)} deals"
    return prompt + " (hands)" if state.phase is kg.Phase.SCORING else prompt


def _players(session: Session, state: kg.State) -> list[str]:
    return [n for s in state.seats for n in (s.name, s.nickname) if n]


CARD_NAMES = [f"{r}{s}" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K") for s in "SHDC"]


def _cards(session: Session, state: kg.State) -> list[str]:
    return [*CARD_NAMES, "JK", "/"]


SHELL = ShellPlugin(
    prompt=shell_prompt,
    complete={
        "caller": lambda session, state: [
            s.name for s in state.seats if not s.down and s.is_dealt(state.round)
        ],
        "player": _players,
        "fix.round": lambda session, state: [str(n) for n in range(1, len(state.played) + 1)],
        "hand.player": lambda session, state: [
            s.name
            for i, s in enumerate(state.seats)
            if state.phase is kg.Phase.SCORING
            and s.hand is None
            and i != state.out
            and s.is_dealt(state.round)
        ],
        "by": _players,
        "on": lambda session, state: [str(n) for n in range(1, len(state.table) + 1)],
        "card": _cards,
        "cards": _cards,
        "melds": _cards,
    },
    tools=("check", "contract", "score", "solve", "contracts"),
)
