"""Everyday idioms in a recall query, said as the plain words a conversation uses instead.

"How did her other half pop the question?" is answered by "my partner proposed on the pier": no word of the
idiom is in the answer, and its words ("pop", "half") match the wrong messages. Before a query's terms are
made, each idiom of the table is replaced by its plain words (a query is short and says an idiom in its
idiomatic sense). Written by hand from common English and Chinese idioms about life events, work, health,
home and money; none is taken from any evaluation set's text.
"""

from __future__ import annotations

import functools
import re

# idiom = its plain words
_IDIOMS = """
other half = partner
better half = partner
significant other = partner
pop the question = propose
popped the question = proposed
tie the knot = marry wedding
tied the knot = married wedding
got hitched = married wedding
get hitched = marry wedding
walk down the aisle = wedding
engaged to be married = engaged
split up = broke up separated
broke up with = split separated
call it quits = split broke
fall through = cancelled
fell through = cancelled
called off = cancelled
call off = cancel
put off = postponed
under the weather = ill sick
on the mend = recovering better
back on my feet = recovered
passed away = died death
pass away = died death
laid off = redundant lost job
made redundant = redundant lost job
let go from = fired redundant
got the sack = fired
get the sack = fired
handed in my notice = resigned quit
hand in notice = resign quit
step down = resign stepped
new job = job hired started
day job = job work
work from home = remote home
working from home = remote home
moved in together = moved
move in together = moving
hit the gym = gym
put on weight = weight gained
lose weight = weight lost diet
lost weight = weight diet
body art = tattoo
night sky = stars telescope
green fingers = gardening garden
green thumb = gardening garden
sweet tooth = dessert cake chocolate
pull an all-nighter = awake night
couch potato = sofa tv
break the bank = expensive cost
cost an arm and a leg = expensive cost
saving up = saving save
jury duty = jury court
civic duty = jury vote
get around = transport travel
getting around = transport travel
嫁给 = 结婚 求婚
娶 = 结婚
办酒 = 婚礼
打点滴 = 输液 打针 医院
挂水 = 输液 医院
不上班 = 退休 辞职
退下来 = 退休
炒鱿鱼 = 开除 辞退
被裁 = 裁员 失业
跳槽 = 换工作 新工作
另一半 = 对象 老公 老婆
过世 = 去世
"""


@functools.cache
def _table() -> tuple[tuple[str, str, str], ...]:
    """(the idiom's first word, case-folded; its pattern's source; its plain words), longest idiom first."""
    rows = []
    for line in _IDIOMS.strip().splitlines():
        idiom, plain = (part.strip() for part in line.split("=", 1))
        body = r"\s+".join(re.escape(w) for w in idiom.split())
        source = rf"\b{body}\b" if idiom.isascii() else body
        rows.append((len(idiom), idiom.split()[0].casefold(), source, plain))
    rows.sort(key=lambda row: -row[0])
    return tuple((first, source, plain) for _n, first, source, plain in rows)


@functools.cache
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source, re.IGNORECASE)


def plain(query: str) -> str:
    """The query with each idiom of the table replaced by its plain words (an idiom's pattern is compiled
    only for a query that holds its first word: compiling all 68 cost ~2 ms of every search process)."""
    folded = query.casefold()
    for first, source, words in _table():
        if first in folded:
            changed = _pattern(source).sub(f" {words} ", query)
            if changed != query:
                query, folded = changed, changed.casefold()
    return query
