"""Match records of games with hidden information, and tampered records
(``shared/spec/match-record.md``, ``shared/spec/dice-and-receipts.md``).

* Tampering: the real exports under ``tests/data/records`` with one seed digit, one roll, one
  order or one salt changed are refused by ``replay`` and failed by ``verify``, each naming the
  step and what does not match; untouched, they still pass.
* Hidden information: a tiny ruleset (``tests/hunt_ruleset.py``: secret draws at setup and in its
  steps, a withheld order) and its records made by hand from ``bot.dice``: the finished game
  replays and verifies (secret rolls recomputed); without the secret seed, or with a withheld
  order, replay stops with one line where the withheld part begins and verify says what is
  withheld; ``build_record`` exports exactly that format, mid-game and at the end.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot import dice as dicelib
from bot import registry
from bot.__main__ import main
from bot.record import RecordError, build_record, players_digest, replay, verify
from bot.record.read import label_of, where
from bot.storage.base import GameRow, OrderRow, SeatRow, StreamRow
from tests import hunt_ruleset as hunt

RECORDS = Path(__file__).parent / "data" / "records"
FIXTURES = sorted(p.stem for p in RECORDS.glob("*.json"))


def step_of(rec: dict, n: int) -> str:
    """How verify and replay name turn ``n`` of ``rec``: with its step's label where the ruleset
    gives one (``turn 2 (deploy)``)."""
    return where(n, label_of(rec["turns"][n - 1]))


def run(capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, rec: Any) -> tuple:
    path = tmp_path / f"{command}.json"
    path.write_text(json.dumps(rec, ensure_ascii=False), "utf-8")
    code = main([command, str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], tmp_path: Path, rec: Any) -> str:
    """``replay`` refuses the record: exit status 1, nothing on stdout, one line on stderr."""
    code, out, err = run(capsys, tmp_path, "replay", rec)
    assert code != 0 and out == "", out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("replay: ")
    return lines[0]


def failed(capsys: pytest.CaptureFixture[str], tmp_path: Path, rec: Any) -> list[str]:
    """``verify`` fails the record: exit status 1 and the FAILED lines."""
    code, out, err = run(capsys, tmp_path, "verify", rec)
    assert code != 0, out
    assert err == "", err
    assert out.strip().splitlines()[-1].endswith(" failed")
    return [line for line in out.splitlines() if line.startswith("FAILED")]


def fixture(name: str) -> dict[str, Any]:
    return json.loads((RECORDS / f"{name}.json").read_text("utf-8"))


def flip(hex_text: str, at: int = 0) -> str:
    """One hex digit changed."""
    digit = "0" if hex_text[at] != "0" else "1"
    return hex_text[:at] + digit + hex_text[at + 1 :]


# --- tampered exports ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", FIXTURES)
def test_untouched_fixtures_replay_and_verify(name: str, capsys, tmp_path) -> None:
    rec = fixture(name)
    code, out, err = run(capsys, tmp_path, "replay", rec)
    assert code == 0 and err == "", err
    code, out, err = run(capsys, tmp_path, "verify", rec)
    assert code == 0, out
    assert "FAILED" not in out and "note" not in out


@pytest.mark.parametrize("name", FIXTURES)
@pytest.mark.parametrize("phase", ["pre", "resolve"])
def test_a_seed_digit_changed(name: str, phase: str, capsys, tmp_path) -> None:
    rec = fixture(name)
    n = len(rec["turns"]) // 2
    seeds = rec["turns"][n - 1]["seeds"]
    seeds[phase] = flip(seeds[phase], 17)
    line = refused(capsys, tmp_path, rec)
    assert (
        line
        == f"replay: {step_of(rec, n)}: the {phase} seed does not match its commitment sha256(seed)"
    )
    assert f"FAILED  {step_of(rec, n)} {phase} commitment sha256(seed)" in failed(
        capsys, tmp_path, rec
    )


def test_a_setup_seed_digit_changed(capsys, tmp_path) -> None:
    rec = fixture("dungeon")  # the dungeon's setup draws dice
    rec["setup"]["seeds"]["pre"] = flip(rec["setup"]["seeds"]["pre"], 5)
    line = refused(capsys, tmp_path, rec)
    assert line == "replay: setup: the pre seed does not match its commitment sha256(seed)"
    lines = failed(capsys, tmp_path, rec)
    assert "FAILED  setup pre commitment sha256(seed)" in lines
    assert any(line.startswith("FAILED  setup pre rolls") for line in lines)


def _rolled(rec: dict[str, Any]) -> tuple[int, str]:
    """The first step (index) and phase whose record lists some rolls."""
    for n, turn in enumerate(rec["turns"], start=1):
        for phase in ("pre", "resolve"):
            if turn["drawn"][phase]:
                return n, phase
    raise AssertionError("no rolls at all")


@pytest.mark.parametrize("name", FIXTURES)
def test_a_roll_changed(name: str, capsys, tmp_path) -> None:
    rec = fixture(name)
    n, phase = _rolled(rec)
    drawn = rec["turns"][n - 1]["drawn"][phase]
    was = list(drawn)
    drawn[-1] = drawn[-1] % 6 + 1
    line = refused(capsys, tmp_path, rec)
    assert line.startswith(f"replay: {step_of(rec, n)}")
    assert line.endswith(
        f"the {phase} rolls in the record {drawn} are not the rolls its seed gives {was}"
    )
    assert failed(capsys, tmp_path, rec) == [
        f"FAILED  {step_of(rec, n)} {phase} rolls {drawn}"
        f" (expected {was}: the rolls its seed gives)"
    ]


def _other_order(rec: dict[str, Any], n: int, seat: str) -> str:
    """An order of the same seat from another step, different from step ``n``'s."""
    mine = rec["turns"][n - 1]["inputs"][seat]
    return next(
        t["inputs"][seat] for t in rec["turns"] if seat in t["inputs"] and t["inputs"][seat] != mine
    )


