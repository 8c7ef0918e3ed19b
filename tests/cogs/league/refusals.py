"""What every refusal of the league's pure formats must be: a ValueError (what callers caught
before the keys) carrying a key whose sentence exists in both languages, its parameters filled."""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import LANGS, catalogue, t
from bot.ruleset import RuleError


def assert_worded(refusal: RuleError, names: Iterable[str]) -> None:
    """``refusal`` reads whole in every language and quotes each of ``names``."""
    assert isinstance(refusal, ValueError)
    for lang in LANGS:
        assert refusal.key in catalogue(lang), (lang, refusal.key)
        text = t(lang, refusal.key, **refusal.params)
        assert "{" not in text, text
        assert all(name in text for name in names), text
