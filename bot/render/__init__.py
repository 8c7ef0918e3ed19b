"""Pillow drawing primitives shared by the rulesets' board renderers (pure)."""
