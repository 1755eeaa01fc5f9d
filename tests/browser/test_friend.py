"""A game with a friend: two pages in one Chromium (two browser contexts, like two devices)
connected over a WebRTC data channel with no STUN and no server, the link passed by hand.

Per variant: the link exchange, deployment (one side by the deploy clock), moves with a
combat, a time-out, a lost connection and a reconnection with fresh links, a reload of one
page (it comes back from its own saved game and reconnects), a resignation and the audit.
Throughout: no request leaves 127.0.0.1 (the `Site` guard), and neither page's state, board,
button grid nor anything sent on the data channel names a rank of the other side before the
end.

The clock: `?moveclock=N` (tests only) makes the host propose N seconds to deploy and to
move instead of 90 and 30, so a time-out takes seconds; the real page uses the real clock.
"""

from __future__ import annotations

import json
import re
import socket
import time

import pytest
from gamedriver import GameDriver, assert_targets, axe_scan, no_page_errors  # noqa: F401
from sitekit import CHROMIUM_ARGS, SharedContext, Site

import build

CLOCK = 10  # seconds to deploy and to move, in these tests
# Chromium names its own addresses with mDNS ".local" names by default, which it resolves
# with multicast queries; plain addresses keep everything on this machine's own interface.
RTC_ARGS = [*CHROMIUM_ARGS, "--disable-features=WebRtcHideLocalIpsWithMdns"]

# Every text sent on the data channel, logged by the page itself (an init script wraps
# RTCDataChannel.send before the page's code runs).
LOG_SENDS = """
(() => {
  const send = RTCDataChannel.prototype.send;
  window.__sent = [];
  RTCDataChannel.prototype.send = function (data) {
    window.__sent.push(String(data));
    return send.call(this, data);
  };
})();
"""


