"""Dates in text: a transcript's timestamps, and the dates a recall query names ("in June", "on 3 May 2023")."""

from __future__ import annotations

import functools
import re
from datetime import date, datetime, timedelta
from typing import NamedTuple

from palace.record import record

MONTH_NAMES = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)  # fmt: skip  (written out: calendar.month_name follows the locale)
MONTHS: dict[str, int] = {}
for _number, _name in enumerate(MONTH_NAMES, 1):
    MONTHS[_name] = MONTHS[_name[:3]] = _number
MONTHS["sept"] = 9
_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}


_PREP = r"(?:in|on|during|since|from|of|around|early|mid|late|last|this|by|before|after|until|through)"
# "in June": a month's full name only ("from Jan" is more likely a person).
_FULL_MONTH = r"(?P<month>" + "|".join(MONTH_NAMES) + r")"
# The words (lower-case) an ASCII query names a time with, besides digits: a month, "yesterday", "last week"...
_ASCII_CUES = (*(name[:3] for name in MONTH_NAMES), "yesterday", "last", "this")


class _Patterns(NamedTuple):
    """The patterns of written dates and times, compiled on first use (a few milliseconds: most queries
    name no time, and most processes parse no written date)."""

    day_month: re.Pattern[str]  # "8 May, 2023", "8 May" (a year, when absent, is filled in by the caller)
    month_day: re.Pattern[str]  # "May 8th 2023"
    time: re.Pattern[str]  # "1:56 pm"
    iso_day: re.Pattern[str]  # "2023-05-08"
    in_month: re.Pattern[str]  # "in June", "early June 2023"
    month_year: re.Pattern[str]  # "June 2023"
    in_year: re.Pattern[str]  # "in 2023"
    zh_month: re.Pattern[str]  # "2023年6月", "6月3日"
    relative: re.Pattern[str]  # "last week"


@functools.cache
def _patterns() -> _Patterns:
    return _Patterns(
        day_month=re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}(?:,?\s+{_YEAR})?\b", re.I),
        month_day=re.compile(rf"\b{_MONTH}\s+{_DAY}(?:,?\s+{_YEAR})?\b", re.I),
        time=re.compile(r"\b(?P<h>[0-2]?\d):(?P<m>[0-5]\d)\s*(?P<ampm>[ap]\.?m\.?)?", re.I),
        iso_day=re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"),
        in_month=re.compile(rf"\b{_PREP}\s+(?:(?:early|mid|late|the)\s+)?{_FULL_MONTH}(?:\s+{_YEAR})?\b", re.I),
        month_year=re.compile(rf"\b{_MONTH}\s+{_YEAR}\b", re.I),
        in_year=re.compile(rf"\b(?:in|during|of)\s+{_YEAR}\b", re.I),
        zh_month=re.compile(
            r"(?:(?P<year>(?:19|20)\d\d)\s*年\s*)?(?P<month>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])\s*月(?:份)?"
            r"(?:\s*(?P<day>[0-3]?\d)\s*[日号])?"
        ),
        relative=re.compile(r"\b(yesterday|last\s+week|last\s+month|last\s+year|this\s+week|this\s+month)\b", re.I),
    )


def _last_day(year: int, month: int) -> int:
    """The number of days in a month."""
    return (date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)).day


def parse_when(text: str) -> datetime | None:
    """A timestamp written as ISO 8601 (`2023-05-08`, `2023-05-08T13:56:00+02:00`) or in words (`1:56 pm on
    8 May, 2023`, `May 8, 2023`), timezone-aware (local time when it names none); None if it has no full date."""
    text = text.strip()
    moment: datetime | None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        moment = _written(text)
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.astimezone()


def _written(text: str) -> datetime | None:
    day = _full_date(text)
    if day is None:
        return None
    hour = minute = 0
    clock = _patterns().time.search(text)
    if clock is not None:
        hour, minute = int(clock.group("h")), int(clock.group("m"))
        ampm = (clock.group("ampm") or "").lower()
        if ampm.startswith("p") and hour < 12:
            hour += 12
        elif ampm.startswith("a") and hour == 12:
            hour = 0
        if hour > 23:
            hour = minute = 0
    return datetime(day.year, day.month, day.day, hour, minute)


