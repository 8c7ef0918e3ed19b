"""Glossaries (``cogs/<ruleset>/glossary.toml``, ``bot/i18n/glossary.toml``): each term is the
word the ruleset's seed uses, quoted from the seed; the Japanese catalogues use it and none of its
drift; one name per thing; and the mechanical typography of Japanese text (full-width punctuation
in sentences, one middle dot, no 既定).

The seeds are the Japanese rules texts in ``../shared/seeds`` (outside the repository); the quote
checks skip when that folder is absent, the catalogue checks never do."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import _SOURCES

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"
GLOSSARIES = sorted([*ROOT.glob("cogs/*/glossary.toml"), ROOT / "bot" / "i18n" / "glossary.toml"])
RULESETS = ("apeiron", "arena", "dungeon", "esper", "tactics")


KANA_KANJI = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
# what ends a Japanese phrase: a letter or a closing bracket (not 「, which opens a quoted "?")
ENDS_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff」）』】]")
# Spans whose half-width punctuation is right: code spans, placeholders, the seed's own (L).
KEPT = re.compile(r"`[^`]*`|\{[^{}]*\}|\(L\)")


@dataclass(frozen=True)
class Term:
    glossary: str
    key: str
    en: str
    ja: str
    seed: str
    drift: tuple[str, ...] = ()
    drift_pattern: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    used: bool = True
    forms: tuple[str, ...] = ()  # inflected forms the catalogues may use (吹き飛ばされた)

    def used_in(self, text: str) -> bool:
        return any(word in text for word in (self.ja, *self.forms))


@dataclass(frozen=True)
class Glossary:
    path: Path
    ruleset: str
    seed: str | None
    catalogues: tuple[str, ...]
    terms: tuple[Term, ...] = field(default=())


def load(path: Path) -> Glossary:
    data: dict[str, Any] = tomllib.loads(path.read_text("utf-8"))
    head = data["glossary"]
    name = str(path.relative_to(ROOT))
    terms = tuple(
        Term(
            glossary=name,
            key=entry["key"],
            en=entry["en"],
            ja=entry["ja"],
            seed=entry.get("seed", ""),
            drift=tuple(entry.get("drift", ())),
            drift_pattern=tuple(entry.get("drift_pattern", ())),
            keys=tuple(entry.get("keys", ())),
            used=entry.get("used", True),
            forms=tuple(entry.get("forms", ())),
        )
        for entry in data["term"]
    )
    return Glossary(path, head["ruleset"], head.get("seed"), tuple(head["catalogues"]), terms)


ALL = [load(path) for path in GLOSSARIES]
TERMS = [term for glossary in ALL for term in glossary.terms]


def ja_files(folders: tuple[str, ...]) -> list[Path]:
    """The Japanese catalogue files of the given folders (``"*"``: every catalogue folder)."""
    chosen = _SOURCES if folders == ("*",) else [ROOT / folder for folder in folders]
    return sorted(p for folder in chosen for p in folder.glob("*ja.json"))


def entries(files: list[Path]) -> Iterator[tuple[str, str, str]]:
    """(file, key, Japanese text) of each catalogue entry (file relative to the repository)."""
    for path in files:
        name = str(path.relative_to(ROOT))
        for key, value in json.loads(path.read_text("utf-8")).items():
            yield name, key, value


def by_key(files: list[Path]) -> dict[str, str]:
    return {key: value for _, key, value in entries(files)}


# --- the glossaries themselves ------------------------------------------------------------------


def test_every_ruleset_has_a_glossary_and_terms_are_unique() -> None:
    assert {g.ruleset for g in ALL} >= set(RULESETS)
    for glossary in ALL:
        keys = [term.key for term in glossary.terms]
        assert len(keys) == len(set(keys)), glossary.path
        assert glossary.terms, glossary.path
        for term in glossary.terms:
            assert term.key and term.en and term.ja, term
            # a drift word that is the term itself would forbid the term
            assert all(word not in term.ja for word in term.drift), term
            for pattern in term.drift_pattern:
                assert not re.search(pattern, term.ja), term


def test_each_term_is_quoted_from_a_line_of_its_seed() -> None:
    for glossary in ALL:
        if glossary.seed is None:
            for term in glossary.terms:  # shared words name their evidence in each term
                assert term.seed, term
            continue
        path = SEEDS / glossary.seed
        if not path.exists():
            pytest.skip(f"the seeds are not beside the repository ({SEEDS})")
        lines = path.read_text("utf-8").splitlines()
        for term in glossary.terms:
            assert term.ja in term.seed, f"{term.key}: the quote does not use {term.ja}"
            assert any(term.seed in line for line in lines), f"{term.key}: not in {path.name}"


def test_shared_terms_quote_the_seeds_they_name() -> None:
    """The shared glossary's terms cite ``<seed file>: <quote>``."""
    shared = [g for g in ALL if g.seed is None]
    if not SEEDS.exists():
        pytest.skip(f"the seeds are not beside the repository ({SEEDS})")
    for glossary in shared:
        for term in glossary.terms:
            if ": " not in term.seed:
                continue  # a choice between the catalogues' words, said so in the term
            name, quote = term.seed.split(": ", 1)
            assert term.ja in quote, term.key
            lines = (SEEDS / name).read_text("utf-8").splitlines()
            assert any(quote in line for line in lines), term.key


