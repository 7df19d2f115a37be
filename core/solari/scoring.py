"""Solari scoring (rule text 000, notes.md): the units a move built new, extended or displaced.

NOTE FOR THE GAME: ``ScoringRules`` has these fields (each a setup option with the same name, except
``version`` and ``doublers`` which are the game's own options, and ``teams``, which the game sets
from its players/teams setup):
  version: int = 3                     1 rows only; 2 + sequences; 3 + orientations
  doublers: bool = True                False: nothing is ever doubled
  teams: bool = False                  True: Uranus+Neptune against Saturn+Jupiter (partner = the other
                                       side of the same team)
  full_sequence_and_orientation: str = "both" | "higher" | "additive"
  partials_per_row: str = "all" | "best"
  unchanged_row_full_unit: str = "bonus" | "full"
  partner_doubler: str = "ignored" | "doubles" | "neutralizes"
  diminished: str = "comets" | "squares"
The choices are the tuples ``FULL_BOTH_CHOICES`` etc. below; docs/rules/solari-scoring.md explains each.
``Unit`` is unchanged.

``score_move`` compares the board before and after one whole move (both partial moves, shots placed)
and returns every unit of the mover's own comets that scores, with its table value, doubling and the
reason. A row (or the sun) that was built new, extended or displaced scores whole: its value and every
sequence and orientation in it. In a row that did not change, or was diminished (shorter than a row
that stood on its line, mostly of that row's comets), only the sequences and orientations that
themselves changed score. Nothing else is returned, so ``score_move(b, b, ...) == ()``.
"""

from __future__ import annotations

import attrs

from .board import DOUBLER, LINES, SUN, Board, Piece
from .units import ORIENTATION, ROW, SEQUENCE, SUN_KIND, Group, Sub, groups

FULL_BOTH_CHOICES = ("both", "higher", "additive")
PARTIALS_CHOICES = ("all", "best")
UNCHANGED_ROW_CHOICES = ("bonus", "full")
PARTNER_DOUBLER_CHOICES = ("ignored", "doubles", "neutralizes")
DIMINISHED_CHOICES = ("comets", "squares")
PARTNER = {"Uranus": "Neptune", "Neptune": "Uranus", "Saturn": "Jupiter", "Jupiter": "Saturn"}


def _choice(choices: tuple[str, ...]):
    return attrs.validators.in_(choices)


@attrs.frozen
class ScoringRules:
    """The setup options scoring reads. Readings of open questions are fields with defaults."""

    version: int = 3  # 1: rows only; 2: + sequences; 3: + orientations
    doublers: bool = True
    teams: bool = False  # Uranus+Neptune against Saturn+Jupiter
    # A row that is both a full sequence and a full orientation: "both" each full unit scores its
    # table value; "higher" only the full sequence (always the higher) counts; "additive" the
    # sequence replaces the row and the orientation adds what it adds over a row (once the row's value).
    full_sequence_and_orientation: str = attrs.field(default="both", validator=_choice(FULL_BOTH_CHOICES))
    # Several partial sequences (or orientations) in one row: "all" each scores; "best" only the
    # highest-valued changed one of each kind scores.
    partials_per_row: str = attrs.field(default="all", validator=_choice(PARTIALS_CHOICES))
    # A full sequence/orientation that changed in a row that did not (unchanged or diminished):
    # "bonus" it scores only its excess over the row's value; "full" its whole table value.
    unchanged_row_full_unit: str = attrs.field(default="bonus", validator=_choice(UNCHANGED_ROW_CHOICES))
    # In teams, the partner's doubler on the unit's line: "ignored" neither doubles nor neutralizes;
    # "doubles" doubles like one's own (never more than once); "neutralizes" like an adverse one.
    partner_doubler: str = attrs.field(default="ignored", validator=_choice(PARTNER_DOUBLER_CHOICES))
    # A unit shorter than one that stood on its line is diminished when more than half of its
    # "comets" came from that unit, or (the other reading) more than half of its "squares" were
    # that unit's squares (solari-scoring.md#diminished).
    diminished: str = attrs.field(default="comets", validator=_choice(DIMINISHED_CHOICES))