@pytest.mark.parametrize("name", FIXTURES)
def test_an_order_changed(name: str, capsys, tmp_path) -> None:
    """The edited order is a receipt mismatch on its own step (not an illegal move there or a
    different game later)."""
    rec = fixture(name)
    n = 3
    seat = sorted(rec["turns"][n - 1]["inputs"])[0]
    rec["turns"][n - 1]["inputs"][seat] = _other_order(rec, n, seat)
    line = refused(capsys, tmp_path, rec)
    assert line.startswith(f"replay: {step_of(rec, n)}")
    assert line.endswith(f", seat {seat}: the order (with its salt) does not match its receipt")
    lines = failed(capsys, tmp_path, rec)
    assert lines == [f"FAILED  {step_of(rec, n)} seat {seat} receipt"]


@pytest.mark.parametrize("name", FIXTURES)
def test_a_salt_changed(name: str, capsys, tmp_path) -> None:
    rec = fixture(name)
    n = len(rec["turns"])
    salts = rec["turns"][n - 1]["salts"]
    seat = sorted(salts)[-1]
    salts[seat] = flip(salts[seat], 3)
    line = refused(capsys, tmp_path, rec)
    assert line.startswith(f"replay: {step_of(rec, n)}")
    assert line.endswith(f", seat {seat}: the order (with its salt) does not match its receipt")
    assert failed(capsys, tmp_path, rec) == [f"FAILED  {step_of(rec, n)} seat {seat} receipt"]


def test_a_receipt_changed_breaks_the_digest(capsys, tmp_path) -> None:
    rec = fixture("arena")
    rec["turns"][1]["receipts"]["B"] = flip(rec["turns"][1]["receipts"]["B"])
    line = refused(capsys, tmp_path, rec)
    assert line.startswith("replay: turn 2") and "receipt" in line
    lines = failed(capsys, tmp_path, rec)
    assert "FAILED  turn 2 seat B receipt" in lines
    assert "FAILED  turn 2 orders digest" in lines


def test_the_earliest_tampered_step_is_named(capsys, tmp_path) -> None:
    """A seed changed late and an order changed early: the order's step comes first, although
    only the replay can tell that the order is not what its receipt seals."""
    rec = fixture("tactics")
    last = rec["turns"][-1]["seeds"]
    last["resolve"] = flip(last["resolve"])
    rec["turns"][2]["inputs"]["B"] = _other_order(rec, 3, "B")
    assert refused(capsys, tmp_path, rec).startswith("replay: turn 3")
    # and the other way round: the early seed is refused before anything is played
    rec = fixture("tactics")
    rec["turns"][1]["seeds"]["pre"] = flip(rec["turns"][1]["seeds"]["pre"])
    rec["turns"][-1]["inputs"]["A"] = "A1 >A1 wait"
    with pytest.raises(RecordError) as caught:
        replay(rec)
    assert caught.value.turn == 2


