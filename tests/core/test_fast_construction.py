"""The quick ways Hand, Meld and WinContext are built answer as the plain ones do.

``Hand.from_tiles`` has the kernel count and check the tiles (``hand_counts``) and sets the
hand's slots itself; ``Meld.of`` looks a valid meld up among all the melds made at import;
``WinContext.__new__`` is compiled (``named_tuple_new``).  Each is compared here with the
plain way: ``counts_from_tiles`` and ``Hand.validate``, ``Meld.of``'s own checks (reached
through a subclass, which the look-up leaves alone), and a ``namedtuple`` of the same fields
and defaults.  Errors must be the same errors.
"""

from __future__ import annotations

import pickle
import random
from collections import namedtuple
from typing import Any, Final

import pytest

from app.core import _kernel
from app.core.errors import TenpaiError
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.tiles import counts_from_tiles
from app.core.value.scoring_context import WinContext


def _outcome(build: Any, *args: Any) -> tuple[Any, ...]:
    try:
        return ("made", build(*args))
    except (TenpaiError, TypeError, ValueError) as error:
        return ("error", type(error).__name__, str(error), getattr(error, "field", None))


def plain_hand(tiles: Any, melds: Any) -> tuple[bytes, tuple[Meld, ...], int]:
    """Hand.from_tiles without the kernel: count in Python, then validate."""
    hand = Hand(counts_from_tiles(tiles), tuple(melds))
    hand.validate()
    return hand.counts, hand.melds, hand.tile_count


def quick_hand(tiles: Any, melds: Any) -> tuple[bytes, tuple[Meld, ...], int]:
    hand = Hand.from_tiles(tiles, melds)
    assert type(hand) is Hand and hand == Hand(hand.counts, hand.melds)  # equal to one made by __init__
    return hand.counts, hand.melds, hand.tile_count


def random_request(rng: random.Random) -> tuple[Any, tuple[Meld, ...]]:
    """Tiles and melds near the limits: up to 15 tiles and 5 melds, copies up to 5, odd items."""
    melds = tuple(
        Meld.of("pon", [tile] * 3) if rng.random() < 0.5 else Meld.of("chi", [tile, tile + 1, tile + 2])
        for tile in (rng.choice((0, 1, 4, 9, 19)) for _ in range(rng.choice((0, 0, 1, 2, 4, 5))))
    )
    tiles: list[Any] = [rng.choice((0, 1, 2, 4, 5, 27, 33)) for _ in range(rng.randint(0, 15))]
    if tiles and rng.random() < 0.1:
        tiles[rng.randrange(len(tiles))] = rng.choice((34, -1, True, 1.0, "1"))
    shape = rng.choice((list, tuple, iter))
    return shape(tiles), melds


def test_from_tiles_answers_as_counting_and_validating_in_python() -> None:
    rng = random.Random(5)
    made = errors = 0
    for _ in range(3000):
        tiles, melds = random_request(rng)
        listed = list(tiles)
        ours = _outcome(quick_hand, iter(listed) if not isinstance(tiles, list | tuple) else tiles, melds)
        assert ours == _outcome(plain_hand, listed, melds), (listed, melds)
        made += ours[0] == "made"
        errors += ours[0] == "error"
    assert made > 500 and errors > 500  # both sides of the checks were tried


def test_hand_counts_vouches_only_for_valid_hands() -> None:
    assert _kernel.hand_counts([0, 0, 0, 0], ()) == counts_from_tiles([0] * 4)
    for tiles, melds in (
        ([0] * 5, ()),  # five copies
        ([0] * 2, (Meld.of("pon", [0] * 3),)),  # five with the meld's
        ([1] * 12, (Meld.of("pon", [0] * 3),)),  # 12 concealed tiles with a meld
        ([34], ()),
        ([True], ()),
        ((t for t in [0]), ()),  # only lists and tuples are read
        ([0], [Meld.of("pon", [1] * 3)]),  # melds as a list
    ):
        assert _kernel.hand_counts(tiles, melds) is None, (tiles, melds)


class _PlainMeld(Meld):
    """A subclass: ``Meld.of`` builds it with its checks, never from the table of made melds."""

    __slots__ = ()


MELD_TILES: Final = [
    *([t] * 3 for t in range(0, 34, 3)),
    *([t] * 4 for t in range(0, 34, 3)),
    *([t, t + 1, t + 2] for t in range(0, 32)),
    [2, 0, 1],
    [0, 1, 3],
    [7, 8, 9],
    [27, 28, 29],
    [1, 1],
    [1] * 5,
    [True] * 3,
    [1, 1, 2],
]


@pytest.mark.parametrize("kind", [*MeldKind, "pon", "chi", "open_kan", "PON", "kong", 7])
def test_meld_of_answers_as_its_checks(kind: Any) -> None:
    for tiles in MELD_TILES:
        ours = _outcome(Meld.of, kind, tiles)
        plain = _outcome(_PlainMeld.of, kind, tiles)
        if plain[0] == "made":
            assert ours[0] == "made" and (ours[1].kind, ours[1].tiles) == (plain[1].kind, plain[1].tiles), tiles
            assert type(ours[1].kind) is MeldKind
        else:
            assert ours == plain, (kind, tiles)


# -- WinContext -------------------------------------------------------------------------

PlainContext = namedtuple("PlainContext", WinContext._fields, defaults=tuple(WinContext._field_defaults.values()))  # type: ignore[misc]


def test_the_compiled_constructor_keeps_the_fields_and_defaults() -> None:
    assert WinContext._field_defaults == PlainContext._field_defaults
    assert WinContext(1, 0) == PlainContext(1, 0) and type(WinContext(1, 0)) is WinContext


def _called(cls: Any, args: list[Any], named: dict[str, Any]) -> Any:
    return cls(*args, **named)


def test_win_context_binds_as_the_plain_namedtuple_does() -> None:
    rng = random.Random(9)
    fields = WinContext._fields
    for _ in range(2000):
        values = [rng.choice((0, 1, 2, None, True, (27,), "x")) for _ in fields]
        positional = rng.randint(0, 4)
        named = dict(zip(fields[positional:], values[positional:], strict=True))
        for name in rng.sample(list(named), k=rng.randint(0, len(named))):
            del named[name]  # left to its default, or missing when it has none
        if rng.random() < 0.05:
            named["winner"] = 3  # given twice when winner is also given by position
        if rng.random() < 0.05:
            named["no_such_field"] = 1
        args = values[:positional] + ([0] * rng.randint(0, 25) if rng.random() < 0.03 else [])
        ours = _outcome(_called, WinContext, args, named)
        plain = _outcome(_called, PlainContext, args, named)
        assert ours[0] == plain[0], (args, named, ours, plain)
        if ours[0] == "made":
            assert tuple(ours[1]) == tuple(plain[1])
        else:
            assert ours[1] == plain[1] == "TypeError"


def test_a_compiled_win_context_is_a_whole_named_tuple() -> None:
    context = WinContext(winner=1, dealer=0, discarder=3, honba=2)
    assert context._replace(honba=3).honba == 3 and context._asdict()["discarder"] == 3
    assert pickle.loads(pickle.dumps(context)) == context
    assert WinContext._make(tuple(context)) == context

    class Later(WinContext):  # type: ignore[misc]
        pass

    assert type(Later(1, 0)) is Later
    with pytest.raises(TypeError):
        WinContext.__new__(int, 1, 0)  # not its class


def test_named_tuple_new_takes_only_named_tuples() -> None:
    with pytest.raises(TypeError):
        _kernel.named_tuple_new(int)  # type: ignore[arg-type]
