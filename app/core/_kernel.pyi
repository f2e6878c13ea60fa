"""Types of the compiled kernel (app/core/kernel/*.cpp); see registry.hpp for how parts join."""

from collections.abc import Callable, Iterable
from typing import Any

from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.value.mcr_scoring import Fan
from app.core.value.riichi_scoring import FuPart, Group, Reading, RiichiScore, YakuHan
from app.core.value.scoring_context import WinContext

def install_shape_tables(
    number_class: bytes,
    number_next: bytes,
    honor_class: bytes,
    honor_next: bytes,
    man_pin: bytes,
    sou_honors: bytes,
    final: bytes,
    number_classes: int,
    honor_classes: int,
    final_stride: int,
) -> None: ...
def regular_draws(counts: bytes, melds_wanted: int) -> tuple[int, bytes]: ...
def named_tuple_new(cls: type[tuple[Any, ...]]) -> Callable[..., Any]: ...
def hand_counts(tiles: Iterable[int], melds: tuple[Meld, ...]) -> bytes | None: ...

# riichi.cpp: riichi scoring.
class RiichiOptions:
    """A rule profile's riichi scoring options (app.core.value.riichi_scoring.kernel_options)."""

    def __init__(
        self,
        *,
        seven_pairs: bool,
        seven_pairs_quad_as_two: bool,
        thirteen_orphans: bool,
        double_yakuman: bool,
        open_tanyao: bool,
        kazoe_yakuman: bool,
        kiriage: bool,
        yakuman_stacking: bool,
        red_fives: bool,
        seats: int,
        tsumo_loss: bool,
        dora_of: bytes,
        wildcards: bool,
        win_requires_meld: int,
        chi_allowed: bool,
        absent_tiles: int,
    ) -> None: ...

def install_riichi_answers(
    score_type: type[RiichiScore],
    reading_type: type[Reading],
    yaku_han_type: type[YakuHan],
    fu_part_type: type[FuPart],
    group_type: type[Group],
    meld_kinds: tuple[MeldKind, ...],
    context_fields: tuple[str, ...],
) -> None: ...
def riichi_score(hand: Hand, win_tile: int, options: RiichiOptions, context: WinContext) -> RiichiScore | int: ...
def riichi_score_checked(
    hand: Hand, win_tile: int, options: RiichiOptions, context: WinContext
) -> RiichiScore | int: ...
def riichi_payments_checked(
    hand: Hand, win_tile: int, options: RiichiOptions, context: WinContext
) -> tuple[int, ...] | int: ...
def riichi_payments(
    base: int, winner: int, dealer: int, discarder: int | None, honba: int, seats: int, tsumo_loss: bool
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]: ...
def riichi_limit(han: int, fu: int, kazoe_yakuman: bool, kiriage: bool) -> tuple[str | None, int]: ...

# mcr.cpp: MCR fan counting.
def mcr_count(hand: Hand, win_tile: int, context: WinContext) -> tuple[int, tuple[Fan, ...]] | None: ...
def mcr_fan_total(hand: Hand, win_tile: int, context: WinContext) -> int: ...
def mcr_install_fans(table: tuple[tuple[Fan, ...], ...]) -> None: ...
def mcr_fan_values() -> tuple[int, ...]: ...

# expected.cpp: the expected-score search.
def expected_scores(
    start: bytes,
    unseen: bytes,
    melds: list[tuple[int, int]],
    start_red: int,
    dora_indicators: list[int],
    round_wind: int,
    seat_wind: int,
    options: RiichiOptions,
    extra: int,
    max_states: int,
    seconds: float,
    cancelled: Callable[[], bool] | None,
    first_turn: int,
    last_turn: int,
    nuki: int,
) -> tuple[list[tuple[int, bool, int, list[tuple[int, float, float, float]]]], int, int]: ...
