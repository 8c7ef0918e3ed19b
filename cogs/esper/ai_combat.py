"""The Esper demo AI in an ESP combat: each of a combat's steps (:mod:`.combat`) answered.

EVIL silhouettes (no piece there) rush into a combat that involves an enemy of theirs. In a
combat each seat attacks a suspect (or a found key installation: everyone but EVIL wants them
down) with the card that does the most harm, melees when it has no attack card and is healthy,
keeps a maintained defence it can afford, joins a sync against a suspect, defends with a card
that stops the attack, escapes when the attack may kill it, blocks a suspect's teleport escape,
and goes on to another round while it can still attack a suspect. What the seat knows and whom it
suspects are :mod:`.ai_mind`'s; :mod:`.ai` sends a combat step here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cogs.esper import base as base_map
from cogs.esper import combat as combats
from cogs.esper import rules
from cogs.esper.ai_mind import PARANOIA, SUSPECT, Mind, badly_hurt, durability_lost, own_abilities
from cogs.esper.rules import EVIL, SPECIAL

JOIN_ENEMY = 0.5  # an EVIL silhouette rushes into a combat that involves an enemy of its
JOIN_KEY = 0.5  # EVIL rushes to a key installation under attack
JOIN_FRIEND = 0.15  # an invader rushes in to help a known ally against a suspect
SYNC = 0.85  # a seat yet to act adds a card to an attack on a suspect
ESCAPE_RISK = 0.2  # a seat escapes when the attack kills it with at least this chance
DEFEND_WORTH = 0.25  # expected damage below which a defence card is saved
ROUNDS = 12  # a combat this long is stopped (two seats that cannot hurt each other)
CHECK_WORTH = 0.25  # a card above the ESP level is played when its check passes this often
# 2D6 totals 2..12, out of 36
TOTALS = (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)


def combat_step(k: Mind, step: str) -> list[str]:
    if step == combats.ENTRY:
        return [_entry(k)]
    if step == combats.PRECOMBAT:
        return _precombat(k)
    if step == combats.CTURN:
        return _cturn(k)
    if step == combats.SYNC:
        return [_sync(k)]
    if step == combats.DEFEND:
        return _defend(k)
    if step == combats.BLOCK:
        return [_block(k)]
    return [_round_end(k)]


def _column(firepower: int, against: int) -> int:
    """The damage column (0 is 1:2, N is N:1), as the engine reckons it."""
    return combats.column_index(firepower, against)


def _expected(k: Mind, column: int) -> float:
    rows = k.pack.damage
    return sum(w * rows[t][column] for t, w in enumerate(TOTALS)) / 36


def _kills(k: Mind, column: int, left: int) -> float:
    """The chance that a roll in ``column`` takes more than ``left`` durability."""
    rows = k.pack.damage
    return sum(w for t, w in enumerate(TOTALS) if rows[t][column] > left) / 36


def _check_chance(level: int) -> float:
    """The chance of an ESP level check (2D6 ≤ level)."""
    return sum(w for t, w in enumerate(TOTALS) if t + 2 <= level) / 36


def _left(k: Mind, target: str) -> int:
    """What a target has left to lose: a key installation's durability (public), the seat's
    own, a known sheet's less the public damage, else the pack's average less the damage."""
    keys = (k.view["base"] or {}).get("keys", {})
    if target in keys:
        key = keys[target]
        return max(0, k.pack.keys[key["id"]].durability - int(key["damage"]))
    if target == k.seat:
        return max(0, int(k.you["durability"]))
    sheet = k.sheet_of(target)
    if sheet is not None:
        full = k.pack.sheets[sheet].durability
    else:
        sheets = list(k.pack.sheets.values())
        full = round(sum(s.durability for s in sheets) / max(len(sheets), 1))
    return max(1, full - int(k.seats[target]["damage"]))


def _wanted(k: Mind, target: str) -> float:
    """How much the seat wants ``target`` hurt: a key installation (all but EVIL), else the
    suspicion."""
    if target == k.combat.get("key"):
        return 1.0 if k.wants_keys_down() else 0.0
    if k.alignment == SPECIAL and target in k.combat.get("seats", []):
        # it fights back: whoever started the fight when the view tells, else anyone in it
        by = k.combat.get("by")
        if by is None or by == target:
            return max(k.threat(target), PARANOIA)
    return k.threat(target)


def _foes(k: Mind) -> list[str]:
    """The combat's targets this seat would attack, most wanted first."""
    c = k.combat
    targets = [s for s in c.get("seats", []) if s != k.seat]
    if c.get("key"):
        targets.append(str(c["key"]))
    foes = [t for t in targets if _wanted(k, t) >= SUSPECT]
    return sorted(foes, key=lambda t: (-_wanted(k, t), _left(k, t)))


