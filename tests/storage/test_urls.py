"""bot/storage/urls.py: every database URL read in one place (issue 31, finding 11).

Whatever text is given, :func:`parse` answers a URL or a one-line :class:`DatabaseUrlError`
(never urlsplit's ValueError, never int()'s), and :func:`mask` never shows a password, in the
user-info or in the query, even in a URL too broken to parse.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import t
from bot.storage.urls import DatabaseUrlError, mask, parse

SECRET = "Zq7secretX"  # a password no other part of a drawn URL can contain (drawn text is short)


@given(st.text(max_size=200))
def test_any_text_is_a_url_or_a_one_line_refusal(text: str) -> None:
    try:
        parsed = parse(text)
    except DatabaseUrlError as exc:
        for lang in ("en", "ja"):
            line = t(lang, exc.key, **exc.params)
            assert "\n" not in line and "\r" not in line and len(line) < 1000
        return
    assert parsed.kind in ("sqlite", "postgresql")
    assert mask(text) is not None and parsed.identity() is not None


@given(
    st.sampled_from(["postgresql://", "postgres://", "", "//", "mysql://"]),
    st.text(max_size=20),
    st.text(max_size=20),
    st.text(max_size=30),
    st.sampled_from(["password", "PASSWORD", "sslpassword"]),
    st.booleans(),
)
def test_a_password_is_masked_wherever_it_sits(
    scheme: str, user: str, host: str, rest: str, key: str, in_query: bool
) -> None:
    """The password in the user-info, percent-encoded as a URL must carry it, or raw with
    characters that end the netloc early ('/', '?', '@'); or as a query parameter."""
    secret = SECRET + ("/?@" if not in_query else "")
    encoded = quote(user, safe="")
    if in_query:
        url = f"{scheme}{encoded}@{quote(host, safe='')}/db?x={quote(rest, safe='')}&{key}={SECRET}"
    else:
        url = f"{scheme}{encoded}:{secret}@{quote(host, safe='')}/{quote(rest, safe='')}"
    assert SECRET not in mask(url)
    try:
        parse(url)
    except DatabaseUrlError as exc:
        for lang in ("en", "ja"):
            assert SECRET not in t(lang, exc.key, **exc.params)


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("postgresql://user:pw@[::1/db", "db_url.ipv6"),
        ("postgresql://[::1", "db_url.ipv6"),
        ("postgresql://[not-v6]:5432/db", "db_url.ipv6"),
        ("postgresql://::1:5432/db", "db_url.ipv6"),
        ("postgresql://[::1]x/db", "db_url.host"),
        ("postgresql://host:notaport/db", "db_url.port"),
        ("postgresql://host:0/db", "db_url.port"),
        ("postgresql://host:65536/db", "db_url.port"),
        ("postgresql://host/db?port=x", "db_url.port"),
        ("postgresql://host/a%2Fb", "db_url.database"),
        ("[::1", "db_url.no_scheme"),
        ("host:notaport", "db_url.no_scheme"),
        ("", "db_url.empty"),
        ("sqlite:///", "db_url.sqlite_no_path"),
        ("sqlite://", "db_url.sqlite_no_path"),
        ("sqlite:///./", "db_url.sqlite_no_path"),
        ("postgresql+asyncpg://u@h/db", "db_url.scheme"),
        ("sqlite:///a\nb", "db_url.control"),
    ],
)
def test_each_malformed_url_has_its_reason(url: str, key: str) -> None:
    with pytest.raises(DatabaseUrlError) as refused:
        parse(url, what="--to")
    assert refused.value.key == key
    assert refused.value.params["what"] == "--to"
    assert t("ja", key, **refused.value.params) != t("en", key, **refused.value.params)


def test_accepted_forms_keep_their_text_and_fill_the_defaults(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("PGHOST", "PGPORT", "PGUSER", "PGDATABASE"):
        monkeypatch.delenv(name, raising=False)
    url = parse(" postgresql://bot:pw@[::1]:6543,Db2/pbp?sslmode=require&search_path=a, b ")
    assert url.text == "postgresql://bot:pw@[::1]:6543,Db2/pbp?sslmode=require&search_path=a, b"
    assert url.hosts == (("::1", 6543), ("db2", 5432)) and url.database == "pbp"
    assert url.user == "bot" and url.search_path == "a,b"
    assert url.where == "[::1]:6543,db2:5432/pbp"
    assert parse("postgres://h").database == parse("postgres://h").user  # libpq's default
    assert parse("postgresql://h:/db").hosts == (("h", 5432),)
    assert parse("sqlite:///data/x.sqlite3").path == "data/x.sqlite3"
    assert parse("sqlite:////srv/x.sqlite3").path == "/srv/x.sqlite3"
    assert parse("sqlite://:memory:").memory


def test_identity_is_what_a_url_names_not_how_it_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.sqlite3").touch()
    os.symlink(tmp_path / "d" / "x.sqlite3", tmp_path / "link.sqlite3")
    same = {
        parse(u).identity()
        for u in (
            f"sqlite:///{tmp_path}/d/x.sqlite3",
            f"sqlite:///{tmp_path}/d/./x.sqlite3",
            f"sqlite:///{tmp_path}//d/x.sqlite3",
            "sqlite:///d/../d/x.sqlite3",
            "sqlite://d/x.sqlite3",
            "sqlite:///link.sqlite3",
        )
    }
    assert len(same) == 1
    assert parse("sqlite:///d/y.sqlite3").identity() not in same
    monkeypatch.delenv("PGPORT", raising=False)
    pg = {
        parse(u).identity()
        for u in (
            "postgresql://u@DB:5432/pbp?search_path=s",
            "postgres://u:pw@db/pbp?search_path=s&sslmode=require",
            "postgresql://u@db/%70bp?search_path=s",
        )
    }
    assert len(pg) == 1
    others = ("postgresql://u@db/pbp", "postgresql://u@db:5433/pbp?search_path=s")
    assert not pg & {parse(u).identity() for u in others}
    assert parse("sqlite://:memory:").identity() != parse("sqlite://:memory:").identity()
