"""Every database URL the bot takes is read here, once: ``DATABASE_URL`` at start, and
``migrate-db``'s ``--from`` and ``--to``.

:func:`parse` answers a :class:`DatabaseUrl` or raises :class:`DatabaseUrlError`, whose message
key says in one line what is wrong (an unclosed ``[``, a port that is not a number, a path given
without a scheme, an SQLite URL that names no file…), so no malformed URL reaches a driver that
would answer with a traceback. :func:`mask` is what every printed or logged URL goes through: the
password is hidden wherever it sits, in the user-info (``user:pw@``) or in the query
(``?password=…``, ``?sslpassword=…``), even in a URL too broken to parse.

:meth:`DatabaseUrl.identity` is which database a URL names, not how it is spelled: an SQLite file
by its real path (``/./``, ``//``, ``..`` and symlinks resolved), PostgreSQL by its hosts, port,
database and ``search_path`` with libpq's defaults filled in.
"""

from __future__ import annotations

import getpass
import ipaddress
import os
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote

from bot.i18n import t
from bot.storage.base import StorageError

SQLITE_SCHEME = "sqlite://"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
MEMORY = ":memory:"
DEFAULT_PORT = 5432
MASK = "***"
QUOTE_LIMIT = 120  # a URL or part of one quoted back in a refusal, at most (one readable line)
# libpq's parameters and the server's settings (search_path, a custom "ext.name").
_QUERY_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
# A query parameter whose value is a secret: libpq's password and sslpassword (any spelling).
_SECRET_QUERY = re.compile(r"([?&;][^=&;#]*password=)[^&;#]*", re.IGNORECASE)