def _harm(k: Mind, params: Mapping[str, Any], target: str) -> float:
    """What an attack (a C card's or an ability's parameters) is worth against ``target``:
    expected damage plus the chance to kill, less the chance a check above the seat's ESP level
    fails, more for levels that are hard to defend."""
    left = _left(k, target)
    if params.get("column") is not None:
        column = int(params["column"])
    else:
        column = _column(int(params.get("firepower") or 0), left)
    level = int(params.get("level", 0))
    works = 1.0 if level <= k.esp else _check_chance(k.esp)
    hard = 1.5 if params.get("no_defence") else 1 + 0.1 * level
    if params.get("attribute") == "own":
        hard += 0.3
    return works * hard * (_expected(k, column) + 4 * _kills(k, column, left))


def _stopped(k: Mind, params: Mapping[str, Any], target: str) -> bool:
    """Whether the target's maintained defence (public) stops this attack as it stands."""
    held = k.combat.get("maintained", {}).get(target)
    if held is None:
        return False
    return (
        int(params.get("level", 1)) <= int(held["level"])
        and params.get("attribute") in held["blocks"]
    )


def _attacks(k: Mind, target: str) -> list[tuple[float, str]]:
    """Every attack on ``target`` the seat could make that its maintained defence does not
    stop, with its worth."""
    out = []
    for card in k.hand:
        if card["kind"] == "attack":
            params = k.pack.ccards[card["id"]].params
            if not _stopped(k, params, target):
                out.append((_harm(k, params, target), f"card {card['id']} {target}"))
    for ability in own_abilities(k, "main", "pre-emptive"):
        if ability.effect == "attack" and not _stopped(k, ability.params, target):
            out.append((_harm(k, ability.params, target) + 0.5, f"use {ability.id} {target}"))
    return out


MELEE = {"level": 1, "attribute": "melee"}  # a melee attack, as a maintained defence sees it


def _can_hurt(k: Mind) -> bool:
    """Whether the seat has an attack some foe's maintained defence does not stop (a card, an
    ability, or melee when healthy)."""
    foes = _foes(k)
    if any(_attacks(k, target) for target in foes):
        return True
    return k.healthy() and any(not _stopped(k, MELEE, target) for target in foes)


def _spare(k: Mind) -> str | None:
    """The card the seat misses least (to throw away for a new one): a special that does
    nothing here, else the lowest defence or escape."""
    worth = {"special": 0, "escape": 1, "defence": 2, "attack": 9}
    cards = sorted(
        k.hand,
        key=lambda card: (
            worth.get(card["kind"], 5) - (1 if card["effect"] == "there_bonus" else 0),
            int(card["level"]),
        ),
    )
    if not cards or cards[0]["kind"] == "attack":
        return None
    return str(cards[0]["id"])


def _weapon(k: Mind) -> str | None:
    """The weapon with the biggest [格闘:X] the seat may name (a C card in hand or an ability)."""
    best: tuple[int, str] | None = None
    for card in k.hand:
        c = k.pack.ccards[card["id"]]
        if c.kind == "special" and c.effect == "melee":
            best = max(best or (-1, ""), (int(c.params.get("x", 0)), c.id))
    for ability in own_abilities(k, "melee"):
        if ability.params.get("weapon"):
            best = max(best or (-1, ""), (int(ability.params.get("x", 0)), ability.id))
    return None if best is None else best[1]


def _direction_away(k: Mind) -> str:
    """An escape's direction: round the ring on a planet; in the base the way with most room."""
    spot = k.me["spot"]
    xy = base_map.coords(str(spot)) if k.base and spot else None
    if xy is None:
        return k.rng.choice(("left", "right"))
    x, y = xy
    room = {"left": x, "right": 5 - x, "up": y, "down": 5 - y}
    best = max(room.values())
    return k.rng.choice([d for d, n in room.items() if n == best])


