"""``POST /referee`` and ``POST /act``: mjai events in, verdicts and actions out.

The events are documented here, one model per mjai event type, so that the OpenAPI
document shows each type's fields; they are not validated here.  The core's reader
(:func:`app.core.table.mjai.read_event`) is the one judge of an event's form, so that
every malformed event is refused in one way, at ``events[index]`` and its field, as the
contract asks (pydantic would refuse some with its own codes and let others through).

Data flows one way: JSON -> :class:`RefereeRequest` / :class:`ActRequest` (events as
sent, rules as a profile) -> :func:`app.core.table.referee.judge` /
:func:`app.core.table.decide.act` -> :class:`RefereeResponse` / :class:`ActResponse`.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from fastapi.openapi.models import Example
from pydantic import BaseModel, ConfigDict, Field, RootModel, SkipValidation
from pydantic.config import JsonDict

from app.api.schemas.common import Rules
from app.core.advice.reads import OpponentRead
from app.core.families.registry import TABLES
from app.core.table.decide import ActAnswer
from app.core.table.flow import GameLength
from app.core.table.mjai import MJAI_NAMES, tile_name
from app.core.table.referee import HandReport, Problem, Report

# --- the events ----------------------------------------------------------------------

_TILE_DOC: Final = (
    "An mjai tile: 1m-9m, 1p-9p, 1s-9s, E S W N (winds), P F C (white, green, red dragon), "
    "5mr 5pr 5sr (red fives), ? (a tile the seat cannot see); tenpai's extension for MCR: the flowers H1-H8."
)


class MjaiTile(RootModel[str]):
    # One component for every tile field of the events: the 38 names are listed once.
    model_config = ConfigDict(json_schema_extra={"description": _TILE_DOC, "enum": list(MJAI_NAMES)})


Seat = Annotated[int, Field(ge=0, le=3, description="A seat, 0..3 (sanma: 0..2); seat 0 sits first.")]
_OWN_DELTAS: Final = (
    "Optional: the points each seat gains (negative: pays) by this event, as the log records them; "
    "the referee compares them with the rules' own (problem `deltas_differ`)."
)


class _Event(BaseModel):
    # Logs carry fields of their own (names, ids, scores after the event): the reader ignores them.
    model_config = ConfigDict(extra="allow")


class MjaiStartGame(_Event):
    """The game begins."""

    type: Literal["start_game"]
    names: list[str] | None = Field(None, description="Optional: the players' names, by seat.")


class MjaiStartKyoku(_Event):
    """A hand begins: the round, the dealer, the scores and every seat's 13 dealt tiles."""

    type: Literal["start_kyoku"]
    bakaze: MjaiTile = Field(description="The round wind: E, S, W or N.")
    kyoku: int = Field(ge=1, le=4, description="The hand's number within the round, 1..4.")
    honba: int = Field(ge=0, description="Honba counters on the table.")
    kyotaku: int = Field(ge=0, description="Riichi sticks left on the table by earlier hands.")
    oya: Seat = Field(description="The dealer's seat.")
    dora_marker: MjaiTile | None = Field(
        None, description="The first dora indicator (riichi and sanma; the Chinese rules show none)."
    )
    scores: list[int] = Field(min_length=3, max_length=4, description="Each seat's points as the hand begins.")
    tehais: list[list[MjaiTile]] = Field(
        min_length=3,
        max_length=4,
        description="Each seat's 13 dealt tiles (`?` for a hand the seat cannot see; /act hides them anyway).",
    )
    flowers: list[list[MjaiTile]] | None = Field(
        None,
        description="tenpai's extension for MCR: per seat, the flowers (H1-H8) set aside while dealing, already "
        "replaced in `tehais`.",
    )
    wildcards: list[MjaiTile] | None = Field(
        None, description='tenpai\'s extension for Qiqihar: the tiles that stand for any tile this hand (`["C"]`).'
    )


class MjaiTsumo(_Event):
    """A seat draws (a replacement draw after a kan or a kita too)."""

    type: Literal["tsumo"]
    actor: Seat
    pai: MjaiTile


