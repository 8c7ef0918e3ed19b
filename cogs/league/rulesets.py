"""What a league needs from a ruleset with persistent rosters, pure.

A league only moves unit ids between rosters; what a unit is, what a master is and how a roster
becomes a match's options belong to the ruleset. :class:`TacticsRosters` is the tactics adapter;
apeiron's unit decks will add theirs here under the same :class:`RosterRules` shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.ruleset import RuleError
from cogs.league.ledger import Roster


class RosterRules(Protocol):
    ruleset: str
    has_masters: bool
    pool_copies: int  # how many copies of each unit the entry draft's pool holds

    def pool(self) -> list[tuple[str, int]]:
        """The draft pool as (unit id, cost), in pool order, one entry per copy."""
        ...

    def unit_name(self, unit: str, lang: str) -> str: ...
    def master(self, spec: Mapping[str, Any]) -> tuple[str, str]:
        """Check a master submitted now (a preset id or a full design); (its id, a one-line
        summary). A designed master's id can never be a pool unit's."""
        ...

    def master_name(self, spec: Mapping[str, Any], lang: str) -> str:
        """A stored master's name in ``lang``, as its player typed it."""
        ...

    def master_id(self, spec: Mapping[str, Any], stored: str) -> str:
        """The id a master stored as ``stored`` has now (a design stored before designed ids
        had their own namespace gets it; anything else is unchanged)."""
        ...

    def match_options(
        self, options: Mapping[str, Any], rosters: Mapping[str, tuple[Roster, Mapping[str, Any]]]
    ) -> dict[str, Any]:
        """A match's game options from the league options and each seat's (roster, master)."""
        ...

    def dp(self, state: Mapping[str, Any]) -> dict[str, int]:
        """Each seat's DP from a finished game's stored state (empty: the ruleset has none)."""
        ...


@dataclass(frozen=True)
class TacticsRosters:
    ruleset: str = "tactics"
    has_masters: bool = True
    pool_copies: int = 2  # the roster limit is two copies, so two in the pool

    def pool(self) -> list[tuple[str, int]]:
        from cogs.tactics.units import pool

        units = pool()
        return [(u.id, u.cost) for _ in range(self.pool_copies) for u in units]

    def unit_name(self, unit: str, lang: str) -> str:
        from cogs.tactics.master import MASTER_PREFIX, preset
        from cogs.tactics.units import by_id

        found = by_id(unit) or preset(unit)
        if found:
            return found.name.get(lang) or found.name["en"]
        # A designed master's id, where no design is at hand to name it (master_name does).
        return unit.removeprefix(MASTER_PREFIX)

    def master(self, spec: Mapping[str, Any]) -> tuple[str, str]:
        from cogs.tactics.master import new_design, preset

        if "preset" in spec:
            found = preset(str(spec["preset"]))
            if found is None:
                raise RuleError("tactics.option.unknown_master", name=spec["preset"])
        else:
            found = new_design(spec)  # MasterError says which bound or name is wrong
        ability = found.ability.effect if found.ability else "-"
        summary = (
            f"HP {found.hp} ATK {found.atk} DEF {found.defence} MOV {found.move} "
            f"RNG {found.range[1]} · {ability} · cost {found.cost}"
        )
        return found.id, summary

    def master_name(self, spec: Mapping[str, Any], lang: str) -> str:
        from cogs.tactics.master import clean_name

        if "preset" in spec:
            return self.unit_name(str(spec["preset"]), lang)
        return clean_name(spec.get(lang)) or clean_name(spec.get("en")) or "?"

    def master_id(self, spec: Mapping[str, Any], stored: str) -> str:
        from cogs.tactics.master import MASTER_PREFIX

        if "preset" in spec or stored.startswith(MASTER_PREFIX):
            return stored
        return MASTER_PREFIX + stored

    def match_options(
        self, options: Mapping[str, Any], rosters: Mapping[str, tuple[Roster, Mapping[str, Any]]]
    ) -> dict[str, Any]:
        from cogs.tactics import maps

        def master_option(spec: Mapping[str, Any]) -> Any:
            return str(spec["preset"]) if "preset" in spec else dict(spec)

        return {
            "map": options.get("map", maps.DEFAULT),
            "cost_cap": int(options.get("cost_cap", 18)),
            "tie_break": options.get("tie_break", "none"),
            "rosters": {
                seat: {"master": master_option(spec), "units": list(roster.units)}
                for seat, (roster, spec) in rosters.items()
            },
        }

    def dp(self, state: Mapping[str, Any]) -> dict[str, int]:
        return {str(k): int(v) for k, v in (state.get("dp") or {}).items()}


ROSTER_RULES: dict[str, RosterRules] = {"tactics": TacticsRosters()}


def for_ruleset(name: str) -> RosterRules:
    try:
        return ROSTER_RULES[name]
    except KeyError:
        raise RuleError("league.ruleset.no_rosters", ruleset=name) from None
