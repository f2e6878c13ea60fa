"""A hosted game takes back every action it offers, in the very form it offers it.

``HostedGame.legal`` lists a seat's actions as ``/act`` writes them; a client sends one back, the
clock stores the bot's as the same object, and every replay of the table reads the stored
answers through ``legal_action`` again.  A form it offered but would not take back stops the
table for good: the clock's answer cannot be settled, nor a replay made.  The nine-terminals
draw was such a form (its object names no actor, as libriichi writes it); found by
tests/ops/test_tables_survive.py, where a bot declared one and its table never moved again.
"""

from __future__ import annotations

import random

from app.core.families.registry import family_of
from app.core.shape.rules import rule_profile
from app.core.table.game import RandomWalls
from app.core.table.hosted import HostedGame

NAMES = ("a", "b", "c", "d")
#: Seeds tried for a first go-round that offers the nine-terminals draw (seed 105 does).
SEEDS = range(400)


def _first_draw_offering_the_nine_terminals_draw() -> tuple[int, HostedGame, int]:
    rules = rule_profile("riichi")
    for seed in SEEDS:
        game = HostedGame(rules, family_of(rules), "kyoku", RandomWalls(random.Random(seed)), names=NAMES)
        for _turn in range(4):  # the declaration is allowed on a seat's first draw only
            if len(game.asked) != 1:
                break
            (seat,) = game.asked
            if any(action["type"] == "ryukyoku" for action in game.legal(seat)):
                return seed, game, seat
            discards = [action for action in game.legal_events(seat) if action.kind == "dahai"]
            if not discards:  # a claim is offered: the go-round is broken
                break
            game.answer({seat: discards[0]})
    raise AssertionError(f"no seed of {SEEDS} offers the nine-terminals draw in its first go-round")


def test_every_offered_action_is_taken_back_the_nine_terminals_draw_among_them() -> None:
    seed, game, seat = _first_draw_offering_the_nine_terminals_draw()
    for offered, event in zip(game.legal(seat), game.legal_events(seat), strict=True):
        assert game.legal_action(seat, offered) == event, offered

    declared = game.legal_action(seat, {"type": "ryukyoku"})
    stored = game.stored_answer({seat: declared})
    answers_before = game.answer_count
    events = game.answer({seat: declared})
    assert [event["type"] for event in events][:1] == ["ryukyoku"]

    # A replay reads the stored answers back through legal_action and deals the same game.
    rules = rule_profile("riichi")
    first = HostedGame(rules, family_of(rules), "kyoku", RandomWalls(random.Random(seed)), names=NAMES)
    replayed = HostedGame.replay(
        rules,
        family_of(rules),
        "kyoku",
        RandomWalls(random.Random(seed)),
        names=NAMES,
        answers=[*_answers_until(first, answers_before), stored],
    )
    assert replayed.events == game.events


def _answers_until(game: HostedGame, count: int) -> list[list[list[object]]]:
    """The first ``count`` answers of the search's go-round: each asked seat's first discard."""
    answers = []
    for _ in range(count):
        (seat,) = game.asked
        chosen = {seat: next(action for action in game.legal_events(seat) if action.kind == "dahai")}
        answers.append(game.stored_answer(chosen))
        game.answer(chosen)
    return answers