class MjaiDahai(_Event):
    """A seat discards."""

    type: Literal["dahai"]
    actor: Seat
    pai: MjaiTile
    tsumogiri: bool = Field(False, description="The tile just drawn is the one thrown.")


class MjaiChi(_Event):
    """A seat calls the previous seat's discard into a run (not in sanma)."""

    type: Literal["chi"]
    actor: Seat
    target: Seat = Field(description="Whose discard is called.")
    pai: MjaiTile = Field(description="The discard called.")
    consumed: list[MjaiTile] = Field(min_length=2, max_length=2, description="The two tiles from the hand.")


class MjaiPon(_Event):
    """A seat calls a discard into a triplet."""

    type: Literal["pon"]
    actor: Seat
    target: Seat = Field(description="Whose discard is called.")
    pai: MjaiTile = Field(description="The discard called.")
    consumed: list[MjaiTile] = Field(min_length=2, max_length=2, description="The two tiles from the hand.")


class MjaiDaiminkan(_Event):
    """A seat calls a discard into a kan (then its replacement `tsumo`, then the `dora`)."""

    type: Literal["daiminkan"]
    actor: Seat
    target: Seat = Field(description="Whose discard is called.")
    pai: MjaiTile = Field(description="The discard called.")
    consumed: list[MjaiTile] = Field(min_length=3, max_length=3, description="The three tiles from the hand.")


class MjaiKakan(_Event):
    """A seat adds a tile to its pon (then its replacement `tsumo`, then the `dora`)."""

    type: Literal["kakan"]
    actor: Seat
    pai: MjaiTile = Field(description="The tile added.")
    consumed: list[MjaiTile] = Field(min_length=3, max_length=3, description="The pon's three tiles.")


class MjaiAnkan(_Event):
    """A seat declares a closed kan (then the `dora`, then its replacement `tsumo`)."""

    type: Literal["ankan"]
    actor: Seat
    consumed: list[MjaiTile] = Field(min_length=4, max_length=4, description="The four tiles.")


class MjaiDora(_Event):
    """A new dora indicator, after a kan."""

    type: Literal["dora"]
    dora_marker: MjaiTile


class MjaiReach(_Event):
    """A seat declares riichi; its declaring `dahai` follows."""

    type: Literal["reach"]
    actor: Seat


class MjaiReachAccepted(_Event):
    """The riichi stick goes down: the declaring discard was not won on."""

    type: Literal["reach_accepted"]
    actor: Seat


class MjaiHora(_Event):
    """A seat wins (two `hora` on one discard: a double ron)."""

    type: Literal["hora"]
    actor: Seat
    target: Seat | None = Field(None, description="Who dealt in; the winner itself (or absent) on a self-draw.")
    pai: MjaiTile | None = Field(None, description="Optional: the winning tile.")
    deltas: list[int] | None = Field(None, description=_OWN_DELTAS)
    ura_markers: list[MjaiTile] | None = Field(None, description="The ura dora indicators, for a winner in riichi.")


class MjaiRyukyoku(_Event):
    """The hand ends in a draw: exhaustive, or abortive (nine terminals, four winds, four riichi,
    four kans, triple ron), told from the events before it."""

    type: Literal["ryukyoku"]
    deltas: list[int] | None = Field(None, description=_OWN_DELTAS)


class MjaiEndKyoku(_Event):
    """The hand is over."""

    type: Literal["end_kyoku"]


class MjaiEndGame(_Event):
    """The game is over."""

    type: Literal["end_game"]


class MjaiKita(_Event):
    """Sanma's extension event (as riichienv writes it): a seat sets a north aside as a dora of its own;
    its replacement `tsumo` follows."""

    type: Literal["kita"]
    actor: Seat
    pai: Literal["N"] = Field(description="Always N.")


class MjaiFlower(_Event):
    """tenpai's extension event for MCR: a seat sets a drawn flower aside (a fan of its own); its replacement
    `tsumo` follows, as after a kan."""

    type: Literal["flower"]
    actor: Seat
    pai: MjaiTile = Field(description="The flower, H1-H8.")