@attrs.frozen
class Unit:
    """One scored unit of one move."""

    side: str  # whose comets form it (the scorer)
    kind: str  # "row", "sun", "sequence", "orientation"
    squares: tuple[int, ...]  # the unit's squares, in line order
    full: bool  # the whole row (full) or a part of it (partial); rows and sun units are full
    value: int  # the table value, before doubling
    doubled: bool
    points: int  # value, doubled when ``doubled``
    why: str  # e.g. "row of 4 extended from 3", "doubled: Uranus doubler at 07 alone on the line"
    rule: str  # the quoted sentence(s) of 000 or the reading in docs/rules/solari-scoring.md it rests on


# ---------------------------------------------------------------------------------------------------
# The text's sentences (000), quoted exactly, and the readings of docs/rules/solari-scoring.md.

def _cite(*sentences: str) -> str:
    return "; ".join(f'000: "{s}"' for s in sentences)


def reading(anchor: str) -> str:
    return f"docs/rules/solari-scoring.md#{anchor}"


NUMBER_WORDS = {3: "three", 4: "four", 5: "five", 6: "six"}
ROW_VALUE = {3: 1, 4: 3, 5: 9, 6: 27}
SEQ_FULL_VALUE = {3: 3, 4: 9, 5: 27, 6: 81}
SEQ_PART_VALUE = {3: 2, 4: 6, 5: 18}
ORI_FULL_VALUE = {3: 2, 4: 6, 5: 18, 6: 54}
ORI_PART_VALUE = {3: 1, 4: 3, 5: 9}

S_ROWS = "Rows can be vertical, horizontal or diagonal on the board."
S_SUN = "Occupying the center fields with 3 or 4 comets count as row of three or row of four."
S_CHANGED = "Rows to count must be newly built, extented or deplaced on the board."
S_SEQ = "When comets in a row are in ascending or descending order without a gap, it's a sequence."
S_SUN_SEQ = "On the center fields a sequence is scored, when they are in order clockwise or anti-clockwise."
S_SEQ_PART = "When only a part of a row is a sequence, it counts only double as a row of the same length."
S_SEQ_ALTER = "The same is valid for altering or extending sequences without altering the row."
S_ORI = (
    "You have an orientation, when within a row a certain number of comets have the same orientation, "
    "without a gap."
)
S_ORI_FULL = "They count double as a row of same length."
S_ORI_PART = "When only a part of a row is an orientation, it counts only once as a row of same length."
S_ORI_ALTER = "For partial orientations in a row the same is valid as for partial sequences."
S_DOUBLER = (
    "The doubler effects rows, when he stands in the same vertical, horizontal or diagonal row of squares, "
    "provided he controls it alone."
)
S_DOUBLED = "All scores are doubled."
S_DOUBLER_SUN = "He effects the center squares, when he influences two of them."
S_NEUTRAL = "The adverse doubler neutralizes your doubler, when he stand in the same vertical, horizontal or diagonal."
S_OWN = "Rows built by the partner are not scored, everyone must score with his own comets."

QUOTED = (
    S_ROWS, S_SUN, S_CHANGED, S_SEQ, S_SUN_SEQ, S_SEQ_PART, S_SEQ_ALTER, S_ORI, S_ORI_FULL, S_ORI_PART,
    S_ORI_ALTER, S_DOUBLER, S_DOUBLED, S_DOUBLER_SUN, S_NEUTRAL, S_OWN,
)


def _table_row(k: int) -> str:
    return f"row of {NUMBER_WORDS[k]} = {ROW_VALUE[k]} points"


def _table_seq(k: int, full: bool) -> str:
    return f"Sequenz of {NUMBER_WORDS[k]} = {(SEQ_FULL_VALUE if full else SEQ_PART_VALUE)[k]} points"


def _table_ori(k: int, full: bool) -> str:
    return f"Orientation of {NUMBER_WORDS[k]} = {(ORI_FULL_VALUE if full else ORI_PART_VALUE)[k]} points"


# ---------------------------------------------------------------------------------------------------
# Geometry of the doublers.

def _sun_seen(sq: int) -> tuple[int, ...]:
    seen: set[int] = set()
    for line in LINES:
        if sq in line:
            seen.update(s for s in SUN if s in line)
    return tuple(sorted(seen))


SUN_SEEN = {sq: _sun_seen(sq) for sq in range(78) if sq % 10 < 8}


def line_name(line: tuple[int, ...]) -> str:
    a, b = line[0], line[-1]
    if a // 10 == b // 10:
        return f"row {a // 10} ({a:02d}-{b:02d})"
    if a % 10 == b % 10:
        return f"column {a % 10} ({a:02d}-{b:02d})"
    return f"diagonal {a:02d}-{b:02d}"


