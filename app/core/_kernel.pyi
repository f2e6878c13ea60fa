"""Types of the compiled kernel (app/core/kernel/*.cpp); see registry.hpp for how parts join."""

from app.core.shape.hand import Hand
from app.core.value.mcr_scoring import Fan
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
def mcr_count(hand: Hand, win_tile: int, context: WinContext) -> tuple[int, tuple[Fan, ...]] | None: ...
def mcr_fan_total(hand: Hand, win_tile: int, context: WinContext) -> int: ...
def mcr_install_fans(table: tuple[tuple[Fan, ...], ...]) -> None: ...
def mcr_fan_values() -> tuple[int, ...]: ...