class MjaiExchangeOut(_Event):
    """tenpai's extension event for Sichuan (换三张, under the option `exchange_three`): after `start_kyoku`,
    every seat passes three tiles of one suit it holds."""

    type: Literal["exchange_out"]
    actor: Seat
    pais: list[MjaiTile] = Field(
        min_length=3, max_length=3, description="The three tiles passed, of one suit (`?` for another seat's)."
    )


class MjaiExchangeIn(_Event):
    """tenpai's extension event for Sichuan: `actor` receives the three tiles `target` passed. The direction is
    drawn at random per hand: every `exchange_in` of a hand has the same offset from `actor` to `target`."""

    type: Literal["exchange_in"]
    actor: Seat
    target: Seat = Field(description="Whose three tiles the seat receives.")
    pais: list[MjaiTile] = Field(min_length=3, max_length=3, description="The three tiles received.")


class MjaiVoidSuit(_Event):
    """tenpai's extension event for Sichuan (定缺): each seat declares the suit it will throw out, after the
    exchange and before the dealer's first `tsumo`. While it holds a tile of that suit it discards one of them;
    it never calls one, and cannot win holding one."""

    type: Literal["void_suit"]
    actor: Seat
    suit: Literal["m", "p", "s"] = Field(description="The void suit: m (characters), p (dots) or s (bamboo).")


MjaiEvent = Annotated[
    MjaiStartGame
    | MjaiStartKyoku
    | MjaiTsumo
    | MjaiDahai
    | MjaiChi
    | MjaiPon
    | MjaiDaiminkan
    | MjaiKakan
    | MjaiAnkan
    | MjaiDora
    | MjaiReach
    | MjaiReachAccepted
    | MjaiHora
    | MjaiRyukyoku
    | MjaiEndKyoku
    | MjaiEndGame
    | MjaiKita
    | MjaiFlower
    | MjaiExchangeOut
    | MjaiExchangeIn
    | MjaiVoidSuit,
    Field(discriminator="type"),
]
"""One mjai event, as documented; requests keep the object as sent (``SkipValidation``)."""

_EVENTS_DOC: Final = (
    "The game's mjai events, in order, one JSON object each (the protocol of Mortal's libriichi, "
    "mjai.app, riichienv and akochan). Each is read by the service itself: an event that is not mjai is a "
    "422 `malformed_event` at `events[index]` and its field. Around kans, as Tenhou and libriichi write "
    "them: `ankan`, `dora`, then the replacement `tsumo`; `daiminkan` or `kakan`, the replacement `tsumo`, "
    "then `dora` before the next `dahai`. Sanma logs have three-element `scores`, `tehais` and `deltas`, and "
    "the extension event `kita`; the Chinese rules show no dora, MCR sets flowers aside (`flower`, and "
    "`start_kyoku.flowers`), Qiqihar names its wildcards (`start_kyoku.wildcards`); Sichuan passes three tiles "
    "(`exchange_out`, `exchange_in`), declares void suits (`void_suit`) and plays on after a win: each `hora`'s "
    "`deltas` are that win's payment with the kong payments made since the last logged event, and the "
    "`ryukyoku`'s the draw's settlement (docs/table.md). At most TENPAI_MAX_EVENTS (GET /limits); more: 422 `too_many_events`."
)
_RULES_DOC: Final = (
    f"The table's rules: {', '.join(TABLES)} (a preset name, or {{preset, ...overrides}}; see GET /rules). "
    "riichi and sanma play by Tenhou's rules; chinese, mcr, qiqihar and sichuan one hand at a time (docs/table.md)."
)
# SkipValidation: the list is checked to be a list, its items are the core's to read.
_Events = list[SkipValidation[MjaiEvent]]

# --- examples: one short hand, four seats and three, that the service answers -----------

