"""More ways for a query word to match: a typo corrected against the index's vocabulary, and related words.

A query word of at least `Tuning.typo_min_letters` letters that no document holds is matched, at a lower weight,
to the vocabulary term one edit away (a letter dropped, added, changed, or two swapped) that most
documents hold: "fesetival" finds "festival"; failing that, to the term that spells it longer ("postgres" finds
"postgresql", `stretch`). The lookups are indexed queries on the index's vocabulary table.

Related words (`related`) are small groups of words that say the same thing ("colleague", "coworker",
"workmate"; "postgres", "postgresql"; "自行车", "单车"); a query word of a group also matches the others, at
`Tuning.related_weight` of their own weight.
"""

from __future__ import annotations

import sqlite3
import string

from palace.recall.schema import chunks
from palace.recall.text import IRREGULAR, QueryTerm, may_stem, stem

TYPO_WEIGHT = 0.8  # of the weight the corrected term has itself
_LETTERS = string.ascii_lowercase


def _edits(word: str) -> set[str]:
    """Every string one edit away from word (Damerau-Levenshtein distance 1)."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {a + b[1:] for a, b in splits if b}
    out |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    out |= {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    out |= {a + c + b for a, b in splits for c in _LETTERS}
    out.discard(word)
    return out


def typo_candidate(word: str, min_letters: int) -> bool:
    """Whether a query term that no document holds is worth correcting."""
    return len(word) >= min_letters and word.isascii() and word.isalpha()


def correct(conn: sqlite3.Connection, word: str, min_letters: int) -> tuple[str, int, int] | None:
    """The vocabulary term one edit from word, or the stem of a word one edit from it that starts as word does
    ("eatnig" -> eating -> "eat": the query term of a misspelt inflected word is no stem; a misspelling keeps
    its first letters, "cours" is no "yours"), held by the most documents (with how many documents and files
    hold it), or None."""
    edits = [c for c in _edits(word) if len(c) >= min_letters - 1]
    stems = {stem(c) for c in edits if c[:2] == word[:2] and may_stem(c)}
    candidates = sorted({*edits, *stems} - {word})
    best: tuple[str, int, int] | None = None
    for chunk, marks in chunks(candidates):
        sql = f"SELECT term, docs, files FROM vocab WHERE term IN ({marks}) AND docs > 0"
        for term, docs, files in conn.execute(sql, chunk):
            if best is None or (docs, best[0]) > (best[1], term):
                best = (str(term), int(docs), int(files))
    return best


_STRETCH = 10  # a longer spelling adds at most this many letters ("postgres" -> "postgresql")


def stretch(conn: sqlite3.Connection, word: str) -> tuple[str, int, int] | None:
    """For a query word that no document holds, the vocabulary term that spells it longer ("postgres" finds
    "postgresql", "tensor" "tensorflow"), held by the most documents (with how many documents and files), or
    None. (The shorter way, "elasticsearch" finding "elastic", was measured and dropped: a misspelling that
    one edit does not mend found a wrong start.)"""
    sql = "SELECT term, docs, files FROM vocab WHERE term > ? AND term < ? AND docs > 0 AND length(term) <= ?"
    rows = conn.execute(sql, (word, word + "\U0010ffff", len(word) + _STRETCH)).fetchall()
    best = max(rows, key=lambda r: (int(r[1]), -len(str(r[0]))), default=None)
    return None if best is None else (str(best[0]), int(best[1]), int(best[2]))


_COMPOUND_ROWS = 40  # longer terms looked at for a query word's compounds


def compounds(conn: sqlite3.Connection, word: str, min_letters: int) -> list[tuple[str, int, int]]:
    """The indexed words made of a query word and another indexed word ("bird" finds "birdwatching",
    "paddle" "paddleboard"), with how many documents and files hold each; none for a short word."""
    if len(word) < min_letters or not word.isascii() or not word.isalpha():
        return []
    sql = "SELECT term, docs, files FROM vocab WHERE term > ? AND term < ? AND docs > 0 LIMIT ?"
    rows = conn.execute(sql, (word + "aa", word + "\U0010ffff", _COMPOUND_ROWS)).fetchall()
    rests = {str(r[0])[len(word) :]: r for r in rows if len(str(r[0])) - len(word) >= 3 and str(r[0]).isalpha()}
    if not rests:
        return []
    marks = ",".join("?" * len(rests))
    known = {str(t) for (t,) in conn.execute(f"SELECT term FROM vocab WHERE term IN ({marks})", list(rests))}
    return [(str(r[0]), int(r[1]), int(r[2])) for rest, r in sorted(rests.items()) if rest in known]


# Words that stand in for each other: everyday synonyms, British and American spellings, the short and long
# names of tech things, and the same in Chinese. Each line one meaning; kept small on purpose (a wrong pair
# costs more than a missing one: no word that is common in technical talk with another sense, like "test"
# for "exam", "store" for "shop", "notebook" for "laptop" or "go" for "golang"; a word whose everyday sense
# is the one people paraphrase stays, at a lower weight: "class" for "course"). Read as a query reads them
# (`_terms`): stemmed, a Chinese word as its bigrams.
_GROUPS = """
colleague coworker workmate
boss manager supervisor
friend buddy pal
kid child
mom mother mum mommy mummy mama
dad father daddy papa
grandma grandmother granny
grandpa grandfather grandad granddad
baby infant
teen teenager
spouse partner
neighbour neighbor next_door
bike bicycle
car vehicle automobile
truck lorry
petrol gasoline
flat apartment
sofa couch settee
attic loft
fridge refrigerator
phone mobile cellphone smartphone
tv television telly
film movie
photo picture photograph photography pic
exhibition exhibit
holiday vacation
trip journey
hike trek
jog jogging
wedding marriage
buy purchase
present gift
quit resign
salary wage
course class lesson
learn study
teacher tutor instructor
student pupil
exam examination
doctor physician
ill sick unwell
operation surgery
flu influenza
medicine medication meds
exercise workout
soccer football
sneaker trainer
trash garbage rubbish
colour color
favourite favorite
centre center
theatre theater
grey gray
tyre tire
apologise apologize
organise organize
postgres postgresql psql
kubernetes k8s kube
javascript js ecmascript
typescript ts
python py
node nodejs
mongo mongodb
database db
repo repository
config configuration cfg
env environment
auth authentication
prod production
deps dependencies
docs documentation
admin administrator
infra infrastructure
github gh
terraform tf
regex regexp
happy glad pleased delighted thrilled
sad upset unhappy miserable
angry furious annoyed
scared afraid frightened terrified
nervous anxious worried
tired exhausted knackered
huge enormous massive
tiny minuscule
fix repair mend
cinema movies
jumper sweater pullover
trousers pants
autumn fall
directory folder dir
chat conversation natter
allergy allergic
expecting pregnant
goal aim
argument quarrel dispute
diagnose diagnosis
device gadget
quiz trivia
win winner victory
lawyer solicitor attorney
自行车 单车 脚踏车
同事 同僚
老板 领导 上司
朋友 哥们 好友
孩子 小孩 孩儿
妈妈 母亲 老妈 妈
爸爸 父亲 老爸 爸
公寓 房子 住处
电影 影片
医生 大夫
狗狗 小狗 狗
猫咪 小猫 猫
旅游 旅行 出游
假期 休假
辞职 离职
工资 薪水
婚礼 结婚
致辞 发言 讲话
手术 开刀
驾照 驾驶证
手机 电话
生病 得病
慢跑 跑步
""".strip().splitlines()

Alternative = tuple[QueryTerm, ...]  # the terms a synonym is searched as (a Chinese word: its bigrams)


def _terms(word: str) -> Alternative:
    """The query terms a word of the table is searched as (what query_terms makes of it, without its
    patterns: a table word is one English word, words joined by "_" ("next_door"), or one Chinese word)."""
    if word.isascii():
        return tuple(QueryTerm(stem(part), False, 0) for part in word.casefold().split("_"))
    if len(word) == 1:
        return (QueryTerm(word, True, 0),)  # a lone character: a prefix, as query_terms makes it
    return tuple(QueryTerm(word[i : i + 2], False, 0) for i in range(len(word) - 1))


def stem_initial(word: str) -> str:
    """The first character of the first term a table word is searched as, without stemming it."""
    # The stemmer changes only a word's end, but for an irregular form (went -> go).
    if not word.isascii():
        return word[:1]
    first = word.casefold().split("_")[0]
    return IRREGULAR.get(first, first)[:1]


Key = tuple[str, bool]  # a word's first term and whether it is a prefix
_words: dict[int, list[Alternative]] = {}  # a group's words as query terms, once worked out
_buckets: dict[str, dict[Key, tuple[Alternative, ...]]] = {}  # by the first character of the key


def _group(index: int) -> list[Alternative]:
    found = _words.get(index)
    if found is None:
        found = _words[index] = [w for w in dict.fromkeys(_terms(word) for word in _GROUPS[index].split()) if w]
    return found


def _bucket(initial: str) -> dict[Key, tuple[Alternative, ...]]:
    """(term, prefix) -> the other words of its group, each as the query terms it makes, for the terms that
    start with initial (built a first character at a time, as concepts.py's table: see there why)."""
    table: dict[Key, tuple[Alternative, ...]] = {}
    for index, line in enumerate(_GROUPS):
        if all(stem_initial(word) != initial for word in line.split()):
            continue
        words = _group(index)
        for word in words:
            if len(word) > 1 and word[0].text.isascii():
                continue  # "next_door" is found for "neighbour"; "next" finds nothing
            key = (word[0].text, word[0].prefix)
            if not key[0].startswith(initial):
                continue
            others = tuple(w for w in words if w != word and w[0] != word[0])
            table[key] = tuple(dict.fromkeys((*table.get(key, ()), *others)))
    return table


def _table(initial: str) -> dict[Key, tuple[Alternative, ...]]:
    bucket = _buckets.get(initial)
    if bucket is None:
        bucket = _buckets[initial] = _bucket(initial)
    return bucket


def related(term: QueryTerm) -> tuple[Alternative, ...]:
    """The synonyms of a query term (its group's other words), each as the terms it is searched as."""
    return _table(term.text[:1]).get((term.text, term.prefix), ())


def correct_related(word: str) -> str | None:
    """The word of the related-words table one edit from word (a misspelt "veehicle" that no document holds
    still finds "car"), or None; the first in order among several."""
    return next((edit for edit in sorted(_edits(word)) if (edit, False) in _table(edit[:1])), None)