def _cturn(k: Mind) -> list[str]:
    """``[keep|drop;] main``: the best attack on the most wanted target, else melee when
    healthy, else (badly hurt) a recovery or an escape, else pass."""
    c = k.combat
    head = []
    held = c.get("maintained", {}).get(k.seat)
    if held is not None:
        head = ["keep" if _keep(k, held) else "drop"]
    mains: list[tuple[float, str]] = []
    foes = _foes(k)
    for target in foes:
        for worth, text in _attacks(k, target):
            mains.append((worth * _wanted(k, target), text))
    mains.sort(key=lambda item: -item[0])
    texts = [text for _, text in mains]
    weapon = _weapon(k)
    if foes and k.healthy() and not texts:
        for target in foes:
            if not _stopped(k, MELEE, target):
                texts.append(f"melee {target}" + (f" +{weapon}" if weapon else ""))
                texts.append(f"melee {target}")
                break
    if badly_hurt(k) and any(f != c.get("key") for f in foes):
        # a seat that may be killed first mends, else leaves (a key installation never hits)
        first = [
            f"card {card['id']}"
            for card in k.hand
            if card["kind"] == "special" and card["effect"] == "recover"
        ]
        escapes = [card for card in k.hand if card["kind"] == "escape" and _playable(k, card)]
        if escapes:
            card = min(escapes, key=lambda e: (bool(e["teleport"]), -int(e["level"])))
            first.append(f"card {card['id']} {_direction_away(k)}")
        texts = first + texts
    elif durability_lost(k) >= 2:
        texts += [
            f"card {card['id']}"
            for card in k.hand
            if card["kind"] == "special" and card["effect"] == "recover"
        ]
    spare = _spare(k)
    limit = int((k.you.get("combat") or {}).get("hand_limit", combats.HAND))
    if foes and not texts and spare is not None and len(k.hand) >= limit:
        texts.append(f"discard {spare}")  # a full hand with nothing to attack with: cycle it
    texts.append("pass")
    return ["; ".join([*head, text]) for text in texts]


def _keep(k: Mind, held: Mapping[str, Any]) -> bool:
    """Keep a maintained defence that costs nothing, or one the seat can afford that stops more
    than one attribute (or when it holds no other defence card)."""
    upkeep = int(held.get("upkeep", 0))
    if upkeep == 0:
        return True
    if upkeep > k.power - 1:
        return False
    others = [card for card in k.hand if card["kind"] == "defence"]
    return len(held.get("blocks", [])) > 1 or not others


def _entry(k: Mind) -> str:
    """Rush in: EVIL to a key installation under attack, an EVIL silhouette to a combat with an
    enemy of its, an invader (rarely) to help a known ally against a suspect."""
    c = k.combat
    if badly_hurt(k):
        return "decline"
    seats = [s for s in c.get("seats", []) if s != k.seat]
    suspects = [s for s in seats if k.threat(s) >= SUSPECT]
    allies = [s for s in seats if k.known(s) == k.alignment]
    draw = k.rng.random()
    if k.alignment == EVIL and c.get("spot") in (k.you.get("keys") or {}):
        return "join" if draw < JOIN_KEY else "decline"
    if k.me["side"] == rules.DEFENDER and k.alignment == EVIL and suspects:
        return "join" if draw < JOIN_ENEMY else "decline"
    if allies and suspects and k.healthy():
        return "join" if draw < JOIN_FRIEND else "decline"
    return "decline"


def _precombat(k: Mind) -> list[str]:
    """Every [戦闘前] ability the seat has, then nothing."""
    texts = [f"use {a.id}" for a in own_abilities(k, "pre-combat")]
    if len(texts) > 1:
        texts.insert(0, "; ".join(texts))
    return [*texts, "pass"]


def _sync(k: Mind) -> str:
    """Add the strongest allowed card to an attack on a suspect by someone not suspected."""
    attack = k.combat.get("attack") or {}
    cards = list((k.you.get("combat") or {}).get("sync", []))
    target, by = attack.get("target"), attack.get("by")
    if not cards or target is None or by is None:
        return "pass"
    if _wanted(k, str(target)) < SUSPECT or k.threat(str(by)) >= SUSPECT:
        return "pass"
    if k.rng.random() >= SYNC:
        return "pass"
    best = max(cards, key=lambda c: (k.pack.ccards[c].firepower or 0, k.pack.ccards[c].level))
    return f"sync {best}"


def _playable(k: Mind, card: Mapping[str, Any]) -> bool:
    """A card at most the seat's ESP level, or one whose check passes often enough."""
    level = int(card["level"])
    return level <= k.esp or _check_chance(k.esp) >= CHECK_WORTH


