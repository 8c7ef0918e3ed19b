"""The pure schedule of each player's reminders (bot/reminders.py, issue 34): properties over any
settings, deadline and step length, in zones with and without daylight saving, and the parsing of
what a player types."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import t
from bot.reminders import (
    DEFAULT_LEADS,
    Lead,
    ReminderError,
    Settings,
    check_zone,
    due,
    format_leads,
    in_quiet,
    next_at,
    next_digest,
    parse_leads,
    parse_quiet,
    schedule,
)

# With daylight saving (north and south, a 30-minute change), without, and far from UTC.
ZONES = [
    None,
    "Asia/Tokyo",
    "Europe/London",
    "America/New_York",
    "Australia/Sydney",
    "Australia/Lord_Howe",
    "Asia/Kathmandu",
    "Pacific/Kiritimati",
]
START_2020, END_2030 = 1_577_836_800.0, 1_893_456_000.0

leads = st.one_of(
    st.builds(lambda p: Lead(percent=p), st.integers(1, 99)),
    st.builds(lambda m: Lead(seconds=m * 60), st.integers(1, 7 * 24 * 60)),
)
quiet = st.none() | st.tuples(st.integers(0, 1439), st.integers(0, 1439)).filter(
    lambda q: q[0] != q[1]
)
settings = st.builds(
    Settings,
    leads=st.lists(leads, min_size=1, max_size=5, unique=True).map(tuple),
    via=st.sampled_from(["channel", "dm"]),
    digest=st.booleans(),
    digest_hour=st.integers(0, 23),
    zone=st.sampled_from(ZONES),
    quiet=quiet,
)
deadlines = st.floats(START_2020, END_2030)
steps = st.integers(1, 14 * 86_400)


def wall_minutes(zone: str | None, at: float) -> float:
    """The local wall-clock minutes after midnight, computed apart from the module's own."""
    local = datetime.fromtimestamp(at, UTC).astimezone(ZoneInfo(zone or "UTC"))
    return local.hour * 60 + local.minute + local.second / 60 + local.microsecond / 60e6


def quiet_at(s: Settings, at: float) -> bool:
    if s.quiet is None:
        return False
    start, end = s.quiet
    m = wall_minutes(s.zone, at)
    return start <= m < end if start < end else (m >= start or m < end)


@given(settings, deadlines, steps)
def test_a_schedule_stays_inside_the_step_and_only_its_final_reminder_breaks_quiet_hours(
    s: Settings, deadline: float, step: int
) -> None:
    reminders = schedule(s, deadline, step)
    assert all(deadline - step < r.at < deadline for r in reminders), "never after the deadline"
    assert [r.at for r in reminders] == sorted({r.at for r in reminders})
    assert len({r.slot for r in reminders}) == len(reminders)
    inside = [lead.at(deadline, step) for lead in s.leads]
    inside = [at for at in inside if deadline - step < at < deadline]
    if inside:  # the step is long enough for one of the player's reminders
        assert reminders[-1].final and reminders[-1].at == max(inside)
    else:
        assert reminders == []
    assert [r for r in reminders if r.final] == reminders[-1:]
    for r in reminders[:-1]:
        assert not quiet_at(s, r.at), "inside quiet hours: only the final one"
        assert not s.digest, "a digest replaces every reminder but the final one"
    if not s.digest and s.quiet is None:
        assert len(reminders) == len(set(inside))


@given(settings, deadlines, steps, st.floats(0, 1))
def test_due_and_next_split_the_schedule_at_now(
    s: Settings, deadline: float, step: int, share: float
) -> None:
    reminders = schedule(s, deadline, step)
    now = deadline - step * share
    sent = {r.slot for r in reminders[:1]}
    came = due(reminders, sent, now)
    assert all(r.at <= now and r.slot not in sent for r in came)
    upcoming = next_at(reminders, sent, now)
    later = [r.at for r in reminders if r.at > now and r.slot not in sent]
    assert upcoming == (min(later) if later else None)


@given(settings.filter(lambda s: s.digest), deadlines)
def test_one_digest_a_local_day_at_the_players_hour_or_when_quiet_hours_end(
    s: Settings, after: float
) -> None:
    first = next_digest(s, after)
    second = next_digest(s, first)
    assert after < first <= after + 49 * 3600
    # One a local day: a day apart, give or take a daylight-saving change (Lord Howe's is 30 min).
    assert 23 * 3600 <= second - first <= 25 * 3600
    hour = s.digest_hour * 60
    wanted = hour
    if s.quiet is not None and quiet_at(s, _at_wall(s, first, hour)):
        wanted = s.quiet[1]
    got = wall_minutes(s.zone, first)
    # The wall time wanted, or an hour later where a spring-forward skipped it.
    assert got in (wanted, (wanted + 60) % 1440, (wanted + 30) % 1440)


