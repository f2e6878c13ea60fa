"""A rule family as the table machine sees it: the table rules of its presets and the hooks
where families differ.

The machine (:class:`~app.core.table.machine.TableMachine`) keeps what every family shares:
turns, claims and their priority, the wall, conservation, events and fouls.  Where families
part, it asks the :class:`Family` it was built with: the phase before the first draw, the
situation a scorer reads, what a win is worth, which complete hands win, the exhaustive
draw's payments and a play-on table's settlement.  The base class answers as a plain table
does (no dealing steps, the value wing's scorer for the rules, nothing paid at a draw); a
family overrides what its rules change.

Families live in :mod:`app.core.families` (one folder each), the outermost layer: the table
wing never imports them, and whoever builds a machine gets its family from
:mod:`app.core.families.registry` or is handed it.
"""

from __future__ import annotations

import inspect
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final, NamedTuple, Protocol

from app.core.advice.discard import ValueModel
from app.core.errors import InvalidRuleOption
from app.core.shape.hand import Hand
from app.core.shape.rules import OPTIONS_BY_NAME, RuleProfile, rule_profile
from app.core.shape.tiles import COPIES, Tile
from app.core.table.flow import TableRules
from app.core.table.mjai import kind_of
from app.core.table.play_rules import PlayRules
from app.core.table.seats import KongPayment, SeatState, TableMeld, Win
from app.core.value.scoring import REFUSALS, score, win_payments
from app.core.value.scoring_context import WinContext


class DrawSettlementParts(Protocol):
    """A play-on table's exhaustive draw settled rule by rule: each seat's net, all rules summed."""

    @property
    def total(self) -> list[int]: ...


#: The rule-profile fields every family reads: the hand's shape (its forms, wildcards and how they
#: read, the melds a win needs, the tiles absent, chi, furiten) and the seats.  Each family adds its
#: own section (:attr:`Family.own_options`); a preset takes these and its family's, no other family's.
SHARED_OPTIONS: Final = frozenset(
    {
        "seven_pairs",
        "thirteen_orphans",
        "knitted_forms",
        "wildcards",
        "wildcards_in_seven_pairs",
        "wildcards_held_win",
        "win_requires_meld",
        "melded_tiles_count_toward_limit",
        "chi_allowed",
        "furiten",
        "absent_tiles",
        "seats",
    }
)


@dataclass(frozen=True, slots=True)
class AdvisorModel:
    """What the advisor (``/act``, self-play's players) reads of a family's rules."""

    #: A complete hand without a yaku does not win: the advisor values hands by the scorer's yaku.
    needs_yaku: bool = False
    #: The other seats' discards are read for danger (the published riichi tables).
    reads_opponents: bool = False
    #: The flow between hands ranks the seats (a game of several hands): at the game's last hand
    #: a win that leaves the seat last is passed when another would not.
    plays_for_placement: bool = False


class TypedOption(NamedTuple):
    """One field of a family's typed options as a request sees it (``GET /rules`` lists them)."""

    name: str
    #: The default, as plain data (an enum as its value).
    default: Any
    #: ``boolean``, ``integer`` or ``string``.
    type: str
    #: What the field means, and where its default comes from.
    doc: str
    #: The values a string option takes (None: any of its type).
    choices: tuple[str, ...] | None = None
    #: An integer option's bounds.
    minimum: int | None = None
    maximum: int | None = None


def typed_option_fields(options: Any, bounds: Mapping[str, tuple[int, int]] | None = None) -> tuple[TypedOption, ...]:
    """The fields of a family's typed ``options`` (a dataclass instance: its values are the
    defaults shown), each documented by the ``#:`` comment above it in the class's source, an
    integer's bounds from ``bounds``.

    >>> typed_option_fields(AdvisorModel())[0][:3]
    ('needs_yaku', False, 'boolean')
    """
    docs = _field_comments(type(options))
    found = []
    for item in fields(options):
        value = getattr(options, item.name)
        low, high = (bounds or {}).get(item.name, (None, None))
        if isinstance(value, StrEnum):
            kind, choices, default = "string", tuple(member.value for member in type(value)), value.value
        else:
            kind, choices, default = _JSON_TYPES[type(value)], None, value
        found.append(TypedOption(item.name, default, kind, docs.get(item.name, ""), choices, low, high))
    return tuple(found)


_JSON_TYPES: Final[Mapping[type, str]] = {bool: "boolean", int: "integer", str: "string"}


def _field_comments(cls: type) -> dict[str, str]:
    """Each annotated field of ``cls`` and the ``#:`` comment lines just above it, joined."""
    docs: dict[str, str] = {}
    comment: list[str] = []
    for line in inspect.getsource(cls).splitlines():
        text = line.strip()
        if text.startswith("#:"):
            comment.append(text[2:].strip())
            continue
        name, colon, _ = text.partition(":")
        if colon and name.isidentifier() and comment:
            docs[name] = " ".join(comment)
        comment = []
    return docs


