"""Dice expressions for ``/roll``: ``2d6+1``, ``3d6``, ``4d6kh3``, ``d20-2``, ``2d20kl1+1d4``.

A small grammar of our own rather than d20: d20 draws from the ``random`` module, and every die
this bot rolls must come from a committed stream (``bot.dice``) so that anyone can verify it.

    expr  := term (("+" | "-") term)*
    term  := dice | integer
    dice  := [count] ("d" | "D") sides [("kh" | "kl" | "dh" | "dl" | "k") integer]

Pure; rejections are :class:`RollError` with a message key.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from bot.dice import Dice

MAX_DICE = 100
MAX_SIDES = 1000
MAX_TERMS = 20
MAX_CHARS = 100  # not counting spaces
# Spaces included: MAX_CHARS ignores them, and a padded input must not cost the parser or the title.
MAX_INPUT_CHARS = 200
# Over every term: each die is shown in the breakdown (up to ``~~1000~~, ``), which must fit in
# one embed description with room to spare (20 terms × 5 such dice is about 1,300 characters).
MAX_TOTAL_DICE = 100

# Spaces may stand between tokens and inside a dice term ("4d6 kh3"), never inside a number: with
# the spaces simply deleted, "1d20 5" would silently read as 1d205.
_TOKEN = re.compile(
    r"\s*(?:(?P<dice>(?P<count>\d*)\s*d\s*(?P<sides>\d+)"
    r"(?:\s*(?P<keep>kh|kl|dh|dl|k)\s*(?P<n>\d+))?)"
    r"|(?P<int>\d+)|(?P<op>[+-]))",
    re.IGNORECASE,
)


class RollError(ValueError):
    def __init__(self, key: str, **params: object) -> None:
        super().__init__(f"{key} {params}")
        self.key = key
        self.params = params


@dataclass(frozen=True)
class DiceTerm:
    count: int
    sides: int
    keep: str | None = None  # kh, kl, dh, dl
    n: int = 0

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}" + (f"{self.keep}{self.n}" if self.keep else "")


@dataclass(frozen=True)
class Term:
    sign: int
    value: DiceTerm | int


@dataclass
class TermResult:
    term: Term
    rolls: list[int] = field(default_factory=list)
    kept: list[bool] = field(default_factory=list)
    total: int = 0


@dataclass
class RollResult:
    expression: str
    terms: list[TermResult]

    @property
    def total(self) -> int:
        return sum(r.term.sign * r.total for r in self.terms)

    def breakdown(self, limit: int | None = None) -> str:
        """``4d6kh3 (6, 5, ~~1~~, 4) + 1 = 16`` in Discord markdown, at most ``limit`` characters
        (the dice are cut with "…", the total is always shown)."""
        parts = []
        for i, r in enumerate(self.terms):
            sign = "-" if r.term.sign < 0 else ("+" if i else "")
            if isinstance(r.term.value, DiceTerm):
                shown = ", ".join(
                    str(v) if keep else f"~~{v}~~" for v, keep in zip(r.rolls, r.kept, strict=True)
                )
                body = f"{r.term.value} ({shown})"
            else:
                body = str(r.term.value)
            parts.append(f"{sign} {body}".strip() if sign else body)
        total = f" = **{self.total}**"
        text = " ".join(parts)
        if limit is not None and len(text) + len(total) > limit:
            # Cut between the dice, never inside one (a "~~1~~" cut in two breaks the markdown).
            text = text[: max(0, limit - len(total) - 2)].rsplit(" ", 1)[0] + " …"
        return text + total


def displayed(text: str) -> str:
    """The expression as the roll shows it: NFKC, runs of spaces as one."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def parse(text: str) -> list[Term]:
    # Measured as typed first: before NFKC has to read a long input, and whatever its spaces.
    if len(text) > MAX_INPUT_CHARS:
        raise RollError("roll.too_long_spaces", limit=MAX_INPUT_CHARS)
    source = unicodedata.normalize("NFKC", text).strip()
    if not source:
        raise RollError("roll.empty")
    if len(re.sub(r"\s", "", source)) > MAX_CHARS:
        raise RollError("roll.too_long", limit=MAX_CHARS)
    if len(source) > MAX_INPUT_CHARS:  # NFKC may lengthen a character ("㍱" is "hPa")
        raise RollError("roll.too_long_spaces", limit=MAX_INPUT_CHARS)
    terms: list[Term] = []
    pos, sign, expect_term, dice = 0, 1, True, 0
    while pos < len(source):
        match = _TOKEN.match(source, pos)
        if match is None or match.end() == pos:
            raise RollError("roll.unexpected", at=source[pos : pos + 10].strip())
        pos = match.end()
        if match["op"]:
            if not expect_term:
                sign, expect_term = (1 if match["op"] == "+" else -1), True
            elif match["op"] == "-" and not terms and sign == 1:  # one leading minus, not "--"
                sign = -1
            else:
                raise RollError("roll.unexpected", at=match["op"])
            continue
        if not expect_term:
            raise RollError("roll.unexpected", at=match.group(0).strip())
        if match["dice"]:
            count = int(match["count"] or 1)
            sides = int(match["sides"])
            keep = (match["keep"] or "").lower() or None
            if keep == "k":
                keep = "kh"
            n = int(match["n"] or 0)
            if count < 1:  # "0d6": "at most 100 dice" would not say what is wrong
                raise RollError("roll.bad_count", limit=MAX_DICE)
            if count > MAX_DICE:
                raise RollError("roll.too_many_dice", limit=MAX_DICE)
            if not 2 <= sides <= MAX_SIDES:
                raise RollError("roll.bad_sides", limit=MAX_SIDES)
            if keep and not 1 <= n <= count:
                raise RollError("roll.bad_keep", count=count)
            dice += count
            if dice > MAX_TOTAL_DICE:
                raise RollError("roll.too_many_dice_total", limit=MAX_TOTAL_DICE)
            terms.append(Term(sign, DiceTerm(count, sides, keep, n)))
        else:
            terms.append(Term(sign, int(match["int"])))
        sign, expect_term = 1, False
        if len(terms) > MAX_TERMS:
            raise RollError("roll.too_many_terms", limit=MAX_TERMS)
    if expect_term:
        raise RollError("roll.incomplete")
    if not any(isinstance(term.value, DiceTerm) for term in terms):
        raise RollError("roll.no_dice")
    return terms


def roll(text: str, dice: Dice) -> RollResult:
    """Parse and roll, drawing dice left to right, each term's dice in order."""
    terms = parse(text)
    results = []
    for term in terms:
        if isinstance(term.value, int):
            results.append(TermResult(term, total=term.value))
            continue
        spec = term.value
        values = [dice.roll(spec.sides) for _ in range(spec.count)]
        kept = [True] * len(values)
        if spec.keep:
            order = sorted(
                range(len(values)), key=lambda i: values[i], reverse=spec.keep in ("kh", "dl")
            )
            keep_count = spec.n if spec.keep in ("kh", "kl") else len(values) - spec.n
            chosen = set(order[:keep_count])
            kept = [i in chosen for i in range(len(values))]
        total = sum(v for v, k in zip(values, kept, strict=True) if k)
        results.append(TermResult(term, values, kept, total))
    return RollResult(displayed(text), results)
