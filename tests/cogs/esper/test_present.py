"""The Esper presenter: every event the engine emits and every DM line, worded in English and
Japanese from games driven through the engine (the sample pack, committed streams, a few hand-set
situations); no raw key or placeholder reaches a reader, pack names come in the reader's
language, and the channel's words never carry a hidden fact."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.dice import DiceStream, ScriptedDice
from bot.i18n import catalogue, has
from bot.ruleset import Outcome, addressees
from cogs.esper import pack as packlib
from cogs.esper import present, rules
from cogs.esper.present import PRESENTER

ROOT = Path(__file__).resolve().parents[3]
LANGS = ("en", "ja")
SEED = bytes(range(32))
NAMES = {
    "A": "Aurora",
    "B": "ボレアリス",
    "C": "Cassie",
    "D": "Dana",
    "E": "Eiji",
    "F": "Fumi",
    "G": "Gus",
}
PACK = packlib.sample()
SUITS = "♠♥♦♣"


def _pack_names() -> dict[str, dict[str, str]]:
    out = {}
    for card_id in [*PACK.sheets, *PACK.planets, *PACK.abilities]:
        card = PACK.card(card_id)
        out[card_id] = {"en": card.name_en, "ja": card.name_ja}
    for sheet in PACK.sheets.values():
        for ability in sheet.abilities:
            out[ability.id] = {"en": ability.name_en, "ja": ability.name_ja}
    return out


PACK_NAMES = _pack_names()
OTHER = {"en": "ja", "ja": "en"}


def assert_clean(text: str, lang: str) -> None:
    """No raw key, no unfilled placeholder, no pack name in the other language."""
    assert "esper." not in text, text
    assert "{" not in text and "}" not in text, text
    for card_id, name in PACK_NAMES.items():
        foreign = name[OTHER[lang]]
        if foreign != name[lang]:
            assert foreign not in text, (lang, card_id, text)


# --- a game driven through the engine ------------------------------------------------------------


@dataclass
class Run:
    """A game on the sample pack: each step opened and resolved on committed streams; every
    event and DM worded and checked in both languages on the way."""

    state: rules.EsperState
    secret: DiceStream
    seed: bytes = SEED
    events: list[dict[str, Any]] = field(default_factory=list)
    public: dict[str, list[str]] = field(default_factory=lambda: {"en": [], "ja": []})
    private: dict[str, list[str]] = field(default_factory=lambda: {"en": [], "ja": []})
    dms: dict[str, list[str]] = field(default_factory=lambda: {"en": [], "ja": []})
    picked: set[str] = field(default_factory=set)
    n: int = 0

    @classmethod
    def new(cls, players: int = 5, seed: bytes = SEED, **options: Any) -> Run:
        secret = DiceStream(seed, "t:0:secret")
        seats = list(rules.SEATS[:players])
        state = rules.new_game("t", seats, options, DiceStream(seed, "t:0:pre"), secret)
        return cls(state, secret, seed)

    def open(self) -> None:
        self.n += 1
        self.state, events = rules.start_turn(
            self.state, DiceStream(self.seed, f"t:{self.n}:pre"), self.secret
        )
        self.word(events)
        self.check_views()

    def resolve(self, orders: Mapping[str, str] | None = None, dice: Any = None) -> None:
        dice = dice or DiceStream(self.seed, f"t:{self.n}:resolve", "0" * 64)
        self.state, events = rules.resolve(self.state, dict(orders or {}), dice, self.secret)
        self.word(events)
        self.check_views()

    def step(self, orders: Mapping[str, str] | None = None, dice: Any = None) -> None:
        self.open()
        self.resolve(orders, dice)

    def hidden_names(self) -> list[str]:
        """Names only a sheet's holder may know now: sheets neither opened nor anyone's
        silhouette (a silhouette is a sheet's name in public)."""
        if self.state.ended:
            return []
        for seat in self.state.seats.values():
            if seat.silhouette:
                self.picked.add(seat.silhouette)
        hidden = {
            s.sheet for s in self.state.seats.values() if not s.open and s.sheet not in self.picked
        }
        return [PACK_NAMES[i][lang] for i in hidden for lang in LANGS]

    def assert_public(self, text: str) -> None:
        for name in self.hidden_names():
            assert name not in text, (name, text)
        if not self.state.ended:
            assert not any(suit in text for suit in SUITS), text  # playing cards are private

    def word(self, events: Sequence[Any]) -> None:
        for event in events:
            obj = event.to_json()
            self.events.append(obj)
            is_public = addressees(obj) is None
            if obj["type"] in ("silhouettes", "silhouettes_changed"):
                self.picked |= set(obj["picks"].values())  # public from now on
            assert is_public == (obj["type"] not in present.PRIVATE), obj
            for lang in LANGS:
                lines = PRESENTER.event_lines([obj], lang, NAMES)
                if obj["type"] not in present.QUIET:
                    assert lines, (lang, obj)
                for line in lines:
                    assert_clean(line, lang)
                    if is_public:
                        self.assert_public(line)
                (self.public if is_public else self.private)[lang].extend(lines)

    def check_views(self) -> None:
        view = rules.view(self.state, None)
        for lang in LANGS:
            name = PRESENTER.step_name(view, lang, self.state.steps)
            assert_clean(name, lang)
            for title, value in PRESENTER.tallies(view, lang, NAMES):
                assert value.strip()
                assert_clean(title + "\n" + value, lang)
                self.assert_public(value)
            for seat in self.state.order:
                lines = PRESENTER.private_lines(rules.view(self.state, seat), seat, lang)
                for line in lines:
                    assert_clean(line, lang)
                self.dms[lang].extend(lines)
                for group in rules.choices(self.state, seat):
                    assert has(group.label_key), group.label_key
                    for choice in group.choices:
                        assert has(choice.label_key), choice.label_key
                        assert choice.reason_key is None or has(choice.reason_key)
                        assert_clean(choice.label(lang), lang)

    def types(self) -> set[str]:
        return {str(e["type"]) for e in self.events}

    def seat_with(self, alignment: str) -> str:
        return next(s for s in self.state.order if self.state.seats[s].alignment == alignment)

    def invaders(self) -> list[str]:
        return [s for s in self.state.order if rules.side_of(self.state, s) == rules.INVADER]

    def defenders(self) -> list[str]:
        return [s for s in self.state.order if rules.side_of(self.state, s) == rules.DEFENDER]


def to_turns(run: Run, start: Mapping[str, str] | None = None) -> None:
    """Deal and silhouettes by default; the ambush on P6-6 (the first defender as runner); every
    invader starts on P1 unless ``start`` says otherwise."""
    run.step()  # deal: all keep
    run.step()  # silhouettes: own characters'
    assert run.state.step == rules.START
    runner = run.defenders()[0]
    orders = {s: f"ambush P6-6 runner {runner}" for s in run.defenders()}
    orders.update({s: "start P1" for s in run.invaders()})
    orders.update(start or {})
    run.step(orders)
    assert run.state.step == rules.TURN


def line_of(lines: list[str], *parts: str) -> str:
    found = [line for line in lines if all(p in line for p in parts)]
    assert found, (parts, lines)
    return found[0]


# --- every event type has its words --------------------------------------------------------------


def emitted_types() -> set[str]:
    source = (ROOT / "cogs/esper/rules.py").read_text("utf-8")
    return set(re.findall(r"""Event\(\s*["'](\w+)["']""", source))


def seat_tally(view: dict[str, Any], lang: str, seat: str) -> str:
    """The tallies' line of one seat (one field, a line per seat led by its letter)."""
    ((_, value),) = PRESENTER.tallies(view, lang, NAMES)
    return next(line for line in value.splitlines() if line.startswith(f"**{seat}** "))


def test_every_event_type_the_engine_emits_has_words_in_both_languages() -> None:
    types = emitted_types()
    assert {"your_sheet", "conversion_result", "declared", "revealed"} <= types
    for kind in types:
        if kind in present.QUIET:
            continue
        prefix = f"esper.event.{kind}"
        keys = [k for k in catalogue("en") if k == prefix or k.startswith(prefix + ".")]
        assert keys, kind
        for key in keys:
            assert key in catalogue("ja"), key


def test_private_events_are_those_the_engine_addresses() -> None:
    """present.PRIVATE names exactly the event types the engine emits with ``to``."""
    tree = ast.parse((ROOT / "cogs/esper/rules.py").read_text("utf-8"))
    addressed: set[str] = set()
    public: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "Event"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            private = any(k.arg == "to" for k in node.keywords) or len(node.args) > 2
            (addressed if private else public).add(str(node.args[0].value))
    assert addressed == set(present.PRIVATE)
    assert not addressed & public


# --- games ---------------------------------------------------------------------------------------


def wander(run: Run, turns: int) -> None:
    """Invaders walk right round P1 and open their sheets: cards turn up, info and ability
    cards are drawn, damage falls, black holes and Rafnor happen."""
    for _ in range(turns):
        if run.state.ended:
            return
        if run.state.step != rules.TURN:
            run.step()
            continue
        seat = run.state.active
        assert seat is not None
        spot = run.state.seats[seat].spot or ""
        order = "open; move right; end" if spot.endswith("-0") else "move right; end"
        if spot == rules.RAFNOR:
            order = "move P2; end"
        run.step({seat: order})


@pytest.mark.parametrize("seed", [SEED, bytes(32), b"e" * 32], ids=["count", "zeros", "e"])
def test_a_walking_game_reads_in_both_languages(seed: bytes) -> None:
    run = Run.new(seed=seed)
    to_turns(run)
    wander(run, 60)
    types = run.types()
    assert {"your_sheet", "your_card", "silhouettes", "sides", "started", "turn", "moved"} <= types
    assert {"opened", "square"} <= types
    assert "ambush_set" in types
    # the sheet DM shows the whole sheet: name, alignment, ESP level, abilities, defeat
    sheet = rules.sheet_of(run.state, "A")
    for lang in LANGS:
        dm = line_of(run.private[lang], sheet.name(lang))
        assert "ESP" in dm
        assert all(a.name(lang) in dm for a in sheet.abilities)
    en = run.public["en"]
    assert not any("Turn 1: " in line for line in en)  # the post's first line names the turn
    assert line_of(en, "(Cassie)") or line_of(en, "(Aurora)")


def test_the_deal_words_refusals_and_the_dm_offers_them() -> None:
    first = Run.new()
    sheets = {s: first.state.seats[s].sheet for s in first.state.order}
    # A played its character this season; B played its character in its previous game
    history = {"A": {"season": [sheets["A"]]}, "B": {"previous": sheets["B"]}}
    run = Run.new(history=history)
    run.open()
    en = "\n".join(PRESENTER.private_lines(rules.view(run.state, "A"), "A", "en"))
    assert "`refuse`" in en
    ja = "\n".join(PRESENTER.private_lines(rules.view(run.state, "B"), "B", "ja"))
    assert "`直前拒否`" in ja
    run.resolve({"A": "refuse", "B": "refuse-last"})
    assert {"refused", "dealt"} <= run.types()
    assert line_of(run.public["en"], "Refusal", "A (Aurora)")
    assert line_of(run.public["ja"], "A（Aurora）", "拒否")
    assert "拒否1回" in seat_tally(rules.view(run.state, None), "ja", "A")


def test_refuse_last_and_its_failure() -> None:
    first = Run.new()
    sheets = {s: first.state.seats[s].sheet for s in first.state.order}
    plain = [s for s in first.state.order if not PACK.sheets[sheets[s]].lock]
    one = plain[0]
    two = next(
        s for s in plain if PACK.sheets[sheets[s]].alignment != PACK.sheets[sheets[one]].alignment
    )
    history = {s: {"previous": sheets[s]} for s in (one, two)}
    run = Run.new(history=history)
    run.open()
    # ``one`` has a sheet of its kind to change to, ``two`` none: its refuse-last fails
    for seat, give in ((one, True), (two, False)):
        alignment = PACK.sheets[sheets[seat]].alignment
        run.state.undealt[alignment] = (
            [
                i
                for i in PACK.sheets
                if PACK.sheets[i].alignment == alignment
                and not PACK.sheets[i].lock
                and i not in sheets.values()
            ][:1]
            if give
            else []
        )
    run.resolve({one: "refuse-last", two: "refuse-last"})
    assert {"refused_last", "refuse_last_failed"} <= run.types()
    # a failed refuse-last answers again like one that worked: only its seat is told why
    assert run.state.step == rules.DEAL and sorted(run.state.waiting) == sorted([one, two])
    assert line_of(run.public["ja"], "直前拒否", NAMES[two])
    assert line_of(run.private["ja"], "直前拒否は不成立")
    assert not any("不成立" in line for line in run.public["ja"])
    run.step()  # ``one`` keeps its new sheet
    assert "sheets_fixed" in run.types()


def test_repicks_and_balancing() -> None:
    run = Run.new()
    run.step()  # deal
    run.open()
    state = run.state
    # every seat wants an invader silhouette; two of them the same one
    for seat in state.order:
        state.seats[seat].card = "5♣"
    free = [s.id for s in PACK.sheets.values() if s.alignment != "EVIL"]
    orders = {seat: f"silhouette {free[min(i, 3)]}" for i, seat in enumerate(state.order)}
    run.resolve(orders)
    assert "repick" in run.types()
    assert run.state.step == rules.REPICK
    again = run.state.waiting
    run.open()
    taken = {run.state.seats[s].silhouette for s in run.state.order}
    options = [i for i in free if i not in taken and i not in run.state.pending["contested"]]
    run.resolve({s: f"silhouette {options[i]}" for i, s in enumerate(again)})
    assert run.state.step == rules.BALANCE  # no defenders: the invaders may change
    run.open()
    evil = [s.id for s in PACK.sheets.values() if s.alignment == "EVIL"]
    for lang in LANGS:
        lines = PRESENTER.private_lines(rules.view(run.state, "A"), "A", lang)
        assert line_of(lines, PACK.sheets[evil[0]].name(lang))
    # A and B both change to the same EVIL silhouette: B, later, keeps its own
    run.resolve({"A": f"silhouette {evil[0]}", "B": f"silhouette {evil[0]}"})
    assert {"balance", "silhouette_kept", "silhouettes_changed", "balance_cards"} <= run.types()
    assert run.state.step == rules.BALANCE_CARD
    run.step()  # all follow their new cards by default
    assert "balance_stands" in run.types() or run.state.step == rules.START


def scene(run: Run, spots: Mapping[str, str], active: str | None = None) -> None:
    """Put pieces on spots (before the turn step opens) and, optionally, hand the turn to
    ``active``."""
    for seat, spot in spots.items():
        run.state.seats[seat].spot = spot
    if active is not None:
        run.state.active = active
        run.state.waiting = [active]


def test_conversion_is_told_only_to_the_two_concerned() -> None:
    run = Run.new()
    to_turns(run)
    one, two = run.invaders()[:2]
    run.state.seats[one].sheet = "c07"  # EVIL (L): may convert c02
    run.state.seats[one].alignment = "EVIL"
    run.state.seats[two].sheet, run.state.seats[two].alignment = "c02", "GOOD"
    scene(run, {one: "P2-0", two: "P2-0"}, active=one)
    run.open()
    run.resolve({one: f"convert {two}; pass; end"}, ScriptedDice([1, 1]))
    result = [e for e in run.events if e["type"] == "conversion_result"]
    assert result and sorted(addressees(result[0]) or ()) == sorted([one, two])
    assert line_of(run.private["en"], "Conversion", "now EVIL")
    assert line_of(run.private["ja"], "改心", "EVIL")
    # the channel saw the attempt and the roll, never the result
    public = "\n".join(run.public["en"])
    assert "tries to convert" in public and "success" in public
    assert "now EVIL" not in public and "unchanged" not in public
    for lang in LANGS:
        mine = PRESENTER.private_lines(rules.view(run.state, two), two, lang)
        assert line_of(mine, "EVIL")
        theirs = PRESENTER.private_lines(rules.view(run.state, one), one, lang)
        assert line_of(theirs, "EVIL")
        others = [s for s in run.state.order if s not in (one, two)]
        for seat in others:
            lines = PRESENTER.private_lines(rules.view(run.state, seat), seat, lang)
            assert not any(f"{one}" in line and "EVIL" in line for line in lines[1:])


def test_abilities_peek_party_treat_and_a_skipped_support() -> None:
    run = Run.new()
    to_turns(run)
    one, two, three = run.invaders()[:3]
    state = run.state
    state.seats[one].sheet, state.seats[one].alignment = "c01", "GOOD"  # Far Sight: peek
    state.seats[one].hand = ["a09", "a05"]
    state.seats[two].damage = 1
    scene(run, {one: "P3-0", two: "P3-0", three: "P4-0"}, active=one)
    run.open()
    for lang in LANGS:
        lines = PRESENTER.private_lines(rules.view(run.state, one), one, lang)
        assert line_of(lines, PACK.abilities["a09"].name(lang))
        assert line_of(lines, PACK.sheets["c01"].abilities[1].name(lang))
    run.resolve({one: f"use c01b {two}; party {two}; convert {three}; end"})
    assert {"used", "peek", "party_proposed"} <= run.types()
    peek = next(e for e in run.events if e["type"] == "peek")
    assert addressees(peek) == (one,)
    assert line_of(run.private["en"], "You see", rules.sheet_of(run.state, two).name("en"))
    assert run.state.step == rules.PARTY
    run.step({two: "join"})
    assert {"party", "skipped", "skipped_why"} <= run.types()
    assert line_of(run.public["en"], "`convert")
    # why it was skipped is the seat's own business: its DM, not the channel
    assert line_of(run.private["ja"], "同じマスにいません")
    assert not any("同じマスにいません" in line for line in run.public["ja"])
    # the next turn of ``one``: treat its party mate, with a support card on it first
    scene(run, {}, active=one)
    run.state.step = rules.TURN
    run.step({one: f"use a09 {two}; treat {two}; end"})
    assert {"treated", "recovered"} <= run.types()
    assert "party 1" in seat_tally(rules.view(run.state, None), "en", one)


def test_cards_black_hole_rescue_death_and_teleport() -> None:
    run = Run.new()
    to_turns(run)
    one, two = run.invaders()[:2]
    state = run.state
    state.seats[one].sheet, state.seats[one].alignment = "c06", "GOOD"  # Jax: frees
    state.seats[two].black_hole, state.seats[two].last_spot = True, "P5-3"
    state.planets["P5-1"] = "p08"  # two ability cards
    scene(run, {one: "P5-0", two: "P5-3"}, active=one)
    run.step({one: "move right; end"})
    assert {"abilities", "ability_drawn"} <= run.types()
    drawn = next(e for e in run.events if e["type"] == "ability_drawn")
    assert addressees(drawn) == (one,)
    scene(run, {}, active=one)
    run.state.step = rules.TURN
    run.step({one: f"use c06a {two}; end"})
    assert {"freed", "black_hole"} - run.types() == {"black_hole"}
    # death on a storm
    run.state.planets["P5-2"] = "p10"
    run.state.seats[one].damage = rules.sheet_of(run.state, one).durability - 1
    scene(run, {one: "P5-1"}, active=one)
    run.state.step = rules.TURN
    run.step({one: "move right; end"})
    assert {"damaged", "died"} <= run.types()
    assert line_of(run.public["ja"], "死亡")
    # a teleport without a direction asks for one
    scene(run, {two: "P6-0"}, active=two)
    run.state.step = rules.TURN
    run.state.seats[two].black_hole = False
    run.open()
    run.state.seats[two].sheet = "c01"  # ESP 7
    run.resolve({two: "teleport 6; end"}, ScriptedDice([3]))
    assert run.state.step == rules.DIRECTION
    assert PRESENTER.step_name(rules.view(run.state, None), "en", 0).endswith("teleport direction")
    run.step({two: "left"})
    assert line_of(run.public["en"], "teleports to P6-4")


def test_declaration_objected_then_unopposed() -> None:
    run = Run.new()
    to_turns(run)
    active = run.state.active
    assert active is not None
    run.state.seats[active].alignment = rules.GOOD  # a SPECIAL may only declare-solo
    run.step({active: "declare"})
    assert run.state.step == rules.OBJECTION
    view = rules.view(run.state, None)
    assert PRESENTER.channel_choices(view)
    assert PRESENTER.step_name(view, "en", 0) == f"Objection to {active}'s declaration"
    voter = run.state.waiting[0]
    run.open()  # the DMs are written for the open step
    for lang in LANGS:
        lines = PRESENTER.private_lines(rules.view(run.state, voter), voter, lang)
        assert line_of(lines, active, "`object`" if lang == "en" else "`反対`")
    run.resolve({voter: "object"})
    assert "declaration_opposed" in run.types()
    assert run.state.step == rules.TURN
    assert line_of(run.public["en"], "Objections to", "play goes on")
    # the same turn goes on: its main action, then the next seat declares unopposed
    run.step({active: "pass; end"})
    nxt = run.state.active
    assert nxt is not None
    run.state.seats[nxt].alignment = rules.EVIL
    run.step({nxt: "open; declare"})
    run.step()  # everyone accepts by default
    assert {"declaration_unopposed", "revealed"} <= run.types()
    assert run.state.ended == rules.DECLARED
    outcome = rules.outcome(run.state)
    users = {s: 100 + i for i, s in enumerate(run.state.order)}
    for lang in LANGS:
        text = PRESENTER.outcome_text(outcome, lang, users, "rules")
        assert_clean(text, lang)
        for seat, grade in outcome.grades.items():
            assert f"<@{users[seat]}>" in text
            assert (f"grade {grade}" if lang == "en" else f"{grade}級") in text
    assert "unopposed" in PRESENTER.outcome_text(outcome, "en", users, "rules")
    revealed = line_of(run.public["en"], "All sheets revealed")
    for seat in run.state.order:
        assert rules.sheet_of(run.state, seat).name("en") in revealed


def test_solo_declaration() -> None:
    run = Run.new()
    to_turns(run)
    active = run.state.active
    assert active is not None
    run.state.seats[active].alignment = "SPECIAL"
    for seat in run.state.order:
        if seat != active:
            run.state.seats[seat].black_hole = True
    run.step({active: "declare-solo"})
    assert "declared_solo" in run.types()
    run.step()  # the living in their black holes accept by default
    assert "revealed" in run.types()
    text = PRESENTER.outcome_text(rules.outcome(run.state), "ja", {}, "rules")
    assert "単独勝利宣言" in text


def test_stage_end_flips_and_views() -> None:
    run = Run.new()
    to_turns(run)
    active = run.state.active
    assert active is not None
    run.state.seats[active].info = rules.INFO_TO_END
    run.step({active: "pass; end"})
    assert {"stage_end", "flipped", "views_due"} <= run.types()
    assert run.state.step == rules.SEE
    seat = run.state.waiting[0]
    run.open()
    for lang in LANGS:
        lines = PRESENTER.private_lines(rules.view(run.state, seat), seat, lang)
        assert line_of(lines, "`see" if lang == "en" else "`閲覧")
    target = run.state.pending["see"][seat]["of"][0]
    run.resolve({seat: f"see {target}"})
    seen = next(e for e in run.events if e["type"] == "seen")
    assert addressees(seen) == (seat,)
    name = rules.sheet_of(run.state, target)
    assert line_of(run.private["en"], name.name("en"))
    assert line_of(run.private["ja"], name.name("ja"))
    assert run.state.ended == rules.STAGE_END


def test_turn_limit_resign_and_ruling() -> None:
    run = Run.new(turn_limit=2)
    to_turns(run)
    wander(run, 4)
    assert "turn_limit" in run.types()
    assert "turn limit" in PRESENTER.outcome_text(rules.outcome(run.state), "en", {}, "rules")
    run = Run.new()
    to_turns(run)
    state, events = rules.resign(run.state, "C")
    run.state = state
    run.word(events)
    assert line_of(run.public["en"], "C (Cassie) leaves")
    run.check_views()
    assert "離脱" in seat_tally(rules.view(run.state, None), "ja", "C")
    state, events = rules.adjudicate(run.state)
    run.state = state
    run.word(events)
    text = PRESENTER.outcome_text(rules.outcome(run.state), "en", {}, "adjudicated")
    assert "ruling" in text


def test_a_fight_and_the_ambush_are_noted_as_part_two() -> None:
    run = Run.new()
    to_turns(run)
    active = run.state.active
    assert active is not None
    run.step({active: "move right; fight"})
    assert line_of(run.public["en"], "part 2")
    runner = run.state.ambush_runner
    nxt = run.state.active
    assert nxt is not None and runner is not None
    scene(run, {nxt: "P6-5"}, active=nxt)
    run.step({nxt: "move right; end"})
    assert line_of(run.public["en"], "ambush on P6-6", f"{runner} ({NAMES[runner]})")


# --- the rest of the presenter -------------------------------------------------------------------


def test_step_names() -> None:
    base = {"turn": 11, "active": "C", "declaration": None}
    cases = {
        "deal": ("Deal", "キャラクターシート配布"),
        "silhouette": ("Silhouettes", "シルエット選択"),
        "turn": ("Turn 12 · C", "ターン12・C"),
        "after": ("Turn 12 · C · after the square", "ターン12・C・マス効果の後"),
        "over": ("Game over", "ゲーム終了"),
    }
    for step, (en, ja) in cases.items():
        view = {**base, "step": step}
        assert PRESENTER.step_name(view, "en", 3) == en
        assert PRESENTER.step_name(view, "ja", 3) == ja
    view = {**base, "step": "objection", "declaration": "C"}
    assert PRESENTER.step_name(view, "en", 3) == "Objection to C's declaration"


def test_help_rules_title_and_challenge_in_both_languages() -> None:
    for lang in LANGS:
        for text in (
            PRESENTER.order_help(lang),
            PRESENTER.how_to_play(lang),
            PRESENTER.title(lang),
            PRESENTER.challenge_text(lang, challenger="<@1>", opponent="<@2> <@3>", game="g1"),
        ):
            assert text.strip()
            assert_clean(text, lang)
    assert "`declare`" in PRESENTER.order_help("en")
    assert "`勝利宣言`" in PRESENTER.order_help("ja")
    assert "改心" in PRESENTER.how_to_play("ja")


def test_every_main_choice_has_a_label() -> None:
    for n in range(1, 13):
        assert has(f"esper.choice.teleport_{n}")
    for p in range(1, rules.PLANETS + 1):
        assert has(f"esper.choice.move_P{p}")
        assert has(f"esper.planet.P{p}")
    for verb in ("move_left", "move_right", "recover_durability", "recover_mind", "pass"):
        assert has(f"esper.choice.{verb}")
    assert has("esper.choice.refuse-last")


def test_outcome_without_grades_falls_back() -> None:
    assert PRESENTER.outcome_text(Outcome.win("A"), "en", {"A": 5}, None)


def test_board_is_the_esper_board() -> None:
    run = Run.new()
    to_turns(run)
    png = PRESENTER.render_board(rules.view(run.state, None), "ja", NAMES)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
