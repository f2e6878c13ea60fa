"""The rule options table: one entry per profile field, and each kind round-trips."""

from __future__ import annotations

from dataclasses import fields

import pytest

from app.core.errors import InvalidRuleOption
from app.core.shape.rules import OPTIONS, PRESETS, RuleProfile, rule_profile


def test_every_profile_field_is_an_option_in_field_order() -> None:
    # family_options is a family's typed section, not one option (GET /rules lists its fields).
    profile_fields = [f.name for f in fields(RuleProfile) if f.name not in ("name", "family_options")]
    assert [option.name for option in OPTIONS] == profile_fields


@pytest.mark.parametrize("preset", list(PRESETS))
def test_describe_round_trips_through_the_options(preset: str) -> None:
    profile = PRESETS[preset]
    described = profile.describe()
    assert list(described) == ["name", *(option.name for option in OPTIONS)]
    for option in OPTIONS:
        value = described[option.name]
        assert isinstance(value, option.kind.plain_type) or (value is None and option.kind.nullable), (
            option.name,
            value,
        )
        if isinstance(value, list):
            assert all(isinstance(item, str) for item in value)
    # Every described value, given back as an override, rebuilds the same profile.
    overrides = {name: value for name, value in described.items() if name != "name"}
    assert rule_profile(preset, **overrides) == profile


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.name)
def test_a_wrong_value_names_the_option(option) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidRuleOption) as refused:
        rule_profile("riichi", **{option.name: {"not": "a value"}})
    assert refused.value.field == option.name
    assert option.name in refused.value.message


def test_examples_are_accepted() -> None:
    for option in OPTIONS:
        if option.example is not None and option.name != "absent_tiles":
            rule_profile("riichi", **{option.name: option.example})
    assert rule_profile("riichi", absent_tiles="2345678m").tile_total == 108


# --- each family's section: a preset takes the shared options and its own family's ----------


def test_a_table_refuses_another_familys_option_and_takes_its_own() -> None:
    from app.core.families.registry import TABLES, rules_of
    from app.core.table.game import GameConfig, validate_config

    players = ("greedy",) * 4
    with pytest.raises(InvalidRuleOption, match="kiriage is not an option of the sichuan rules") as refused:
        validate_config(GameConfig("sichuan", players, 1, options=(("kiriage", True),)), TABLES)
    assert refused.value.field == "rules"
    assert validate_config(GameConfig("sichuan", players, 1, options=(("bloody_river", True),)), TABLES).bloody_river
    with pytest.raises(InvalidRuleOption) as refused:
        rules_of("qiqihar", void_suit=True)
    assert refused.value.field == "void_suit"
    # A name that is no option at all is still the profile's own refusal.
    with pytest.raises(InvalidRuleOption, match="unknown rule option"):
        rules_of("riichi", no_such_option=True)