def _at_wall(s: Settings, near: float, minutes: int) -> float:
    local = datetime.fromtimestamp(near, ZoneInfo(s.zone or "UTC"))
    return local.replace(hour=minutes // 60, minute=minutes % 60, second=0).timestamp()


def test_quiet_hours_follow_the_players_clock_across_a_daylight_saving_change() -> None:
    # London, quiet 23:00-07:00. 06:30 UTC is 06:30 on the last morning of winter time (quiet),
    # and 07:30 the next morning, British Summer Time (not quiet).
    london = Settings(zone="Europe/London", quiet=(23 * 60, 7 * 60))
    winter = datetime(2026, 3, 28, 6, 30, tzinfo=UTC).timestamp()
    summer = datetime(2026, 3, 29, 6, 30, tzinfo=UTC).timestamp()
    assert in_quiet(london, winter) and not in_quiet(london, summer)
    # A step whose 1 h reminder falls at 06:30 UTC: dropped in winter, sent in summer.
    s = Settings(leads=parse_leads("1h 10m"), zone="Europe/London", quiet=(23 * 60, 7 * 60))
    assert [r.slot for r in schedule(s, winter + 3600, 86_400)] == ["10m"]
    assert [r.slot for r in schedule(s, summer + 3600, 86_400)] == ["1h", "10m"]


def test_the_digest_keeps_its_local_hour_when_the_clocks_change() -> None:
    s = Settings(digest=True, digest_hour=9, zone="America/New_York")
    before = datetime(2026, 3, 7, 15, 0, tzinfo=UTC).timestamp()  # Saturday 10:00 EST
    sunday = next_digest(s, before)
    monday = next_digest(s, sunday)
    assert datetime.fromtimestamp(sunday, UTC).hour == 13  # 09:00 EDT (clocks went forward)
    assert datetime.fromtimestamp(monday, UTC).hour == 13
    # A day earlier: Saturday's digest, 09:00 EST.
    assert next_digest(s, before - 86_400) == datetime(2026, 3, 7, 14, tzinfo=UTC).timestamp()


def test_quiet_hours_move_the_digest_to_their_end() -> None:
    s = Settings(digest=True, digest_hour=23, zone="Asia/Tokyo", quiet=(22 * 60, 8 * 60))
    after = datetime(2026, 6, 1, 0, 0, tzinfo=UTC).timestamp()  # 09:00 in Tokyo
    at = datetime.fromtimestamp(next_digest(s, after), ZoneInfo("Asia/Tokyo"))
    assert (at.day, at.hour, at.minute) == (2, 8, 0)


def test_the_default_is_half_time_and_a_tenth_left_in_the_channel() -> None:
    s = Settings()
    assert (s.leads, s.via, s.digest, s.quiet) == (DEFAULT_LEADS, "channel", False, None)
    assert [(r.slot, r.at, r.final) for r in schedule(s, 1000.0, 600)] == [
        ("50%", 700.0, False),
        ("10%", 940.0, True),
    ]


def test_a_reminder_longer_than_the_step_is_left_out() -> None:
    s = Settings(leads=parse_leads("24h 10m"))
    assert [r.slot for r in schedule(s, 10_000.0, 3600)] == ["10m"]
    assert schedule(Settings(leads=parse_leads("24h")), 10_000.0, 3600) == []


@given(st.lists(leads, min_size=1, max_size=5, unique=True))
def test_reminders_read_back_as_written(written: list[Lead]) -> None:
    parsed = parse_leads(format_leads(tuple(written)))
    assert set(parsed) == set(written)
    assert parse_leads(format_leads(parsed)) == parsed


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("24h 1h 10m", ["24h", "1h", "10m"]),
        ("10分、２４ｈ 1h30m", ["24h", "1h30m", "10m"]),
        ("1日, 1時間", ["24h", "1h"]),
        ("50% 10%", ["50%", "10%"]),
        ("default", ["50%", "10%"]),
        ("既定", ["50%", "10%"]),
        ("1h 60m", ["1h"]),
    ],
)
def test_times_as_players_write_them(text: str, slots: list[str]) -> None:
    assert [lead.slot for lead in parse_leads(text)] == slots


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("soon", "reminders.bad_time"),
        ("", "reminders.bad_time"),
        ("0%", "reminders.bad_percent"),
        ("100%", "reminders.bad_percent"),
        ("30s", "reminders.bad_time"),
        ("0m", "reminders.time_range"),
        ("8d", "reminders.time_range"),
        ("1m 2m 3m 4m 5m 6m", "reminders.too_many"),
    ],
)
def test_times_refused_with_a_reason(text: str, key: str) -> None:
    with pytest.raises(ReminderError) as err:
        parse_leads(text)
    assert err.value.key == key
    for lang in ("en", "ja"):
        assert "{" not in t(lang, key, **err.value.params)


def test_quiet_hours_as_players_write_them() -> None:
    assert parse_quiet("23:00-07:00") == (1380, 420)
    assert parse_quiet("23-7:30") == (1380, 450)
    assert parse_quiet("２２：３０〜６") == (1350, 360)
    assert parse_quiet("off") is None and parse_quiet("なし") is None
    for bad in ("7-7", "25-3", "night", "23:61-7"):
        with pytest.raises(ReminderError) as err:
            parse_quiet(bad)
        assert err.value.key == "reminders.bad_quiet"


def test_a_wrong_zone_is_refused_with_examples_in_both_languages() -> None:
    assert check_zone(" asia/tokyo ") == "Asia/Tokyo"
    for bad in ("Mars/Olympus", "JST+9", "../../etc/passwd", ""):
        with pytest.raises(ReminderError) as err:
            check_zone(bad)
        assert err.value.key == "reminders.bad_zone"
        assert "Asia/Tokyo" in t("en", err.value.key, **err.value.params)
        assert "Asia/Tokyo" in t("ja", err.value.key, **err.value.params)