def test_a_label_names_the_step(capsys, tmp_path) -> None:
    rec = fixture("tactics")
    for n, turn in enumerate(rec["turns"], start=1):
        turn["step"] = ["roster", "deploy"][n - 1] if n <= 2 else f"turn {n - 2}"
    assert replay(rec).turns_resolved == len(rec["turns"])  # a label changes nothing else
    rec["turns"][1]["salts"]["B"] = flip(rec["turns"][1]["salts"]["B"])
    line = refused(capsys, tmp_path, rec)
    assert line.startswith("replay: turn 2 (deploy), seat B: ")
    assert failed(capsys, tmp_path, rec) == ["FAILED  turn 2 (deploy) seat B receipt"]


# --- a ruleset with hidden information -----------------------------------------------------------

GAME = "g-0077"
SECRET_SEED = bytes(range(32))
# A hides at 2, B at 3; then A finds B's gem first, B finds A's next.
PICKS: list[dict[str, str]] = [
    {"A": "hide 2", "B": "hide 3"},
    {"A": "guess 3", "B": "guess 1"},
    {"A": "guess 1", "B": "guess 2"},
]


@pytest.fixture(autouse=True)
def hunt_registered() -> Iterator[None]:
    registry.register(hunt.RULESET)
    hunt.CALLS.clear()
    yield
    registry.unregister(hunt.KEY)


@dataclass
class Step:
    label: str
    texts: dict[str, str]  # the sealed (canonical) orders
    defaulted: list[str]
    salts: dict[str, bytes]
    receipts: dict[str, str]
    digest: str
    seeds: dict[str, bytes]
    drawn: dict[str, list[int]]


@dataclass
class Played:
    """A game of Hunt played as the table plays it, every seed and salt known."""

    setup_seed: bytes
    setup_drawn: list[int]
    secret: dicelib.DiceStream
    steps: list[Step] = field(default_factory=list)
    running: Step | None = None  # a step opened but not resolved: its seeds stay secret
    finished: bool = False
    winner: str | None = None


def play(picks: list[dict[str, str]], *, running: bool = False) -> Played:
    secret = dicelib.DiceStream(SECRET_SEED, dicelib.stream_label(GAME, 0, dicelib.SECRET))
    setup_seed = bytes([1]) * 32
    setup = dicelib.DiceStream(setup_seed, dicelib.stream_label(GAME, 0, dicelib.PRE))
    state = hunt.new_game(GAME, hunt.SEATS, {}, setup, secret)
    played = Played(setup_seed, list(setup.rolls), secret)
    for n, given in enumerate([*picks, {}] if running else picks, start=1):
        seeds = {dicelib.PRE: bytes([10 + n]) * 32, dicelib.RESOLVE: bytes([50 + n]) * 32}
        pre = dicelib.DiceStream(seeds[dicelib.PRE], dicelib.stream_label(GAME, n, dicelib.PRE))
        state, _ = hunt.start_step(state, pre, secret)
        label = hunt.step_label(state)
        if running and n == len(picks) + 1:
            played.running = Step(label, {}, [], {}, {}, "", seeds, {"pre": list(pre.rolls)})
            break
        orders = {s: hunt.parse(state, s, given[s]) if s in given else None for s in hunt.SEATS}
        picked = {s: o or hunt.default_order(state, s) for s, o in orders.items()}
        texts = {s: o.canonical() for s, o in picked.items()}
        salts = {s: bytes([n, i]) * 8 for i, s in enumerate(hunt.SEATS)}
        receipts = {s: dicelib.receipt(salts[s], texts[s]) for s in hunt.SEATS}
        digest = dicelib.orders_digest(receipts[s] for s in hunt.SEATS)
        label_r = dicelib.stream_label(GAME, n, dicelib.RESOLVE)
        resolve = dicelib.DiceStream(seeds[dicelib.RESOLVE], label_r, digest)
        state, _ = hunt.resolve(state, picked, resolve, secret)
        defaulted = [s for s, o in orders.items() if o is None]
        drawn = {"pre": list(pre.rolls), "resolve": list(resolve.rolls)}
        played.steps.append(Step(label, texts, defaulted, salts, receipts, digest, seeds, drawn))
    outcome = hunt.outcome(state)
    played.finished, played.winner = outcome.finished, outcome.winner  # type: ignore[assignment]
    return played


