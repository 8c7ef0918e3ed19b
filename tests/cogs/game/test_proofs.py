"""Turn posts that read on a phone: a first line that says what happened, the proofs behind a
Proofs button (persistent: it works after a restart), the next commitments short in the footer."""

from __future__ import annotations

import re

import pytest

from bot import dice as dicelib
from bot.messages import SHORT_HEX, proofs_text
from tests.cogs.game.sim import field, setup_duel, start_duel, turn_posts

HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


def post_text(message) -> str:
    embed = message.embeds[0]
    parts = [message.content or "", embed.title or "", embed.description or ""]
    parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


async def streams(duel, turn: int):
    async with duel.bot.table.repo.read() as tx:
        return {s.phase: s for s in await tx.streams(duel.game_id, turn)}


async def play_turn(duel, alice: str = "forward none", bob: str = "stay left") -> None:
    await duel.alice.send_dm(alice)
    await duel.bob.send_dm(bob)
    await duel.bot.outbox.idle()


async def test_posts_start_with_what_happened_and_keep_the_proofs_behind_the_button(duel):
    await start_duel(duel)
    first = turn_posts(duel)[0]
    record = await duel.bot.table.export(duel.game_id)
    # The commitments are published before any die is rolled, short, in the footer.
    footer = first.embeds[0].footer.text or ""
    assert f"players {record['players_digest'][:SHORT_HEX]}…" in footer
    opened = await streams(duel, 1)
    assert f"pre {opened['pre'].commitment[:SHORT_HEX]}…" in footer
    assert field(first, "Dice proofs") is None
    assert not HEX64.search(post_text(first) + footer), "no 64-digit value in a post"

    await play_turn(duel)
    post = turn_posts(duel)[1]
    assert post.embeds[0].title.endswith("Turn 2")
    # The title names the step that opens; the first line says what happened, in bold.
    head = post.embeds[0].description.splitlines()[0]
    assert head.startswith("**") and head.endswith("**") and "Results of" not in head
    # The seeds it revealed are behind the Proofs button, not in the post; the footer commits
    # to the next step's dice.
    resolved = await streams(duel, 1)
    assert field(post, "Dice proofs") is None
    text = post_text(post) + (post.embeds[0].footer.text or "")
    assert resolved["pre"].seed[:SHORT_HEX] not in text
    assert resolved["resolve"].seed[:SHORT_HEX] not in text
    following = await streams(duel, 2)
    assert f"pre {following['pre'].commitment[:SHORT_HEX]}…" in post.embeds[0].footer.text
    # Orders sent on time are told by the events; their texts and salts are behind the button.
    assert "Orders" not in [f.name for f in post.embeds[0].fields]
    async with duel.bot.table.repo.read() as tx:
        sealed = await tx.orders_for_turn(duel.game_id, 1)
    assert sealed["A"].salt[:SHORT_HEX] not in text
    assert not HEX64.search(text)
    # The full values are in the export (and verify checks them).
    record = await duel.bot.table.export(duel.game_id)
    assert record["turns"][0]["seeds"]["pre"] == resolved["pre"].seed
    assert record["turns"][0]["salts"]["A"] == sealed["A"].salt


async def test_posts_in_japanese_start_with_what_happened(duel):
    await start_duel(duel)
    await duel.bot.table.set_language(duel.guild.id, "ja")
    await play_turn(duel)
    post = turn_posts(duel)[-1]
    head = post.embeds[0].description.splitlines()[0]
    assert head.startswith("**") and "の結果" not in head
    assert "ダイスのコミットメント" in post.embeds[0].footer.text


async def test_the_final_post_names_the_last_step(duel):
    await start_duel(duel)
    await play_turn(duel)
    await duel.alice.slash(duel.channel, "game resign", confirm=True)
    await duel.bot.outbox.idle()
    final = turn_posts(duel)[-1]
    # A resignation resolves no step: the post does not claim one.
    assert "Results of" not in (final.embeds[0].description or "")
    assert final.embeds[0].title.endswith("Final")


async def test_the_proofs_button_answers_privately_with_the_full_values(duel):
    await start_duel(duel)
    await play_turn(duel)
    carol = duel.guild.add_member(duel.env.create_user("carol"))  # a spectator may check too
    post = turn_posts(duel)[1]
    answer = await carol.click(post, label="Proofs")
    assert answer.ephemeral
    text = answer.response.content
    assert text.startswith("🔎 **Proofs of g-0001, step 1** (dice streams `g-0001:1:…`)")
    one, two = await streams(duel, 1), await streams(duel, 2)
    async with duel.bot.table.repo.read() as tx:
        sealed = await tx.orders_for_turn(duel.game_id, 1)
    for phase in ("pre", "resolve"):
        assert f"`{phase}` seed `{one[phase].seed}`" in text
        assert f"`{phase}` commitment `{one[phase].commitment}`" in text
        # the step it opened: its commitments, never its seeds (they are still secret)
        assert f"`{phase}` commitment `{two[phase].commitment}`" in text
        assert two[phase].seed not in text
    assert f"Orders digest: `{one['resolve'].orders_digest}`" in text
    for seat, order in sealed.items():
        assert (
            f"**{seat}**: `{order.text}` · salt `{order.salt}` · receipt `{order.receipt}`" in text
        )

    # The first post's button: the players digest and the setup, and turn 1's commitments only.
    first = await carol.click(turn_posts(duel)[0], label="Proofs")
    assert first.response.content.startswith("🔎 **Proofs of g-0001, setup**")
    record = await duel.bot.table.export(duel.game_id)
    assert f"`{record['players_digest']}`" in first.response.content
    assert f"`pre` seed `{record['setup']['seeds']['pre']}`" in first.response.content
    assert f"`pre` commitment `{one['pre'].commitment}`" in first.response.content
    assert one["pre"].seed not in first.response.content  # shown with step 1's own button


async def test_the_proofs_button_works_after_a_restart(duel, make_bot):
    await start_duel(duel)
    await play_turn(duel)
    await duel.env.restart_bot(make_bot())
    await duel.bot.outbox.idle()
    post = turn_posts(duel)[1]
    answer = await duel.alice.click(post, label="Proofs")
    one = await streams(duel, 1)
    assert answer.ephemeral
    assert f"`resolve` seed `{one['resolve'].seed}`" in answer.response.content


async def test_proofs_of_the_open_step_show_no_order_and_no_seed(duel):
    """A button can only name a resolved step, but the table checks anyway: the open step's
    orders show their receipts only, its seeds not at all."""
    await start_duel(duel)
    await duel.alice.send_dm("forward left")
    table = duel.bot.table
    proofs = await table.reads.proofs(duel.game_id, 1)
    (order,) = proofs.orders
    assert order.text is None and order.salt is None and order.receipt
    assert all(s.seed is None for s in proofs.streams)
    async with table.repo.read() as tx:
        sealed = (await tx.orders_for_turn(duel.game_id, 1))["A"]
    for lang in ("en", "ja"):
        text = proofs_text(proofs, lang)
        assert sealed.salt not in text and "forward" not in text
        assert all(s.seed not in text for s in (await streams(duel, 1)).values())
    assert (await streams(duel, 1))[dicelib.PRE].commitment in proofs_text(proofs, "en")


async def test_game_orders_keeps_the_full_receipt(duel):
    await start_duel(duel)
    await duel.alice.send_dm("forward left")
    answer = await duel.alice.slash(duel.channel, "game orders")
    async with duel.bot.table.repo.read() as tx:
        sealed = (await tx.orders_for_turn(duel.game_id, 1))["A"]
    assert f"receipt `{sealed.receipt}`" in answer.response.content