def _full_date(text: str) -> date | None:
    iso = _patterns().iso_day.search(text)
    if iso is not None:
        return _make(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
    for pattern in _patterns()[:2]:
        match = pattern.search(text)
        if match is not None and match.group("year"):
            return _make(int(match.group("year")), MONTHS[match.group("month").casefold()], int(match.group("day")))
    return None


def _make(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


# -- the dates a query names -------------------------------------------------------------------------


@record(frozen=True)
class DateHint:
    """A time a query names: sessions from `low` to `high` (YYYY-MM-DD, inclusive), or, with `month` set and
    no year named, that month of any year. `phrase` is the part of the query that said it (not searched for)."""

    low: str
    high: str
    month: int  # 1-12 for "in June" (any year), else 0
    phrase: str
    relative: bool = False  # "last week", "this month": counted from today

    def matches(self, day: str) -> bool:
        """Whether a session of this day (YYYY-MM-DD) falls in the time named."""
        if self.month:
            return len(day) >= 7 and day[5:7] == f"{self.month:02d}"
        return self.low <= day <= self.high


_ZH_RELATIVE = {"昨天": 1, "上周": 7, "上个星期": 7, "上星期": 7, "上个月": 31, "上月": 31, "去年": 366}


def query_date(query: str, today: date | None = None) -> DateHint | None:
    """The time a recall query names, if any: a day ("on 3 June 2023", "June 3rd"), a month ("in June",
    "June 2023", "6月"), a year ("in 2023") or a relative time ("last week", "上个月")."""
    if query.isascii() and not _may_name_a_time(query.lower()):
        return None
    today = today or date.today()
    for finder in (_day_hint, _month_hint, _zh_hint, _year_hint):
        hint = finder(query, today)
        if hint is not None:
            return hint
    return _relative_hint(query, today)


def _may_name_a_time(lowered: str) -> bool:
    """Could an ASCII query (lower-cased) name a time: has it a digit or a word a time is named with?"""
    return any(c.isdigit() for c in lowered) or any(cue in lowered for cue in _ASCII_CUES)


def _day_hint(query: str, today: date) -> DateHint | None:
    iso = _patterns().iso_day.search(query)
    if iso is not None:
        day = _make(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
        if day is not None:
            return DateHint(day.isoformat(), day.isoformat(), 0, iso.group(0))
    for pattern in _patterns()[:2]:
        match = pattern.search(query)
        if match is None:
            continue
        month, number = MONTHS[match.group("month").casefold()], int(match.group("day"))
        phrase = match.group(0)
        if not match.group("year"):  # a day without a year: its month, of any year (a boost, not a filter)
            if _make(2000, month, number) is not None:  # 2000 is a leap year: 29 February is a day
                return DateHint("", "", month, phrase)
            continue
        day = _make(int(match.group("year")), month, number)
        if day is not None:
            return DateHint(day.isoformat(), day.isoformat(), 0, phrase)
    return None


def _month_hint(query: str, today: date) -> DateHint | None:
    match = _patterns().month_year.search(query) or _patterns().in_month.search(query)
    if match is None:
        return None
    month = MONTHS[match.group("month").casefold()]
    phrase = match.group(0)
    if match.group("year"):
        year = int(match.group("year"))
        last = _last_day(year, month)
        return DateHint(f"{year}-{month:02d}-01", f"{year}-{month:02d}-{last:02d}", 0, phrase)
    return DateHint("", "", month, phrase)


def _zh_number(text: str) -> int:
    if text.isdigit():
        return int(text)
    if text.startswith("十"):
        return 10 + (_ZH_DIGITS.get(text[1:], 0) if len(text) > 1 else 0)
    return _ZH_DIGITS.get(text, 0)


def _zh_hint(query: str, today: date) -> DateHint | None:
    match = _patterns().zh_month.search(query)
    if match is None:
        return None
    month = _zh_number(match.group("month"))
    if not 1 <= month <= 12:
        return None
    phrase = match.group(0)
    if match.group("year"):
        year = int(match.group("year"))
        if match.group("day"):
            day = _make(year, month, int(match.group("day")))
            if day is not None:
                return DateHint(day.isoformat(), day.isoformat(), 0, phrase)
        last = _last_day(year, month)
        return DateHint(f"{year}-{month:02d}-01", f"{year}-{month:02d}-{last:02d}", 0, phrase)
    return DateHint("", "", month, phrase)


def _year_hint(query: str, today: date) -> DateHint | None:
    match = _patterns().in_year.search(query)
    if match is None:
        return None
    year = match.group("year")
    return DateHint(f"{year}-01-01", f"{year}-12-31", 0, match.group(0))


def _relative_hint(query: str, today: date) -> DateHint | None:
    days, said = 0, ""
    match = _patterns().relative.search(query)
    if match is not None:
        key = " ".join(match.group(1).casefold().split())
        days = {"yesterday": 1, "last week": 7, "this week": 7, "last month": 31, "this month": 31}.get(key, 366)
        said = match.group(0)
    else:
        for phrase, span in _ZH_RELATIVE.items():
            if phrase in query:
                days, said = span, phrase
                break
    if not days:
        return None
    low = today - timedelta(days=days + (today.weekday() if days == 7 else 0))
    return DateHint(low.isoformat(), today.isoformat(), 0, said, relative=True)
