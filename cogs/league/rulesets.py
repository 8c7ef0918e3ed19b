"""What the league reads of a ruleset: the ``league`` of its spec, found through the registry.

A league names no game. Each ruleset that may be played in one declares a
:class:`bot.ruleset.LeagueSupport` in its ``RULESET`` (its rosters, how a finished game becomes a
standings row, the options a league may fix); :mod:`bot.registry` finds it by the league's
ruleset key. A league of a ruleset without rosters keeps standings and ratings only, and refuses
every roster action (draft, masters, ante, roster edits) with ``league.no_rosters``.
"""

from __future__ import annotations

from bot import registry
from bot.leagues import Finds, RosterRules
from bot.ruleset import LeagueSupport
from cogs.league.season import League, LeagueError


def support(ruleset: str) -> LeagueSupport:
    """What a league may do with ``ruleset``; refused for one that declares no league."""
    found = registry.get(ruleset).league
    if found is None:
        raise LeagueError("league.ruleset.none", ruleset=ruleset)
    return found


def seat_counts(ruleset: str) -> tuple[int, ...]:
    """How many players a game of ``ruleset`` seats (a league match too): 2, or Esper's 5–11."""
    return registry.get(ruleset).seats.allowed()


def rosters(league: League) -> RosterRules:
    """The rosters of ``league`` (as its stored options fix them: a pack); refused
    (``league.no_rosters``) for one without."""
    found = support(league.ruleset).rosters_for(league.options.to_json())
    if found is None:
        raise LeagueError("league.no_rosters", league=league.name, ruleset=league.ruleset)
    return found


def league_rulesets() -> list[str]:
    """Every ruleset a league may be created for, in key order."""
    return [key for key, spec in registry.rulesets().items() if spec.league is not None]


def every_rosters() -> list[RosterRules]:
    """The rosters of every ruleset that has them (to name a unit wherever it comes from)."""
    found = (registry.get(key).league for key in league_rulesets())
    return [s.rosters for s in found if s is not None and s.rosters is not None]


def typed_unit(rules: RosterRules, word: str, lang: str) -> str:
    """The entry a person typed: as stored, or the one the ruleset finds for a name or id
    (:class:`bot.leagues.Finds`); several: refused with their names (``league.unit.ambiguous``);
    none: as typed (the action refuses it with its own reason)."""
    word = word.strip()
    if word in dict(rules.pool()) or not isinstance(rules, Finds):
        return word
    found = rules.find(word)
    if len(found) > 1:
        names = ", ".join(f"{rules.unit_name(e, lang)} (`{e}`)" for e in found)
        raise LeagueError("league.unit.ambiguous", word=word[:40], choices=names)
    return found[0] if found else word