# --- the catalogues against the glossaries --------------------------------------------------------


@pytest.mark.parametrize("glossary", ALL, ids=lambda g: g.ruleset)
def test_no_catalogue_uses_a_drift_word(glossary: Glossary) -> None:
    found = []
    for name, key, value in entries(ja_files(glossary.catalogues)):
        for term in glossary.terms:
            words = [w for w in term.drift if w in value]
            words += [p for p in term.drift_pattern if re.search(p, value)]
            found += [f"{name} {key}: {w!r} for {term.ja}" for w in words]
    assert found == []


@pytest.mark.parametrize("glossary", ALL, ids=lambda g: g.ruleset)
def test_catalogues_use_the_glossary_terms(glossary: Glossary) -> None:
    files = ja_files(glossary.catalogues)
    texts = by_key(files)
    unused = [t.ja for t in glossary.terms if t.used and not any(map(t.used_in, texts.values()))]
    assert unused == []
    wrong = [
        (term.ja, key, texts.get(key))
        for term in glossary.terms
        for key in term.keys
        if not term.used_in(texts.get(key, ""))
    ]
    assert wrong == []


# --- typography -----------------------------------------------------------------------------------


def _half_width_punctuation(value: str) -> list[str]:
    """Half-width , : ! ? after Japanese, and ( ) beside a Japanese letter, outside code spans
    and placeholders (``sha256(seed)`` and ``「?」`` stay)."""
    text = KEPT.sub(lambda m: "\0" * len(m.group()), value)
    found = []
    for i, char in enumerate(text):
        if char not in ",:!?()":
            continue
        before = text[:i].rstrip(" ")[-1:]
        after = text[i + 1 :].lstrip(" ")[:1]
        if char in "()":  # "(" beside a Japanese letter, ")" after one inside
            near = any(c and KANA_KANJI.match(c) for c in (before, after if char == "(" else ""))
        else:
            near = bool(before and ENDS_JAPANESE.match(before))
        if near:
            found.append(f"{char!r} at {i}")
    # a pair opened full-width and closed half-width, or the reverse
    opened: list[str] = []
    for char in text:
        if char in "(（":
            opened.append(char)
        elif char in ")）" and opened and (opened.pop() == "（") != (char == "）"):
            found.append("mixed pair")
    return found


def test_japanese_sentences_use_full_width_punctuation() -> None:
    bad = [
        f"{name} {key}: {hits}"
        for name, key, value in entries(ja_files(("*",)))
        if KANA_KANJI.search(value) and (hits := _half_width_punctuation(value))
    ]
    assert bad == []


def test_one_middle_dot_and_no_kitei() -> None:
    """``・`` is the one middle dot of Japanese text (core's titles already separate fields with
    it); 既定 is jargon for "default": option texts say 指定なしの場合, prompts 無回答時."""
    dots = [f"{n} {k}" for n, k, v in entries(ja_files(("*",))) if "·" in v]
    kitei = [f"{n} {k}" for n, k, v in entries(ja_files(("*",))) if "既定" in v]
    assert (dots, kitei) == ([], [])


def test_the_punctuation_check_catches_what_it_should() -> None:
    assert _half_width_punctuation("突進の判定(A {dice_A}、B {dice_B}): 次") != []
    assert _half_width_punctuation("決闘終了: 勝ち") != []
    assert _half_width_punctuation("（A {x})") == ["mixed pair"]
    assert _half_width_punctuation("例：`前進 right`、{a}: {b}、(L)キャラクター、10:1") == []
    assert _half_width_punctuation("sha256(seed)（公開済み）、sha256(seed) は「?」の後") == []
    assert _half_width_punctuation("押し出せない(壁か障害物)。") != []
