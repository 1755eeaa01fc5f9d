"""Whole games on the game page, by real clicks: two players with the curtain, and against
the CPU to the end. Screenshots of each board go to test-artifacts/game-<variant>-*.png."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gamedriver import GameDriver, axe_scan, no_page_errors  # noqa: F401

from junqi_core.record import import_record

VARIANTS = ["classic", "blind", "gunjin"]
SIDES = {
    "classic": ("Red", "Blue"),
    "blind": ("First player", "Second player"),
    "gunjin": ("Player 1", "Player 2"),
}


def open_game(site, server, seed):
    page = site.open(server.url)
    page.emulate_media(reduced_motion="reduce")  # no animation waits: faster, same clicks
    return page, GameDriver(page, seed=seed)


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_hotseat_curtain_keeps_ranks_hidden(site, server, variant):
    page, d = open_game(site, server, seed=VARIANTS.index(variant))
    d.start(variant, mode="hotseat")
    sides = SIDES[variant]
    if variant != "blind":
        # Setup happens behind the curtain too, one player after the other.
        for seat in (0, 1):
            assert d.wait("curtain") == "curtain"
            d.assert_public()
            assert sides[seat] in page.inner_text("#btn-curtain")
            page.click("#btn-curtain")
            d.wait("setup")
            assert page.get_attribute("svg.board", "data-seat") == str(seat)
            assert len(d.own_layout()) == (25 if variant == "classic" else 23)
            d.assert_hidden_side(1 - seat)
            if seat == 0:
                d.screenshot(f"game-{variant}-hotseat-setup")
            page.click("#btn-confirm")
    plies = 6
    for ply in range(plies):
        d.wait("curtain")
        d.assert_public()
        seat = ply % 2
        assert sides[seat] in page.inner_text("#btn-curtain")
        page.click("#btn-curtain")
        d.wait("play")
        assert d.viewer() == seat
        assert page.get_attribute("svg.board", "data-seat") == str(seat)  # own side at the bottom
        d.assert_hidden_side(1 - seat)
        if variant == "classic" and ply == 1:
            page.click("#btn-offer")
            page.wait_for_selector("#message:has-text('offered a draw')")
        if variant == "classic" and ply == 2:
            # The offer made by the other player waits for an answer on this turn.
            assert page.is_visible("#btn-accept")
            assert d.message().count("offers a draw") == 1, d.message()
            page.click("#btn-decline")
            page.wait_for_selector("#btn-accept", state="hidden")
        d.play_random()
        if d.wait("moved", "over") == "over":
            break
        d.assert_hidden_side(1 - seat)
        assert page.is_visible("#btn-change-turn")
        if ply == plies - 1:
            d.screenshot(f"game-{variant}-hotseat-mid")
        page.click("#btn-change-turn")
    if d.ui != "over":
        d.wait("curtain")
        d.assert_public()
        d.screenshot(f"game-{variant}-hotseat-curtain")


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_vs_cpu_to_the_end(site, server, variant):
    page, d = open_game(site, server, seed=10 + VARIANTS.index(variant))
    d.start(variant, mode="cpu", level="easy")
    cpu = 1
    d.screenshot(f"game-{variant}-setup")
    if d.ui == "setup":
        page.click("#btn-confirm")
    moves = 0
    while d.wait("play", "over", timeout=60_000) == "play":
        if moves % 5 == 0:
            d.assert_hidden_side(cpu)
            assert page.get_attribute("svg.board", "data-seat") == "0"
        d.play_random()
        moves += 1
        if moves == 12:
            d.screenshot(f"game-{variant}-mid")
        assert moves < 500, "the game should have ended by now"
    # The end: the reason is shown and every piece is revealed.
    view = d.view()
    assert view["phase"] == "over" and view["result"]["reason"]
    assert d.status().startswith("Game over"), d.status()
    assert all(p["kind"] for p in view["board"].values())
    unnamed = page.eval_on_selector_all(
        "svg.board g.pc", "gs => gs.filter(g => !g.dataset.kind).length"
    )
    assert unnamed == 0
    cpu_named = page.eval_on_selector_all(
        "svg.board g.pc[data-owner='1'] text.name", "ts => ts.length"
    )
    assert cpu_named == sum(1 for p in view["board"].values() if p["owner"] == 1)
    assert page.is_visible("#btn-rematch")
    assert page.is_hidden("#btn-resign")
    d.screenshot(f"game-{variant}-end")
    page.click("#grid-panel-summary")
    assert axe_scan(page, server.url) == []
    # The record the player saves replays, in the engine, to the same end.
    with page.expect_download() as download:
        page.click("#btn-save-json")
    assert download.value.suggested_filename.startswith(f"junqi-{variant}-")
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    replayed = import_record(record)
    assert replayed.phase == "over"
    assert replayed.result.reason == view["result"]["reason"]
    assert replayed.result.winner == view["result"]["winner"]
    assert replayed.position.ply == view["ply"]
    # Rematch: sides switched, the CPU now plays first.
    page.click("#btn-rematch")
    d.wait("setup", "play")
    assert page.get_attribute("svg.board", "data-seat") == "1"
    assert d.viewer() == 1
    if d.ui == "setup":
        page.click("#btn-confirm")
    d.wait("play")
    assert d.view()["ply"] >= 1  # the CPU has moved


def test_game_cpu_draw_offer_and_resign(site, server):
    """Classic vs the CPU: a draw offer is answered at once; Resign asks, then ends the game
    with every piece revealed."""
    page, d = open_game(site, server, seed=20)
    d.start("classic", mode="cpu", level="easy")
    page.click("#btn-confirm")
    d.wait("play")
    assert page.is_enabled("#btn-offer")
    page.click("#btn-offer")
    d.wait("play", "over")
    message = d.message()
    assert "You offered a draw." in message
    assert "CPU accepts the draw." in message or "CPU declines the draw." in message, message
    if d.ui == "over":
        assert d.view()["result"]["reason"] == "agreed_draw"
        return
    assert page.is_disabled("#btn-offer")  # again only after 10 plies
    d.play_random()
    d.wait("play")
    page.click("#btn-resign")
    page.click("dialog.confirm [data-answer=no]")
    assert d.ui == "play"
    page.click("#btn-resign")
    page.click("dialog.confirm [data-answer=yes]")
    d.wait("over")
    assert d.view()["result"] == {"winner": 1, "reason": "resignation"}
    assert "You resigned." in d.status() or "resigned" in d.status()
    assert page.eval_on_selector_all("svg.board g.pc", "gs => gs.every(g => g.dataset.kind)")


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_medium_and_hard_cpu_play_through_the_page(site, server, variant):
    """The stronger levels run in the page's worker too: a few moves against each, the CPU
    answering every one, its ranks never in the DOM."""
    page, d = open_game(site, server, seed=20 + VARIANTS.index(variant))
    for level in ("medium", "hard"):
        d.start(variant, mode="cpu", level=level)
        assert page.evaluate("() => window.junqiUI.game.opts.level") == level
        if d.ui == "setup":
            page.click("#btn-confirm")
        for _ in range(3):
            if d.wait("play", "over", timeout=60_000) == "over":
                break
            d.assert_hidden_side(1)
            d.play_random()
            if d.wait("play", "over", timeout=60_000) == "over":
                break
            mover = d.view()["history"][-1]["player"]
            assert mover == 1, f"{level} should have answered"
