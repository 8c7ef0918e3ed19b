"""The pure rules of absences (bot/absences.py, issue 34), with Hypothesis: a passed deadline
waits only in the wait mode, only for a seat whose player was away at it, never past the
absence's end nor its bound, always later than now; a miss is excused exactly when its player was
away; an absence is accepted exactly when it lies in the future within every bound; dates are
read in the player's zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.absences import (
    DAY,
    DEFAULTS,
    WAIT,
    AbsenceRefused,
    Bound,
    Policy,
    Span,
    check_absence,
    decide,
    parse_until,
    resumed_deadline,
    step_waits,
)

times = st.floats(min_value=0, max_value=100 * DAY, allow_nan=False)
spans = st.builds(
    lambda start, length: Span(start, start + length),
    times,
    st.floats(min_value=0, max_value=40 * DAY, allow_nan=False),
)


@given(
    deadline=times,
    late=st.floats(min_value=0, max_value=5 * DAY, allow_nan=False),
    mine=st.lists(spans, max_size=3),
    days=st.integers(min_value=1, max_value=30),
    mode=st.sampled_from([WAIT, DEFAULTS]),
)
def test_a_seat_waits_only_for_its_absence_within_the_bound(
    deadline: float, late: float, mine: list[Span], days: int, mode: str
) -> None:
    now = deadline + late
    policy = Policy(max_days=days, mode=mode)
    (d,) = decide(deadline, now, ["A"], {"A": mine}, policy)
    covering = [s for s in mine if s.start <= deadline <= s.end]
    assert d.excused == bool(covering)
    if d.until is not None:
        assert mode == WAIT and covering
        assert d.until > now
        assert any(d.until <= s.end and d.until <= s.start + days * DAY for s in covering)
    if mode == DEFAULTS or not covering:
        assert d.until is None
    assert step_waits([d]) == d.until


@given(
    now=times,
    length=st.floats(min_value=-DAY, max_value=60 * DAY, allow_nan=False),
    bounds=st.lists(
        st.builds(
            Bound,
            st.integers(min_value=1, max_value=30),
            st.one_of(st.none(), st.integers(min_value=1, max_value=60)),
            st.floats(min_value=0, max_value=60, allow_nan=False),
            st.sampled_from(["", "League"]),
        ),
        max_size=3,
    ),
)
def test_an_absence_is_accepted_exactly_within_every_bound(
    now: float, length: float, bounds: list[Bound]
) -> None:
    until = now + length
    days = (until - now) / DAY
    fits = until > now and all(
        days <= b.max_days and (b.season_days is None or b.used_days + days <= b.season_days)
        for b in bounds
    )
    try:
        check_absence(now, until, bounds)
    except AbsenceRefused as refused:
        assert not fits and refused.key.startswith("away.refused.")
    else:
        assert fits


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1)))
def test_a_date_and_minute_read_in_the_players_zone(when: datetime) -> None:
    zone = ZoneInfo("Asia/Tokyo")
    when = when.replace(second=0, microsecond=0)
    text = when.strftime("%Y-%m-%d %H:%M")
    assert parse_until(text, zone) == when.replace(tzinfo=zone).timestamp()
    day = when.strftime("%Y-%m-%d")
    midnight = datetime(when.year, when.month, when.day, tzinfo=UTC) + timedelta(days=1)
    assert parse_until(day, UTC) == midnight.timestamp(), "a whole day: until it is over"


@pytest.mark.parametrize("text", ["tomorrow", "2026-13-01", "2026-02-30 10:00", "2026-01-01 25:00"])
def test_what_is_no_date_is_refused(text: str) -> None:
    with pytest.raises(AbsenceRefused) as caught:
        parse_until(text, UTC)
    assert caught.value.key == "away.refused.date"


def test_an_absence_ended_early_gives_the_step_its_length_back() -> None:
    assert resumed_deadline(100.0, 10_000.0, 600) == 700.0
    assert resumed_deadline(100.0, 300.0, 600) == 300.0, "never beyond where it waited"