def _dash(squares: tuple[int, ...]) -> str:
    return "-".join(f"{q:02d}" for q in squares)


@attrs.frozen
class _Doubling:
    doubled: bool
    why: str  # "" when no doubler has a say


def _doubling(where: tuple[int, ...] | None, doublers: dict[str, int], mover: str, moved: tuple[int, ...], rules: ScoringRules) -> _Doubling:
    """Whether the units on ``where`` (a line; None for the sun) are doubled for ``mover``."""
    if not rules.doublers or not doublers:
        return _Doubling(False, "")
    partner = PARTNER[mover] if rules.teams else None

    def controls(sq: int) -> bool:
        return sq in where if where is not None else len(SUN_SEEN[sq]) >= 2

    place = line_name(where) if where is not None else "the sun"
    here = {side: sq for side, sq in doublers.items() if controls(sq)}
    givers = [s for s in here if s == mover or (s == partner and rules.partner_doubler == "doubles")]
    if not givers:
        return _Doubling(False, "")
    breakers = [s for s in here if s != mover and (s != partner or rules.partner_doubler == "neutralizes")]

    def who(side: str) -> str:
        sq = here[side]
        tag = " (partner)" if side == partner else ""
        moved_tag = ", moved this move" if side == mover and sq in moved else ""
        seen = f" (sees sun squares {', '.join(f'{q:02d}' for q in SUN_SEEN[sq])})" if where is None else ""
        return f"{side}{tag} doubler at {sq:02d}{seen}{moved_tag}"

    givers_text = " and ".join(who(s) for s in sorted(givers))
    if breakers:
        return _Doubling(
            False,
            f"not doubled: {givers_text} neutralized by {' and '.join(who(s) for s in sorted(breakers))} on {place}",
        )
    if len(here) == 1:
        return _Doubling(True, f"doubled: {givers_text} alone on {place}")
    others = [s for s in here if s not in givers]
    ignored = f" ({' and '.join(who(s) for s in sorted(others))} neither doubles nor neutralizes)" if others else ""
    verb = "control" if len(givers) > 1 else "controls"
    return _Doubling(True, f"doubled: {givers_text} {verb} {place}{ignored}")


# ---------------------------------------------------------------------------------------------------
# Change: built new, extended, displaced / unchanged, diminished.

@attrs.frozen
class _Change:
    """How a unit compares with the units of its kind that stood on the same line (or the sun) before."""

    counts: bool  # built new, extended, displaced/altered
    text: str  # "extended from 3 (10-11-12)", "unchanged", "diminished from 4 (10-11-12-13)"
    via_row: bool = False  # a sequence/orientation that scores only because its row counts


def diminished_from(
    squares: tuple[int, ...], comets: frozenset[int], before: list, reading: str = "comets"
) -> Group | Sub | None:
    """The unit before that this one is a diminished remainder of, if any (solari-scoring.md#diminished).

    000: "Diminished rows don't count." A unit is diminished when it is shorter than a unit of its kind
    that stood on the same line before the move and most of its comets (more than half) come from that
    unit: what is left of a row that lost comets, wherever on the line the rest now stands. Under the
    ``squares`` reading, most of its squares (more than half) were that unit's squares instead.
    """
    if reading == "squares":
        here = set(squares)
        shorter = [o for o in before if len(squares) < len(o.squares) and 2 * len(here & set(o.squares)) > len(squares)]
    else:
        shorter = [o for o in before if len(squares) < len(o.squares) and 2 * len(comets & o.comets) > len(squares)]
    return max(shorter, key=lambda o: (len(o.squares), o.squares)) if shorter else None


def _change(unit: Group | Sub, before: list, label, shifted: str, reading: str = "comets") -> _Change:
    """Unchanged (the same identity stood before), diminished (under the ``diminished`` reading),
    else extended / ``shifted`` / built new."""
    if any(unit.key == old.key for old in before):
        return _Change(False, "unchanged")
    cut = diminished_from(unit.squares, unit.comets, before, reading)
    if cut is not None:
        return _Change(False, f"diminished from {len(cut.squares)} ({label(cut)})")
    grown = [old for old in before if old.key < unit.key]
    if grown:
        old = max(grown, key=lambda o: (len(o.key), o.squares))
        return _Change(True, f"extended from {len(old.squares)} ({label(old)})")
    here = set(unit.squares)
    overlap = [old for old in before if here & set(old.squares)]
    if overlap:
        old = max(overlap, key=lambda o: (len(here & set(o.squares)), o.squares))
        return _Change(True, f"{shifted} from {label(old)}")
    return _Change(True, "built new")


