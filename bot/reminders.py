"""Each player's reminders before a step's deadline (issue 34): when, how, quiet hours, a digest.

Pure: no discord, no storage, no clock (times are UNIX seconds passed in); time zones are IANA
names read with :mod:`zoneinfo`, so a quiet hour or a digest's hour is the player's own wall-clock
time on either side of a daylight-saving change.

A player's :class:`Settings` name the reminders (:class:`Lead`: a share of the step's time left,
or a time before the deadline), how they come (a ping in the game's channel or a DM), an optional
daily digest DM that replaces every reminder but the last, and quiet hours during which only the
last reminder is sent. :func:`schedule` turns them, a deadline and the step's length into the
step's reminders; the one nearest the deadline is the *final* one, which nothing removes: with
"1h 10m" and a day-long step, reminders an hour and ten minutes before the deadline, the second
final. (Examples are in tests/test_reminders.py rather than doctests.)
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.ruleset import RuleError

VIA = ("channel", "dm")
MAX_LEADS = 5
MIN_BEFORE = 60  # seconds: a reminder a minute before the deadline at the latest
MAX_BEFORE = 7 * 86_400
DEFAULT_DIGEST_HOUR = 9
ZONE_EXAMPLES = "Asia/Tokyo, Europe/London, America/New_York"
_DAY = 24 * 60  # minutes


class ReminderError(RuleError):
    """A setting refused: ``key`` names the reason in the catalogues, ``params`` fill it (a
    command answers it with the reason, as any refusal)."""


@dataclass(frozen=True, order=True)
class Lead:
    """One reminder: ``seconds`` before the deadline, or (``percent``) when that share of the
    step's time is left. Exactly one of the two is set."""

    seconds: int = 0
    percent: int = 0

    @property
    def slot(self) -> str:
        """The reminder's name, as a player writes it (``50%``, ``1h``, ``36h30m``): also what
        the deadline worker marks as sent."""
        if self.percent:
            return f"{self.percent}%"
        hours, rest = divmod(self.seconds, 3600)
        return "".join(f"{n}{u}" for n, u in ((hours, "h"), (rest // 60, "m")) if n)

    def at(self, deadline: float, step_seconds: float) -> float:
        if self.percent:
            return deadline - step_seconds * self.percent / 100
        return deadline - self.seconds


DEFAULT_LEADS = (Lead(percent=50), Lead(percent=10))  # as before issue 34: half time, 10 % left


@dataclass(frozen=True)
class Settings:
    """A player's reminder settings. ``zone``: an IANA name (None: UTC); ``quiet``: the local
    minutes after midnight when quiet hours start and end (the end excluded; it may wrap past
    midnight); ``digest_hour``: the local hour of the daily digest."""

    leads: tuple[Lead, ...] = DEFAULT_LEADS
    via: str = "channel"
    digest: bool = False
    digest_hour: int = DEFAULT_DIGEST_HOUR
    zone: str | None = None
    quiet: tuple[int, int] | None = None
    _tz: ZoneInfo = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_tz", _zone(self.zone or "UTC"))

    @property
    def tz(self) -> ZoneInfo:
        return self._tz


@dataclass(frozen=True)
class Reminder:
    slot: str
    at: float
    final: bool


# --- the schedule ---------------------------------------------------------------------------


def schedule(settings: Settings, deadline: float, step_seconds: float) -> list[Reminder]:
    """The step's reminders for a player, earliest first. Each falls after the step began
    (``deadline - step_seconds``) and before the deadline; the latest is final and always kept;
    the others are dropped inside quiet hours, and all of them when the player takes a digest.
    Empty only when no reminder falls inside the step (a 24 h reminder in a 10-minute step)."""
    start = deadline - step_seconds
    times: dict[float, str] = {}
    for lead in sorted(set(settings.leads)):
        at = lead.at(deadline, step_seconds)
        if start < at < deadline:
            times.setdefault(at, lead.slot)  # two leads at one moment: one reminder
    if not times:
        return []
    ordered = sorted(times.items())
    *earlier, (final_at, final_slot) = ordered
    kept = [
        Reminder(slot, at, final=False)
        for at, slot in earlier
        if not settings.digest and not in_quiet(settings, at)
    ]
    return [*kept, Reminder(final_slot, final_at, final=True)]


def due(reminders: list[Reminder], sent: set[str], now: float) -> list[Reminder]:
    """The reminders whose time has come and which were not sent (the caller marks them all
    sent and delivers only the last: after a stall one reminder, not a burst)."""
    return [r for r in reminders if r.at <= now and r.slot not in sent]


def next_at(reminders: list[Reminder], sent: set[str], now: float) -> float | None:
    """When the next reminder not yet sent comes (None: none is left)."""
    return min((r.at for r in reminders if r.at > now and r.slot not in sent), default=None)


def local_minutes(settings: Settings, at: float) -> float:
    """Minutes after the player's local midnight at ``at``."""
    local = datetime.fromtimestamp(at, settings.tz)
    return local.hour * 60 + local.minute + local.second / 60 + local.microsecond / 60e6


def in_quiet(settings: Settings, at: float) -> bool:
    """Whether ``at`` falls inside the player's quiet hours (their own wall-clock time)."""
    if settings.quiet is None:
        return False
    start, end = settings.quiet
    return _within(local_minutes(settings, at), start, end)


def _within(minutes: float, start: int, end: int) -> bool:
    if start < end:
        return start <= minutes < end
    return minutes >= start or minutes < end  # across midnight


def next_digest(settings: Settings, after: float) -> float:
    """When the next daily digest goes out after ``after``: the digest hour in the player's zone,
    or the end of their quiet hours when the hour falls inside them. One a local day, whatever
    daylight saving does (a digest hour that a spring-forward skips comes an hour later)."""
    tz = settings.tz
    minutes = settings.digest_hour * 60
    day_offset = 0
    if settings.quiet is not None and _within(minutes, *settings.quiet):
        start, end = settings.quiet
        day_offset = 1 if start > end and minutes >= start else 0
        minutes = end
    today = datetime.fromtimestamp(after, tz).date()
    for d in range(-1, 3):
        day = today + timedelta(days=d + day_offset)
        at = _local(day, minutes, tz)
        if at > after:
            return at
    raise AssertionError("a digest within three days")  # pragma: no cover


def _local(day: date, minutes: int, tz: ZoneInfo) -> float:
    return datetime.combine(day, time(minutes // 60, minutes % 60), tz).timestamp()


# --- what a player types ----------------------------------------------------------------------

_SPLIT = re.compile(r"[\s,、，;]+")
_PERCENT = re.compile(r"(\d+)%")
_DURATION = re.compile(r"(?:(\d+)(?:d|days?|日))?(?:(\d+)(?:h|hours?|時間))?(?:(\d+)(?:m|min|分))?")
_DEFAULT_WORDS = ("default", "既定", "デフォルト")
_OFF_WORDS = ("off", "none", "なし", "オフ")
_CLOCK = re.compile(r"(\d{1,2})(?::(\d{2}))?")
_RANGE = re.compile(r"\s*(\S+?)\s*[-–~〜～]\s*(\S+)\s*")


def _normal(text: str) -> str:
    # Full-width digits and signs (２４ｈ, ５０％) as their ASCII twins; case does not matter.
    return unicodedata.normalize("NFKC", text).strip().lower()


def parse_leads(text: str) -> tuple[Lead, ...]:
    """``"24h 1h 10m"``, ``"50%, 10%"``, ``"1日 1時間 10分"`` or ``"default"``: the reminders,
    nearest the deadline last. Refused (:class:`ReminderError`): a word that is no time, a time
    under a minute or over a week, a share that is not 1–99 %, more than :data:`MAX_LEADS`.
    ``"10分、２４ｈ 1h30m"`` reads as 24h, 1h30m, 10m.
    """
    words = [w for w in _SPLIT.split(_normal(text)) if w]
    if not words:
        raise ReminderError("reminders.bad_time", word=text)
    if len(words) == 1 and words[0] in _DEFAULT_WORDS:
        return DEFAULT_LEADS
    leads: set[Lead] = set()
    for word in words:
        leads.add(_lead(word))
    if len(leads) > MAX_LEADS:
        raise ReminderError("reminders.too_many", most=MAX_LEADS)
    # Earliest first: shares of time left by size, then times before the deadline.
    return tuple(sorted(leads, key=lambda lead: (-lead.percent, -lead.seconds)))


def _lead(word: str) -> Lead:
    percent = _PERCENT.fullmatch(word)
    if percent:
        value = int(percent.group(1))
        if not 1 <= value <= 99:
            raise ReminderError("reminders.bad_percent", word=word)
        return Lead(percent=value)
    duration = _DURATION.fullmatch(word)
    if duration is None or not any(duration.groups()):
        raise ReminderError("reminders.bad_time", word=word)
    days, hours, minutes = (int(g or 0) for g in duration.groups())
    seconds = days * 86_400 + hours * 3600 + minutes * 60
    if not MIN_BEFORE <= seconds <= MAX_BEFORE:
        raise ReminderError("reminders.time_range", word=word)
    return Lead(seconds=seconds)


def format_leads(leads: tuple[Lead, ...]) -> str:
    """The reminders as :func:`parse_leads` reads them back (how they are stored)."""
    return " ".join(lead.slot for lead in leads)


def parse_quiet(text: str) -> tuple[int, int] | None:
    """``"23:00-07:00"``, ``"23-7"``, ``"22:30～6"``: quiet hours as minutes after midnight;
    ``"off"`` (or なし): none. Refused: anything else, or a start equal to the end.
    ``"23-7:30"`` is (1380, 450).
    """
    normal = _normal(text)
    if normal in _OFF_WORDS:
        return None
    match = _RANGE.fullmatch(normal)
    if match is None:
        raise ReminderError("reminders.bad_quiet", text=text)
    start, end = (_clock(part, text) for part in match.groups())
    if start == end:
        raise ReminderError("reminders.bad_quiet", text=text)
    return start, end


def _clock(part: str, text: str) -> int:
    match = _CLOCK.fullmatch(part)
    if match is None:
        raise ReminderError("reminders.bad_quiet", text=text)
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    if hour == 24 and minute == 0:
        return 0
    if hour > 23 or minute > 59:
        raise ReminderError("reminders.bad_quiet", text=text)
    return hour * 60 + minute


def format_quiet(quiet: tuple[int, int]) -> str:
    return "–".join(f"{m // 60:02d}:{m % 60:02d}" for m in quiet)


def check_zone(name: str) -> str:
    """The IANA zone called ``name`` (its canonical spelling: ``asia/tokyo`` is Asia/Tokyo).
    Refused with examples (``reminders.bad_zone``): a name the zone database does not know.
    """
    wanted = name.strip()
    found = _zone_names().get(wanted.lower())
    if found is None:
        raise ReminderError("reminders.bad_zone", zone=wanted, examples=ZONE_EXAMPLES)
    return found


def zone_choices(text: str, limit: int = 25) -> list[str]:
    """Zone names containing ``text`` (for autocomplete), the shortest first."""
    needle = text.strip().lower().replace(" ", "_")
    names = [n for key, n in _zone_names().items() if needle in key]
    return sorted(names, key=lambda n: (len(n), n))[:limit]


@cache
def _zone_names() -> dict[str, str]:
    return {n.lower(): n for n in available_timezones()}


@cache
def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as err:
        raise ReminderError("reminders.bad_zone", zone=name, examples=ZONE_EXAMPLES) from err
