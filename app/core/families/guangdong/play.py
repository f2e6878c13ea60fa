"""What a Guangdong table does besides scoring: its dealing steps, the claims it allows, what a win does.

Pure declarations from the options, for the table machine's hooks to read:

* **Dealing.**  With a flipped ghost (翻鬼), a tile is turned face up after the deal; it names the
  hand's ghost (:func:`~app.core.families.guangdong.tiles.ghost_from_indicator`).  With flowers,
  each flower drawn is set aside and replaced.
* **Claims.**  Pon and kongs always; chi only with ``chi``; a win on a discard only with
  ``discard_wins``; robbing an added kong with ``rob_kong`` (抢杠 counts as the robber's self-draw,
  so a self-draw-only room allows it).
* **A win** ends the hand (推倒胡: the hand is pushed down and settled; nobody plays on), and the
  horses are drawn from the wall that is left (:mod:`~app.core.families.guangdong.payments`).

>>> from app.core.families.guangdong.options import GuangdongOptions
>>> [step.value for step in dealing_steps(GuangdongOptions(flowers=True))]
['flip_ghost', 'set_aside_flowers']
>>> sorted(claim.value for claim in claims(GuangdongOptions()))
['open_kan', 'pon', 'rob_kong']
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from app.core.families.guangdong.options import GhostMode, GuangdongOptions


class DealingStep(StrEnum):
    """A step of the deal besides handing out thirteen tiles each."""

    #: Turn a tile face up: the next tile of its cycle is the hand's ghost (翻鬼).
    FLIP_GHOST = "flip_ghost"
    #: Set each flower drawn aside and draw a replacement.
    SET_ASIDE_FLOWERS = "set_aside_flowers"


class Claim(StrEnum):
    """A call on another seat's tile."""

    CHI = "chi"
    PON = "pon"
    OPEN_KAN = "open_kan"
    #: A win on a discard.
    DISCARD_WIN = "discard_win"
    #: A win on the tile another seat adds to its pon (抢杠).
    ROB_KONG = "rob_kong"


WIN_ENDS_HAND: Final = True
"""推倒胡: the first win ends the hand (no play-on as in Sichuan's 血战)."""


def dealing_steps(options: GuangdongOptions) -> tuple[DealingStep, ...]:
    """The deal's steps under ``options``, in order.

    >>> dealing_steps(GuangdongOptions(ghost=GhostMode.WHITE))
    ()
    """
    steps = []
    if options.ghost is GhostMode.FLIP:
        steps.append(DealingStep.FLIP_GHOST)
    if options.flowers:
        steps.append(DealingStep.SET_ASIDE_FLOWERS)
    return tuple(steps)


def claims(options: GuangdongOptions) -> frozenset[Claim]:
    """The calls a seat may make under ``options``.

    >>> sorted(claim.value for claim in claims(GuangdongOptions(chi=True, discard_wins=True, rob_kong=False)))
    ['chi', 'discard_win', 'open_kan', 'pon']
    """
    allowed = {Claim.PON, Claim.OPEN_KAN}
    if options.chi:
        allowed.add(Claim.CHI)
    if options.discard_wins:
        allowed.add(Claim.DISCARD_WIN)
    if options.rob_kong:
        allowed.add(Claim.ROB_KONG)
    return frozenset(allowed)