def hand_record(played: Played) -> dict[str, Any]:
    """The finished game's record, written from the format by hand."""
    pre = dicelib.PRE
    turns = []
    for step in played.steps:
        turns.append(
            {
                "step": step.label,
                "inputs": {s: t for s, t in step.texts.items() if s not in step.defaulted},
                "seeds": {p: seed.hex() for p, seed in step.seeds.items()},
                "commitments": {p: dicelib.commitment(seed) for p, seed in step.seeds.items()},
                "drawn": step.drawn,
                "receipts": step.receipts,
                "salts": {s: salt.hex() for s, salt in step.salts.items()},
                "defaulted": step.defaulted,
                "orders_digest": step.digest,
            }
        )
    return {
        "format": "pbp-match/1",
        "game_id": GAME,
        "ruleset": hunt.KEY,
        "options": {},
        "seats": list(hunt.SEATS),
        "setup": {
            "inputs": {},
            "seeds": {pre: played.setup_seed.hex()},
            "commitments": {pre: dicelib.commitment(played.setup_seed)},
            "drawn": {pre: played.setup_drawn},
        },
        "secret": {
            "commitment": dicelib.commitment(SECRET_SEED),
            "seed": SECRET_SEED.hex(),
            "drawn": list(played.secret.rolls),
            "blocks": played.secret.blocks,
        },
        "turns": turns,
    }


def without_secret_seed(rec: dict[str, Any]) -> dict[str, Any]:
    rec = copy.deepcopy(rec)
    rec["secret"] = {"commitment": rec["secret"]["commitment"]}
    return rec


def withhold(rec: dict[str, Any], n: int, seat: str) -> dict[str, Any]:
    """Step ``n``'s order of ``seat`` as a mid-game export shows it: its receipt only."""
    rec = copy.deepcopy(rec)
    turn = rec["turns"][n - 1]
    turn["inputs"][seat] = {"receipt": turn["receipts"][seat]}
    del turn["salts"][seat]
    return rec


@pytest.fixture
def finished() -> dict[str, Any]:
    played = play(PICKS)
    assert played.finished and played.winner in ("A", "B")
    return hand_record(played)


def test_a_finished_game_replays_with_its_secret_draws(finished, capsys, tmp_path) -> None:
    code, out, err = run(capsys, tmp_path, "replay", finished)
    assert code == 0, err
    result = json.loads(out)
    assert result["finished"] is True and result["turns_resolved"] == 3
    played = play(PICKS)
    assert result["winner"] == played.winner
    replayed = replay(finished)
    # two gems at setup, one wind per guess step: every secret roll, in order
    assert replayed.secret_drawn == finished["secret"]["drawn"] and len(replayed.secret_drawn) == 4
    assert replayed.setup_drawn == {"pre": []}
    # the private events are replayed with their addressees
    hidden = [e for _, e in replayed.events if e.type == "hidden"]
    assert [(e.to, e.data["spot"]) for e in hidden] == [(("A",), 2), (("B",), 3)]


def test_a_finished_game_verifies_every_secret_roll(finished, capsys, tmp_path) -> None:
    code, out, err = run(capsys, tmp_path, "verify", finished)
    assert code == 0, out + err
    lines = out.strip().splitlines()
    assert not [line for line in lines if not line.startswith("ok      ")][:-1]
    drawn = finished["secret"]["drawn"]
    assert "ok      secret stream commitment sha256(seed)" in lines
    assert f"ok      setup secret rolls {drawn[:2]}" in lines
    assert f"ok      turn 2 (guess 1) secret rolls {drawn[2:3]}" in lines
    assert f"ok      turn 3 (guess 2) secret rolls {drawn[3:]}" in lines
    assert f"ok      secret stream blocks {finished['secret']['blocks']}" in lines
    assert "ok      turn 1 (hide) seat A receipt" in lines


