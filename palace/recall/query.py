"""A recall request checked and made ready: its terms, limit, date range and filter, scope and the time it names."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from datetime import date, datetime

from palace.errors import RecallError
from palace.recall import idioms
from palace.recall.dates import DateHint, query_date
from palace.recall.scope import EVERY_WING, Scope
from palace.recall.text import QueryTerm, query_terms
from palace.recall.tuning import DEFAULT, Tuning
from palace.record import field, record

MAX_LIMIT = 20
MAX_QUERY_CHARS = 1000
SHORTLIST = 2  # sessions scored exactly per requested result (at least MIN_SHORTLIST)
MIN_SHORTLIST = 20
# Words that ask how things stand now ("what does she drive these days?", "is he still ...?", "现在"): the
# latest of the sessions on the subject is the likeliest answer, since facts change over months.
_PRESENT = re.compile(
    r"\b(?:now|nowadays|these days|currently|at the moment|at present|still|any ?more|lately|recently)\b"
    r"|现在|目前|如今|眼下|最近|这阵子|还在|还是|仍然|依然",
    re.IGNORECASE,
)


@record(frozen=True)
class Query:
    """A validated search request."""

    terms: list[QueryTerm]
    limit: int
    since: date | None
    until: date | None
    exclude: frozenset[str]  # sources left out (e.g. the live session)
    hint: DateHint | None = None  # a time the query's words name: a boost, not a filter
    scope: Scope = EVERY_WING  # the wings searched (with everything wing-less)
    reuse: Mapping[str, int] = field(default_factory=dict)  # reuse.key_of(path, content) -> uses of an entry
    tuning: Tuning = DEFAULT
    present: bool = False  # the query asks how things stand now: later sessions rank a little higher

    @property
    def low(self) -> str:
        """The earliest date wanted, as a comparable YYYY-MM-DD string."""
        return _day(self.since).isoformat() if self.since is not None else ""

    @property
    def high(self) -> str:
        """The latest date wanted, as a comparable YYYY-MM-DD string."""
        return _day(self.until).isoformat() if self.until is not None else "9999"

    @property
    def shortlist(self) -> int:
        """How many session files are scored exactly."""
        return max(MIN_SHORTLIST, SHORTLIST * self.limit)


def parse_query(
    query: object,
    limit: object,
    since: object,
    until: object,
    exclude: Collection[str],
    scope: Scope = EVERY_WING,
    reuse: Mapping[str, int] | None = None,
    tuning: Tuning = DEFAULT,
) -> Query:
    """The request checked, with a clear RecallError for anything a caller (or the model) got wrong."""
    if not isinstance(query, str) or not query.strip():
        raise RecallError("recall query is empty: give a few words to search for")
    if len(query) > MAX_QUERY_CHARS:
        raise RecallError(f"recall query is too long ({len(query)} characters; at most {MAX_QUERY_CHARS})")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise RecallError(f"recall limit must be a whole number from 1 to {MAX_LIMIT}, not {limit!r}")
    low, high = _date_or_none("since", since), _date_or_none("until", until)
    if low is not None and high is not None and _day(low) > _day(high):
        raise RecallError(f"recall since ({_day(low)}) is after until ({_day(high)})")
    terms = query_terms(idioms.plain(query))
    if not terms:
        shown = " ".join(query.split())[:80]
        raise RecallError(f"recall query has no words to search for, only punctuation or symbols: {shown}")
    hint = query_date(query)
    if hint is not None and tuning.drop_date_words and not hint.relative:
        # "in June" says when, not what: it is not searched for (unless nothing else is left)
        terms = query_terms(idioms.plain(query.replace(hint.phrase, " ", 1))) or terms
    excluded = frozenset((exclude,) if isinstance(exclude, str) else exclude)
    present = hint is None and _PRESENT.search(query) is not None
    return Query(terms, limit, low, high, excluded, hint, scope, reuse or {}, tuning, present)


def _date_or_none(name: str, value: object) -> date | None:
    if value is not None and not isinstance(value, date):
        raise RecallError(f"recall {name} must be a date (YYYY-MM-DD), not {value!r}")
    return value


def _day(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value
