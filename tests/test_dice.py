"""bot/dice.py against an independent re-implementation of ``spec/dice-and-receipts.md``.

The reference functions below are written from the spec alone (hashlib/hmac only), the way a
player would write their own checker; bot/dice.py must agree with them bit for bit.
"""

from __future__ import annotations

import hashlib
import hmac
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import dice as dicelib
from bot.i18n import catalogue, t

# --- the spec, re-implemented ------------------------------------------------------------------


def ref_commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def ref_key(seed: bytes, phase: str, orders_digest: str | None) -> bytes:
    if phase == "resolve":
        assert orders_digest is not None
        return hmac.new(seed, b"resolve:" + orders_digest.encode(), hashlib.sha256).digest()
    return seed


class RefStream:
    def __init__(self, seed: bytes, label: str, orders_digest: str | None = None) -> None:
        self.key = ref_key(seed, label.split(":")[-1], orders_digest)
        self.label = label
        self.n = 0
        self.blocks_used = 0

    def block(self) -> bytes:
        msg = (self.label + ":" + str(self.n)).encode()
        self.n += 1
        self.blocks_used += 1
        return hmac.new(self.key, msg, hashlib.sha256).digest()

    def roll(self, s: int) -> int:
        while True:
            x = int.from_bytes(self.block()[:8], "big")
            if x >= 2**64 - (2**64 % s):
                continue  # rejected: take the next block
            return x % s + 1

    def shuffle(self, items: list) -> list:
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.roll(i + 1) - 1
            items[i], items[j] = items[j], items[i]
        return items


def ref_receipt(salt: bytes, order: str) -> str:
    return hashlib.sha256(salt + order.encode("utf-8")).hexdigest()


def ref_orders_digest(receipts: list[str]) -> str:
    return hashlib.sha256(",".join(receipts).encode()).hexdigest()


# --- strategies --------------------------------------------------------------------------------

seeds = st.binary(min_size=32, max_size=32)
game_ids = st.from_regex(r"g-[0-9]{4}", fullmatch=True)
turns = st.integers(0, 500)
phases = st.sampled_from(["pre", "resolve"])
sides = st.integers(1, 1000)
hexdigests = st.binary(min_size=32, max_size=32).map(lambda b: b.hex())
SETTINGS = settings(max_examples=150, deadline=None)


# --- agreement with the spec -------------------------------------------------------------------


def test_commitment_is_sha256_of_the_raw_seed() -> None:
    seed = bytes(range(32))
    assert dicelib.commitment(seed) == ref_commitment(seed)
    assert dicelib.DiceStream(seed, "g-0001:1:pre").commitment == ref_commitment(seed)
    # Not the hash of the hex text: a checker hashing the wrong thing must disagree.
    assert dicelib.commitment(seed) != hashlib.sha256(seed.hex().encode()).hexdigest()


def test_known_vector_pre_stream() -> None:
    """A fixed vector: if the recipe ever changes, every published game becomes unverifiable."""
    seed = bytes.fromhex("00" * 31 + "01")
    stream = dicelib.DiceStream(seed, "g-0001:1:pre")
    got = [stream.roll(6) for _ in range(6)]
    ref = RefStream(seed, "g-0001:1:pre")
    assert got == [ref.roll(6) for _ in range(6)]
    assert stream.rolls == got


@SETTINGS
@given(seeds, game_ids, turns, phases, hexdigests, st.lists(sides, min_size=1, max_size=30))
def test_rolls_agree_with_the_spec(seed, game_id, turn, phase, digest, dice):
    label = dicelib.stream_label(game_id, turn, phase)
    assert label == f"{game_id}:{turn}:{phase}"
    orders = digest if phase == "resolve" else None
    ours = dicelib.DiceStream(seed, label, orders)
    ref = RefStream(seed, label, orders)
    got = [ours.roll(s) for s in dice]
    assert got == [ref.roll(s) for s in dice]
    assert all(1 <= v <= s for v, s in zip(got, dice, strict=True))
    assert ours.rolls == got


@SETTINGS
@given(seeds, game_ids, turns, phases, hexdigests, st.lists(sides, min_size=1, max_size=20))
def test_same_seed_same_rolls_and_replay_stream_agrees(seed, game_id, turn, phase, digest, dice):
    orders = digest if phase == "resolve" else None
    first = dicelib.DiceStream(seed, dicelib.stream_label(game_id, turn, phase), orders)
    again = dicelib.replay_stream(seed.hex(), game_id, turn, phase, orders)
    assert [first.roll(s) for s in dice] == [again.roll(s) for s in dice]


@SETTINGS
@given(seeds, st.lists(st.integers(), min_size=0, max_size=40))
def test_shuffle_is_fisher_yates_from_the_end(seed, items):
    label = "g-0042:3:pre"
    ours = list(items)
    stream = dicelib.DiceStream(seed, label)
    dicelib.shuffle(stream, ours)
    assert ours == RefStream(seed, label).shuffle(items)
    assert sorted(ours) == sorted(items)
    # one die per position from m-1 down to 1, of i + 1 sides
    assert len(stream.rolls) == max(len(items) - 1, 0)


def test_shuffle_draw_sizes_with_scripted_dice() -> None:
    asked: list[int] = []

    class Recording:
        def __init__(self) -> None:
            self.rolls: list[int] = []

        def roll(self, sides: int) -> int:
            asked.append(sides)
            return 1  # j = 0 every time

    items = ["a", "b", "c", "d"]
    dicelib.shuffle(Recording(), items)
    assert asked == [4, 3, 2]
    # i=3 swaps with 0: d b c a; i=2 swaps with 0: c b d a; i=1 swaps with 0: b c d a
    assert items == ["b", "c", "d", "a"]