class FamilyFan(NamedTuple):
    """One entry of a family scorer's fan list: pinyin and Chinese names, the points it sets
    (0: none) and what it multiplies by (1: nothing)."""

    name: str
    chinese: str
    points: int
    times: int


class RevealedTile(NamedTuple):
    """A tile revealed from the wall after a win for the settlement (a horse, a bird), and the
    seat it names."""

    tile: Tile
    seat: int
    #: Whether it counts for the winner.
    hit: bool


class FamilyScore(NamedTuple):
    """What a win pays under a family that scores requests itself (:meth:`Family.score_request`)."""

    #: Every seat's gain or loss, in seat order (sums to zero).
    payments: tuple[int, ...]
    #: (seat, amount) for each seat that pays, in seat order.
    per_payer: tuple[tuple[int, int], ...]
    #: The hand's fans, its base first, then what multiplies it.
    fans: tuple[FamilyFan, ...]
    #: The hand's worth to one payer before the tiles revealed after the win.
    hand_points: int
    #: What one payer's share is, the revealed tiles included.
    share: int
    #: The tiles revealed after the win, in order, with the seat each names.
    revealed: tuple[RevealedTile, ...]
    #: The seat liable for the whole win (全包), or None.
    liable: int | None


class TableView(Protocol):
    """The table machine as a family's hooks read it (:class:`app.core.table.machine.TableMachine`
    is the one there is; this names what the hooks may read, and keeps this module from importing it)."""

    rules: RuleProfile
    play: PlayRules
    table: TableRules
    seats: int
    players: list[SeatState]
    #: The seat in turn: while a discard may be claimed, its discarder.
    turn: int
    bakaze: int
    oya: int
    honba: int
    kyotaku: int
    live_left: int
    dora_markers: list[int]
    hora_seats: list[int]
    claim_source: str
    after_kong_discard: bool
    kong_payments: list[KongPayment]
    #: What the seat in turn acts after: tsumo, rinshan, chi, pon, reach.
    after: str
    #: A call or kan has broken the first go-around.
    interrupted: bool
    #: The kinds of the first go-around's discards (-1 once a seat discards a second time).
    first_discards: list[int]
    kans: int
    kan_seats: set[int]
    wildcard_indicator: int | None
    claim_tile: int

    def base_context(self, seat: int, target: int) -> WinContext: ...
    def first_turn_draw(self, seat: int, target: int) -> bool: ...
    def hand_with(self, seat: int, target: int, tile: int) -> Hand: ...
    def seat_wind(self, seat: int) -> int: ...
    def face_up(self, kind: int, *, discard_won: bool) -> int: ...
    def in_hand(self) -> tuple[int, ...]: ...
    def holds_void(self, seat: int) -> bool: ...
    def tenpai_at_draw(self, seat: int) -> bool: ...
    def waits_of(self, seat: int) -> frozenset[int]: ...
    def can_ron_now(self, seat: int) -> bool: ...


