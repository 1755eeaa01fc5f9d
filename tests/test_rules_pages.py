"""The in-game rules pages (web/rules/<lang>.html) for Siguo: a section in each of the five
languages, its figure of the cross drawn from the engine's board, its combat table, one line
per rule option, and nothing left in English on the other languages' pages."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from junqi_core.variants import OPTIONS, describe

RULES = Path(__file__).resolve().parents[1] / "web" / "rules"
LANGUAGES = ["en", "es", "pt", "zh", "ja"]

# Words a Siguo section may share with the English one: the game's name, and words that are
# also Spanish or Portuguese.
NAMES = {"siguo", "junqi"}
SHARED = {
    "es": NAMES | {"no", "diagonal", "legal", "total"},
    "pt": NAMES | {"no", "diagonal", "legal", "total", "as", "do", "for", "move"},
    "zh": set(),
    "ja": set(),
}
# Post names (Sa1, C22) and runs of them are notation, the same in every language.
NOTATION = re.compile(r"^(?:[SENW]?[a-e][1-6]|C[1-3][1-3])$")


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.tag, self.attrs, self.children, self.text = tag, attrs, [], []

    def iter(self, tag: str):
        for child in self.children:
            if child.tag == tag:
                yield child
            yield from child.iter(tag)

    def all_text(self) -> str:
        return "".join(self.text) + "".join(c.all_text() for c in self.children)


VOID = {"br", "img", "hr", "meta", "link", "input"}


class Tree(HTMLParser):
    """A small tree of the page's elements (the pages are well formed: checked below)."""

    def __init__(self) -> None:
        super().__init__()
        self.root = Node("#root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, dict(attrs)))

    def handle_endtag(self, tag):
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data):
        self.stack[-1].text.append(data)


def sections(lang: str) -> list[Node]:
    tree = Tree()
    tree.feed((RULES / f"{lang}.html").read_text())
    assert tree.stack == [tree.root], f"{lang}: unclosed {[n.tag for n in tree.stack]}"
    return list(tree.root.iter("section"))


def section(lang: str, anchor: str = "rules-siguo") -> Node:
    found = [s for s in sections(lang) if s.attrs.get("id") == anchor]
    assert len(found) == 1, f"{lang}: {len(found)} sections #{anchor}"
    return found[0]


def words(node: Node) -> set[str]:
    """The Latin-script words of a section's text, its figure's labels left out."""
    text = "".join(node.text) + "".join(c.all_text() for c in node.children if c.tag != "svg")
    tokens = re.findall(r"[^\W_]+", text)  # Unicode words: "até" is one, not "at"
    latin = (w for w in tokens if w.isascii() and len(w) > 1 and re.search("[A-Za-z]", w))
    return {w for w in latin if not NOTATION.match(w)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_siguo_section_in_every_language(lang):
    sec = section(lang)
    ids = [s.attrs.get("id") for s in sections(lang)]
    # Before the controls, like the other games' sections, so the dialog shows it first.
    assert ids.index("rules-siguo") < ids.index("rules-controls")
    heads = [h.all_text() for h in sec.iter("h3")]
    english = [h.all_text() for h in section("en").iter("h3")]
    assert len(heads) == len(english) >= 10, (lang, heads)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_siguo_combat_table(lang):
    """Attacker, defender, result: a row for each case of docs/rules.md's Siguo combat
    (ranks, Bombs, the Flag, the Engineer and the mine that stays, partners, camps)."""
    tables = [t for t in section(lang).iter("table") if "siguo-combat" in t.attrs.get("class", "")]
    assert len(tables) == 1, lang
    table = tables[0]
    assert list(table.iter("caption")), f"{lang}: the table has no caption"
    heads = list(table.iter("th"))
    assert len(heads) == 3 and all(h.attrs.get("scope") == "col" for h in heads), lang
    rows = [r for body in table.iter("tbody") for r in body.iter("tr")]
    assert len(rows) == 10, (lang, len(rows))
    for row in rows:
        cells = [c.all_text().strip() for c in row.iter("td")]
        assert len(cells) == 3 and all(cells), (lang, cells)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_siguo_cross_figure_is_the_engines_board(lang):
    """The figure draws describe("siguo")'s board: 129 posts (4 headquarters, 20 camps),
    every road, every railway, the four curved railways; and it is named for screen
    readers."""
    board = describe("siguo")["board"]
    figures = [s for s in section(lang).iter("svg") if "cross" in s.attrs.get("class", "")]
    assert len(figures) == 1, lang
    svg = figures[0]
    assert svg.attrs.get("role") == "img" and svg.attrs.get("aria-label"), lang
    assert svg.attrs.get("viewbox") and svg.attrs.get("width") == "100%", lang
    hqs = [r for r in svg.iter("rect") if r.attrs["width"] == ".6"]
    posts = [r for r in svg.iter("rect") if r.attrs["width"] == ".48"]
    camps = list(svg.iter("circle"))
    assert (len(hqs), len(camps), len(posts) + len(camps) + len(hqs)) == (4, 20, 129), lang
    paths = [p.attrs["d"] for p in svg.iter("path")]
    roads, rails = paths
    assert roads.count("M") == len(board["roads"]) and "A" not in roads, lang
    assert rails.count("M") == len(board["rails"]) == 92, lang
    assert rails.count("A") == len(board["curves"]) == 4, lang
    labels = [t.all_text() for t in svg.iter("text")]
    assert len(labels) == 4 and all(labels), lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_siguo_options_each_have_a_line(lang):
    """The "Rule options" list: one line per Siguo option, none more."""
    sec = section(lang)
    options = list(sec.iter("ul"))[-1]
    assert len(list(options.iter("li"))) == len(OPTIONS["siguo"]), lang


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_siguo_section_has_no_english_left(lang):
    """No word of the English section (bar notation and shared words) in another language."""
    english = {w.lower() for w in words(section("en"))}
    left = {w for w in words(section(lang)) if w.lower() in english - SHARED[lang]}
    assert not left, (lang, sorted(left))
    if lang in ("zh", "ja"):  # no Latin word at all but notation
        assert not words(section(lang)), (lang, sorted(words(section(lang))))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_combat_table_note_fits_every_game_it_is_shown_for(lang):
    """The in-game combat table (web/js/ui/view/panels.js) adds a note when describe() says
    a landmine stays; Siguo's table shows it too, so it names no one game."""
    strings = json.loads((RULES.parent / "i18n" / f"{lang}.json").read_text())
    shown_for = [v for v in OPTIONS if describe(v)["rules"]["mine_stays"]]
    assert {"blind", "siguo"} <= set(shown_for)
    names = [text for key, text in strings.items() if re.fullmatch(r"variant\.\w+", key)]
    note = strings["table.blind_note"]
    assert not [n for n in names if n in note], (lang, note)
