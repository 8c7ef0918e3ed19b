"""The register of Japanese text (issue 35), for tests/test_japanese_register.py: a DM to one
player ends its sentences in です・ます forms; a post in the game's channel ends none in them.

A transcript (``bot.demo``'s ``transcript-ja.txt``) is cut into blocks: ``--- DM → <user> ---``
opens a DM, ``=== <title> ===`` a channel post. Each line is then read as the reader would:

- **Data is exempt.** Lines without kana (ids, dice, squares), the items of a list (``- `` a
  sheet's or hand's cards, ``1. `` a numbered choice), quoted card text (``> ``), the dice proofs
  and the board's file name are not sentences. In a line, code spans, mentions, timestamps and
  the glossaries' terms that look like verbs (右を向く、向きを変えない: the names of choices)
  read as nouns, and terse parenthesised asides (``（無回答時）``) and quotations
  (``「実はそこにいた」``) are set aside: an aside may be terse in either register (one that
  holds a 。 is read as the sentences it holds, one that ends in だ is not terse).
- **A DM's sentences are polite.** A line is cut into segments at 。！？ and at ``：``. A segment
  that ends in a predicate must end in a polite form (です、ます、ました、ません、ください、
  でしょう…). A segment without a predicate (``現在地：E4``, ``…の勝利！``, ``向きは↓下。``) says
  nothing about register and passes. What comes before a ``：`` is a label, and what follows the
  last ``：`` of a line that does not end in 。！？ is a field's value (``敗北条件：自分が死亡
  している``): both are data. A predicate is found by its ending: a verb's dictionary or past
  form (〜する、〜した、〜できる), ない, だ, an adjective's い after a kanji or し, the casual
  〜て, and any of these before か.
- **A channel post has no polite ending.** Anywhere in a channel line (asides included: the
  channel reads them too), です／ます forms before a clause's end are flagged.

:func:`key_of` names the catalogue entry a flagged sentence most likely comes from, so that a
failure points at the key to fix."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.i18n import _SOURCES

RULESETS = ("arena", "tactics", "dungeon", "apeiron", "esper")
SHARED_COGS = ("league", "away", "reminders", "privacy", "game")  # catalogues no ruleset owns
# Esper's demo is played with seven seats (the fixture's five send fewer of its texts: with seed
# 7, 2 prompts to join a combat against 25, 5 uses of 同調 against 14; the transcript is 2.7
# times as long).
PLAYERS = {"esper": 7}
SEED = 7

DM_HEAD = "--- DM → "
POST_HEAD = "=== "

# --- reading a line ------------------------------------------------------------------------------

KANA = re.compile(r"[\u3040-\u30ff]")
# Not sentences: list items, quoted card text, the dice proofs, the demo's board line.
DATA_LINE = re.compile(r"^\s*(?:[-–]\s|\d+\.\s|>\s?|\[ダイスの証明\]|次 |シード |\(board: )")
CODE = re.compile(r"`[^`]*`")
MENTION = re.compile(r"<[@#][!&]?\d+>|<t:\d+(?::[a-zA-Z])?>")
NOUN = "Ｘ"  # what a code span or a mention reads as: a noun
ASIDE = re.compile(r"（[^（）]*）|\([^()]*\)")
QUOTE = re.compile(r"「[^「」]*」|『[^『』]*』")
MARKUP = re.compile(r"\*\*|__|~~|(?<!\w)\*|\*(?!\w)")
# where a sentence ends, and where a label ends
SENTENCE_END = "。！？!?"
LABEL_END = "："
# what may trail a sentence's last word: spaces, closing marks, emoji and other symbols, ellipses
TRAILING = re.compile(r"[\s」』）】\]\)…‥・、,.\-—–→←↑↓]+$|[^\w\s]+$")

POLITE = re.compile(
    r"(?:です|ます|ました|ません|ませんでした|でした|でしょう|ましょう|ください|下さい|なさい"
    r"|ですか|ますか|ませんか|ましょうか|ですね|ますね|ですよ|ますよ|どうぞ)$"
)
# a predicate's plain ending: a verb's dictionary or past form, ない, だ, an adjective, casual て
PLAIN = re.compile(
    r"(?:(?<=[\u3040-\u309f\u4e00-\u9fff])[うくぐすつぬぶむるた]"
    r"|だ|ない|(?<=[\u4e00-\u9fffし])い|(?<=[\u3040-\u309f\u4e00-\u9fff])て)$"
)
# the plain copula: a register break even in a terse aside
COPULA = re.compile(r"(?:だ|だった|である|ではない|じゃない)$")
# words that end like a predicate and are not one (particles, counters, adverbs)
NOT_PREDICATE = re.compile(r"(?:ずつ|ひとつ|ふたつ|いくつ|すべて|全て|かつ|および|ほど|まだ|ただ)$")
# a polite form at a clause's end, for the channel: before a sentence's end, a bracket, a comma,
# a line's end, or a particle that closes it
POLITE_ANYWHERE = re.compile(
    r"(?:です|ます|ました|ません|でした|でしょう|ましょう|ください)"
    r"(?=$|[。！？!?、，）」』\)\s—:：]|か|ね|よ|が|けど|から|ので|のに)"
)


@cache
def _terms() -> re.Pattern[str]:
    """The glossaries' terms that read like a plain predicate (右を向く, 向きを変えない): names
    of a choice, not sentences, wherever a list or a label names them."""
    root = Path(__file__).resolve().parent.parent
    paths = [*root.glob("cogs/*/glossary.toml"), root / "bot" / "i18n" / "glossary.toml"]
    words = {
        str(term["ja"])
        for path in paths
        for term in tomllib.loads(path.read_text("utf-8")).get("term", [])
        if PLAIN.search(str(term["ja"]))
    }
    return re.compile("|".join(sorted(map(re.escape, words), key=len, reverse=True)) or "(?!)")


def _nouns(text: str) -> str:
    """Code spans, mentions, timestamps and the glossaries' predicate-like terms read as
    nouns; markup goes."""
    text = MARKUP.sub("", MENTION.sub(NOUN, CODE.sub(NOUN, text)))
    return _terms().sub(NOUN, text)


def _without_asides(text: str) -> tuple[str, list[str]]:
    """The line without its parenthesised asides (nested ones too) and quotations, and the
    asides that hold whole sentences (a 。 inside) or end in the plain copula (だ, である):
    those are read on their own, other terse ones (``（カードを1枚失う）``) not at all."""
    held: list[str] = []

    def aside(match: re.Match[str]) -> str:
        inner = match.group()[1:-1]
        end = _ending(inner)
        if re.search(f"[{SENTENCE_END}]", inner) or (
            COPULA.search(end) and not NOT_PREDICATE.search(end)
        ):
            held.append(inner)
        return ""

    previous = None
    while previous != text:
        previous, text = text, ASIDE.sub(aside, QUOTE.sub(NOUN, text))
    return text, held


def _ending(segment: str) -> str:
    """The segment without what trails its last word (spaces, closing marks, emoji)."""
    previous = None
    while previous != segment:
        previous, segment = segment, TRAILING.sub("", segment)
    return segment


def is_plain_predicate(segment: str) -> bool:
    """Whether ``segment`` ends in a predicate of the plain form (〜する、〜した、〜ない、〜だ,
    or one of these before the question's か)."""
    end = _ending(segment)
    if POLITE.search(end):
        return False
    if end.endswith("か"):
        end = end[:-1]
        if POLITE.search(end):
            return False
    return bool(PLAIN.search(end)) and not NOT_PREDICATE.search(end)


@dataclass(frozen=True)
class Offence:
    """One flagged sentence: where (``ruleset``, the block's ``head``), the ``line`` as sent,
    the ``sentence`` that broke the register, and the ``block``'s lines."""

    ruleset: str
    kind: str  # "dm" or "channel"
    head: str
    line: str
    sentence: str
    block: tuple[str, ...]


def dm_sentences(line: str) -> Iterator[str]:
    """The segments of a DM line that must be polite: those that end in a predicate of the
    plain form (labels, field values, data and asides are not read)."""
    if not line.strip() or DATA_LINE.match(line) or not KANA.search(line):
        return
    text, asides = _without_asides(_nouns(line))
    for piece in (text, *asides):
        # cut at sentence ends and labels, remembering which mark ended each segment
        pieces = [*re.split(rf"([{SENTENCE_END}{LABEL_END}])", piece), ""]
        segments = list(zip(pieces[::2], pieces[1::2], strict=True))
        last_text = max((i for i, (seg, _) in enumerate(segments) if seg.strip()), default=-1)
        for i, (segment, mark) in enumerate(segments):
            if mark == LABEL_END:
                continue  # a label
            after_label = i > 0 and segments[i - 1][1] == LABEL_END
            if i == last_text and not mark and after_label:
                continue  # a field's value at the line's end
            if is_plain_predicate(segment):
                yield segment.strip()


def channel_sentences(line: str) -> Iterator[str]:
    """The polite endings of a channel line (code spans and quotations set aside)."""
    if not line.strip() or DATA_LINE.match(line):
        return
    text = QUOTE.sub(NOUN, _nouns(line))
    for clause in re.split(rf"(?<=[{SENTENCE_END}])", text):
        if POLITE_ANYWHERE.search(clause):
            yield clause.strip()


# --- transcripts ---------------------------------------------------------------------------------


def blocks(transcript: str) -> Iterator[tuple[str, list[str]]]:
    """Each block of a transcript as (its head line, its lines); what precedes the first block
    (the demo's own header) is no message."""
    head: str | None = None
    lines: list[str] = []
    for line in transcript.splitlines():
        if line.startswith(DM_HEAD) or line.startswith(POST_HEAD):
            if head is not None:
                yield head, lines
            head, lines = line, []
        elif head is not None:
            lines.append(line)
    if head is not None:
        yield head, lines


def offences(ruleset: str, transcript: str) -> list[Offence]:
    found = []
    for head, lines in blocks(transcript):
        dm = head.startswith(DM_HEAD)
        # a post's title is channel text too (the DM's head line is the demo's, not the bot's)
        checked = lines if dm else [head.strip("= ").rsplit(" ===", 1)[0], *lines]
        for line in checked:
            for sentence in dm_sentences(line) if dm else channel_sentences(line):
                kind = "dm" if dm else "channel"
                found.append(Offence(ruleset, kind, head, line, sentence, (head, *lines)))
    return found


# --- which key ------------------------------------------------------------------------------------


@cache
def _templates() -> tuple[tuple[str, str, re.Pattern[str], int], ...]:
    """(file, key, a line of the template as a pattern, its literal length) of every line of
    every Japanese entry (a transcript's line is one line of a help text)."""
    root = Path(__file__).resolve().parent.parent
    found = []
    for folder in _SOURCES:
        for path in sorted(folder.glob("*ja.json")):
            name = str(path.relative_to(root))
            for key, value in json.loads(path.read_text("utf-8")).items():
                for text in value.splitlines():
                    parts = re.split(r"\{[^{}]*\}", text)
                    literal = sum(len(p.strip()) for p in parts)
                    if literal >= 3:
                        pattern = re.compile(".*?".join(re.escape(p) for p in parts))
                        found.append((name, key, pattern, literal))
    return tuple(found)


def key_of(line: str, sentence: str, ruleset: str = "") -> str:
    """The catalogue entry the flagged ``sentence`` most likely comes from: of the templates
    that match in ``line`` and share the sentence's ending (markup aside), those of the
    ruleset's own and the shared catalogues first, the one with the most literal text (``?``
    when none matches)."""
    end = _ending(sentence).rsplit(NOUN, 1)[-1][-6:]  # its last words, a placeholder's value aside
    own = f"cogs/{ruleset}/" if ruleset else ""
    shared = ("bot/", *(f"cogs/{name}/" for name in SHARED_COGS))
    for wanted in (end, ""):  # a template that has the ending, else any that matches
        best: tuple[bool, int, str] | None = None
        for name, key, pattern, literal in _templates():
            if wanted and wanted not in MARKUP.sub("", pattern.pattern.replace("\\", "")):
                continue
            if not pattern.search(line):
                continue
            score = (name.startswith((own, *shared)) if own else True, literal, f"{key} ({name})")
            if best is None or score[:2] > best[:2]:
                best = score
        if best:
            return best[2]
    return "?"


def _around(block: tuple[str, ...], line: str, *, room: int = 6) -> list[str]:
    """The block's head and its lines near ``line`` (a post of Esper's may run to fifty)."""
    lines = [text for text in block[1:] if text.strip()]
    at = lines.index(line) if line in lines else 0
    start, end = max(0, at - room), min(len(lines), at + room + 1)
    return [
        block[0],
        *(["…"] if start else []),
        *lines[start:end],
        *(["…"] if end < len(lines) else []),
    ]


def report(found: list[Offence], *, limit: int = 40) -> str:
    """The offences for a failure message, one entry per catalogue key (a template's repeats
    and its other names and numbers count once; a line no key matches is its own entry): the
    key, how often it was sent, the flagged sentence, its line, and the block around it. A
    summary line lists the keys first."""
    keys: dict[str, str] = {}  # a line, digits folded -> its likely key
    groups: dict[str, list[Offence]] = {}
    for offence in found:
        folded = offence.kind + re.sub(r"\d+", "N", offence.line)
        if folded not in keys:
            keys[folded] = key_of(offence.line, offence.sentence, offence.ruleset)
        key = keys[folded]
        groups.setdefault(f"{offence.kind} {key if key != '?' else folded}", []).append(offence)
    parts = [f"{len(groups)} keys: " + ", ".join(sorted({k.split(" (")[0] for k in groups}))]
    for name, group in list(groups.items())[:limit]:
        first = group[0]
        want = "です・ます" if first.kind == "dm" else "plain form (no です／ます)"
        block = "\n".join("    | " + line for line in _around(first.block, first.line))
        parts.append(
            f"[{first.ruleset} {name}] {len(group)}× wants {want}: {first.sentence!r}\n"
            f"  line: {first.line}\n{block}"
        )
    more = len(groups) - limit
    return "\n\n".join(parts) + (f"\n\n… and {more} more keys" if more > 0 else "")
