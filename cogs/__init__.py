"""Discord cogs: one package per ruleset, plus the shared cogs."""