def test_a_defaulted_seat_is_checked_while_replaying(capsys, tmp_path) -> None:
    rec = hand_record(play([PICKS[0], {"A": "guess 3"}, PICKS[2]]))
    assert rec["turns"][1]["defaulted"] == ["B"] and "B" not in rec["turns"][1]["inputs"]
    assert replay(rec).orders[1] == {"A": "guess 3", "B": "guess 1"}
    assert all(c.ok for c in verify(rec))
    rec["turns"][1]["salts"]["B"] = flip(rec["turns"][1]["salts"]["B"])
    line = refused(capsys, tmp_path, rec)
    assert line == (
        "replay: turn 2 (guess 1), seat B: the order (with its salt) does not match its receipt"
    )
    assert failed(capsys, tmp_path, rec) == ["FAILED  turn 2 (guess 1) seat B receipt"]


def test_without_the_secret_seed_replay_stops_at_the_first_secret_draw(
    finished, capsys, tmp_path
) -> None:
    rec = without_secret_seed(finished)
    line = refused(capsys, tmp_path, rec)
    assert line.startswith("replay: setup: ")
    assert "secret stream, which is withheld until the game ends" in line
    assert line.endswith("the withheld part of the game begins here")
    # verify checks what is there (seeds, receipts, digests) and says what is withheld
    code, out, _ = run(capsys, tmp_path, "verify", rec)
    assert code == 0, out
    lines = out.strip().splitlines()
    assert "FAILED" not in out
    assert "note    secret stream: seed withheld until the game ends (its commitment only)" in lines
    assert any(line.startswith("note    setup: this step draws from the secret") for line in lines)
    assert "ok      turn 3 (guess 2) orders digest" in lines
    assert "ok      turn 2 (guess 1) seat B receipt" in lines
    assert not any(" rolls " in line for line in lines if line.startswith("ok"))  # unplayed


def test_a_secret_draw_later_in_the_game_names_its_step(capsys, tmp_path) -> None:
    """A ruleset that draws nothing secret at setup: the replay goes as far as it can."""
    rec = without_secret_seed(hand_record(play(PICKS)))
    rec["setup"]["drawn"] = {"pre": []}
    gems = hunt.new_game

    def public_gems(game_id, seats, options, dice, secret):  # type: ignore[no-untyped-def]
        return hunt.HuntState(str(game_id), {"A": 3, "B": 5})

    hunt.new_game = public_gems  # type: ignore[assignment]
    try:
        with pytest.raises(RecordError) as caught:
            replay(rec)
        assert str(caught.value).startswith("turn 2 (guess 1): this step draws from the secret")
        checks = verify(rec)
    finally:
        hunt.new_game = gems
    assert all(c.ok for c in checks)
    notes = [c.what for c in checks if c.note]
    assert any(n.startswith("turn 2 (guess 1): this step draws from the secret") for n in notes)
    assert "turn 1 (hide) pre rolls [" in " ".join(c.what for c in checks if not c.note)


def test_a_withheld_order_stops_the_replay(finished, capsys, tmp_path) -> None:
    rec = withhold(finished, 1, "B")
    line = refused(capsys, tmp_path, rec)
    assert line == (
        "replay: turn 1 (hide), seat B: this order is withheld (only its receipt is public until"
        " it is revealed): the withheld part of the game begins here"
    )
    code, out, _ = run(capsys, tmp_path, "verify", rec)
    assert code == 0, out
    lines = out.strip().splitlines()
    assert "note    turn 1 (hide) seat B order withheld (its receipt only)" in lines
    assert "ok      turn 1 (hide) seat A receipt" in lines
    assert "ok      turn 1 (hide) orders digest" in lines  # the digest still binds its receipt
    assert any(
        line.startswith("note    turn 1 (hide), seat B: this order is withheld") for line in lines
    )
    # a withheld receipt that is not the one the digest binds is a failure, not a note
    rec["turns"][0]["inputs"]["B"]["receipt"] = flip(rec["turns"][0]["receipts"]["B"])
    assert "replay: turn 1 (hide), seat B: the withheld order's receipt" in refused(
        capsys, tmp_path, rec
    )
    assert "FAILED  turn 1 (hide) seat B withheld receipt" in failed(capsys, tmp_path, rec)