def own_address() -> str | None:
    """A non-loopback address of this machine (WebRTC gathers no loopback candidates).
    A UDP connect only picks the route: nothing is sent."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


@pytest.fixture(scope="module")
def rtc_browser(playwright):
    if own_address() is None:
        pytest.skip("no network interface but loopback: WebRTC gathers no candidate here")
    browser = playwright.chromium.launch(executable_path=build.find_chromium(), args=RTC_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def devices(rtc_browser, _session_server):
    """The two devices, one browser context each, lent to each test in turn (see
    SharedContext: nothing saved survives from one test to the next)."""
    url = _session_server.url
    shared = [SharedContext(rtc_browser, url, init_scripts=[LOG_SENDS]) for _ in range(2)]
    yield shared
    for device in shared:
        device.close()
        assert device.strays == [], f"requests left 127.0.0.1: {device.strays}"


@pytest.fixture
def pair(devices, request):
    name = re.sub(r"[^\w.-]+", "_", request.node.name)
    sites = [devices[0].site(f"{name}-host"), devices[1].site(f"{name}-guest")]
    yield sites
    for device, s in zip(devices, sites, strict=True):
        device.release(s)
    for s in sites:
        assert s.external == [], f"requests left 127.0.0.1: {s.external}"
        errors = [m for m in s.console if m.startswith(("pageerror", "error"))]
        assert not errors, errors


class Friend(GameDriver):
    """One side of a friend game, driven by clicks."""

    def fair(self) -> dict:
        return self.view()["fair"]

    def seat(self) -> int:
        return self.fair()["seat"]

    def link(self) -> str:
        self.page.wait_for_function(
            "() => document.querySelector('#friend-link')?.value"
            " && !document.querySelector('#friend-linkbox').hidden",
            timeout=30_000,
        )
        return self.page.input_value("#friend-link")

    def paste(self, code: str) -> None:
        self.page.fill("#friend-paste", code)
        self.page.click("#btn-friend-connect")

    def wait_conn(self, conn: str, timeout: int = 30_000) -> None:
        self.page.wait_for_selector(f"#friend[data-conn={conn}]", state="attached", timeout=timeout)

    def sent(self) -> list[str]:
        return self.page.evaluate("() => window.__sent")

    def my_turn(self) -> bool:
        return self.page.evaluate(
            "() => { const g = window.junqiUI.game, v = g.view;"
            " return g.ui === 'play' && !g.busy && v.turn === v.player && !v.fair.pending"
            " && Boolean(v.dests); }"
        )

    def check_hidden(self) -> None:
        """The other side's ranks: not on the board, the grid or in the page's state."""
        if self.fair()["stage"] in ("setup", "play", "deal"):
            self.assert_hidden_side(1 - self.seat())
            state = self.page.evaluate("() => JSON.stringify(window.junqiUI.game.view.board)")
            board = json.loads(state)
            other = 1 - self.seat()
            blind = self.desc()["id"] == "blind"
            for square, piece in board.items():
                secret = piece["down"] or (not blind and piece["owner"] == other)
                if secret:
                    assert piece["kind"] is None, (square, piece)


def connect(host: Friend, guest_site: Site, server) -> Friend:
    """The host's invitation opened by the guest, the guest's reply pasted by the host."""
    url = host.link()
    assert url.startswith(server.url) and "#friend=J2" in url, "a compact invitation"
    assert len(url) < 500, len(url)  # with the game offered; ~850 before the compact form
    guest = Friend(guest_site.open(url))
    guest.page.wait_for_selector("#btn-join")
    assert "no server outside this site" in guest.page.inner_text("#friend-join")
    # Before accepting, the guest sees which game is offered: variant, rules and clock.
    offer = guest.page.inner_text("#friend-offer")
    names = {"classic": "Classic Junqi", "gunjin": "Gunjin Shogi", "blind": "Blind Junqi"}
    clock = host.page.evaluate("window.junqiUI.game.view.fair.clock")
    timing = f"{clock['deploy']} s to deploy, {clock['move']} s a move" if clock else "no clock"
    for words in (names[host.desc()["id"]], "Standard", timing):
        assert words in offer, offer
    # The header and the tab name the game offered (the header said only "military chess").
    title = f"{names[host.desc()['id']]} · with a friend"
    assert guest.page.inner_text(".site-header .subtitle") == title
    assert guest.page.title().startswith(title)
    guest.page.click("#btn-join")
    reply = guest.link()
    assert reply != url
    host.paste(reply)
    host.wait_conn("open")
    guest.wait_conn("open")
    return guest


def play_until(sides, done, limit=200, attack_bias=0.8):
    """Random legal moves by whichever side is to move, until done() or the limit."""
    for _ in range(limit):
        if done():
            return True
        mover = next((s for s in sides if s.my_turn()), None)
        if mover is None:
            time.sleep(0.1)
            continue
        mover.play_random(attack_bias)
        for s in sides:
            s.check_hidden()
    return done()


def reconnect_and_play_on(host: Friend, guest: Friend, ply: int) -> None:
    """A fresh link exchange started by the host; two more plies; both transcripts agree."""
    sides = (host, guest)
    host.page.click("#btn-reconnect")
    guest.paste(host.link())
    host.paste(guest.link())
    for side in sides:
        side.wait_conn("open")
    host.page.wait_for_function(
        "() => { const f = window.junqiUI.game.view.fair; return f && f.transcript; }"
    )
    assert play_until(sides, lambda: host.view()["ply"] >= ply + 2)
    for side in sides:
        side.page.wait_for_function(
            "t => window.junqiUI.game.view.fair.transcript === t",
            arg=host.fair()["transcript"],
            timeout=20_000,
        )


def combats(side: Friend) -> int:
    return sum(1 for ev in side.view()["history"] if ev.get("type") == "move" and ev.get("combat"))


SECRET_FIELDS = ('"layout"', '"salts"', '"secrets"', '"perm"', '"e"', '"kind"')


def check_channel(side: Friend, piece_ids: set[str]) -> None:
    """What this page sent: nothing names a rank or opens a secret before `open`."""
    for text in side.sent():
        message = json.loads(text)
        if message["type"] in ("open", "reveal"):
            break
        for field in SECRET_FIELDS:
            assert field not in text, (message["type"], field)
        for value in re.findall(r'"([a-z_]+)"', text):
            assert value not in piece_ids, (message["type"], value)


@pytest.mark.parametrize("variant", ["classic", "gunjin", "blind"])
def test_friend_game_over_webrtc(pair, server, variant):
    host_site, guest_site = pair
    host = Friend(host_site.open(f"{server.url}?moveclock={CLOCK}"), seed=1)
    host.page.emulate_media(reduced_motion="reduce")
    host.page.check(f"#variant-{variant}")
    host.choose("mode", "friend")
    if not host.page.is_checked("#friend-clock-option"):
        host.page.click("#friend-clock-option")
    assert host.page.is_checked("#net-lan")
    # "over the internet" names the build's STUN server before anything could ask it
    stun = [u.split(":")[1] for u in build.stun_servers()]
    if stun:  # JUNQI_STUN= builds a site without "over the internet"
        host.choose("net", "stun")
        explain = host.page.inner_text("#net-explain")
        assert all(name in explain for name in stun) and "IP address" in explain, explain
        host.choose("net", "lan")
    else:
        assert host.page.is_disabled("#net-stun")
    assert "no server outside this site" in host.page.inner_text("#net-explain")
    host.page.click("#btn-play")
    if variant == "classic":
        host.link()
        assert axe_scan(host.page, server.url) == []
    guest = connect(host, guest_site, server)
    guest.rng.seed(2)
    sides = (host, guest)
    piece_ids = {p["id"] for p in host.desc()["pieces"]}

    # --- deployment: the host confirms, the guest's deploy clock deploys its draft -------
    if variant != "blind":
        for side in sides:
            side.wait("setup")
            side.check_hidden()
        assert "to deploy" in host.page.inner_text("#clock")
        host.page.click("#btn-mirror")
        host.wait("setup")
        host.page.click("#btn-confirm")
        host.wait("wait", "play", mine=False)
        guest.wait("play", mine=False, timeout=(CLOCK + 20) * 1000)  # by the clock
    for side in sides:
        side.wait("play", mine=False, timeout=60_000)
        assert side.page.inner_text("#friend-conn").startswith("Connected")
    assert host.seat() == 0 and guest.seat() == 1
    assert host.view()["turn"] == 0

    # --- moves and a combat (Blind: flips, and a combat when one comes) ------------------
    target = 1 if variant != "blind" else 0
    assert play_until(sides, lambda: combats(host) >= target and host.view()["ply"] >= 6)

    # --- a time-out: the side to move waits out its clock, the turn passes ---------------
    # the last move may still be on its way to the other page: wait until one side has the turn
    deadline = time.monotonic() + 20
    movers: list = []
    while not movers and time.monotonic() < deadline:
        movers = [s for s in sides if s.my_turn() or s.view()["turn"] == s.seat()]
        if not movers:
            host.page.wait_for_timeout(100)
    assert movers, "neither side has the turn"
    mover = movers[0]
    before = mover.view()["timeouts"][mover.seat()]
    mover.page.wait_for_function(
        "([n, seat]) => window.junqiUI.game.view.timeouts[seat] > n",
        arg=[before, mover.seat()],
        timeout=(CLOCK + 15) * 1000,
    )
    assert "ran out of time" in mover.message()

    # --- the connection drops; a new link exchange; the game goes on --------------------
    ply = host.view()["ply"]
    guest.page.evaluate("() => window.junqiUI.game.session.connection.channel.dc.close()")
    for side in sides:
        side.wait_conn("lost")
    assert "Connection lost" in host.page.inner_text("#friend-conn")
    assert "wait" in host.page.inner_text("#friend-state")
    reconnect_and_play_on(host, guest, ply)

    # --- a reload: the guest's page comes back from its own saved game; new links -------
    ply = host.view()["ply"]
    transcript = guest.fair()["transcript"]
    guest.page.reload()
    guest.page.emulate_media(reduced_motion="reduce")
    guest.page.wait_for_function(
        "t => window.junqiUI?.game?.view?.fair?.transcript === t",
        arg=transcript,
        timeout=60_000,
    )
    guest.check_hidden()
    host.wait_conn("lost")
    reconnect_and_play_on(host, guest, ply)

    # --- the end: a resignation, both pages open everything, the audit ------------------
    for side in sides:
        check_channel(side, piece_ids)
    guest.page.click("#btn-resign")
    guest.page.click("dialog.confirm [data-answer=yes]")
    for side in sides:
        side.wait("over", mine=False, timeout=60_000)
        fair = side.fair()
        assert fair["stage"] == "done" and fair["verdict"]["ok"] is True, fair["verdict"]
        assert side.view()["result"] == {"winner": 0, "reason": "resignation"}
        board = side.view()["board"]
        assert all(p["kind"] for p in board.values()), "all revealed after the audit"
    assert "you win" in host.status().lower()
    assert "resigned" in guest.status().lower()
    assert host.fair()["transcript"] == guest.fair()["transcript"]
    assert host.page.is_visible("#btn-rematch")
    # The connection goes after the end: the final board stays in view, no layer over it.
    guest.page.evaluate("() => window.junqiUI.game.session.connection.channel.dc.close()")
    host.wait_conn("lost")
    assert "Connection lost" in host.page.inner_text("#friend-conn")
    assert host.page.is_hidden("#friend-connect")
    assert host.page.is_visible("svg.board") and host.page.is_visible("#btn-rematch")


def classic_pair(pair, server) -> tuple[Friend, Friend, str]:
    """A Classic game without a clock, connected, both in setup: (host, guest, invitation)."""
    host_site, guest_site = pair
    host = Friend(host_site.open(server.url), seed=3)
    host.page.emulate_media(reduced_motion="reduce")
    host.page.check("#variant-classic")
    host.choose("mode", "friend")
    host.page.click("#btn-play")
    url = host.link()
    guest = connect(host, guest_site, server)
    for side in (host, guest):
        side.wait("setup")
    return host, guest, url


def test_a_second_tab_does_not_make_a_second_live_copy(pair, server):
    """One device, one live copy: the same invitation, or the site, opened again in a second
    tab of the guest's browser says the game is open in another tab (the live one keeps its
    connection); "Move it here" makes the first tab let go, and the second goes on from the
    saved game with a fresh link exchange."""
    guest_site = pair[1]
    host, guest, url = classic_pair(pair, server)
    for side in (host, guest):
        side.page.click("#btn-confirm")
    for side in (host, guest):
        side.wait("play", mine=False, timeout=60_000)
    assert play_until((host, guest), lambda: host.view()["ply"] >= 2)

    second = guest_site.open(url)
    second.wait_for_selector("#friend-elsewhere", timeout=15_000)
    assert "open in another tab" in second.inner_text("#friend-elsewhere")
    assert second.evaluate("window.junqiUI.game") is None
    again = guest_site.open(server.url)  # no link: the recent saved game is not reopened
    again.wait_for_selector("#friend-elsewhere", timeout=15_000)
    # nor ended by a new friend game there (this browser keeps one)
    again.click("#btn-notice-back")
    again.click("label[for=mode-friend]")  # the chip a player taps
    again.wait_for_function("() => document.getElementById('mode-friend').checked")
    again.click("#btn-play")
    again.wait_for_selector("#friend-elsewhere", timeout=15_000)
    assert "keeps one such game" in again.inner_text("#friend-elsewhere")
    again.close()
    for side in (host, guest):
        side.wait_conn("open")  # the live copy was not disturbed

    ply = host.view()["ply"]
    second.emulate_media(reduced_motion="reduce")
    second.click("#btn-friend-move")
    guest.page.wait_for_selector("#friend-notice", timeout=15_000)
    assert "moved to another tab" in guest.page.inner_text("#friend-notice")
    assert guest.page.evaluate("window.junqiUI.game") is None
    moved = Friend(second, seed=4)
    second.wait_for_function("p => window.junqiUI?.game?.view?.ply === p", arg=ply, timeout=30_000)
    host.wait_conn("lost")
    reconnect_and_play_on(host, moved, ply)


def test_an_invitation_already_taken_is_said_to_a_third_page(pair, server, rtc_browser, request):
    """A third person opens an invitation that was already used and sends the reply: when
    the host's page gets it (opened in a new tab of the host's browser), the third page is
    told at once that the invitation was already taken; the game goes on undisturbed."""
    host_site = pair[0]
    host, guest, url = classic_pair(pair, server)
    third_site = Site(rtc_browser, f"{request.node.name}-third")
    try:
        third = Friend(third_site.open(url))
        third.page.click("#btn-join")
        reply = third.link()
        tab = host_site.open(reply)  # as from a chat app: passed to the game's tab
        assert "another tab" in tab.inner_text("#friend-notice")
        # told within seconds (the wait's bound), not left waiting for an answer
        third.page.wait_for_function("() => window.junqiUI.game.ui === 'error'", timeout=20_000)
        assert "already taken" in third.page.inner_text("#friend-state")
        assert third.page.evaluate("window.junqiUI.game.session.peer") is None
        assert "after it was used" in host.message()
        for side in (host, guest):
            assert side.page.evaluate("window.junqiUI.game.session.connection.conn") == "open"
        host.page.click("#btn-confirm")
        guest.page.click("#btn-confirm")
        for side in (host, guest):
            side.wait("play", mine=False, timeout=60_000)
    finally:
        third_site.close()
    assert third_site.external == []


def test_links_put_into_the_address_of_an_open_page(pair, server):
    """A link put into the address bar of a tab that already shows the site changes only
    its fragment (the page is not loaded again): the invitation shows its Join screen (a
    game under way there is not dropped unasked); the reply, put into the host's waiting
    tab, is taken there and the two connect. Each link leaves the address once used."""
    host_site, guest_site = pair
    host = Friend(host_site.open(server.url), seed=6)
    host.page.emulate_media(reduced_motion="reduce")
    host.page.check("#variant-classic")
    host.choose("mode", "friend")
    host.page.click("#btn-play")
    url = host.link()
    assert_targets(host.page, "the host's link")
    guest = Friend(guest_site.open(server.url), seed=7)
    guest.page.emulate_media(reduced_motion="reduce")
    for page in (host.page, guest.page):
        page.evaluate("() => (window.notReloaded = true)")
    # The start screen: the invitation's Join screen.
    guest.page.goto(url)
    guest.page.wait_for_selector("#btn-join", timeout=15_000)
    assert guest.page.evaluate("location.hash") == ""
    assert_targets(guest.page, "the Join screen")
    # A game under way: asked first; Cancel keeps it, yes opens the invitation.
    guest.page.click("#friend-join .row button:not(#btn-join)")  # Not now
    guest.start("classic")
    guest.page.goto(url)
    guest.page.wait_for_selector("dialog.confirm", timeout=15_000)
    assert "game with a friend" in guest.page.inner_text("dialog.confirm")
    guest.page.click("dialog.confirm [data-answer=no]")
    assert guest.ui in ("setup", "play") and guest.page.is_visible("svg.board")
    guest.page.goto(url)
    guest.page.click("dialog.confirm [data-answer=yes]", timeout=15_000)
    guest.page.click("#btn-join", timeout=15_000)
    reply = guest.link()
    assert_targets(guest.page, "the guest's reply")
    # The host's tab, waiting for that reply, gets it in its own address bar.
    host.page.goto(reply)
    host.wait_conn("open")
    guest.wait_conn("open")
    for side in (host, guest):
        side.wait("setup")
        assert side.page.evaluate("() => window.notReloaded === true && location.hash === ''")