_DEALT: Final = [
    ["1m", "1m", "4m", "7m", "1p", "4p", "7p", "2s", "5s", "8s", "E", "S", "N"],
    ["2m", "3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s", "P", "P", "P", "9s"],
    ["1s", "1s", "2p", "3p", "6m", "8m", "9m", "W", "W", "F", "C", "C", "6s"],
    ["2m", "5m", "6m", "8p", "9p", "9p", "3p", "6s", "7s", "7s", "F", "S", "E"],
]
#: A one-hand game: the dealer throws the 9s it drew, and seat 1 wins on it (haku, 40 fu: 1300).
ONE_HAND: Final[list[dict[str, Any]]] = [
    {"type": "start_game", "names": ["A", "B", "C", "D"]},
    {
        "type": "start_kyoku",
        "bakaze": "E",
        "dora_marker": "W",
        "kyoku": 1,
        "honba": 0,
        "kyotaku": 0,
        "oya": 0,
        "scores": [25000, 25000, 25000, 25000],
        "tehais": _DEALT,
    },
    {"type": "tsumo", "actor": 0, "pai": "9s"},
    {"type": "dahai", "actor": 0, "pai": "9s", "tsumogiri": True},
    {"type": "hora", "actor": 1, "target": 0, "pai": "9s", "deltas": [-1300, 1300, 0, 0], "ura_markers": []},
    {"type": "end_kyoku"},
]
_SANMA_DEALT: Final = [
    ["1m", "1m", "2p", "4p", "6p", "8p", "2s", "3s", "7s", "8s", "E", "S", "N"],
    ["1p", "2p", "3p", "4s", "5s", "6s", "7p", "8p", "9p", "P", "P", "P", "9m"],
    ["1s", "1s", "9s", "9s", "3p", "3p", "5s", "6s", "E", "E", "W", "F", "C"],
]
#: A one-hand sanma game: the dealer sets a north aside (kita), draws its replacement, throws it,
#: and seat 1 wins on it.
SANMA_ONE_HAND: Final[list[dict[str, Any]]] = [
    {"type": "start_game", "names": ["A", "B", "C"]},
    {
        "type": "start_kyoku",
        "bakaze": "E",
        "dora_marker": "S",
        "kyoku": 1,
        "honba": 0,
        "kyotaku": 0,
        "oya": 0,
        "scores": [35000, 35000, 35000],
        "tehais": _SANMA_DEALT,
    },
    {"type": "tsumo", "actor": 0, "pai": "W"},
    {"type": "kita", "actor": 0, "pai": "N"},
    {"type": "tsumo", "actor": 0, "pai": "9m"},
    {"type": "dahai", "actor": 0, "pai": "9m", "tsumogiri": True},
    {"type": "hora", "actor": 1, "target": 0, "pai": "9m", "deltas": [-1300, 1300, 0], "ura_markers": []},
    {"type": "end_kyoku"},
]
_WRONG_DELTAS: Final = [*ONE_HAND[:4], {**ONE_HAND[4], "deltas": [-1000, 1000, 0, 0]}, ONE_HAND[5]]

REFEREE_EXAMPLES: Final[dict[str, Any]] = {
    "one_hand": Example(summary="a one-hand game: a ron for 1300", value={"events": ONE_HAND, "rules": "riichi"}),
    "wrong_deltas": Example(
        summary="the same hand logged with the wrong payment: deltas_differ at the hora",
        value={"events": _WRONG_DELTAS, "rules": "riichi"},
    ),
    "sanma": Example(
        summary="sanma: a kita, its replacement draw, a ron", value={"events": SANMA_ONE_HAND, "rules": "sanma"}
    ),
}
ACT_EXAMPLES: Final[dict[str, Any]] = {
    "ron": Example(
        summary="seat 1 may win on the dealer's discard", value={"seat": 1, "events": ONE_HAND[:4], "rules": "riichi"}
    ),
    "draw": Example(
        summary="the dealer after its draw: every discard, ranked",
        value={"seat": 0, "events": ONE_HAND[:3], "rules": "riichi"},
    ),
    "sanma_kita": Example(
        summary="sanma: the dealer holds a north, and may set it aside",
        value={"seat": 0, "events": SANMA_ONE_HAND[:3], "rules": "sanma"},
    ),
}

# --- requests --------------------------------------------------------------------------