@pytest.mark.parametrize(
    ("tamper", "replay_says", "verify_says"),
    [
        (
            lambda rec: rec["secret"].update(seed=flip(rec["secret"]["seed"], 40)),
            "replay: secret stream: the seed does not match its commitment sha256(seed)",
            "FAILED  secret stream commitment sha256(seed)",
        ),
        (
            lambda rec: rec["secret"]["drawn"].__setitem__(2, rec["secret"]["drawn"][2] % 4 + 1),
            "replay: turn 2 (guess 1): the secret rolls in the record [",
            "FAILED  turn 2 (guess 1) secret rolls [",
        ),
        (
            lambda rec: rec["secret"]["drawn"].append(1),
            "replay: secret stream: the record lists 1 roll(s) more than the game drew",
            "FAILED  secret stream: 1 roll(s) more than the game drew",
        ),
        (
            lambda rec: rec["secret"].update(blocks=rec["secret"]["blocks"] + 1),
            "replay: secret stream: ",
            "FAILED  secret stream blocks ",
        ),
        (
            lambda rec: rec["turns"][2]["inputs"].update(A="guess 2"),
            "replay: turn 3 (guess 2), seat A: the order (with its salt) does not match",
            "FAILED  turn 3 (guess 2) seat A receipt",
        ),
    ],
    ids=["secret seed", "secret roll", "secret roll added", "secret blocks", "order"],
)
def test_tampered_hidden_records(finished, capsys, tmp_path, tamper, replay_says, verify_says):
    rec = copy.deepcopy(finished)
    tamper(rec)
    assert refused(capsys, tmp_path, rec).startswith(replay_says)
    assert any(line.startswith(verify_says) for line in failed(capsys, tmp_path, rec))


def test_a_tampered_seed_is_refused_before_anything_is_played(finished) -> None:
    rec = copy.deepcopy(finished)
    rec["turns"][2]["commitments"]["resolve"] = dicelib.commitment(bytes(32))
    hunt.CALLS.clear()
    with pytest.raises(RecordError) as caught:
        replay(rec)
    assert str(caught.value) == (
        "turn 3 (guess 2): the resolve seed does not match its commitment sha256(seed)"
    )
    assert not hunt.CALLS  # not even the setup was played


# --- the export --------------------------------------------------------------------------------


def rows(played: Played, *, over: bool) -> tuple[GameRow, list[OrderRow], list[StreamRow]]:
    """What the table stores for ``played``: ``over`` reveals the secret stream and the withheld
    orders (the end of the game); otherwise the hide step's orders stay withheld."""
    seats = [SeatRow(s, 100 + i, f"player {s}", i, accepted=True) for i, s in enumerate(hunt.SEATS)]
    status = "finished" if over else "active"
    game = GameRow(GAME, hunt.KEY, 1, 2, status, {}, seats, outcome=played.winner if over else None)
    if over:
        game.end_reason = "rules"
    setup = StreamRow(GAME, 0, dicelib.PRE, played.setup_seed.hex(), "", revealed=True)
    setup.commitment = dicelib.commitment(played.setup_seed)
    setup.drawn = played.setup_drawn
    secret = StreamRow(
        GAME,
        0,
        dicelib.SECRET,
        SECRET_SEED.hex(),
        dicelib.commitment(SECRET_SEED),
        drawn=list(played.secret.rolls),
        revealed=over,
        blocks=played.secret.blocks,
    )
    streams, orders = [setup, secret], []
    everything = [*played.steps, *([played.running] if played.running else [])]
    for n, step in enumerate(everything, start=1):
        resolved = step is not played.running
        for phase, seed in step.seeds.items():
            streams.append(
                StreamRow(
                    GAME,
                    n,
                    phase,
                    seed.hex(),
                    dicelib.commitment(seed),
                    orders_digest=step.digest if phase == dicelib.RESOLVE and resolved else None,
                    drawn=step.drawn.get(phase, []),
                    revealed=resolved,
                    step=step.label,
                )
            )
        for seat, text in step.texts.items():
            defaulted = seat in step.defaulted
            orders.append(
                OrderRow(
                    GAME,
                    n,
                    seat,
                    text,
                    step.salts[seat].hex(),
                    step.receipts[seat],
                    None if defaulted else 1,
                    defaulted,
                    1,
                    0.0,
                    withheld=step.label == "hide" and not over,
                )
            )
    return game, orders, streams


