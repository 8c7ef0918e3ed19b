"""Hex dungeon (``dungeon``): a co-operative hex dungeon crawler whose monsters the bot runs.

``hexes`` (coordinates, distance, line of sight) and ``ai`` (monster focus and movement) are pure:
no discord, no storage, no randomness, no clock. ``scenario`` reads the shared reference situations
(``monster-ai-scenarios.json``) into the AI's own types; ``cli`` is ``python -m bot monster-ai``.
"""
