"""The knobs of recall's ranking and showing, in one object: the defaults are what palace uses; the bench
(bench/recall_eval/run.py --ablate) passes others in, `RecallIndex(home, tuning=...)`, to measure a part."""

from __future__ import annotations

from palace.record import record


@record(frozen=True)
class Tuning:
    """How a search weighs, ranks and picks what it shows (see rank.py, weights.py, passages.py)."""

    # -- the query's terms (weights.py, expand.py)
    related: bool = True  # a query word also finds its everyday synonyms and a tech name its spellings
    related_weight: float = 0.6  # ... at this share of their own weight
    concept_weight: float = 0.6  # a general word ("pet") also finds the specific ones ("dog"), at this share (0: off)
    typo_min_letters: int = 5  # a word no document holds, this long or longer, is corrected (one edit)
    stretch: bool = True  # ... and else it finds the term that spells it longer ("postgres": "postgresql")
    compound_weight: float = 0.5  # a word also finds the indexed words it begins ("bird": "birdwatching") ...
    compound_letters: int = 4  # ... when it has this many letters or more
    common_share: float = 0.3  # a term held by more than this share of the sessions weighs less ...
    common_floor: float = 0.15  # ... down to this share of its weight when every session holds it
    drop_date_words: bool = True  # "in June" says when, not what: its words are not searched for
    # -- scoring documents (rank.py)
    length_norm: float = 0.75  # BM25's b: how much a long document's matches count less ...
    length_cap: float = 1.5  # ... counted, for ranking, up to this many times the average (a rambling turn)
    speaker_boost: float = 0.5  # a message by the person the query names ("Maya: ...") scores this much more
    speaker_cover: float = 0.2  # ... when its other words cover at least this share of the query
    near_boost: float = 0.3  # a document where two of the query's words stand close scores this much more ...
    near_window: int = 8  # ... within this many terms
    summary_weight: float = 1.6
    user_weight: float = 1.0
    assistant_weight: float = 0.9
    short_terms: int = 6  # a document of fewer terms than this ("Bye Maya!") scores down ...
    short_power: float = 1.0  # ... by (terms / short_terms) to this power
    echo_floor: float = 0.25  # a short echo of the query's words scores down to this share, for showing
    shown_coverage: float = 1.0  # for showing, a document's score times its coverage of the query to this power
    # -- ranking sessions (rank.py)
    decay: float = 0.15  # weight of a session's n-th best document: decay ** n
    coverage_floor: float = 0.2  # score factor (squared) of a source covering almost none of the query
    date_boost: float = 1.5  # a session in the time the query names ("in June", "last week") scores this much more ...
    range_boost: float = 1.0  # ... or this much, in a month or year it names with its year ("in June 2023") ...
    day_boost: float = 2.0  # ... or this much, on the very day it names ("on 3 June 2023")
    present_boost: float = 0.5  # a query asking how things stand now: the latest session found scores this much more,
    # the earliest none, the others by their place in time between them
    date_share: float = 0.35  # ... and the time named counts as this share of the query, covered by such a session
    # -- what a hit shows (passages.py)
    salience_weight: float = 0.6  # share of a document's value taken from how much it says of its own (salience.py)
    # ... when no document covers any of the query, times (1 - the most any one covers) otherwise
    max_centres: int = 4  # matched documents of one source offered for showing
    centre_floor: float = 0.2  # ... each scoring at least this share of the source's best
    after: float = 0.7  # value of the turn after a matched one, as a share of that one's
    after_question: float = 0.9  # ... when the matched turn asks something: the answer follows
    second_after: float = 0.6  # the turn after that, when the turn after asks a question itself
    before: float = 0.5  # the turn before a matched one


DEFAULT = Tuning()