def test_the_export_of_a_finished_game_is_the_hand_made_record(finished) -> None:
    exported = build_record(*rows(play(PICKS), over=True))
    players = exported.pop("players")
    assert players == {"A": "player A", "B": "player B"}
    assert exported.pop("players_digest") == players_digest(GAME, list(hunt.SEATS), players)
    result = exported.pop("result")
    assert result["status"] == "finished"
    assert result["turns_resolved"] == len(exported["turns"])
    assert exported == finished
    keys = ["format", "game_id", "ruleset", "options", "seats", "setup", "secret", "turns"]
    assert list(exported) == keys


def test_a_mid_game_export_holds_only_what_is_public(capsys, tmp_path) -> None:
    played = play(PICKS[:2], running=True)  # the hide and a guess resolved, guess 2 open
    exported = build_record(*rows(played, over=False))
    assert exported["secret"] == {"commitment": dicelib.commitment(SECRET_SEED)}
    assert [t["step"] for t in exported["turns"]] == ["hide", "guess 1"]  # not the running one
    hide = exported["turns"][0]
    assert hide["inputs"] == {s: {"receipt": hide["receipts"][s]} for s in hunt.SEATS}
    assert hide["salts"] == {}  # a withheld order's salt is not exported
    assert exported["turns"][1]["inputs"] == PICKS[1]
    text = json.dumps(exported)
    assert SECRET_SEED.hex() not in text and "hide 2" not in text
    assert played.running is not None
    assert all(seed.hex() not in text for seed in played.running.seeds.values())
    # replay stops where the withheld part begins (here: the setup's secret draws)
    line = refused(capsys, tmp_path, exported)
    assert line.startswith("replay: setup: this step draws from the secret stream")
    # verify checks what is there and says what is withheld
    code, out, _ = run(capsys, tmp_path, "verify", exported)
    assert code == 0, out
    lines = out.strip().splitlines()
    assert "note    turn 1 (hide) seat A order withheld (its receipt only)" in lines
    assert "ok      turn 1 (hide) orders digest" in lines
    assert "ok      turn 2 (guess 1) seat B receipt" in lines


def test_an_export_of_a_game_without_hidden_information_is_unchanged() -> None:
    """No ``secret`` block, every order's text and salt; each turn names its step."""
    played = play(PICKS)
    game, orders, streams = rows(played, over=True)
    streams = [s for s in streams if s.phase != dicelib.SECRET]
    exported = build_record(game, orders, streams)
    assert "secret" not in exported
    assert [t["step"] for t in exported["turns"]] == ["hide", "guess 1", "guess 2"]
    assert "step" not in exported["setup"]
    assert all(isinstance(v, str) for t in exported["turns"] for v in t["inputs"].values())


def test_a_seat_that_left_during_a_step_leaves_there_in_the_replay(capsys, tmp_path) -> None:
    """``left``: the seats that resigned during a step while the game went on for the others
    (the table's ``SeatRow.left_turn``); the replay resigns them where it happened."""
    played = play(PICKS)
    game, orders, streams = rows(played, over=True)
    game.seats[1].left_turn = 2
    exported = build_record(game, orders, streams)
    assert [t.get("left") for t in exported["turns"]] == [None, ["B"], None]
    rec = hand_record(play(PICKS[:2]))
    rec["turns"][1]["left"] = ["B"]
    rec["turns"][1]["drawn"]["resolve"] = []  # the game ended before A's hit was rolled
    replayed = replay(rec)
    assert replayed.result()["winner"] == "A"
    resigned = [(turn, e.type) for turn, e in replayed.events if e.type == "resigned"]
    assert resigned == [(2, "resigned")]
    assert not [c.what for c in verify(rec) if not c.ok]
    rec["turns"][1]["left"] = ["Z"]
    assert (
        refused(capsys, tmp_path, rec)
        == "replay: turn 2 (guess 1), seat Z: not a seat of this game"
    )
