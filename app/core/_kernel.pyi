"""Types of the compiled kernel (app/core/kernel/*.cpp); see registry.hpp for how parts join."""

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
def mcr_count_fans(
    counts: bytes, melds: bytes, win_tile: int, discard: bool, seat_wind: int, round_wind: int, flags: int
) -> tuple[int, ...] | None: ...
def mcr_fan_total(
    counts: bytes, melds: bytes, win_tile: int, discard: bool, seat_wind: int, round_wind: int, flags: int
) -> int: ...
def mcr_fan_values() -> tuple[int, ...]: ...