class DatabaseUrlError(StorageError):
    """A URL the bot cannot open. ``t(lang, key, **params)`` is the one-line reason, in which
    ``what`` names where the URL came from (``DATABASE_URL``, ``--to``…); ``str()`` is the
    English. The URL in ``params`` is masked."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(t("en", key, **params))
        self.key = key
        self.params = params


def mask(url: str) -> str:
    """``url`` with its password replaced by ``***`` (user-info and query), never raising: it
    is also what an error about a malformed URL quotes. Control characters are shown escaped,
    so a URL stays on one line."""
    text = url.strip()
    start = text.find("//")
    start = start + 2 if start >= 0 and "://" in text[: start + 2] else 0
    # The user-info ends at an '@'; a password with an unencoded '@', '/' or '?' ends the
    # netloc early or late depending on the reader, so the last '@' of all is taken (a host
    # over-masked is harmless; a password shown is not).
    at = -1 if text.startswith(SQLITE_SCHEME) else text.rfind("@", start)
    if at >= 0:
        userinfo = text[start:at]
        if ":" in userinfo:
            userinfo = userinfo.split(":", 1)[0] + ":" + MASK
        text = text[:start] + userinfo + text[at:]
    text = _SECRET_QUERY.sub(lambda m: m.group(1) + MASK, text)
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)


def _shown(text: str) -> str:
    """``text`` masked and clipped, to be quoted in a one-line refusal."""
    masked = mask(text)
    return masked if len(masked) <= QUOTE_LIMIT else masked[: QUOTE_LIMIT - 1] + "…"


@dataclass(frozen=True)
class DatabaseUrl:
    """A URL :func:`parse` accepted."""

    text: str  # as given, surrounding spaces removed: what the driver is handed
    kind: str  # "sqlite" or "postgresql"
    path: str = ""  # sqlite: the file as written (":memory:" for a database in memory)
    hosts: tuple[tuple[str, int], ...] = ()  # postgresql: (host, port), defaults filled in
    database: str = ""
    user: str = ""
    search_path: str = ""

    @property
    def masked(self) -> str:
        return mask(self.text)

    @property
    def memory(self) -> bool:
        return self.kind == "sqlite" and self.path == MEMORY

    @property
    def where(self) -> str:
        """Where the database is, without the user or password (errors name it)."""
        if self.kind == "sqlite":
            return self.path
        hosts = ",".join(f"[{h}]:{p}" if ":" in h else f"{h}:{p}" for h, p in self.hosts)
        return f"{hosts}/{self.database}"

    def identity(self) -> tuple[Any, ...]:
        """Which database this is, however it is written: two URLs with the same identity name
        the same database. (PostgreSQL's hosts are compared as written, defaults filled in:
        ``localhost`` and ``127.0.0.1`` differ here; the server's own identity, asked once
        both are open, is what ``migrate-db`` compares next.)"""
        if self.kind == "sqlite":
            if self.memory:
                return ("sqlite", MEMORY, id(self))  # every connection gets its own
            return ("sqlite", os.path.realpath(self.path))
        return ("postgresql", frozenset(self.hosts), self.database, self.search_path)


def parse(url: str, *, what: str = "DATABASE_URL") -> DatabaseUrl:
    """``url`` read as the bot opens it; :class:`DatabaseUrlError` (one line) if it cannot be.

    - ``sqlite:///path/to/file.sqlite3`` (a relative path), ``sqlite:////abs/path.sqlite3``,
      ``sqlite://:memory:``
    - ``postgresql://user:password@host:5432/database?param=value`` or ``postgres://…``, with
      several hosts (``h1:5432,h2:5433``), an IPv6 host in brackets (``[::1]:5432``), and
      asyncpg's query parameters (``sslmode``, ``host``, ``port``, ``user``, ``password``,
      ``dbname``, and server settings such as ``search_path``)
    """
    text = (url or "").strip()
    if any(not ch.isprintable() for ch in text):
        raise DatabaseUrlError("db_url.control", what=what)
    if not text:
        raise DatabaseUrlError("db_url.empty", what=what)
    if "://" not in text:
        # A bare path (or a host:port): no scheme, but masked all the same.
        raise DatabaseUrlError("db_url.no_scheme", what=what, value=_shown(text))
    if text.startswith(SQLITE_SCHEME):
        return _sqlite(text, what)
    if text.startswith(POSTGRES_SCHEMES):
        return _postgres(text, what)
    scheme = text.split("://", 1)[0].lower()
    raise DatabaseUrlError("db_url.scheme", what=what, url=_shown(text), scheme=_shown(scheme))


def _sqlite(text: str, what: str) -> DatabaseUrl:
    rest = text[len(SQLITE_SCHEME) :]
    # sqlite:///data/x.sqlite3 is the relative data/x.sqlite3, sqlite:////srv/x.sqlite3 the
    # absolute /srv/x.sqlite3; sqlite://data/x.sqlite3 is read as the former.
    path = rest[1:] if rest.startswith("/") else rest
    if not path.strip("/."):
        # sqlite3 opens "" as a temporary database, deleted when it closes: everything lost.
        raise DatabaseUrlError("db_url.sqlite_no_path", what=what, url=_shown(text))
    return DatabaseUrl(text=text, kind="sqlite", path=path)


def _postgres(text: str, what: str) -> DatabaseUrl:
    try:
        return _postgres_parts(text, what)
    except DatabaseUrlError as exc:
        after = text.split("://", 1)[1]
        netloc_end = min([len(after), *(i for i in map(after.find, "/?#") if i >= 0)])
        if exc.key != "db_url.userinfo" and "@" in after[netloc_end:]:
            # An '@' past the netloc: a user-info with an unencoded '/', '?' or '#', whose
            # pieces the refusal would otherwise quote as a port, a host or a database.
            raise DatabaseUrlError("db_url.userinfo", what=what, url=_shown(text)) from None
        raise


def _postgres_parts(text: str, what: str) -> DatabaseUrl:
    shown = _shown(text)
    # Split as asyncpg does (urllib's netloc ends at the first '/', '?' or '#'; the user-info at
    # its first '@'), so what is checked here is what the driver will be handed.
    after = text.split("://", 1)[1]
    end = min([len(after), *(i for i in map(after.find, "/?#") if i >= 0)])
    netloc, rest = after[:end], after[end:]
    userinfo, at, host_text = netloc.partition("@")
    if not at:
        userinfo, host_text = "", netloc
    if "@" in host_text or "@" in rest.partition("?")[0] or "#" in after:
        # A password (or user name, or database) with an unencoded '@', '/', '?' or '#' (a
        # PostgreSQL URL has no fragment): the driver would read part of it as the host, the
        # port or the database, and quote it back in its error.
        raise DatabaseUrlError("db_url.userinfo", what=what, url=shown)
    path, _, query_text = rest.partition("?")
    slash = path.startswith("/")
    path = path[1:]
    try:
        pairs = parse_qsl(query_text, keep_blank_values=True, strict_parsing=bool(query_text))
    except ValueError:  # a part that is not name=value (asyncpg reads it strictly too)
        pairs = [("", "")]
    if any(not _QUERY_NAME.fullmatch(name) for name, _ in pairs):
        raise DatabaseUrlError("db_url.query", what=what, url=shown)
    query = dict(pairs)
    ports = [_port(p, shown, what) for p in query.get("port", "").split(",") if p]
    default_port = str(ports[0]) if ports else os.environ.get("PGPORT", "") or str(DEFAULT_PORT)
    hosts = [_host(spec, default_port, shown, what) for spec in host_text.split(",") if spec]
    if not hosts:
        named = query.get("host", "") or os.environ.get("PGHOST", "") or "localhost"
        port = _port(default_port, shown, what)
        hosts = [(name.lower(), port) for name in named.split(",") if name] or [("localhost", port)]
    user = unquote(userinfo.split(":", 1)[0]) if userinfo else ""
    user = user or query.get("user", "") or os.environ.get("PGUSER", "") or _login()
    database = unquote(path) if slash else ""
    database = (
        database
        or query.get("dbname", "")
        or query.get("database", "")
        or os.environ.get("PGDATABASE", "")
        or user
    )
    if "/" in database:
        raise DatabaseUrlError("db_url.database", what=what, url=shown, database=_shown(database))
    search_path = ",".join(part.strip() for part in query.get("search_path", "").split(","))
    return DatabaseUrl(
        text=text,
        kind="postgresql",
        hosts=tuple(hosts),
        database=database,
        user=user,
        search_path=search_path.strip(","),
    )


def _host(spec: str, default_port: str, shown: str, what: str) -> tuple[str, int]:
    if spec.startswith("["):
        inside, closed, after = spec[1:].partition("]")
        if not closed:
            raise DatabaseUrlError("db_url.ipv6", what=what, url=shown)
        try:
            ipaddress.IPv6Address(inside.split("%", 1)[0])
        except ValueError:
            raise DatabaseUrlError("db_url.ipv6", what=what, url=shown) from None
        if after and not after.startswith(":"):
            raise DatabaseUrlError("db_url.host", what=what, url=shown, host=_shown(spec))
        return inside.lower(), _port(after[1:] or default_port, shown, what)
    if "[" in spec or "]" in spec:
        raise DatabaseUrlError("db_url.ipv6", what=what, url=shown)
    name, colon, port = spec.rpartition(":")
    if not colon:
        name, port = spec, default_port
    port = port or default_port  # "host:" is the default port, as libpq reads it
    if not name:
        name = "localhost"
    if ":" in name:  # an IPv6 address must be in brackets: ::1 cannot say where its port is
        raise DatabaseUrlError("db_url.ipv6", what=what, url=shown)
    return unquote(name).lower(), _port(port, shown, what)


def _port(text: str, shown: str, what: str) -> int:
    # The length first: int() of a 5,000-digit string raises ValueError of its own.
    if not (text.isascii() and text.isdigit() and len(text) <= 5 and 1 <= int(text) <= 65535):
        raise DatabaseUrlError("db_url.port", what=what, url=shown, port=_shown(text))
    return int(text)


def _login() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name in a bare container: libpq would fail alike
        return ""
