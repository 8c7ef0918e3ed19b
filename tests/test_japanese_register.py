"""Register of the Japanese text (issue 35): a DM to one player speaks in です・ます, a post in the
game's channel in the plain form.

Checked on the Japanese transcript of every ruleset's seeded demo (seed 7; Esper with seven
seats), DM blocks and channel blocks apart (tests/japanese_register.py says how a line is read:
sentences are strict, data is exempt), and on the shared catalogues' entries whose use is known
(the framework's and the shared cogs' texts the demos do not send: notices, reminders, league
posts). A failure prints each offending line once, the catalogue key it most likely comes from,
and its block."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests import japanese_register as register
from tests.seeded_demos import SEED, SeededDemos

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def transcripts(seeded_demos: SeededDemos) -> Callable[[str], str]:
    """Each ruleset's Japanese demo transcript, played once for the run (tests/seeded_demos.py),
    when a test first asks for it."""
    assert register.SEED == SEED

    def of(ruleset: str) -> str:
        return seeded_demos(ruleset, "ja", register.PLAYERS.get(ruleset)).transcript

    return of


@pytest.mark.parametrize("ruleset", register.RULESETS)
def test_dms_are_polite_and_posts_plain(transcripts: Callable[[str], str], ruleset: str) -> None:
    found = register.offences(ruleset, transcripts(ruleset))
    assert not found, "\n" + register.report(found)


# --- the shared catalogues -----------------------------------------------------------------------

# Texts of the shared catalogues posted in a game's or a league's channel (found where the code
# sends them: bot/messages.py turn_message, notices and reminders, bot/table.py's notices, the
# lobby's buttons, handovers, absences, league posts, and the public answers of /roll, /config
# language, /league create and join). Plain form.
CHANNEL = (
    "table.notice.paused", "table.notice.resumed", "table.notice.extended",
    "table.notice.extended_paused", "table.notice.abandoned",
    "challenge.accepted", "challenge.accepted_waiting", "challenge.declined",
    "game.started", "game.defaulted_order", "game.defaulted", "game.withheld_order",
    "game.revealed_order",
    "game.outcome.winner", "game.outcome.resigned", "game.outcome.draw", "game.outcome.winners",
    "game.outcome.nobody", "game.outcome.abandoned", "game.reminder", "game.dm_closed",
    "game.group.continued", "deadlines.lobby.none", "roll.footer", "roll.commitment_first",
    "config.language_set",
    "board.alt.header", "board.alt.to_move", "board.alt.won", "board.alt.over",
    "handover.notice", "handover.offered",
    "away.notice.paused", "away.notice.back", "away.notice.miss_limit",
    "league.created", "league.joined", "league.draft.started", "league.draft.finished",
    "league.draft.picked", "league.draft.auto_picked", "league.draft.dm_closed",
    "league.master.awaiting_approval", "league.master.revealed_all",
    "league.match.started", "league.match.started_many", "league.match.started_plain",
    "league.match.abandoned", "league.match.drawn", "league.match.drawn_plain",
    "league.match.forfeit", "league.match.recorded", "league.match.recorded_plain",
    "league.match.recorded_graded", "league.ante.nothing_to_spare", "league.ante.declared",
    "league.ante.changed", "league.ante.extended_notice", "league.ante.voided_notice",
    "league.ante.lapsed_notice", "league.ante.locked_notice", "league.cup.champion",
    "league.roster.edited_add", "league.roster.edited_remove", "league.round.started",
    "league.round.started_byes",
)  # fmt: skip
# Texts sent to one player (a DM, an ephemeral answer): です・ます.
DM = (
    "dm.turn_header", "dm.deadline", "dm.game_over", "dm.private_events", "dm.no_game",
    "dm.several_games", "order.sealed", "order.replaced", "order.progress", "order.resolved",
    "order.stale_buttons", "order.out_of_date", "order.empty", "order.paused", "order.too_long",
    "order.no_builder", "orders.none", "orders.one", "orders.no_games", "resign.done",
    "resign.left", "resign.not_confirmed", "status.pick_game", "deadlines.objection",
    "deadlines.objection_solo", "reminders.dm", "reminders.dm_final", "reminders.digest",
    "reminders.show", "reminders.saved", "handover.dm.header", "handover.dm.sealed",
    "handover.dm.prompt_follows", "handover.done", "handover.offer_done",
    "league.draft.your_pick", "league.ante.offered", "league.master.approved",
    "league.master.rejected", "away.set", "away.ended", "away.show", "privacy.forget.ask",
    "privacy.forget.done", "privacy.export.done",
)  # fmt: skip


def shared_entries() -> dict[str, str]:
    """The Japanese entries of the shared catalogues (bot/i18n/locales and the shared cogs')."""
    folders = [ROOT / "bot" / "i18n" / "locales"]
    folders += [ROOT / "cogs" / name / "locales" for name in ("league", "away", "reminders")]
    folders += [ROOT / "cogs" / name / "locales" for name in ("privacy", "game")]
    found: dict[str, str] = {}
    for folder in folders:
        for path in sorted(folder.glob("*.ja.json")):
            found.update(json.loads(path.read_text("utf-8")))
    return found


def _filled(template: str) -> str:
    """A template as a reader sees it: each placeholder a noun (its value: a name, a number)."""
    return re.sub(r"\{[^{}]*\}", register.NOUN, template)


@pytest.mark.parametrize("kind", ["channel", "dm"])
def test_shared_texts_speak_in_their_register(kind: str) -> None:
    """Channel texts plain, texts to one player polite."""
    keys, sentences = (
        (CHANNEL, register.channel_sentences) if kind == "channel" else (DM, register.dm_sentences)
    )
    texts = shared_entries()
    assert set(keys) <= set(texts), set(keys) - set(texts)
    found = {
        key: sentence
        for key in keys
        for line in _filled(texts[key]).splitlines()
        for sentence in sentences(line)
    }
    assert found == {}


# --- the rule itself ------------------------------------------------------------------------------


def test_the_dm_rule_is_strict_on_sentences() -> None:
    plain = [
        "パーティーは全滅した。",
        "次のターン、Aが突進できる。",
        "カードを1枚選ぶ",
        "どれにするか？",
        "ゲームは終わっていない。続けるなら`反対`と答えて",
        "あなたの手番だ。",
        "敵が多い。",
        "**答え方**（この説明は最初だけだ。❓でもう一度確認できます）",  # a sentence in an aside
        "`パス`と送ってください（無回答も同じだ）。",  # the plain copula in an aside
    ]
    for line in plain:
        assert list(register.dm_sentences(line)), line


def test_the_dm_rule_passes_polite_sentences_and_data() -> None:
    fine = [
        "下のボタンで選ぶか、`前進 右を向く`のように文章で返信してください。差し替えできます。",
        "このキャラクターで確定しますか？ `確定`（無回答時）。",
        "ゲームg-0001は終了しました（<#1>）：🏆 A（<@1000>）の勝利！",
        "あなたの手番です。現在地：P5-0（宇宙港）、同じマス：なし。支援行動→`終了`（または`戦闘`）。",
        "今いる場所から攻撃できる：#1（F3）",  # a label and its value
        "敗北条件：自分が死亡している",  # a sheet's field
        "- **精神探査** `a12` [支援]：同じマスにいるキャラクター1人のシートを見る。",  # a card
        "> Hを1回復する。",  # quoted card text
        "1. H2へ移動しF3を攻撃",  # a numbered choice
        "これが最後のカードです。このラウンドの後に休息します（カード1枚を失う）。",  # an aside
        "**あなたの行動**：E1の飛竜、H 5、向き↓下。",  # no predicate
        "鉤縄使い A-8：H9・HP 8/8",
        "`移動 C4`（タグかヘクス。ヘクス1つなら移動先、複数なら1歩ずつ）。",  # ずつ, no verb
        "1体に**攻撃**する（ダメージ。指定できます）か、**待機**します。",  # one sentence
        "• **方向転換**は移動の後です：右を向く・左を向く（1面ずつ）、向きを変えない。",  # terms
        "⏳ 期限：<t:1800000000:f> (<t:1800000000:R>)",
    ]
    for line in fine:
        assert list(register.dm_sentences(line)) == [], line


def test_the_channel_rule_finds_polite_endings() -> None:
    assert list(register.channel_sentences("• Aは元のタイルに留まり方向転換もできません。"))
    assert list(register.channel_sentences("次のターン、Aが突進できます"))
    assert list(
        register.channel_sentences("⏰ {users}：期限は明日です（DMで命令を送ってください）")
    )
    fine = [
        "• Aは1,1から1,0へ移動。",
        "• AがBを1,-1から1,-2へ押し出した。",
        "**💀 パーティーは全滅した。モンスターの勝利。**",
        "• C（シーラス）：`戦闘です`は実行されない。",  # a code span is the player's words
        "[ダイスの証明] シード pre `b3216daa51f4…` · resolve `1a1a2d82c73e…`",
        "ますます強くなる。",
    ]
    for line in fine:
        assert list(register.channel_sentences(line)) == [], line


def test_a_failure_names_the_line_its_key_and_block() -> None:
    transcript = "\n".join(
        [
            "ヘッダー",
            "",
            "=== アリーナデュエル・g-0001・第2ターン ===",
            "• 突進の判定（A 6·6·2、B 4·1·6）：次のターン、Aが突進できます。",
            "",
            "--- DM → 1000 ---",
            "あなたの番だ。",
        ]
    )
    found = register.offences("arena", transcript)
    assert [(o.kind, o.sentence) for o in found] == [
        ("channel", "• 突進の判定（A 6·6·2、B 4·1·6）：次のターン、Aが突進できます。"),
        ("dm", "あなたの番だ"),
    ]
    text = register.report(found)
    assert "line: • 突進の判定" in text and "    | === アリーナデュエル" in text
    assert text.startswith("2 keys: ")