def test_rejection_sampling_skips_a_block() -> None:
    """With s = 2**63 + 1 about half the blocks fall in the rejected tail; find a seed whose first
    block is rejected and check that the roll comes from the second block, as the spec says."""
    s = 2**63 + 1
    limit = 2**64 - (2**64 % s)
    label = "g-0001:1:pre"
    for n in range(200):
        seed = hashlib.sha256(f"rejection-{n}".encode()).digest()
        block = RefStream(seed, label).block
        x1, x2 = (int.from_bytes(block()[:8], "big") for _ in range(2))
        if x1 >= limit > x2:  # first block rejected, second accepted
            break
    else:  # pragma: no cover - probability about 0.75**200
        pytest.fail("no seed with a rejected first block")
    ref = RefStream(seed, label)
    stream = dicelib.DiceStream(seed, label)
    assert stream.roll(s) == x2 % s + 1 == ref.roll(s)
    assert ref.blocks_used == 2
    # The next roll starts from block 2, not block 1: both implementations agree on that too.
    assert stream.roll(6) == ref.roll(6)


def test_resolve_key_binds_the_orders_digest() -> None:
    seed = bytes(32)
    label = "g-0001:2:resolve"
    a = dicelib.DiceStream(seed, label, "aa" * 32)
    b = dicelib.DiceStream(seed, label, "bb" * 32)
    ra = [a.roll(1000) for _ in range(8)]
    rb = [b.roll(1000) for _ in range(8)]
    assert ra != rb
    # A resolve stream is not keyed by the bare seed (as a pre stream is).
    bare = RefStream(seed, label, "aa" * 32)
    bare.key = seed
    assert ra != [bare.roll(1000) for _ in range(8)]
    ref = RefStream(seed, label, "aa" * 32)
    assert ra == [ref.roll(1000) for _ in range(8)]
    with pytest.raises(ValueError):
        dicelib.DiceStream(seed, label)  # no digest: refused rather than silently unbound


def test_labels_are_checked() -> None:
    assert dicelib.stream_label("g-0007", 0, "pre") == "g-0007:0:pre"
    with pytest.raises(ValueError):
        dicelib.stream_label("g-0007", 1, "post")


def test_new_seed_is_32_fresh_bytes() -> None:
    a, b = dicelib.new_seed(), dicelib.new_seed()
    assert len(a) == len(b) == 32 and a != b


# --- sealed orders -----------------------------------------------------------------------------


@SETTINGS
@given(st.binary(min_size=16, max_size=16), st.text(max_size=60))
def test_receipt_agrees_with_the_spec(salt, order):
    assert dicelib.receipt(salt, order) == ref_receipt(salt, order)


def test_receipt_of_japanese_order_uses_utf8() -> None:
    salt = bytes.fromhex("00112233445566778899aabbccddeeff")
    order = "右前 左回転"
    assert dicelib.receipt(salt, order) == hashlib.sha256(salt + order.encode()).hexdigest()
    assert dicelib.receipt(salt, order) != dicelib.receipt(salt, "右前 右回転")
    assert dicelib.receipt(salt, order) != dicelib.receipt(bytes(16), order)


@SETTINGS
@given(st.lists(hexdigests, min_size=1, max_size=6))
def test_orders_digest_in_seat_order(receipts):
    assert dicelib.orders_digest(receipts) == ref_orders_digest(receipts)
    assert dicelib.orders_digest(iter(receipts)) == ref_orders_digest(receipts)
    if receipts != receipts[::-1]:
        assert dicelib.orders_digest(reversed(receipts)) != ref_orders_digest(receipts)


# --- scripted dice -----------------------------------------------------------------------------


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_scripted_dice_consume_in_order() -> None:
    dice = dicelib.ScriptedDice([3, 6, 1])
    assert [dice.roll(6), dice.roll(6)] == [3, 6]
    assert dice.remaining == 1 and dice.rolls == [3, 6]
    assert dice.roll(20) == 1 and dice.remaining == 0


def test_scripted_missing_roll_has_a_message_key() -> None:
    dice = dicelib.ScriptedDice([4])
    dice.roll(6)
    with pytest.raises(dicelib.DiceError) as info:
        dice.roll(6)
    err = info.value
    assert err.key == "dice.missing"
    for lang in ("en", "ja"):
        assert err.key in catalogue(lang)
        assert _placeholders(catalogue(lang)[err.key]) <= set(err.params)
    # The second roll is the missing one: messages count rolls from 1, as a reader does.
    assert err.params["index"] == 2
    assert "roll 2 of a d6" in t("en", err.key, **err.params)
    assert "2 番目" in t("ja", err.key, **err.params)


@pytest.mark.parametrize("bad", [0, 7, -1, 2.5, "3", None, True])
def test_scripted_out_of_range_has_a_message_key(bad) -> None:
    dice = dicelib.ScriptedDice([bad])
    with pytest.raises(dicelib.DiceError) as info:
        dice.roll(6)
    err = info.value
    assert err.key == "dice.out_of_range"
    assert err.params["index"] == 1 and err.params["sides"] == 6
    for lang in ("en", "ja"):
        assert _placeholders(catalogue(lang)[err.key]) <= set(err.params)
    assert dice.rolls == [] and dice.remaining == 1  # nothing consumed


def test_no_dice_refuses_any_draw() -> None:
    with pytest.raises(dicelib.DiceError) as info:
        dicelib.NoDice().roll(6)
    assert info.value.key == "dice.none_expected"
    assert info.value.key in catalogue("ja")


def test_a_die_needs_a_side() -> None:
    with pytest.raises(ValueError):
        dicelib.DiceStream(bytes(32), "g-1:1:pre").roll(0)