def _row_label(g: Group) -> str:
    return _dash(g.squares)


def _sub_label(s: Sub) -> str:
    return f"{s.detail} at {_dash(s.squares)}"


@attrs.frozen
class _Before:
    rows: list
    sun: list
    seqs: list
    oris: list


def _collect(gs: list[Group]) -> _Before:
    return _Before(
        [g for g in gs if g.kind == ROW],
        [g for g in gs if g.kind == SUN_KIND],
        [s for g in gs for s in g.sequences],
        [s for g in gs for s in g.orientations],
    )


def score_move(before: Board, after: Board, mover: str, moved: tuple[int, ...], rules: ScoringRules) -> tuple[Unit, ...]:
    """The units ``mover`` scores for the move that turned ``before`` into ``after``.

    ``moved`` lists the squares (in ``after``) where the mover's moved pieces ended their move.
    """
    if before == after:
        return ()
    seqs_on, oris_on = rules.version >= 2, rules.version >= 3
    after_pieces: dict[int, Piece] = dict(after)
    new_groups = groups(after_pieces, mover, seqs_on, oris_on)
    if not new_groups:
        return ()
    old = _collect(groups(dict(before), mover, seqs_on, oris_on))
    doublers = {p.side: sq for sq, p in after if p.kind == DOUBLER}
    units: list[Unit] = []
    for g in new_groups:
        units.extend(_score_group(g, old, doublers, mover, moved, rules))
    return tuple(units)


