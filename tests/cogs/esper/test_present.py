"""The Esper presenter: every event the engine emits and every DM line, worded in English and
Japanese from games driven through the engine (the sample pack, committed streams, a few hand-set
situations); no raw key or placeholder reaches a reader, pack names come in the reader's
language, and the channel's words never carry a hidden fact. Part 2: combats (a round's posts
short enough for a phone, hands only in their own seat's DM) and the secret base (its key
installations only in EVIL silhouettes' DMs until found)."""

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
from cogs.esper import base as base_stage
from cogs.esper import combat as combats
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
# The engine's modules (its entry point, the stages and what they share): every event it emits.
ENGINE = tuple(
    f"cogs/esper/{name}.py"
    for name in (
        "rules",
        "state",
        "effects",
        "orders",
        "opening",
        "turns",
        "combat",
        "combat_play",
        "base",
    )
)
CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


def dm_lines(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """What the seat reads of itself: its sheet (the 📋 answer), then the prompt's question."""
    return [
        *PRESENTER.private_lines(view, seat, lang),
        *PRESENTER.question(view, seat, lang),
    ]


def _pack_names() -> dict[str, dict[str, str]]:
    out = {}
    ids = [*PACK.sheets, *PACK.planets, *PACK.abilities, *PACK.ccards, *PACK.base_cards]
    for card_id in [*ids, *PACK.keys]:
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
    public_cards: set[str] = field(default_factory=set)  # initiative cards shown in combats
    # each step's channel post, as the framework words it (the public events together)
    posts: list[dict[str, list[str]]] = field(default_factory=list)
    n: int = 0

    @classmethod
    def new(cls, players: int = 5, seed: bytes = SEED, **options: Any) -> Run:
        secret = DiceStream(seed, "t:0:secret")
        seats = list(rules.SEATS[:players])
        state = rules.new_game("t", seats, options, DiceStream(seed, "t:0:pre"), secret)
        return cls(state, secret, seed)

    def open(self) -> None:
        self.n += 1
        self.state, events = rules.start_step(
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
            # playing cards are private; a combat's initiative cards are public
            shown = set(CARD.findall(text))
            assert shown <= self.public_cards, (shown, text)
            assert not any(suit in CARD.sub("", text) for suit in SUITS), text

    def word(self, events: Sequence[Any]) -> None:
        objs = [event.to_json() for event in events]
        shown = [o for o in objs if addressees(o) is None]
        self.posts.append({lang: PRESENTER.event_lines(shown, lang, NAMES) for lang in LANGS})
        for obj in objs:
            if obj["type"] == "initiative":
                self.public_cards |= {card for _, card in obj["order"]}
        for obj in objs:
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
        if view.get("combat"):
            self.public_cards |= set(view["combat"]["cards"].values())
        for lang in LANGS:
            name = PRESENTER.step_name(view, lang, self.state.steps)
            assert_clean(name, lang)
            for title, value in PRESENTER.tallies(view, lang, NAMES):
                assert value.strip()
                assert_clean(title + "\n" + value, lang)
                self.assert_public(value)
            for seat in self.state.order:
                lines = dm_lines(rules.view(self.state, seat), seat, lang)
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
    run.step({s: f"silhouette {run.state.seats[s].sheet}" for s in run.state.order})  # own
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


def emitted_types(files: Sequence[str] = ENGINE) -> set[str]:
    """The event types the engine emits (its modules, :data:`ENGINE`), from their ``Event(...)``
    calls."""
    return {kind for kind, _ in event_calls(files)}


def event_calls(files: Sequence[str] = ENGINE) -> list[tuple[str, bool]]:
    """Each ``Event("type", …)`` call of the engine and whether it is addressed (``to=``)."""
    found = []
    for name in files:
        tree = ast.parse((ROOT / name).read_text("utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Event"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                private = any(k.arg == "to" for k in node.keywords) or len(node.args) > 2
                found.append((str(node.args[0].value), private))
    return found


def seat_tally(view: dict[str, Any], lang: str, seat: str) -> str:
    """The tallies' line of one seat (its own field, named by its letter)."""
    return dict(PRESENTER.tallies(view, lang, NAMES))[seat]


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
    """present.PRIVATE names exactly the event types the engine (:data:`ENGINE`) emits with
    ``to``."""
    calls = event_calls()
    addressed = {kind for kind, private in calls if private}
    public = {kind for kind, private in calls if not private}
    assert {"c_drawn", "keys_at"} <= addressed
    assert addressed == set(present.PRIVATE)
    assert not addressed & public


# --- games ---------------------------------------------------------------------------------------


def wander(run: Run, turns: int) -> None:
    """Invaders walk right round P1 and open their sheets: cards turn up, info and ability
    cards are drawn, damage falls, black holes and Rafnor happen. In the base (a game whose
    planet stage ends), everyone infiltrates, then walks."""
    for _ in range(turns):
        if run.state.ended:
            return
        if run.state.step != rules.TURN:
            run.step()
            continue
        seat = run.state.active
        assert seat is not None
        s = run.state.seats[seat]
        spot = s.spot or ""
        if run.state.stage == rules.BASE_STAGE:
            if s.outside:
                order = "infiltrate; end"
            else:
                near = base_stage.neighbours(spot)
                order = f"move {near[run.n % len(near)]}; end"
        elif spot.endswith("-0"):
            order = "open; move right; end"
        elif spot == rules.RAFNOR:
            order = "move P2; end"
        else:
            order = "move right; end"
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
    en = "\n".join(dm_lines(rules.view(run.state, "A"), "A", "en"))
    assert "`refuse`" in en
    ja = "\n".join(dm_lines(rules.view(run.state, "B"), "B", "ja"))
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
    options = [i for i in free if i not in taken]
    run.resolve({s: f"silhouette {options[i]}" for i, s in enumerate(again)})
    assert run.state.step == rules.BALANCE  # no defenders: the invaders may change
    run.open()
    evil = [s.id for s in PACK.sheets.values() if s.alignment == "EVIL"]
    for lang in LANGS:
        lines = dm_lines(rules.view(run.state, "A"), "A", lang)
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
        mine = dm_lines(rules.view(run.state, two), two, lang)
        assert line_of(mine, "EVIL")
        theirs = dm_lines(rules.view(run.state, one), one, lang)
        assert line_of(theirs, "EVIL")
        others = [s for s in run.state.order if s not in (one, two)]
        for seat in others:
            lines = dm_lines(rules.view(run.state, seat), seat, lang)
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
        lines = dm_lines(rules.view(run.state, one), one, lang)
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
        lines = dm_lines(rules.view(run.state, voter), voter, lang)
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
        lines = dm_lines(rules.view(run.state, seat), seat, lang)
        assert line_of(lines, "`see" if lang == "en" else "`閲覧")
    target = run.state.pending["see"][seat]["of"][0]
    run.resolve({seat: f"see {target}"})
    seen = next(e for e in run.events if e["type"] == "seen")
    assert addressees(seen) == (seat,)
    name = rules.sheet_of(run.state, target)
    assert line_of(run.private["en"], name.name("en"))
    assert line_of(run.private["ja"], name.name("ja"))
    # part 2: the secret base opens, its key installations voted by EVIL silhouettes
    assert run.state.stage == rules.BASE_STAGE and run.state.step == base_stage.KEYS
    assert line_of(run.public["en"], "secret base", "36")
    assert line_of(run.public["ja"], "秘密基地")
    view = rules.view(run.state, None)
    assert PRESENTER.step_name(view, "en", 0) == "Key installations (EVIL, in secret)"
    assert PRESENTER.step_name(view, "ja", 0) == "重要拠点の配置（EVIL・秘密）"


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


# --- part 2: combat ------------------------------------------------------------------------------

QUIET_CARD = "p01"  # a planet card that does nothing: a fight's spot keeps its pieces
HANDS = (
    ["k05", "k01", "k14", "k22", "k27", "k24", "k28"],
    ["k03", "k01", "k16", "k21", "k25", "k30", "k29"],
    ["k08", "k01", "k18", "k23", "k26", "k31", "k15"],
)


def fight(run: Run, seats: Sequence[str], spot: str = "P2-2") -> None:
    """``seats[0]`` walks onto ``spot`` where the others stand and calls a fight; nobody else
    rushes in (the entry step's default)."""
    planet, index = spot.split("-")
    start = f"{planet}-{int(index) - 1}"
    run.state.planets[spot] = QUIET_CARD
    scene(run, {seats[0]: start, **{s: spot for s in seats[1:]}}, active=seats[0])
    run.step({seats[0]: "move right; fight"})
    while run.state.step in (combats.ENTRY, combats.PRECOMBAT):
        run.step()


def test_a_fight_and_the_ambush_start_combats_and_read_well() -> None:
    run = Run.new()
    to_turns(run)
    one, two = run.invaders()[:2]
    fight(run, [one, two])
    assert run.state.combat is not None and run.state.step == combats.CTURN
    start = line_of(run.public["en"], "**Combat** on P2-2", "picks a fight")
    assert f"{one} ({NAMES[one]})" in start and f"{two} ({NAMES[two]})" in start
    assert line_of(run.public["ja"], "戦闘を仕掛けた", f"{one}（{NAMES[one]}）")
    # the rest of the table was asked whether it rushes in; it declined by default
    initiative = line_of(run.public["en"], "Round 1 initiative:")
    assert all(f"{s} {run.state.combat.cards[s]}" in initiative for s in (one, two))
    assert line_of(run.public["en"], "C cards drawn:", f"{one} ", f"{two} ")
    view = rules.view(run.state, None)
    current = run.state.combat.order[0]
    assert PRESENTER.step_name(view, "en", 0) == f"⚔️ Combat on P2-2, round 1 · {current}'s turn"
    assert PRESENTER.step_name(view, "ja", 0) == f"⚔️ 戦闘（P2-2・第1ラウンド）・{current}の手番"
    # nobody attacks: the combat ends after its first round
    while run.state.step == combats.CTURN:
        run.step({run.state.waiting[0]: "pass"})
    assert run.state.combat is None
    assert line_of(run.public["en"], "The combat on P2-2 ends (nobody attacked)")
    assert line_of(run.public["ja"], "P2-2の戦闘が終了（攻撃なし）")
    # the ambush: its runner appears and fights whoever walked into it
    runner = run.state.ambush_runner
    nxt = run.state.active
    assert nxt is not None and runner is not None and run.state.step == rules.TURN
    scene(run, {nxt: "P6-5"}, active=nxt)
    run.step({nxt: "move right; end"})
    assert line_of(run.public["en"], "ambush on P6-6", f"{runner} ({NAMES[runner]})")
    ambush = line_of(run.public["en"], "**Combat** at the ambush on P6-6")
    assert f"{runner} ({NAMES[runner]})" in ambush and f"{nxt} ({NAMES[nxt]})" in ambush
    assert line_of(run.public["ja"], "待ち伏せ。参加：")


def answer(run: Run, done: set[str]) -> dict[str, str]:
    """This combat step's orders: in round 1 the first actor shoots a card (the others sync
    what they can), the next strikes in melee (countered), the rest pass; round 1 goes on,
    round 2 stops."""
    state = run.state
    combat = state.combat
    assert combat is not None
    orders: dict[str, str] = {}
    for seat in state.waiting:
        others = [s for s in combat.seats if s != seat]
        if state.step == combats.CTURN:
            if combat.round == 1 and "card" not in done:
                orders[seat] = f"card k05 {others[0]}"
                done.add("card")
            elif combat.round == 1 and "melee" not in done:
                orders[seat] = f"melee {others[0]}"
                done.add("melee")
            else:
                orders[seat] = "pass"
        elif state.step == combats.SYNC:
            fits = combats.sync_cards(state, seat)
            orders[seat] = f"sync {fits[0]}" if fits else "pass"
        elif state.step == combats.DEFEND:
            melee = combat.attack is not None and combat.attack["kind"] == "melee"
            orders[seat] = "counter" if melee else "pass"
        elif state.step == combats.ROUND_END:
            orders[seat] = "continue" if combat.round == 1 else "stop"
        else:
            orders[seat] = "pass"
    return orders


def test_a_combat_round_reads_short_on_a_phone() -> None:
    """A three-way combat: a sync attack, a damage roll with its column, a melee with a
    counter, the round's end; every post of it stays short, the hands stay in their DMs."""
    run = Run.new(players=7)
    to_turns(run)
    seats = run.invaders()[:3]
    for seat in seats:
        run.state.seats[seat].sheet = "c01"  # ESP 7, durability 8: no checks, nobody dies
    fight(run, seats)
    state = run.state
    assert state.combat is not None
    for seat, hand in zip(state.combat.order, HANDS, strict=False):
        state.seats[seat].c_hand = list(hand)
    first = len(run.posts)
    done: set[str] = set()
    for _ in range(40):
        if run.state.combat is None or run.state.ended:
            break
        run.open()
        check_hands_in_dms(run)
        run.resolve(answer(run, done))
    assert run.state.combat is None
    types = run.types()
    assert {"attack", "synced", "sync_total", "counter", "damage_roll", "round_answers"} <= types
    posts = run.posts[first:]
    for post in posts:
        for lang in LANGS:
            assert len("\n".join(post[lang])) < 700, post[lang]
    en = [line for post in posts for line in post["en"]]
    ja = [line for post in posts for line in post["ja"]]
    assert line_of(en, "💥", "Kinetic Lance", "level 3 E, firepower 8")
    assert line_of(en, "Sync attack: level 4, firepower 11")
    damage = [line for line in en if "🎲" in line]
    assert damage and all(re.search(r"2D6 \d+ on (1:2|\d+:1) →", line) for line in damage)
    assert line_of(en, "counters with firepower")
    assert line_of(en, "Round 2 initiative:")
    # the round's first post names everyone's initiative card; a round reads in a screen or two
    assert sum(len("\n".join(p["en"])) for p in posts) < 2000
    assert line_of(ja, "同調攻撃：レベル4・火力11")
    assert any(re.search(r"2D6 \d+、(1:2|\d+:1)で損害判定", line) for line in ja)
    # no card of a hand is named in the channel unless it was played
    played = {e.get("card") for e in run.events if e["type"] in ("attack", "synced", "played")}
    for event in run.events:
        if event["type"] == "c_drawn":
            for card in set(event["cards"]) - played:
                name = PACK.ccards[card].name_en
                assert not any(name in line for line in run.public["en"]), name


def check_hands_in_dms(run: Run) -> None:
    """Each participant's DM shows its own C cards, the channel's view only their counts."""
    state = run.state
    combat = state.combat
    assert combat is not None
    held = {s: set(state.seats[s].c_hand) for s in combat.seats}
    for seat in combat.seats:
        for lang in LANGS:
            text = "\n".join(dm_lines(rules.view(state, seat), seat, lang))
            for card in held[seat]:
                assert f"`{card}`" in text
            others = set().union(*(h for s, h in held.items() if s != seat)) - held[seat]
            assert not any(f"`{card}`" in text or f"{card} " in text for card in others), text
    view = rules.view(state, None)
    for lang in LANGS:
        fields = dict(PRESENTER.tallies(view, lang, NAMES))
        combat_field = fields["⚔️ Combat" if lang == "en" else "⚔️ 戦闘"]
        for seat in combat.seats:
            count = len(state.seats[seat].c_hand)
            assert (f"hand {count}" if lang == "en" else f"手札{count}") in combat_field
        kept = {h["card"] for h in combat.maintained.values()}
        for card in set().union(*held.values()) - kept:
            assert PACK.ccards[card].name(lang) not in combat_field
            assert card not in combat_field


def test_the_dm_asks_each_combat_step_with_its_syntax() -> None:
    run = Run.new(players=7)
    to_turns(run)
    seats = run.invaders()[:3]
    for seat in seats:
        run.state.seats[seat].sheet = "c01"
    fight(run, seats)
    state = run.state
    assert state.combat is not None
    for seat, hand in zip(state.combat.order, HANDS, strict=False):
        state.seats[seat].c_hand = list(hand)
    actor = state.combat.order[0]
    target = state.combat.order[1]
    run.open()
    en = "\n".join(dm_lines(rules.view(run.state, actor), actor, "en"))
    ja = "\n".join(dm_lines(rules.view(run.state, actor), actor, "ja"))
    assert f"`card k05 {state.combat.order[1]}`" in en and "`melee" in en and "+k27" in en
    assert f"`カード k05 {state.combat.order[1]}`" in ja and "`格闘" in ja
    assert "**Your C cards** (7, limit" in en and "**手札のCカード**（7枚" in ja
    assert "`k05` **Kinetic Lance** — attack · level 3 · E · firepower 8 · sync" in en
    assert "`k05` **念動槍** — 攻撃・レベル3・E属性・火力8・同調可" in ja
    run.resolve({actor: f"card k05 {target}"})
    while run.state.step == combats.SYNC:
        run.step()
    assert run.state.step == combats.DEFEND
    run.open()
    en = "\n".join(dm_lines(rules.view(run.state, target), target, "en"))
    ja = "\n".join(dm_lines(rules.view(run.state, target), target, "ja"))
    assert "You are attacked" in en and "`defend k16; durability" in en
    assert "`逃避 k25 左`" in ja and "`耐久力" in ja
    run.resolve({target: "pass"})
    assert run.state.step in (combats.CTURN, combats.ROUND_END)


def test_a_blocked_teleport_escape_reads_well() -> None:
    """The attacked teleports away; the one holding a higher teleport is asked, by DM, to block
    it, and does: the escaper stays, unhurt."""
    run = Run.new(players=7)
    to_turns(run)
    seats = run.invaders()[:3]
    for seat in seats:
        run.state.seats[seat].sheet = "c01"
    fight(run, seats)
    state = run.state
    assert state.combat is not None
    actor, target, third = state.combat.order
    for seat, hand in zip((actor, target, third), HANDS, strict=True):
        state.seats[seat].c_hand = list(hand)
    run.step({actor: f"card k05 {target}"})
    while run.state.step == combats.SYNC:
        run.step()
    assert run.state.step == combats.DEFEND
    run.step({target: "escape k25 left"})
    assert run.state.step == combats.BLOCK and third in run.state.waiting
    run.open()
    for lang in LANGS:
        lines = dm_lines(rules.view(run.state, third), third, lang)
        assert line_of(lines, "`block k26`" if lang == "en" else "`妨害 k26`")
        assert line_of(lines, PACK.ccards["k26"].name(lang) + " `k26`")
    run.resolve({third: "block k26"})
    en = [line for post in run.posts[-4:] for line in post["en"]]  # the defence, the block
    assert line_of(en, f"{target} ({NAMES[target]}) teleports away with Phase Shift (level 4)")
    assert line_of(en, f"🚫 {third} ({NAMES[third]}) block", "teleport (level 5)", "unhurt")
    assert not any("🎲" in line for line in en)  # blocked, it still avoids the damage
    assert line_of(run.posts[-1]["ja"], "テレポートを妨害（レベル5）")
    assert run.state.combat is not None and target in run.state.combat.seats


# --- part 2: the secret base ---------------------------------------------------------------------


def to_base(run: Run) -> None:
    """The planet stage ends (a seat holds 3 info), the sheets are seen, the base opens."""
    active = run.state.active
    assert active is not None
    run.state.seats[active].info = rules.INFO_TO_END
    run.step({active: "pass; end"})
    while run.state.step == rules.SEE:
        run.step()
    assert run.state.step == base_stage.KEYS


def test_the_base_reads_in_both_languages_and_its_keys_stay_secret() -> None:
    run = Run.new()
    to_turns(run)
    to_base(run)
    evil = run.defenders()
    run.open()
    for lang in LANGS:
        lines = dm_lines(rules.view(run.state, evil[0]), evil[0], lang)
        assert line_of(lines, "`keys B2 D5 E1`" if lang == "en" else "`重要拠点 B2 D5 E1`")
    # or by buttons: a column and a row for each key installation, read as whole spots
    groups = rules.choices(run.state, evil[0])
    assert len(groups) == 2 * PACK.keys_placed
    assert groups[0].choices[1].label("en") == "Key 1: column B"
    assert groups[1].choices[1].label("ja") == "重要拠点1：2行目"
    picks = {0: 1, 1: 1, 2: 3, 3: 4, 4: 4, 5: 0}  # B 2, D 5, E 1
    text = " ".join(groups[i].choices[j].token for i, j in picks.items())
    assert text == "keys B 2 D 5 E 1"
    assert rules.parse(run.state, evil[0], text).canonical() == "keys B2 D5 E1"
    run.resolve({s: "keys B2 D5 E1" for s in evil})
    keys_at = next(e for e in run.events if e["type"] == "keys_at")
    assert sorted(addressees(keys_at) or ()) == sorted(evil)
    names = {spot: PACK.keys[k["id"]] for spot, k in run.state.keys.items()}
    assert line_of(run.private["en"], "B2 " + names["B2"].name_en, "E1 " + names["E1"].name_en)
    assert line_of(run.private["ja"], "B2 " + names["B2"].name_ja)
    hidden = [n for k in names.values() for n in (k.name_en, k.name_ja)]
    assert not any(n in line for n in hidden for line in run.public["en"] + run.public["ja"])
    view = rules.view(run.state, None)
    fields = dict(PRESENTER.tallies(view, "en", NAMES))
    assert "Secret base" not in fields  # nothing found yet: the board says it (short posts)
    assert not any(n in v for n in hidden for v in fields.values())
    # the placement: the info holders choose outer spots
    assert run.state.step == base_stage.PLACE
    placer = run.state.waiting[0]
    run.open()
    assert line_of(dm_lines(rules.view(run.state, placer), placer, "ja"), "`配置 A1`")
    run.resolve({s: "place B1" for s in run.state.waiting})
    assert line_of(run.public["en"], f"{placer} ({NAMES[placer]}) is placed on B1")
    assert line_of(run.public["en"], "The turns in the base begin")
    # the placer walks onto a key installation: found, in public
    run.state.base["B2"] = "b01"  # an empty corridor: nothing else happens there
    scene(run, {placer: "B1"}, active=placer)
    run.state.step = rules.TURN
    run.open()
    for lang in LANGS:  # a move is a button per neighbour; a teleport is typed with its path
        lines = dm_lines(rules.view(run.state, placer), placer, lang)
        assert line_of(lines, "B1", "in the base" if lang == "en" else "基地内")
    moves = [c for g in rules.choices(run.state, placer) for c in g.choices]
    assert {c.token for c in moves} >= {"move B2; end", "move A1; end", "move C1; end"}
    assert {c.label("en") for c in moves} >= {"Move to B2", "Move to C1"}
    assert "B2へ移動" in {c.label("ja") for c in moves}
    run.resolve({placer: "move B2; end"})
    found = line_of(run.public["en"], "finds the key installation", "B2")
    assert names["B2"].name_en in found
    assert line_of(run.public["ja"], f"重要拠点「{names['B2'].name_ja}」を発見")
    fields = dict(PRESENTER.tallies(rules.view(run.state, None), "en", NAMES))
    assert "1/3 found" in fields["Secret base"] and names["B2"].name_en in fields["Secret base"]
    assert names["D5"].name_en not in fields["Secret base"]
    # the last key installation standing is destroyed in a combat: the game ends
    for spot in ("D5", "E1"):
        run.state.keys[spot]["destroyed"] = True
    run.state.keys["B2"]["damage"] = names["B2"].durability
    scene(run, {placer: "B2"}, active=placer)
    run.state.step = rules.TURN
    run.step({placer: "pass; fight"})
    assert line_of(run.public["en"], "**Combat** on B2", "The key installation here is a target")
    while run.state.step in (combats.ENTRY, combats.PRECOMBAT):
        run.step()
    assert run.state.step == combats.CTURN and run.state.waiting == [placer]
    run.state.seats[placer].c_hand = ["k01", "k14"]
    run.step({placer: "card k01 B2"})
    assert line_of(run.public["en"], "→ the key installation on B2: Psi Bolt")
    assert line_of(run.public["en"], "🎲 the key installation on B2 (0 left): 2D6", "10:1")
    assert line_of(run.public["en"], "💥 The key installation", "is destroyed!")
    assert line_of(run.public["ja"], f"B2の重要拠点「{names['B2'].name_ja}」を破壊")
    assert run.state.ended == rules.KEYS_DESTROYED
    text = PRESENTER.outcome_text(rules.outcome(run.state), "en", {}, None)
    assert "every key installation was destroyed" in text
    assert "重要拠点が全て破壊された" in PRESENTER.outcome_text(
        rules.outcome(run.state), "ja", {}, None
    )


def test_waiting_around_the_base_asks_for_infiltration() -> None:
    run = Run.new()
    to_turns(run)
    to_base(run)
    run.step({s: "keys B2 D5 E1" for s in run.defenders()})
    while run.state.step == base_stage.PLACE:
        run.step()
    outside = next(
        s
        for s in run.state.order
        if run.state.seats[s].outside and rules.side_of(run.state, s) == rules.INVADER
    )
    run.state.seats[outside].infiltration = 2
    scene(run, {}, active=outside)
    run.state.step = rules.TURN
    run.open()
    en = dm_lines(rules.view(run.state, outside), outside, "en")
    assert line_of(en, "You wait around the base", "`infiltrate A1`", "+2")
    ja = dm_lines(rules.view(run.state, outside), outside, "ja")
    assert line_of(ja, "`侵入 A1`", "+2")
    assert "outside" in seat_tally(rules.view(run.state, None), "en", outside)
    run.resolve({outside: "infiltrate A1; end"}, ScriptedDice([1, 1] * 4))
    assert line_of(run.public["en"], "ESP level check by", "(infiltration)", "success")
    assert line_of(run.public["en"], "infiltrates the base at A1")


# --- part 2: every sentence ----------------------------------------------------------------------


def _named(data: dict[str, Any]) -> dict[str, Any]:
    """An event as the engine words it: the names of the pack ids it mentions (and a drawn C
    card's detail)."""
    found: list[str] = []
    rules._ids_in(data, rules._all_ids(PACK), found)
    if found:
        data["names"] = rules.names_of(PACK, found)
    if data["type"] == "c_drawn":
        data["detail"] = {c: combats.ccard_info(PACK.ccards[c]) for c in data["cards"]}
    return data


def ev(kind: str, /, **data: Any) -> dict[str, Any]:
    return _named({"type": kind, **data})


PART_TWO = [
    ev("combat_start", spot="P2-2", why="fight", by="B", seats=["B", "C"], key=None),
    ev("combat_start", spot="P2-2", why="twin", by="B", seats=["B", "C"], key=None),
    ev("combat_start", spot="P1-6", why="escape", by="C", seats=["C", "D"], key=None),
    ev("combat_start", spot="P6-6", why="ambush", by="C", seats=["C", "A"], key=None),
    ev("combat_start", spot="B2", why="fight", by="C", seats=["C"], key="B2"),
    ev("there", seat="A", dice=[5, 6], result="yes"),
    ev("there", seat="A", dice=[4, 4], result="late"),
    ev("there", seat="A", dice=[1, 2], result="no"),
    ev("there_bonus", seat="A", dice=[4, 4], bonus=3, result="late"),
    ev("precombat_used", seat="A", ability="c10a"),
    ev("entered", seat="A"),
    ev("alive_check", seat="D", dice=[6, 6], result="yes"),
    ev("alive_check", seat="D", dice=[1, 3], result="no"),
    ev("returned", seat="D"),
    ev("henchmen", seat="A", n=2),
    ev("drew", seat="A", n=7),
    ev("initiative", round=1, order=[["C", "2♣"], ["B", "6♠"], ["A", "3♥"]]),
    ev("discarded", seat="A", n=1),
    ev("played", seat="A", card="k30", target=None, level=2),
    ev("played", seat="C", card="k24", target="B", level=2),
    ev(
        "attack",
        by="A",
        target="B",
        kind="card",
        card="k05",
        level=3,
        attribute="E",
        firepower=8,
        column=None,
    ),
    ev(
        "attack",
        by="A",
        target="B",
        kind="card",
        card="k12",
        level=5,
        attribute="M",
        firepower=None,
        column="5:1",
    ),
    ev(
        "attack",
        by="A",
        target="B",
        kind="melee",
        card=None,
        level=1,
        attribute="melee",
        firepower=4,
        column=None,
    ),
    ev(
        "attack",
        by="C",
        target="B2",
        kind="card",
        card="k01",
        level=1,
        attribute="E",
        firepower=3,
        column=None,
    ),
    ev("synced", seat="C", card="k01"),
    ev("sync_total", by="A", level=4, firepower=11, helpers=["C"]),
    ev("sync_total", by="A", level=6, firepower=None, helpers=["C", "D"]),
    ev("defence_broken", seat="B", card="k14"),
    ev("defended", seat="B", card="k16", held=False),
    ev("defended", seat="B", card="k16", held=True),
    ev("escape", seat="B", card="k22", level=1, teleport=False),
    ev("escape", seat="B", card="k25", level=4, teleport=True),
    ev("escaped", seat="B", steps=3),
    ev("escaped", seat="B", steps=3, to="P2-5"),  # as a batch folds its landing in
    ev("block", seat="B", by=["C", "D"], level=5, blocked=True),
    ev("block", seat="B", by=["C"], level=2, blocked=False),
    ev("counter", seat="B", firepower=5),
    ev("damage_roll", seat="B", by="A", dice=[3, 4], column="3:1", declared=3, damage=2),
    ev("damage_roll", seat="B", by="A", dice=[1, 1], column="1:2", declared=5, damage=0),
    ev("damage_roll", seat="B2", by="C", dice=[6, 6], column="10:1", declared=0, damage=12),
    ev("died", seat="B", dropped={"abilities": 1, "hand": 5}),
    ev("died", seat="B", dropped={"abilities": 0, "hand": 0}),
    ev("key_destroyed", spot="B2", key="key1"),
    ev("kept", seat="B", card="k16", upkeep=1),
    ev("dropped", seat="B", card="k16"),
    ev("round_end", round=1, attacked=True),
    ev("round_end", round=2, attacked=False),
    ev("round_answers", **{"continue": ["A", "B"]}),
    ev("round_answers", **{"continue": []}),
    ev("combat_end", spot="P2-2", why="decided", seats=["A"]),
    ev("combat_end", spot="P2-2", why="no_attack", seats=["A", "B"]),
    ev("combat_end", spot="P2-2", why="stopped", seats=["A", "B"]),
    ev(
        "skipped_why",
        seat="A",
        action="defend k14",
        why="esper.reject.card_level",
        params={"card": "k14", "level": 3},
    ),
    ev(
        "skipped_why",
        seat="A",
        action="card k05 E",
        why="esper.reject.combat_target",
        params={"target": "E"},
    ),
    ev("check", seat="A", dice=[2, 3], target=5, success=True, why="keep"),
    ev("check", seat="A", dice=[6, 6], target=5, success=False, why="pre-emptive"),
    ev("check", seat="A", dice=[2, 3], target=5, success=True, why="card"),
    ev("check", seat="A", dice=[2, 3], target=5, success=True, why="infiltrate"),
    ev("c_drawn", seat="A", cards=["k05", "k14", "k27"]),
    *[
        ev("moved", seat="A", to="B3", how=how)
        for how in ("there", "placed", "evil", "infiltrate", "escape")
    ],
    ev("base", spots=36),
    ev("keys_placed", n=3),
    ev("keys_at", keys={"B2": "key1", "D5": "key2"}),
    ev("placement", seats=["C", "E"]),
    ev("placement", seats=[]),
    ev("evil_placed", seat="D", dice=[3, 2]),
    ev("base_start"),
    ev("infiltrated", seat="D", auto=True),
    ev("key_found", seat="C", spot="B2", key="key1"),
    *[ev("base_trap", seat="D", effect=e, n=2) for e in ("damage", "recover", "black_hole")],
    ev("square", seat="C", spot="B2", card="b04"),
]


def test_every_part_two_event_has_a_sentence_with_its_params_filled() -> None:
    """Each event type combat and base emit, each of its variants, in both languages: one line,
    no placeholder left, pack names in the reader's language, and private events worded for a
    DM."""
    emitted = emitted_types(
        ("cogs/esper/combat.py", "cogs/esper/combat_play.py", "cogs/esper/base.py")
    )
    examples = {str(e["type"]) for e in PART_TWO}
    assert (
        emitted
        - set(present.QUIET)
        - {
            "passed",
            "used",
            "skipped",
            "damaged",
            "info",
            "abilities",
            "ability_drawn",
            "black_hole",
            "teleport",
            "recovered",
        }
        <= examples
    )
    reached = set()
    for event in PART_TWO:
        key = PRESENTER.event_key(event)
        assert key is not None and has(key) and key in catalogue("ja"), (key, event)
        reached.add(key)
        for lang in LANGS:
            lines = PRESENTER.event_lines([event], lang, NAMES)
            assert len(lines) == 1, (event, lines)
            assert_clean(lines[0], lang)
            if event["type"] in present.PRIVATE:
                assert "🔒" in lines[0]
    for kind in examples - {"moved", "check", "skipped_why", "square"}:  # part 1's too
        variants = {k for k in catalogue("en") if k.startswith(f"esper.event.{kind}.")}
        variants -= {
            "esper.event.damage_roll.total",  # a part of the roll's line
            "esper.event.alive_check.group",  # a batch's failed rolls (test_a_batch_says…)
            "esper.event.there.group",
        }
        assert variants <= reached, (kind, variants - reached)
    en = PRESENTER.event_lines(PART_TWO, "en", NAMES)
    assert line_of(en, "2D6 7 on 3:1 → 2 damage")
    assert line_of(en, "fixed 5:1")
    assert line_of(en, "🎴 Round 1 initiative: C 2♣ → B 6♠ → A 3♥.")
    assert line_of(en, "D (Dana) is placed on C2 (1D6 column 3, row 2).")
    assert line_of(en, "Psi Shield is below the level it must reach (3)")
    ja = PRESENTER.event_lines(PART_TWO, "ja", NAMES)
    assert line_of(ja, "念動盾は必要なレベル（3）")
    assert line_of(ja, "2D6 7、3:1で損害判定 → 2ダメージ")


def test_a_batch_says_each_thing_once() -> None:
    """In one post a card played is named by the attack it makes, a damage roll carries the
    total, an escape its landing, the draws and failed "actually alive" checks are one line."""
    batch = [
        ev("alive_check", seat="D", dice=[1, 3], result="no"),
        ev("alive_check", seat="E", dice=[2, 3], result="no"),
        ev("drew", seat="A", n=7),
        ev("drew", seat="B", n=8),
        ev("played", seat="A", card="k05", target="B", level=3),
        ev(
            "attack",
            by="A",
            target="B",
            kind="card",
            card="k05",
            level=3,
            attribute="E",
            firepower=8,
            column=None,
        ),
        ev("damage_roll", seat="B", by="A", dice=[3, 4], column="2:1", declared=4, damage=2),
        ev("damaged", seat="B", n=2, total=3),
        ev("escape", seat="C", card="k22", level=1, teleport=False),
        ev("escaped", seat="C", steps=2),
        ev("moved", seat="C", to="P2-4", how="escape"),
        ev("there", seat="D", dice=[6, 6], result="yes"),
        ev("moved", seat="D", to="P2-2", how="there"),
        ev("entered", seat="D"),
        ev("there", seat="E", dice=[1, 2], result="no"),
        # stored before the sheet's bonus went to the roller's DM: the channel still sees dice
        ev("there", seat="F", dice=[2, 2], bonus=3, result="no"),
    ]
    for lang in LANGS:
        lines = PRESENTER.event_lines(batch, lang, NAMES)
        assert len(lines) == 8, lines
        assert_clean("\n".join(lines), lang)
    en = PRESENTER.event_lines(batch, "en", NAMES)
    assert en[0] == "• Actually alive? D 4, E 5 (2D6): nobody."
    assert en[1] == "• C cards drawn: A 7, B 8."
    assert en[2].startswith("• 💥 A (Aurora) → B (ボレアリス): Kinetic Lance")
    assert en[3].endswith("→ 2 damage (3 in all).")
    assert en[5] == "• 💨 C (Cassie) leaves the combat: 2 spots, to P2-4."
    assert en[6].startswith("• D (Dana) rushes in")
    assert en[7] == "• Rushing in (2D6), not there: E 3, F 4."


def test_tallies_show_the_base_and_the_combat() -> None:
    view: dict[str, Any] = {
        "stage": "base",
        "step": "defend",
        "seats": {s: {"silhouette": None, "spot": "B2", "alive": True} for s in "ABC"},
        "base": {
            "up": {"B2": "b04"},
            "spent": [],
            "keys": {
                "B2": {"id": "key1", "damage": 4, "destroyed": False},
                "E5": {"id": "key3", "damage": 9, "destroyed": True},
            },
            "keys_total": 3,
            "outside": ["D", "E"],
        },
        "combat": {
            "spot": "B2",
            "why": "fight",
            "round": 2,
            "seats": ["A", "B", "C"],
            "key": "B2",
            "order": ["C", "A", "B"],
            "cards": {"A": "4♣", "B": "2♥", "C": "A♠"},
            "current": "A",
            "hands": {"A": 6, "B": 7, "C": 8},
            "henchmen": {"C": 2},
            "maintained": {"B": {"card": "k16", "level": 2, "blocks": ["E"], "upkeep": 1}},
            "attack": {
                "by": "A",
                "target": "B",
                "kind": "card",
                "card": "k05",
                "level": 3,
                "attribute": "E",
                "firepower": 8,
                "column": None,
            },
            "late": ["D"],
        },
        "names": rules.names_of(PACK, ["b04", "key1", "key3", "k05", "k16"]),
    }
    fields = dict(PRESENTER.tallies(view, "en", NAMES))
    assert fields["Secret base"].splitlines() == [
        "Keys 2/3 found · 1 destroyed",
        "B2 Main Reactor: damage 4",
        "E5 Gravity Engine: destroyed",
    ]
    combat = fields["⚔️ Combat"].splitlines()
    assert combat[0] == "B2 · round 2"
    assert combat[1:4] == [
        "**C** A♠ · hand 8 · henchmen 2",
        "▶ **A** 4♣ · hand 6",
        "**B** 2♥ · hand 7 · 🛡️ Force Wall (level 2)",
    ]
    assert "Target: the key installation on B2" in combat
    assert "Arriving next round: D" in combat
    assert combat[-1] == "Answering: A → B · level 3 E · firepower 8"
    ja = dict(PRESENTER.tallies(view, "ja", NAMES))
    assert "重要拠点 発見2/3・破壊1" in ja["秘密基地"]
    assert "▶ **A** 4♣・手札6" in ja["⚔️ 戦闘"]
    assert PRESENTER.step_name(view, "en", 0) == "⚔️ Combat on B2, round 2 · B answers the attack"
    assert PRESENTER.step_name(view, "ja", 0) == "⚔️ 戦闘（B2・第2ラウンド）・Bの防御"
    # a view from the engine gives the column of a fixed attack by its index
    view["combat"]["attack"].update(card="k12", firepower=None, column=5, attribute="M")
    assert dict(PRESENTER.tallies(view, "en", NAMES))["⚔️ Combat"].endswith("fixed 5:1")


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


def test_the_prompt_opens_with_what_changed_for_the_seat() -> None:
    """seat_news compares the seat's view with the memo of its last prompt: durability and
    mind, ability cards, its spot and who came or went there; nothing at the first prompt."""

    def view(durability: int, hand: list[str], spot: str, others: dict[str, str]) -> Any:
        seats = {"A": {"spot": spot, "alive": True}}
        seats.update({s: {"spot": at, "alive": True} for s, at in others.items()})
        return {
            "seats": seats,
            "names": {"a05": {"en": "Mind Probe", "ja": "マインドプローブ"}},
            "you": {
                "durability": durability,
                "mind": 3,
                "hand": [{"id": c} for c in hand],
                "alignment": "GOOD",
            },
        }

    before = view(7, ["a04"], "P3-2", {"B": "P3-5", "C": "P1-0"})
    memo = PRESENTER.seat_memo(before, "A")
    assert PRESENTER.seat_news(None, before, "A", "en") == []
    assert PRESENTER.seat_news(memo, before, "A", "en") == []
    after = view(5, ["a05"], "P3-2", {"B": "P4-0", "C": "P3-0"})
    en = PRESENTER.seat_news(memo, after, "A", "en")
    assert en == [
        "🆕 Durability 7 → 5 (−2).",
        "🆕 New ability card(s): Mind Probe.",
        "🆕 Ability card(s) gone: a04.",
        "🆕 Arrived on planet 3: C (P3-0).",
        "🆕 Left planet 3: B.",
    ]
    ja = PRESENTER.seat_news(memo, after, "A", "ja")
    assert ja[0] == "🆕 耐久力が7から5になりました（−2）。" and "マインドプローブ" in ja[1]
    assert ja[3] == "🆕 惑星3にC（P3-0）が来ました。"
    moved = PRESENTER.seat_news(memo, view(7, ["a04"], "P4-0", {"B": "P4-3"}), "A", "en")
    assert moved == ["🆕 You are now on P4-0 (spaceport).", "🆕 With you on planet 4: B (P4-3)."]
    # in the base, near is the spot itself
    base = view(7, ["a04"], "B2", {"B": "B3"})
    came = PRESENTER.seat_news(
        PRESENTER.seat_memo(base, "A"), view(7, ["a04"], "B2", {"B": "B2"}), "A", "en"
    )
    assert came == ["🆕 Arrived on B2: B."]


def test_the_headline_names_the_weightiest_event() -> None:
    events = [
        {"type": "moved", "seat": "C", "to": "P1-4", "how": "move"},
        {"type": "died", "seat": "E"},
        {"type": "square", "seat": "C", "spot": "P1-4", "card": "p01"},
    ]
    assert PRESENTER.headline(events, "en", NAMES) == f"☠️ E ({NAMES['E']}) dies."
    assert PRESENTER.headline(events[:1], "en", NAMES) == f"C ({NAMES['C']}) moves to P1-4."
    assert PRESENTER.headline([{"type": "turn", "turn": 3, "seat": "C"}], "en", NAMES) is None
