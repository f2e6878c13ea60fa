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