def _incoming(k: Mind, attack: Mapping[str, Any]) -> int:
    """The damage column of the attack on this seat (its true durability declared)."""
    mine = max(0, int(k.you["durability"]))
    column = attack.get("column")
    if column is not None:
        return column if isinstance(column, int) else combats.COLUMNS.index(str(column))
    if attack.get("kind") == "melee":
        henchmen = int(k.combat.get("henchmen", {}).get(k.seat, 0))
        return _column(int(attack.get("firepower") or 0), mine + henchmen)
    return _column(int(attack.get("firepower") or 0), mine)


def _no_defence(k: Mind, attack: Mapping[str, Any]) -> bool:
    source = str(attack.get("card") or "")
    if source in k.pack.ccards:
        return k.pack.ccards[source].no_defence
    try:
        card = k.pack.card(source)
    except KeyError:
        return False
    return bool(getattr(card, "params", {}).get("no_defence"))


def _defend(k: Mind) -> list[str]:
    """A defence card that stops the attack (the cheapest that works), with the seat's
    defence abilities as further tries; else an escape when the attack may kill or the seat is
    badly hurt; else nothing. Always the true durability; a counter in melee when healthy."""
    c = k.combat
    attack = c.get("attack") or {}
    level, attribute = int(attack.get("level", 0)), attack.get("attribute")
    mine = max(0, int(k.you["durability"]))
    column = _incoming(k, attack)
    danger = _kills(k, column, mine)
    expected = _expected(k, column)
    tail = [f"durability {mine}"]
    if attack.get("kind") == "melee" and k.healthy():
        weapon = _weapon(k)
        tail.append("counter" + (f" +{weapon}" if weapon else ""))
    free = k.seat not in c.get("maintained", {}) and not _no_defence(k, attack)
    texts: list[str] = []
    if free and (expected >= DEFEND_WORTH or danger > 0):
        cards = [
            card
            for card in k.hand
            if card["kind"] == "defence"
            and int(card["level"]) >= level
            and attribute in card["blocks"]
            and _playable(k, card)
        ]
        cards.sort(key=lambda card: (int(card["level"]) > k.esp, int(card["level"])))
        uses = [
            f"use {a.id}"
            for a in own_abilities(k, "defence")
            if a.effect == "defend"
            and int(a.params.get("level", 0)) >= level
            and attribute in a.params.get("blocks", [])
        ]
        for card in cards[:2]:
            texts.append("; ".join([f"defend {card['id']}", *uses, *tail]))
        for use in uses:
            texts.append("; ".join([use, *tail]))
        if danger >= ESCAPE_RISK or badly_hurt(k):
            escapes = [
                card
                for card in k.hand
                if card["kind"] == "escape" and int(card["level"]) >= level and _playable(k, card)
            ]
            escapes.sort(key=lambda card: (bool(card["teleport"]), int(card["level"])))
            way = _direction_away(k)
            for card in escapes[:2]:
                texts.append("; ".join([f"escape {card['id']} {way}", *tail]))
            for ability in own_abilities(k, "defence"):
                if ability.effect == "escape" and int(ability.params.get("level", 0)) >= level:
                    texts.append("; ".join([f"use {ability.id}", *tail]))
    texts.append("; ".join(tail))
    texts.append(tail[0])
    return texts


def _block(k: Mind) -> str:
    """Block a suspect's teleport escape with a card above its level (the view's escape level
    when it gives one, else the attack's level the escape had to reach)."""
    c = k.combat
    cards = list((k.you.get("combat") or {}).get("block", []))
    attack = c.get("attack")
    escape = c.get("escape") or {}
    escaper = escape.get("seat") or (attack or {}).get("target") or c.get("current")
    if not cards or escaper is None or k.threat(str(escaper)) < SUSPECT:
        return "pass"
    level = escape.get("level")
    if level is None:
        level = int(attack["level"]) if attack else 2
    best = max(cards, key=lambda card_id: k.pack.ccards[card_id].level)
    if k.pack.ccards[best].level > int(level):
        return f"block {best}"
    return "pass"


def _round_end(k: Mind) -> str:
    """Go on while the seat can still attack a standing suspect (a card, or melee when
    healthy) and is not badly hurt; a full hand throws away a card that cannot help here."""
    fresh = int(k.combat.get("round", 1)) < ROUNDS
    going = fresh and _can_hurt(k) and not badly_hurt(k)
    text = "continue" if going else "stop"
    limit = int((k.you.get("combat") or {}).get("hand_limit", combats.HAND))
    spare = _spare(k)
    if len(k.hand) >= limit and spare is not None:
        text += f"; discard {spare}"
    return text


# --- the secret base -----------------------------------------------------------------------------
