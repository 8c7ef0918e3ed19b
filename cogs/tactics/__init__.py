"""Tactics: a square-grid skirmish ruleset (rules engine, board renderer, cog)."""
