"""/roll draws on a chain of committed seeds: each roll reveals the previous one's commitment."""

from __future__ import annotations

import hashlib
import re

import pytest

from bot import dice as dicelib
from bot import rollexpr
from tests.cogs.game.sim import setup_duel


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


def _fields(message) -> dict[str, str]:
    return {f.name: f.value.strip("`") for f in message.embeds[0].fields}


def _by_prefix(fields: dict[str, str], prefix: str) -> str:
    (value,) = [v for k, v in fields.items() if k.startswith(prefix)]
    return value


async def test_each_roll_reveals_the_seed_committed_by_the_previous_one(duel):
    first = (await duel.alice.slash(duel.channel, "roll", expression="4d6kh3")).response
    second = (await duel.bob.slash(duel.channel, "roll", expression="2d6+1")).response
    assert not first.ephemeral and not second.ephemeral
    one, two = _fields(first), _fields(second)
    assert "first roll here" in next(k for k in one if k.startswith("Commitment sha256"))
    # The second roll's seed is the one whose commitment the first roll published.
    seed = bytes.fromhex(two["Seed (revealed)"])
    assert hashlib.sha256(seed).hexdigest() == one["Commitment of the next roll here"]
    assert _by_prefix(two, "Commitment sha256") == one["Commitment of the next roll here"]
    # And the dice shown are the ones that seed and label give.
    label = two["Stream"]
    assert label == f"roll-{duel.channel.id}:2:pre"
    again = rollexpr.roll("2d6+1", dicelib.DiceStream(seed, label))
    assert again.total == int(re.findall(r"\*\*(-?\d+)\*\*", second.embeds[0].description)[-1])


async def test_a_bad_expression_is_refused_and_spends_no_seed(duel):
    first = (await duel.alice.slash(duel.channel, "roll", expression="3d6")).response
    refused = await duel.alice.slash(duel.channel, "roll", expression="3d")
    assert refused.ephemeral and "⚠️" in refused.response.content
    nxt = (await duel.alice.slash(duel.channel, "roll", expression="1d20")).response
    assert _fields(nxt)["Stream"].endswith(":2:pre")
    assert (
        _by_prefix(_fields(nxt), "Commitment sha256")
        == _fields(first)["Commitment of the next roll here"]
    )


async def test_verify_roll_recomputes_pre_and_resolve_streams(duel):
    seed = bytes(range(32))
    digest = "ab" * 32
    pre = dicelib.DiceStream(seed, "g-0007:3:pre")
    expected = [pre.roll(6) for _ in range(4)]
    reply = await duel.alice.slash(
        duel.channel,
        "verify roll",
        seed=seed.hex(),
        commitment=dicelib.commitment(seed),
        label="g-0007:3:pre",
        count=4,
    )
    assert reply.ephemeral and ", ".join(map(str, expected)) in reply.response.content
    assert "matches" in reply.response.content

    # A resolve stream needs the turn's orders digest; with it, its own rolls come back.
    refused = await duel.alice.slash(
        duel.channel, "verify roll", seed=seed.hex(), commitment="00", label="g-0007:3:resolve"
    )
    assert "orders_digest" in refused.response.content
    resolve = dicelib.DiceStream(seed, "g-0007:3:resolve", digest)
    expected = [resolve.roll(6) for _ in range(6)]
    reply = await duel.alice.slash(
        duel.channel,
        "verify roll",
        seed=seed.hex(),
        commitment="00",
        label="g-0007:3:resolve",
        orders_digest=digest,
    )
    assert ", ".join(map(str, expected)) in reply.response.content
    assert "does not match" in reply.response.content.lower()


@pytest.mark.parametrize(
    ("expression", "reason"),
    [
        # Spaces are not counted by the 100-character cap, but the title shows them all.
        pytest.param("1d6" + " " * 300 + "+1", "spaces included", id="padded"),
        # 800 dice within 100 characters: their breakdown alone is far over an embed's 4096.
        pytest.param("+".join(["100d1000kh1"] * 8), "dice in all", id="many-dice"),
    ],
)
async def test_a_too_large_roll_is_refused_and_the_chain_does_not_skip(duel, expression, reason):
    first = (await duel.alice.slash(duel.channel, "roll", expression="3d6")).response
    refused = await duel.alice.slash(duel.channel, "roll", expression=expression)
    assert refused.ephemeral and refused.response.content.startswith("⚠️")
    assert reason in refused.response.content
    nxt = (await duel.bob.slash(duel.channel, "roll", expression="1d20")).response
    assert _fields(nxt)["Stream"].endswith(":2:pre")
    assert (
        _by_prefix(_fields(nxt), "Commitment sha256")
        == _fields(first)["Commitment of the next roll here"]
    )


async def test_the_largest_roll_allowed_fits_its_embed(duel):
    name = "ｗ" * 32  # the longest display name, in wide characters
    player = duel.guild.add_member(duel.env.create_user(name))
    # 90 dice of four digits, one struck through in each term, and spaces up to the raw cap.
    expression = "     -     ".join(["10d1000kh9"] * 9)
    assert len(expression) <= rollexpr.MAX_INPUT_CHARS
    rolled = (await player.slash(duel.channel, "roll", expression=expression)).response
    embed = rolled.embeds[0]
    assert len(embed.title) <= 256 and len(embed.description) <= 4096
    assert embed.description.endswith("**")
