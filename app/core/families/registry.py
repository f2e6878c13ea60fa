"""Every rule family the table plays, listed here and nowhere else.

Whoever builds a table machine, plays a game or shows the rules asks this module for a family:
by its rule set (:func:`family_of`) or through :data:`TABLES` (the family of each preset with a
table).  Adding a family is one folder under ``app/core/families/`` and one entry in
:data:`FAMILIES`.

>>> from app.core.shape.rules import rule_profile
>>> family_of("sanma").name, family_of(rule_profile("sichuan", bloody_river=True)).name
('riichi', 'sichuan')
>>> list(TABLES)
['riichi', 'sanma', 'chinese', 'mcr', 'qiqihar', 'sichuan', 'guangdong', 'hongzhong']
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from types import MappingProxyType
from typing import Any, Final

from app.core.errors import UnknownRules
from app.core.families.chinese import FAMILY as CHINESE
from app.core.families.guangdong.api import FAMILY as GUANGDONG
from app.core.families.hongzhong.api import FAMILY as HONGZHONG
from app.core.families.mcr import FAMILY as MCR
from app.core.families.qiqihar import FAMILY as QIQIHAR
from app.core.families.riichi import FAMILY as RIICHI
from app.core.families.sichuan import FAMILY as SICHUAN
from app.core.shape.rules import PRESETS, RuleProfile, rule_profile
from app.core.shape.tiles import quoted
from app.core.table.family import Family
from app.core.table.machine import NoTable
from app.core.table.play_rules import PlayRules

#: The families, in the order ``GET /rules`` and the errors list their presets.
FAMILIES: Final[tuple[Family, ...]] = (RIICHI, CHINESE, MCR, QIQIHAR, SICHUAN, GUANGDONG, HONGZHONG)

#: The family of each preset the table plays, by preset name.
TABLES: Final[Mapping[str, Family]] = MappingProxyType(
    {preset: family for family in FAMILIES for preset in family.presets}
)

#: The table's rules of each preset (the families' own), by preset name.
PLAY_RULES: Final[Mapping[str, PlayRules]] = MappingProxyType(
    {preset: family.presets[preset] for preset, family in TABLES.items()}
)


#: The family whose presets take each option of its own section; options not here are shared.
OPTION_FAMILY: Final[Mapping[str, str]] = MappingProxyType(
    {option: family.name for family in FAMILIES for option in sorted(family.own_options)}
)


#: The family of each preset that brings its own typed options (the shape wing's PRESETS does not
#: know it), by preset name.
TYPED_PRESETS: Final[Mapping[str, Family]] = MappingProxyType(
    {preset: family for family in FAMILIES for preset in family.typed_presets}
)

#: The codes of the families' own errors (each a request their rules refuse).
FAMILY_ERROR_CODES: Final[frozenset[str]] = frozenset().union(*(family.error_codes for family in FAMILIES))

#: Every preset a request may name: the shape wing's, then the families' own.
PRESET_NAMES: Final[tuple[str, ...]] = (*PRESETS, *TYPED_PRESETS)


def rules_and_options(preset: str, **overrides: Any) -> tuple[RuleProfile, Hashable | None]:
    """A request's rules: the shape rules and, for a preset that brings its family's typed
    options (:data:`TYPED_PRESETS`), those options (None for the others), ``overrides`` checked.

    >>> rules_and_options("sichuan", max_fan=3)[0].max_fan, rules_and_options("riichi")[1]
    (3, None)
    """
    family = TYPED_PRESETS.get(preset) if isinstance(preset, str) else None
    if family is not None:
        return family.request_rules(preset, overrides)
    if TYPED_PRESETS and (not isinstance(preset, str) or preset not in PRESETS):
        raise UnknownRules(
            f"unknown rules preset {quoted(preset)}; presets are {', '.join(PRESET_NAMES)}", field="preset"
        )
    return rules_of(preset, **overrides), None


def rules_of(preset: str, **overrides: Any) -> RuleProfile:
    """:func:`~app.core.shape.rules.rule_profile`, refusing an override of an option that is not
    the preset's family's (:class:`~app.core.errors.InvalidRuleOption` naming it).

    >>> rules_of("sichuan", bloody_river=True).bloody_river
    True
    >>> rules_of("riichi", exchange_three=False)
    Traceback (most recent call last):
    ...
    app.core.errors.InvalidRuleOption: exchange_three is not an option of the riichi rules; they take absent_tiles, chi_allowed, double_yakuman, furiten, kazoe_limit, kiriage, knitted_forms, melded_tiles_count_toward_limit, open_tanyao, red_fives, seats, seven_pairs, thirteen_orphans, tsumo_loss, wildcards, wildcards_held_win, wildcards_in_seven_pairs, win_requires_meld, yakuman_stacking
    """
    family = TYPED_PRESETS.get(preset) if isinstance(preset, str) else None
    if family is not None:
        return family.request_rules(preset, overrides)[0]
    profile = rule_profile(preset, **overrides)
    family = TABLES.get(profile.name)
    if family is not None:
        family.check_options(overrides)
    return profile


def table_rules_of(preset: str, **overrides: Any) -> RuleProfile:
    """The rule profile a table plays (``/referee``, ``/act``, reviews, records): as
    :func:`rules_of`, except that a family whose table chooses something each hand (a ghost
    turned at the deal) is not asked for it here.

    >>> table_rules_of("guangdong").wildcards, table_rules_of("riichi") == rules_of("riichi")
    ((), True)
    """
    family = TABLES.get(preset) if isinstance(preset, str) else None
    if family is None:
        return rules_of(preset, **overrides)
    return family.preset_rules(preset, overrides)


def family_of(rules: RuleProfile | str) -> Family:
    """The family that plays ``rules`` (a rule profile, or a preset's name), or :class:`NoTable`."""
    name = rules if isinstance(rules, str) else rules.name
    family = TABLES.get(name)
    if family is None:
        raise NoTable(f"the table plays {', '.join(TABLES)}; rules {name!r} have no table", field="rules")
    return family