class RefereeRequest(BaseModel):
    """A whole game (or its first hands) as mjai events, and the rules it was played under."""

    model_config = ConfigDict(extra="forbid")

    events: _Events = Field(description=_EVENTS_DOC)
    rules: Rules = Field("riichi", validate_default=True, description=_RULES_DOC, examples=["riichi", "sanma"])
    length: GameLength | None = Field(
        None,
        description="The game's length: kyoku (one hand), tonpuu (the East round) or hanchan (East and South). "
        "Given, the referee also says where the game must end (`game_not_over` at an early `end_game`, "
        "`game_over` at a hand after the end); null, it checks that each hand follows from the last but not "
        "where the game ends. The Chinese rules play kyoku only.",
    )


class ActRequest(BaseModel):
    """A seat, and the game up to the point where it may act."""

    model_config = ConfigDict(extra="forbid")

    seat: int = Field(
        ge=0,
        le=3,
        strict=True,
        description="The seat to advise, 0..3 (sanma: 0..2; seat 3 there is a 422 `not_a_decision_point`).",
    )
    events: _Events = Field(
        description=_EVENTS_DOC + " The events end where `seat` may act, and not past it: its `tsumo`, its own "
        "`chi` or `pon` (it must discard), the echo of its own `reach` (the `dora` or `reach_accepted` that would "
        "follow comes later), or another seat's `dahai`, `kakan` or `ankan` it may claim; any other last event "
        "is a 422 `not_a_decision_point`. Tiles the seat cannot see may be `?` or shown: the answer depends only "
        "on what the seat sees. An event the table does not allow is a 422 `illegal_event` at its index."
    )
    rules: Rules = Field("riichi", validate_default=True, description=_RULES_DOC, examples=["riichi", "sanma"])


# --- answers ---------------------------------------------------------------------------

_PROBLEM_TYPES: Final = (
    "out_of_turn, tile_not_held, illegal_action (an action the seat is not offered), kuikae, furiten, "
    "not_a_win, not_ready (riichi), missing_dora, unexpected_event, too_many_copies, wall_exhausted, "
    "deltas_differ, desynchronised (after a problem the log cannot be followed to the next start_kyoku)"
)


class ProblemOut(BaseModel):
    """One event a Tenhou-rules table would not allow, or whose logged figures differ from the rules'."""

    index: int = Field(description="The event's index in `events`.")
    type: str = Field(description=f"A stable code: {_PROBLEM_TYPES}.")
    msg: str = Field(description="What is wrong, for a person.")

    @classmethod
    def of(cls, problem: Problem) -> ProblemOut:
        return cls(index=problem.index, type=problem.type, msg=problem.msg)


class HandOut(BaseModel):
    """One hand: its round, how it ended, the rules' deltas beside the log's."""

    kyoku: int = Field(description="The hand's number within its round, 1..4.")
    bakaze: str = Field(description="The round wind, E S W or N.")
    honba: int
    result: Literal["hora", "ryukyoku"] = Field(description="A win (one or more `hora`) or a draw.")
    deltas: list[int] = Field(
        description="The service's own points per seat for the whole hand: every win of a double ron, honba, "
        "riichi sticks, noten payments, nagashi mangan and liability (pao) included."
    )
    logged_deltas: list[int] | None = Field(
        description="The sum of the `deltas` the log's `hora` and `ryukyoku` events carry; null when they carry none."
    )

    @classmethod
    def of(cls, hand: HandReport) -> HandOut:
        return cls(
            kyoku=hand.kyoku,
            bakaze=tile_name(hand.bakaze),
            honba=hand.honba,
            result="hora" if hand.result == "hora" else "ryukyoku",
            deltas=list(hand.deltas),
            logged_deltas=None if hand.logged_deltas is None else list(hand.logged_deltas),
        )


