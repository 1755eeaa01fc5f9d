"""The dark theme: it follows the system's setting (prefers-color-scheme) until the player
chooses Light or Dark in the menu; the choice is remembered and shown before the first
paint; the board, the pieces of every colour and the text stay readable in both themes.
Screenshots of setup and play in both themes go to test-artifacts/theme-*.png."""

from __future__ import annotations

import pytest
from conftest import wait_ready
from gamedriver import GameDriver, no_page_errors  # noqa: F401

# The page's background and text, as the eye sees them: light paper or a dark page.
LUMINANCE = """() => {
  const lum = (c) => {
    const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(document.body);
  return {page: lum(getComputedStyle(document.documentElement).backgroundColor),
          text: lum(style.color), theme: document.documentElement.dataset.theme || null};
}"""

# Text on the board against what it is drawn on: each piece's name and rank number against
# its tile, the coordinates against the board's ground. WCAG contrast ratios.
BOARD_CONTRAST = """() => {
  const lum = (c) => {
    const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m);
    return (x + 0.05) / (y + 0.05); };
  const fill = (el) => getComputedStyle(el).fill;
  const out = [];
  for (const pc of document.querySelectorAll("svg.board .pc")) {
    const tile = pc.querySelector(".tile");
    for (const text of pc.querySelectorAll(".name, .rank-no")) {
      if (!text.textContent.trim()) continue;
      out.push({what: `${pc.getAttribute("class")} ${text.getAttribute("class")}`,
                ratio: ratio(fill(text), fill(tile))});
    }
  }
  const ground = document.querySelector("svg.board .ground");
  for (const text of document.querySelectorAll("svg.board .coord")) {
    out.push({what: "coord", ratio: ratio(fill(text), fill(ground))});
  }
  return out;
}"""


def looks(page) -> dict:
    return page.evaluate(LUMINANCE)


def assert_theme(page, theme: str) -> None:
    now = looks(page)
    assert now["theme"] == theme, now
    if theme == "dark":
        assert now["page"] < 0.05 and now["text"] > 0.5, f"not a dark page: {now}"
    else:
        assert now["page"] > 0.6 and now["text"] < 0.1, f"not a light page: {now}"


def choose_theme(page, choice: str) -> None:
    d = GameDriver(page)
    d.open_menu()
    page.select_option("#theme-select", choice)
    d.close_menu()


def assert_board_readable(page, where: str) -> None:
    found = page.evaluate(BOARD_CONTRAST)
    assert found, f"{where}: no text on the board"
    # Piece names are bold 13 px and up; rank numbers and coordinates small: 4.5 for all.
    poor = [f for f in found if f["ratio"] < 4.5]
    assert not poor, f"{where}: text on the board hard to read: {poor[:6]}"


@pytest.mark.new_context
def test_theme_follows_the_system_until_chosen_and_is_remembered(site, server):
    page = site.open(server.url, wait=None)
    page.emulate_media(color_scheme="dark", reduced_motion="reduce")
    # What the page shows while the document is parsed, before any module runs: the
    # theme must already be there (no light flash before a dark page).
    page.add_init_script(
        """document.addEventListener("readystatechange", () => {
          if (document.readyState === "interactive")
            window.themeAtParse = document.documentElement.dataset.theme || null; });"""
    )
    page.reload()
    wait_ready(page)
    assert page.evaluate("() => window.themeAtParse") == "dark"
    assert_theme(page, "dark")
    assert page.get_attribute('meta[name="color-scheme"]', "content") == "light dark"
    # "System" (the default) follows the system's setting as it changes.
    assert page.input_value("#theme-select") == "system"
    page.emulate_media(color_scheme="light")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'light'")
    assert_theme(page, "light")

    # The menu's choice wins over the system's, at once and after a reload.
    choose_theme(page, "dark")
    assert_theme(page, "dark")
    page.reload()
    wait_ready(page)
    assert page.evaluate("() => window.themeAtParse") == "dark", "a light flash before dark"
    assert page.input_value("#theme-select") == "dark"
    assert_theme(page, "dark")

    page.emulate_media(color_scheme="dark")
    choose_theme(page, "light")
    assert_theme(page, "light")
    page.reload()
    wait_ready(page)
    assert page.evaluate("() => window.themeAtParse") == "light"
    assert_theme(page, "light")

    # Back to "System": dark again, as the system asks.
    choose_theme(page, "system")
    assert_theme(page, "dark")
    page.reload()
    wait_ready(page)
    assert page.input_value("#theme-select") == "system"
    assert_theme(page, "dark")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_theme_screens_readable(site, server, scheme):
    """Setup and play of each variant, in the system's light or dark colours: the page is
    in that theme, the text on the board is readable, screenshots for the eye."""
    page = site.open(server.url)
    page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    page.wait_for_function("s => document.documentElement.dataset.theme === s", arg=scheme)
    assert_theme(page, scheme)
    d = GameDriver(page, seed=11)
    d.screenshot(f"theme-{scheme}-start")
    for variant in ("classic", "blind", "gunjin"):
        d.start(variant, mode="cpu", level="easy")
        if d.wait("setup", "play") == "setup":  # Blind Junqi has none: all face down
            assert_board_readable(page, f"{variant} setup")
            d.screenshot(f"theme-{scheme}-{variant}-setup")
            page.click("#btn-confirm")
            d.wait("play")
        for _ in range(3):
            d.play_random()
            if d.wait("play", "over") == "over":
                break
        assert_board_readable(page, f"{variant} play")
        d.screenshot(f"theme-{scheme}-{variant}-play")
    d.open_menu()
    d.screenshot(f"theme-{scheme}-menu")


def test_theme_dark_phone_panels_and_dialogs(site, server):
    """Dark, phone size: notes and marks on the board, the panels below it (play with
    buttons, the combat table), the mark chooser, the phone turned, the rules and the
    hot-seat curtain."""
    page = site.open(server.url)
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(color_scheme="dark", reduced_motion="reduce")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    d = GameDriver(page, seed=12)
    d.start("classic", mode="cpu", level="easy")
    page.click("#btn-confirm")
    d.wait("play")
    page.check("#notes-option")
    for _ in range(3):
        d.play_random()
        if d.wait("play", "over") == "over":
            break
    assert_board_readable(page, "phone play")
    enemy = page.eval_on_selector_all(
        "svg.board .pc.blue.blank", "ps => ps.map(p => p.closest('[data-sq]')?.dataset.sq)"
    )
    target = next((sq for sq in enemy if sq), None)
    if target:
        page.click(f'svg.board [data-hit="{target}"]')
        page.wait_for_selector("dialog#mark-chooser")
        d.screenshot("theme-dark-phone-mark-chooser")
        page.click('dialog#mark-chooser [data-choice="?"]')
        page.wait_for_selector("dialog#mark-chooser", state="detached")
    page.click("#grid-panel-summary")
    page.click("#table-panel-summary")
    d.screenshot("theme-dark-phone-panels", full_page=True)
    # A phone turned: the header's tools float over the page, in a light colour.
    page.set_viewport_size({"width": 844, "height": 390})
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function(
        "() => document.querySelector('.board-wrap').getBoundingClientRect().top < 100"
    )
    d.screenshot("theme-dark-phone-landscape")
    page.set_viewport_size({"width": 390, "height": 844})
    d.open_menu()
    page.click("#btn-rules")
    page.wait_for_selector("dialog.rules #rules-classic")
    d.screenshot("theme-dark-phone-rules")
    page.click("dialog.rules .close")
    d.start("gunjin", mode="hotseat")
    d.screenshot("theme-dark-phone-curtain")
