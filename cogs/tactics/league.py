"""Tactics in a league, pure: its rosters, its results and the options a league fixes.

The league (``cogs/league``) names no game; it reads :data:`LEAGUE`, the ``league`` of tactics'
``RULESET`` (``../shared/rules/league.md``): rosters of pool units and a master unit (the entry
draft's pool holds two copies of each unit, the roster limit), each result with the destruction
points both sides scored (the standings' DP for and against), and a league fixing the lineup
cost cap and the tie-break of its matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.leagues import DP, FixedOption, HeldRoster, LeagueResult
from bot.ruleset import LeagueSupport, Outcome, Ref, RuleError, places_by_outcome
from cogs.tactics import maps
from cogs.tactics.master import MASTER_PREFIX, clean_name, new_design, preset
from cogs.tactics.state import DEFAULT_CAP
from cogs.tactics.units import by_id, pool


@dataclass(frozen=True)
class TacticsRosters:
    has_masters: bool = True
    pool_copies: int = 2  # the roster limit is two copies, so two in the pool

    def pool(self) -> list[tuple[str, int]]:
        units = pool()
        return [(u.id, u.cost) for _ in range(self.pool_copies) for u in units]

    def unit_name(self, unit: str, lang: str) -> str:
        found = by_id(unit) or preset(unit)
        if found:
            return found.name.get(lang) or found.name["en"]
        # A designed master's id, where no design is at hand to name it (master_name does).
        return unit.removeprefix(MASTER_PREFIX)

    def master(self, spec: Mapping[str, Any]) -> tuple[str, str]:
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
        if "preset" in spec:
            return self.unit_name(str(spec["preset"]), lang)
        return clean_name(spec.get(lang)) or clean_name(spec.get("en")) or "?"

    def master_id(self, spec: Mapping[str, Any], stored: str) -> str:
        # Designed masters were once stored under ids a pool unit could have (a master named
        # ``guardian`` shielded the pool's Guardian from the ante): they get the prefix.
        if "preset" in spec or stored.startswith(MASTER_PREFIX):
            return stored
        return MASTER_PREFIX + stored

    def match_options(
        self,
        options: Mapping[str, Any],
        rosters: Mapping[str, tuple[HeldRoster, Mapping[str, Any]]],
    ) -> dict[str, Any]:
        def master_option(spec: Mapping[str, Any]) -> Any:
            return str(spec["preset"]) if "preset" in spec else dict(spec)

        return {
            "map": options.get("map", maps.DEFAULT),
            "cost_cap": int(options.get("cost_cap", DEFAULT_CAP)),
            "tie_break": options.get("tie_break", "none"),
            "rosters": {
                seat: {"master": master_option(spec), "units": list(roster.units)}
                for seat, (roster, spec) in rosters.items()
            },
        }


def result(state: Mapping[str, Any], outcome: Outcome, players: Mapping[str, str]) -> LeagueResult:
    """A finished match: the winner first (a draw places both first), and each side's DP."""
    dp = {str(seat): int(v) for seat, v in (state.get("dp") or {}).items()}
    figures = {player: {DP: dp.get(seat, 0)} for seat, player in players.items()}
    return LeagueResult(places_by_outcome(outcome, players), figures)


LEAGUE = LeagueSupport(
    rosters=TacticsRosters(),
    result=result,
    figures=(DP,),
    options=(
        FixedOption("cost_cap", DEFAULT_CAP, "tactics.option.cap", low=1, high=60),
        FixedOption(
            "tie_break",
            "none",
            "tactics.option.tie_break",
            choices=(("none", "cmd.choice.tie_break.none"), ("hp", "cmd.choice.tie_break.hp")),
        ),
    ),
    master_options=Ref("cogs.tactics.master_options:league_master_options"),
)