_REFEREE_ANSWER_EXAMPLE: Final[JsonDict] = {
    "valid": False,
    "problems": [
        {"index": 4, "type": "deltas_differ", "msg": "the log's deltas [-1000, 1000, 0, 0] differ from the rules' "
         "[-1300, 1300, 0, 0]"},
    ],
    "hands": [
        {"kyoku": 1, "bakaze": "E", "honba": 0, "result": "hora", "deltas": [-1300, 1300, 0, 0],
         "logged_deltas": [-1000, 1000, 0, 0]},
    ],
    "scores": [24000, 26000, 25000, 25000],
}  # fmt: skip


class RefereeResponse(BaseModel):
    """Is the log a legal game, and what does each hand pay?"""

    model_config = ConfigDict(json_schema_extra={"examples": [_REFEREE_ANSWER_EXAMPLE]})

    valid: bool = Field(description="No problem found.")
    problems: list[ProblemOut] = Field(description="Every problem, at its event's index, in the order found.")
    hands: list[HandOut] = Field(description="One entry per hand (kyoku) played, in order.")
    scores: list[int] = Field(
        description="Each seat's points after the last event, as the table follows the log: each hand's logged "
        "deltas where the log carries them (so that the next `start_kyoku` is checked against the log), the "
        "rules' own where it does not; once the last hand has ended, the riichi sticks left on the table go to "
        "the leader, as Tenhou gives them."
    )

    @classmethod
    def of(cls, report: Report) -> RefereeResponse:
        return cls(
            valid=report.valid,
            problems=[ProblemOut.of(problem) for problem in report.problems],
            hands=[HandOut.of(hand) for hand in report.hands],
            scores=list(report.scores),
        )


_ACTION_DOC: Final = (
    "An mjai action object: `none` (pass, or nothing to do), `dahai {actor, pai, tsumogiri}`, `reach`, "
    "`chi` / `pon` / `daiminkan {actor, target, pai, consumed}`, `kakan {actor, pai, consumed}`, "
    "`ankan {actor, consumed}`, `hora {actor, target, pai}` (`target` = the seat itself on a self-draw), "
    "`ryukyoku` (nine terminals), sanma's `kita {actor, pai}`, MCR's `flower {actor, pai}`."
)
_HORA_ACTION: Final[JsonDict] = {"type": "hora", "actor": 1, "target": 0, "pai": "9s"}


class RankedAction(BaseModel):
    """A legal action, with the value the service gives it and why."""

    action: dict[str, Any] = Field(description=_ACTION_DOC, examples=[_HORA_ACTION])
    value: float | None = Field(
        description="The action's value: the points of a win, a discard's expected score or linear score (the "
        "/discard models); null where the service gives no figure (a call, a pass)."
    )
    reasons: list[str] = Field(description="Why, in words.")
    placement: float | None = Field(
        None,
        description="The action's value in expected placement points at the game's end (the table's uma, "
        "Tenhou's [90, 45, 0, -135] by default; docs/table.md): a win's from the scores after it (its place when "
        "the game ends with it), a discard's from the outcomes its value in points sums (its wins, its deal-ins; "
        "the rest of the hand moving no score), a call's and passing's from the line's chance of winning and its "
        "points (comparable with each other, not with a discard's), riichi's and a kan's from the discard each is weighed against (riichi: the same tile "
        "thrown dama; a kan: the best discard), moved by what its line adds over that discard's. Null where the "
        "table plays for no placement (rules other than riichi and sanma) or the action has no such figure (a far "
        "discard ranked by the linear score, riichi with another discard than the service's, a call, pass or kan "
        "the search did not value).",
    )