def _score_group(g: Group, old: _Before, doublers: dict[str, int], mover: str, moved: tuple[int, ...], rules: ScoringRules) -> list[Unit]:
    k = len(g.squares)
    is_sun = g.kind == SUN_KIND
    what = "sun" if is_sun else "row"
    line = g.line
    span = set(SUN if line is None else line)
    old_rows = old.sun if is_sun else [o for o in old.rows if o.line == line]
    old_seqs = [o for o in old.seqs if span.issuperset(o.squares)]
    old_oris = [o for o in old.oris if span.issuperset(o.squares)]
    row_change = _change(g, old_rows, _row_label, "displaced", rules.diminished)
    # 000: "You have 1235, that's a row of four = 3 points plus a sequence of three = 2 points": a row
    # that counts is scored whole, with every sequence and orientation in it, whichever comet came last.
    whole = row_change.counts
    dbl: _Doubling | None = None

    def make(kind: str, squares: tuple[int, ...], full: bool, value: int, why: str, rule: str) -> Unit:
        nonlocal dbl
        if dbl is None:
            dbl = _doubling(line, doublers, mover, moved, rules)
        if dbl.why:
            why = f"{why}; {dbl.why}"
            dbl_rule = _cite(S_DOUBLER_SUN if is_sun else S_DOUBLER, S_DOUBLED)
            if not dbl.doubled and "neutralized" in dbl.why:
                dbl_rule += "; " + _cite(S_NEUTRAL)
            if rules.teams and PARTNER[mover] in dbl.why:
                dbl_rule += "; " + reading("partner-doubler")
            rule = f"{rule}; {dbl_rule}"
        return Unit(mover, kind, squares, full, value, dbl.doubled, value * 2 if dbl.doubled else value, why, rule)

    def sub_change(sub: Sub) -> _Change | None:
        """Why ``sub`` scores, or None. In a row that counts every unit scores, its own change told."""
        change = _change(sub, old_seqs if sub.kind == SEQUENCE else old_oris, _sub_label, "altered", rules.diminished)
        if change.counts:
            return change
        if whole:  # it stood before: it scores because its row does
            return _Change(True, f"{change.text} in the {what} that is {row_change.text}", via_row=True)
        return None

    base_rule = _cite(S_SUN) if is_sun else _cite(S_ROWS)
    where = "in the sun" if line is None else f"on {line_name(line)}"
    dimin_rule = reading("diminished") if "diminished" in row_change.text else ""
    whole_rule = reading("changed-row-scores-whole")
    full_seqs = [s for s in g.sequences if s.full]
    full_oris = [s for s in g.orientations if s.full]
    out: list[Unit] = []

    # The row itself, unless a full sequence or orientation replaces its value.
    if not full_seqs and not full_oris:
        if row_change.counts:
            out.append(
                make(
                    SUN_KIND if is_sun else ROW,
                    g.squares,
                    True,
                    ROW_VALUE[k],
                    f"{what} of {k} at {_dash(g.squares)} {where} {row_change.text}",
                    f"{base_rule}; {_cite(_table_row(k), S_CHANGED)}",
                )
            )
    else:
        fulls: list[tuple[Sub, bool]] = []  # (unit, counts only its excess over a row)
        mode = rules.full_sequence_and_orientation
        if full_seqs and full_oris and mode == "higher":
            fulls = [(full_seqs[0], False)]
        elif full_seqs and full_oris and mode == "additive":
            fulls = [(full_seqs[0], False), (full_oris[0], True)]
        else:
            fulls = [(s, False) for s in full_seqs + full_oris]
        for sub, excess_only in fulls:
            change = sub_change(sub)
            if change is None:
                continue
            table = SEQ_FULL_VALUE[k] if sub.kind == SEQUENCE else ORI_FULL_VALUE[k]
            quote = [_table_seq(k, True) if sub.kind == SEQUENCE else _table_ori(k, True)]
            defin = (S_SUN_SEQ if is_sun else S_SEQ) if sub.kind == SEQUENCE else S_ORI
            extra_rules = []
            if sub.kind == ORIENTATION:
                quote.insert(0, S_ORI_FULL)
            extra_rules.append(reading("full-replaces-row"))
            note = f"its {table} replaces the {what}'s value"
            value = table
            if excess_only:
                value = table - ROW_VALUE[k]
                note = (
                    f"the full sequence takes the {what}'s value, so this adds only its excess over the {what} "
                    f"of {k}: {table} - {ROW_VALUE[k]}"
                )
                extra_rules.append(reading("full-sequence-and-orientation"))
            elif not row_change.counts and rules.unchanged_row_full_unit == "bonus":
                value = table - ROW_VALUE[k]
                note = f"the {what} itself is {row_change.text}, so only its excess over the {what} of {k}: {table} - {ROW_VALUE[k]}"
                extra_rules.append(reading("unchanged-row-full-unit"))
                if dimin_rule:
                    extra_rules.append(dimin_rule)
            elif full_seqs and full_oris:
                extra_rules.append(reading("full-sequence-and-orientation"))
            if full_seqs and full_oris and mode == "higher":
                note += f" (the full orientation, {full_oris[0].detail}, is the lower and counts nothing)"
            if change.via_row:
                extra_rules.append(whole_rule)
            alter = S_SEQ_ALTER if sub.kind == SEQUENCE else S_ORI_ALTER
            rule = "; ".join([_cite(defin, *quote, S_CHANGED, alter), *extra_rules])
            out.append(
                make(
                    sub.kind,
                    sub.squares,
                    True,
                    value,
                    f"full {sub.kind} of {k} ({sub.detail}) at {_dash(sub.squares)} {where}, {change.text}: {note}",
                    rule,
                )
            )

    # Partial sequences and orientations add to the row's value.
    for kind, subs in ((SEQUENCE, g.sequences), (ORIENTATION, g.orientations)):
        scored: list[tuple[Sub, int, str, str]] = []
        for sub in subs:
            if sub.full:
                continue
            change = sub_change(sub)
            if change is None:
                continue
            n = len(sub.squares)
            if kind == SEQUENCE:
                value = SEQ_PART_VALUE[n]
                rule = _cite(S_SUN_SEQ if is_sun else S_SEQ, S_SEQ_PART, _table_seq(n, False), S_SEQ_ALTER)
            else:
                value = ORI_PART_VALUE[n]
                rule = _cite(S_ORI, S_ORI_PART, _table_ori(n, False), S_ORI_ALTER)
            if change.via_row:
                rule += "; " + whole_rule
            scored.append((sub, value, change.text, rule))
        if rules.partials_per_row == "best" and len(scored) > 1:
            best = max(scored, key=lambda t: t[1])
            scored = [(best[0], best[1], best[2], best[3] + "; " + reading("partials-per-row"))]
        elif len(scored) > 1:
            scored = [(t[0], t[1], t[2], t[3] + "; " + reading("partials-per-row")) for t in scored]
        for sub, value, text, rule in scored:
            n = len(sub.squares)
            out.append(
                make(
                    kind,
                    sub.squares,
                    False,
                    value,
                    f"partial {kind} of {n} ({sub.detail}) at {_dash(sub.squares)} in the {what} of {k} at "
                    f"{_dash(g.squares)} {where}, {text}: adds to the {what}'s value",
                    rule,
                )
            )
    return out
