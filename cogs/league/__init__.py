"""Leagues: the roster ledger, the entry draft, ante picks and standings.

``ledger``, ``draft``, ``ante`` and ``standings`` are the pure core (no discord, no storage, no
clock: times are passed in as floats). The cog and the storage come later and only adapt them.
"""