class Family:
    """One rule family's table: its presets' :class:`PlayRules` and the hooks the machine calls.

    A family module makes one instance (its ``FAMILY``) and the registry lists it.
    """

    #: The family's name (the folder under ``app/core/families/``).
    name: str = ""
    #: The table rules of each preset the family plays, by preset name.
    presets: Mapping[str, PlayRules] = MappingProxyType({})
    #: What the family calls a declaration of a ready hand with a stick (riichi), where its table
    #: has them (:attr:`PlayRules.declarations`): the name the machine's refusals use.
    declaration: str = "declaration"
    #: What the advisor reads of the family's rules.
    advisor: AdvisorModel = AdvisorModel()
    #: The rule-profile fields that are this family's own section (``GET /rules`` shows a preset
    #: these beside the fields every family shares, and refuses another family's).
    own_options: frozenset[str] = frozenset()

    @property
    def options(self) -> frozenset[str]:
        """The rule options a preset of this family takes: the shared ones and its own section."""
        return SHARED_OPTIONS | self.own_options

    def check_options(self, names: Iterable[str]) -> None:
        """Refuse an override of another family's option (:class:`~app.core.errors.InvalidRuleOption`
        naming it); a name that is no option at all is left to the rule profile, which says so."""
        foreign = [name for name in names if name in OPTIONS_BY_NAME and name not in self.options]
        if foreign:
            name = foreign[0]
            raise InvalidRuleOption(
                f"{name} is not an option of the {self.name} rules; they take {', '.join(sorted(self.options))}",
                field=name,
            )

    def preset_rules(self, preset: str, overrides: Mapping[str, Any]) -> RuleProfile:
        """The rule profile of one of the family's presets with a table's ``overrides``: the shape
        wing's preset, refusing another family's option; a family whose options are its own
        typed section builds it itself (``RuleProfile.family_options``)."""
        if preset in self.typed_presets:
            return self.request_rules(preset, overrides)[0]
        profile = rule_profile(preset, **overrides)
        self.check_options(overrides)
        return profile

    # ------------------------------------------------------------ requests (the HTTP side)
    #
    # A family whose options are its own typed dataclass brings its presets itself (the shape
    # wing's PRESETS does not know them): the routes ask these hooks for the preset's hand rules,
    # its options, its scorer and its value model, never a branch on the preset's name.

    #: The family's typed options of each preset it brings, by preset name (a frozen, hashable
    #: dataclass each: the preset's defaults); empty: its presets are the shape wing's.
    typed_presets: Mapping[str, Hashable] = {}
    #: One line for each of :attr:`typed_presets`, by preset name: what it plays (the API's
    #: introduction lists the presets).
    preset_summaries: Mapping[str, str] = {}
    #: The situation fields the family's scorer reads beyond the seats, the discarder and the kong
    #: flags (the request's others must keep their defaults): names of ``WinContext``'s fields.
    situation_fields: frozenset[str] = frozenset()
    #: Whether the family's scorer reads the tiles revealed from the wall after a win.
    reads_revealed: bool = False
    #: The codes of the family's own errors (:class:`~app.core.errors.TenpaiError` subclasses in
    #: its folder): each a request its rules refuse, answered 422.
    error_codes: frozenset[str] = frozenset()

    def option_fields(self) -> tuple[TypedOption, ...]:
        """The fields of the family's typed options, for ``GET /rules``."""
        return ()

    def describe_preset(self, preset: str) -> dict[str, Any]:
        """One of :attr:`typed_presets` as ``GET /rules`` shows it, as plain data: its name, the
        shared options' values, its typed options' and the rule text it follows (``source``)."""
        raise NotImplementedError(f"the {self.name} family brings no presets of its own")

    def request_rules(self, preset: str, overrides: Mapping[str, Any]) -> tuple[RuleProfile, Hashable]:
        """A request's rules: the hand's shape rules (its wildcards chosen) and the family's typed
        options, ``overrides`` checked (an :class:`~app.core.errors.InvalidRuleOption` naming the
        field).  Only a family with :attr:`typed_presets` is asked."""
        raise NotImplementedError(f"the {self.name} family brings no presets of its own")

    def score_request(
        self,
        hand: Hand,
        win_tile: Tile,
        rules: RuleProfile,
        options: Hashable,
        context: WinContext,
        revealed: Sequence[Tile],
    ) -> FamilyScore:
        """``/score`` for one of the family's presets: the win of ``hand`` on ``win_tile`` in
        ``context``, with the tiles ``revealed`` from the wall after it."""
        raise NotImplementedError(f"the {self.name} family scores no requests of its own")

    def value_model(self, rules: RuleProfile, options: Hashable, *, seat_offset: int | None) -> ValueModel | None:
        """The value model ``/discard`` ranks the family's hands by (None: the linear score);
        ``seat_offset`` is the hand's seat counted from the dealer, where the request gives it."""
        return None

    def play_rules(self, rules: RuleProfile) -> PlayRules:
        """The table rules of the preset ``rules`` is (or overrides)."""
        return self.presets[rules.name]

    # ------------------------------------------------------------ dealing

    def indicates_wildcards(self, rules: RuleProfile) -> bool:
        """Whether each deal turns a tile whose successor is the hand's wildcard (``start_kyoku``'s
        ``wildcard_indicator``, taken from the back of the wall); off, the rules' wildcards stand."""
        return False

    def hand_rules(self, rules: RuleProfile, indicator: int | None) -> RuleProfile:
        """The hand rules of one hand of a table opened with ``rules``, its indicator's kind given
        where :meth:`indicates_wildcards` (the shape checks of that hand read them)."""
        return rules

    def first_phase(self, rules: RuleProfile) -> str:
        """The machine's phase once the hands are dealt: ``draw`` (the dealer draws), or a dealing
        step first (``exchange``: three tiles passed; ``void``: a void suit declared)."""
        return "draw"

    def kept_in_hand(self, rules: RuleProfile) -> frozenset[int]:
        """Tile kinds a seat may never discard under the hand's ``rules`` (none by default)."""
        return frozenset()

    # ------------------------------------------------------------ wins

    def winner_stays(self, rules: RuleProfile) -> bool:
        """On a play-on table, whether a winner stays in the hand (its hand frozen) instead of leaving."""
        return False

    def win_context(
        self, machine: TableView, seat: int, target: int, tile: int, ura: tuple[int, ...], first_winner: bool
    ) -> WinContext:
        """The situation of ``seat``'s win on ``tile`` from ``target`` as the scorer reads it: the
        winds, the last tile, the flowers set aside and whether the tile is the last copy."""
        player = machine.players[seat]
        tsumo = seat == target
        context = machine.base_context(seat, target)
        return context._replace(
            round_wind=machine.bakaze,
            seat_wind=machine.seat_wind(seat),
            last_tile=machine.live_left == 0 and not context.robbed_kong,
            flowers=len(player.flowers),
            last_copy=not context.robbed_kong and machine.face_up(kind_of(tile), discard_won=not tsumo) == COPIES - 1,
        )

    def score_win(self, machine: TableView, seat: int, target: int, tile: int, ura: tuple[int, ...]) -> Win:
        """``seat``'s win on ``tile`` from ``target`` (itself: a self-draw), scored and paid."""
        hand = machine.hand_with(seat, target, tile)
        context = self.win_context(machine, seat, target, tile, ura, not machine.hora_seats)
        result = score(hand, kind_of(tile), machine.rules, context)
        return Win(seat, target, tile, result, tuple(result.payments))

    def takes(self, machine: TableView, seat: int, target: int, tile: int, whole: Hand) -> bool:
        """Whether the complete hand ``whole`` (``seat``'s, winning on ``tile`` from ``target``) wins:
        the scorer pays it (a yaku, the minimum fans)."""
        context = self.win_context(machine, seat, target, tile, (), not machine.hora_seats)
        try:
            win_payments(whole, kind_of(tile), machine.rules, context)
        except REFUSALS:
            return False
        return True

    def may_win_on(self, machine: TableView, seat: int, source: str) -> bool:
        """Whether ``seat`` may win on another seat's tile now (the claims a family allows): a
        discard (``source`` ``dahai``) or a robbed kong (``kakan``, ``ankan``).  Every family of today
        allows it; a self-draw-only table (a room's choice in some Chinese rules) says no."""
        return True

    def waits(self, machine: TableView, seat: int, hand: Hand, waits: Sequence[int]) -> Sequence[int]:
        """The waits of ``seat``'s ready ``hand`` that win, out of its shape's ``waits`` (all of them
        unless the family refuses some complete hands whatever the situation)."""
        return waits

    def points_of(self, win: Win) -> int:
        """What the other seats paid ``win``'s winner for the win itself (self-play's points a win):
        its delta, unless the family's delta also holds what is not the win's (sticks, kong payments)."""
        return win.deltas[win.winner]

    def fan_names(self, win: Win) -> tuple[str, ...]:
        """The names of the fans ``win`` counted, where self-play keeps them (a play-on table's)."""
        return ()

    # ------------------------------------------------------------ calls

    #: Whether a win turns tiles from the wall for its settlement (``hora.revealed``: horses,
    #: birds), which :meth:`score_win` receives in place of ura indicators.
    reveals_after_win: bool = False

    def revealed_count(self, machine: TableView, seat: int) -> int:
        """How many tiles ``seat``'s win turns from the wall (where :attr:`reveals_after_win`)."""
        return 0

    def payment_after_discard(self, machine: TableView) -> Sequence[int] | None:
        """A payment the family's rules make once a discard is down (each seat's delta, booked at
        once and carried by the hand's ending), or None."""
        return None

    def note_call(self, machine: TableView, seat: int, target: int, meld: TableMeld) -> None:
        """After ``seat`` called ``target``'s discard into ``meld``: what the family keeps of it
        (riichi: the seat liable for a yakuman, pao); nothing by default."""

    # ------------------------------------------------------------ draws

    #: The draw a seat may declare on its first draw (riichi: ``nine_terminals``), at tables with
    #: abortive draws (:attr:`PlayRules.abortive_draws`).
    draw_abort: str | None = None

    def may_abort_on_draw(self, machine: TableView, seat: int) -> bool:
        """Whether ``seat`` may declare :attr:`draw_abort` now."""
        return False

    def abortive_draw(self, machine: TableView) -> str | None:
        """The abortive draw that ends the hand after the discard just made (its kind), or None;
        asked at tables with abortive draws only."""
        return None

    def aborts_when_unclaimed(self, machine: TableView) -> bool:
        """Whether the discard just made ends the hand once nobody claims it (an abortive draw
        that is not the last discard's)."""
        return False

    def exhaustive_draw(self, machine: TableView, tenpai: tuple[bool, ...]) -> tuple[list[int], tuple[int, ...]]:
        """What an exhaustive draw that ends the hand pays (each seat's delta) and the seats whose
        discards make a draw-time hand of their own (riichi's nagashi); nothing by default."""
        return [0] * machine.seats, ()

    def settle_draw(self, machine: TableView) -> DrawSettlementParts | None:
        """A play-on table's exhaustive draw: what the seats still in pay, rule by rule (None: nothing)."""
        return None