#: Each held kind's deal-in chance against a seat silent at the first turns (17 turns left in the
#: wall: 2 of 41,903 silent closed hands were ready, mjai-manue's published count).
_HELD_DEAL_IN_FIRST_TURN: Final[JsonDict] = {
    "2m": 0.000002,
    "3m": 0.000003,
    "4m": 0.000003,
    "5p": 0.000003,
    "6p": 0.000003,
    "7p": 0.000003,
    "3s": 0.000003,
    "4s": 0.000003,
    "5s": 0.000003,
    "9s": 0.0,
    "P": 0.0,
}
_ACT_ANSWER_EXAMPLE: Final[JsonDict] = {
    "action": _HORA_ACTION,
    "legal": [_HORA_ACTION, {"type": "none"}],
    "ranked": [
        # East 1, all even: 1,300 with a game ahead is worth 7 placement points (the rank model).
        {"action": _HORA_ACTION, "value": 1300.0, "reasons": ["a win is taken"], "placement": 7.061164},
        {"action": {"type": "none"}, "value": None, "reasons": ["pass"]},
    ],
    "complete": True,
    # Seat 1 reads the three others at the first turn, each as a silent closed hand with 17 turns
    # left in the wall; the dealer discarded the 9s, so it cannot deal into the dealer (furiten),
    # nor into seats 2 and 3, whose turn to win on it came before any discard of seat 1's.
    "opponents": [
        {"seat": 0, "tenpai": 0.000048, "deal_in": _HELD_DEAL_IN_FIRST_TURN},
        {"seat": 2, "tenpai": 0.000048, "deal_in": _HELD_DEAL_IN_FIRST_TURN},
        {"seat": 3, "tenpai": 0.000048, "deal_in": _HELD_DEAL_IN_FIRST_TURN},
    ],
}


#: Reads are probabilities; six decimals is far finer than the model can tell apart.
_READ_DIGITS: Final = 6


class OpponentReadOut(BaseModel):
    """Another seat as the asking seat reads it, from what it can see."""

    seat: Seat
    tenpai: float = Field(
        ge=0.0,
        le=1.0,
        description="The chance that the seat is ready now: 1 after its riichi; a closed seat's, the published "
        "tenpai rate by the turns left in the wall (of hands that have not declared); an open seat's, a read "
        "fitted on self-play over the published rate by its calls and discards, its turn, its latest discards "
        "and its melds (docs/table.md).",
    )
    deal_in: dict[str, float] = Field(
        description="For each kind of tile the asking seat holds (mjai names, red fives as plain fives), the "
        "chance that discarding it now deals into this seat: `tenpai` times the tile's danger if the seat is "
        "ready (0 for a tile in its river, under furiten).",
        examples=[{"5m": 0.042, "E": 0.0}],
    )

    @classmethod
    def of(cls, read: OpponentRead) -> OpponentReadOut:
        return cls(
            seat=read.seat,
            tenpai=round(read.tenpai, _READ_DIGITS),
            deal_in={tile_name(kind): round(chance, _READ_DIGITS) for kind, chance in read.deal_in},
        )


class ActResponse(BaseModel):
    """What the seat may do now, and what the service would do."""

    model_config = ConfigDict(json_schema_extra={"examples": [_ACT_ANSWER_EXAMPLE]})

    action: dict[str, Any] = Field(description="The service's pick, one of `legal`. " + _ACTION_DOC)
    legal: list[dict[str, Any]] = Field(
        description="Every action the rules allow the seat now, each once: each distinct `pai` and `tsumogiri` "
        "of a discard (throwing the drawn tile is `tsumogiri: true`, another copy of it `false`), each distinct "
        "`consumed` of a call (a red five makes a distinct choice); `none` alone after a discard the seat may not "
        "claim."
    )
    ranked: list[RankedAction] = Field(description="The legal actions best first, `action` first.")
    complete: bool = Field(
        True,
        description="False when the time budget (TENPAI_HEAVY_SECONDS) ran out while the discards were valued: "
        "the ranking is then what the search had found (sent with `Cache-Control: no-store`).",
    )
    opponents: list[OpponentReadOut] = Field(
        [],
        description="The other seats, in seat order, as this seat reads them (riichi and sanma; `[]` under other "
        "rules): each one's chance of being ready and each held kind's chance of dealing into it now.",
    )

    @classmethod
    def of(cls, answer: ActAnswer, *, complete: bool) -> ActResponse:
        return cls(
            action=answer.action,
            legal=answer.legal,
            ranked=[
                RankedAction(action=action, value=value, reasons=list(reasons), placement=placement)
                for action, value, reasons, placement in answer.ranked
            ],
            complete=complete,
            opponents=[OpponentReadOut.of(read) for read in answer.opponents],
        )
