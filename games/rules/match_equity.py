"""Match equity tables: a player's chance to win a match from a score, for equal players.

Implements ``docs/chances.md``, "The tables". Two file formats are read, both from text
(the caller reads the file; this module never touches the disk):

* GNU Backgammon's XML (``data/met/met.dtd``): ``<info>`` (name, description, length),
  one ``<pre-crawford-table>`` whose ``<row>`` *i* holds, in its *j*-th ``<me>``, the
  chance of the player who is *i*+1 points away against an opponent *j*+1 away (rows
  and columns count "away" scores, not points won), and one or two
  ``<post-crawford-table>`` rows: the *trailer's* chance when *k*+1 away against a
  leader who needs 1 and the Crawford game has been played. ``player="both"`` is one
  row for either player; ``player="0"`` / ``player="1"`` give each player his own row
  (the Jacobs-Trice tables with a favourite). A table can instead be ``type="mec"`` or
  ``type="zadeh"`` with ``<parameters>``: gnubg generates those from a formula, which
  this module does not implement; :func:`parse_gnubg_xml` refuses them, saying so.
* eXtremeGammon's ``.met`` (an INI file): ``[PreCrawford]`` with ``Size`` and lines
  ``i=...`` (the same matrix, row *i* = *i* away), ``[PostCrawford]`` with ``Data=``
  (the trailer's row). The header's ``Name`` and ``Description`` name the table.

Semantics follow gnubg's ``getME`` (``matchequity.c``): a pre-Crawford entry with one
player 1 away is the Crawford game about to be played; a 1-away / 1-away entry is
double match point, whatever the Crawford state.

Scores beyond the table are refused (``met_beyond_table``), never guessed: the tables'
own documentation describes no formula to extend them (Kazaross-XG2 was itself
extended to 25 points by projecting take points, by hand), and 25 points covers club
play. A table covers matches up to :attr:`MatchEquityTable.max_length` points.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from xml.etree import ElementTree

from .errors import RuleViolation

Row = tuple[float, ...]


def _bad(code: str, message: str, field: str = "table") -> RuleViolation:
    return RuleViolation(code, message, field=field)


@dataclass(frozen=True, slots=True)
class MatchEquityTable:
    """A pre-Crawford matrix and the post-Crawford rows, in "away" scores.

    ``pre_crawford[i][j]``: player A's chance when A is i+1 away and B is j+1 away
    (with one of them 1 away: the Crawford game is next). ``post_crawford_a[k]``: A's
    chance when A trails k+1 away and B needs 1, after the Crawford game;
    ``post_crawford_b[k]``: B's chance in the mirrored position. In a symmetric table
    (every bundled table a club may choose) the two rows are the same and A may be
    either player.
    """

    name: str
    description: str
    pre_crawford: tuple[Row, ...]
    post_crawford_a: Row
    post_crawford_b: Row

    def __post_init__(self) -> None:
        size = len(self.pre_crawford)
        if size < 1 or any(len(row) != size for row in self.pre_crawford):
            raise _bad(
                "met_not_square",
                f"The pre-Crawford table of {self.name!r} must be square (as many rows as "
                f"entries per row); it has rows of {sorted({len(r) for r in self.pre_crawford})} "
                f"entries for {size} rows.",
            )
        for label, row in (
            ("post-Crawford (A)", self.post_crawford_a),
            ("post-Crawford (B)", self.post_crawford_b),
        ):
            if len(row) < 1:
                raise _bad("met_post_crawford_missing", f"{self.name!r} has an empty {label} row.")
        for value in (
            *(v for row in self.pre_crawford for v in row),
            *self.post_crawford_a,
            *self.post_crawford_b,
        ):
            if not (isinstance(value, float) and math.isfinite(value) and 0.0 <= value <= 1.0):
                raise _bad(
                    "met_entry_invalid",
                    f"Every entry of {self.name!r} is a probability from 0 to 1, not {value!r}.",
                )

    @property
    def size(self) -> int:
        """How many "away" scores the pre-Crawford table covers (25 for Kazaross-XG2)."""
        return len(self.pre_crawford)

    @property
    def max_length(self) -> int:
        """The longest match every score of which the table covers.

        An N-point match reaches pre-Crawford scores up to N away each, and
        post-Crawford scores with the trailer at most N-1 away (to play on after the
        Crawford game he must have won it).
        """
        post = min(len(self.post_crawford_a), len(self.post_crawford_b))
        return min(self.size, post + 1)

    @property
    def symmetric(self) -> bool:
        """Whether either player may be A: one post-Crawford row for both players.

        The pre-Crawford matrix of such a table has p(a, b) + p(b, a) = 1 up to its
        printed precision (the tests check it); the Jacobs-Trice tables with a
        favourite (``jac050``, ``jac100``) are not symmetric and no club may choose them.
        """
        return self.post_crawford_a == self.post_crawford_b

    def max_asymmetry(self) -> float:
        """The largest |p(a, b) + p(b, a) - 1| of the pre-Crawford matrix (rounding)."""
        n = self.size
        return max(
            abs(self.pre_crawford[i][j] + self.pre_crawford[j][i] - 1.0)
            for i in range(n)
            for j in range(n)
        )

    def win_chance(self, away_a: int, away_b: int, post_crawford: bool = False) -> float:
        """A's chance to win the match when A needs ``away_a`` points and B ``away_b``.

        ``post_crawford``: the Crawford game has been played, so the leader (1 away)
        faces a trailer free to double. Without it, a player 1 away means the Crawford
        game is next. 1 away each is double match point either way. A player who needs
        0 (or less) has won: 1.0 or 0.0.
        """
        for label, value in (("away_a", away_a), ("away_b", away_b)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise _bad(
                    "met_away_invalid",
                    f"{label} is a whole number of points, not {value!r}.",
                    label,
                )
        if away_a <= 0 and away_b <= 0:
            raise _bad(
                "met_away_invalid",
                f"Only one player can have won: {away_a} and {away_b} away.",
                "away_a",
            )
        if away_a <= 0:
            return 1.0
        if away_b <= 0:
            return 0.0
        if post_crawford and away_a != 1 and away_b != 1:
            raise _bad(
                "met_post_crawford_without_leader",
                f"After the Crawford game the leader needs exactly 1 point; at {away_a} and "
                f"{away_b} away neither does.",
                "post_crawford",
            )
        self._check_covered(max(away_a, away_b))
        if post_crawford and away_a == 1 and away_b > 1:
            return 1.0 - self._post(self.post_crawford_b, away_b)
        if post_crawford and away_b == 1 and away_a > 1:
            return self._post(self.post_crawford_a, away_a)
        return self.pre_crawford[away_a - 1][away_b - 1]

    def _post(self, row: Row, away: int) -> float:
        if away > len(row):
            self._refuse(away, len(row) + 1)
        return row[away - 1]

    def _check_covered(self, away: int) -> None:
        if away > self.size:
            self._refuse(away, self.size)

    def _refuse(self, away: int, covered: int) -> None:
        raise _bad(
            "met_beyond_table",
            f"The match equity table {self.name!r} covers scores up to {covered} away; "
            f"{away} away is beyond it (no extension formula is applied).",
            "length",
        )


def _floats(values: Sequence[str], where: str) -> Row:
    try:
        return tuple(float(value) for value in values)
    except ValueError:
        raise _bad("met_entry_invalid", f"{where}: every entry is a number.") from None


def parse_gnubg_xml(text: str) -> MatchEquityTable:
    """Read a table in GNU Backgammon's XML format (``met.dtd``).

    Only ``type="explicit"`` tables (the entries are given) are read; a ``mec`` or
    ``zadeh`` table, whose entries gnubg computes from parameters, is refused with
    ``met_parametric`` naming its type and parameters.
    """
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        raise _bad("met_xml_invalid", f"Not well-formed XML: {exc}.") from None
    if root.tag != "met":
        raise _bad("met_xml_invalid", f"The root element is <met>, not <{root.tag}>.")
    name = (root.findtext("info/name") or "").strip()
    description = " ".join((root.findtext("info/description") or "").split())
    if not name:
        raise _bad("met_xml_invalid", "<info> has no <name>.")
    pre = root.find("pre-crawford-table")
    posts = root.findall("post-crawford-table")
    if pre is None or not posts:
        raise _bad(
            "met_xml_invalid",
            f"{name!r} needs a <pre-crawford-table> and at least one <post-crawford-table>.",
        )
    for element in (pre, *posts):
        kind = element.get("type", "explicit")
        if kind != "explicit" or element.find("parameters") is not None:
            params = ", ".join(
                f"{p.get('name')}={(p.text or '').strip()}" for p in element.iter("parameter")
            )
            raise _bad(
                "met_parametric",
                f"{name!r} is a {kind!r} table: gnubg computes its entries from parameters "
                f"({params}); only tables that list their entries are read.",
            )
    matrix = tuple(
        _floats(
            [(me.text or "").strip() for me in row.findall("me")],
            f"{name!r} pre-Crawford row {i + 1}",
        )
        for i, row in enumerate(pre.findall("row"))
    )
    rows: dict[str, Row] = {}
    for element in posts:
        player = element.get("player", "both")
        found = element.findall("row")
        if len(found) != 1 or player not in ("both", "0", "1"):
            raise _bad(
                "met_xml_invalid",
                f"{name!r}: a post-Crawford table is one <row> for player both, 0 or 1.",
            )
        rows[player] = _floats(
            [(me.text or "").strip() for me in found[0].findall("me")],
            f"{name!r} post-Crawford row",
        )
    row_a = rows.get("0", rows.get("both"))
    row_b = rows.get("1", rows.get("both"))
    if row_a is None or row_b is None:
        raise _bad(
            "met_post_crawford_missing",
            f"{name!r} gives a post-Crawford row for one player only.",
        )
    return MatchEquityTable(
        name=name,
        description=description,
        pre_crawford=matrix,
        post_crawford_a=row_a,
        post_crawford_b=row_b,
    )


_SECTION = re.compile(r"^\[(?P<name>[^\]]+)\]\s*$")


def parse_xg_met(text: str) -> MatchEquityTable:
    """Read a table in eXtremeGammon's ``.met`` format (INI sections).

    ``[Current]`` names it; ``[PreCrawford]`` has ``Size=n`` and ``1=`` ... ``n=`` rows;
    ``[PostCrawford]`` has ``Data=`` (the trailer's chance, 1 away first). Lines
    starting with ``;`` are comments.
    """
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        match = _SECTION.match(line)
        if match:
            current = sections.setdefault(match["name"].strip().lower(), {})
            continue
        if current is None or "=" not in line:
            raise _bad("met_xg_invalid", f"Unexpected line outside a section: {line[:40]!r}.")
        key, _, value = line.partition("=")
        current[key.strip().lower()] = value.strip()
    info = sections.get("current", {})
    name = info.get("name") or "XG table"
    pre = sections.get("precrawford")
    post = sections.get("postcrawford")
    if pre is None or post is None or "data" not in post:
        raise _bad("met_xg_invalid", f"{name!r} needs [PreCrawford] rows and [PostCrawford] Data=.")
    try:
        size = int(pre.get("size", "0"))
    except ValueError:
        raise _bad("met_xg_invalid", f"{name!r}: Size is a whole number.") from None
    if size < 1:
        raise _bad("met_xg_invalid", f"{name!r}: [PreCrawford] Size is at least 1.")
    matrix = []
    for i in range(1, size + 1):
        if str(i) not in pre:
            raise _bad("met_xg_invalid", f"{name!r}: [PreCrawford] has no row {i}.")
        matrix.append(_floats(pre[str(i)].split(), f"{name!r} pre-Crawford row {i}"))
    row = _floats(post["data"].split(), f"{name!r} post-Crawford row")
    return MatchEquityTable(
        name=name,
        description=info.get("description", ""),
        pre_crawford=tuple(matrix),
        post_crawford_a=row,
        post_crawford_b=row,
    )
