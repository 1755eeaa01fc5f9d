"""Friends in the same room: a short invitation whose QR code the other page scans.

Two pages in one Chromium (two contexts, like two devices) with a fake camera that films a
file (`--use-file-for-fake-video-capture`): the test draws the guest's reply QR code, as
the page drew it, into that film, and the host's scanner reads it. Three ways to connect:
the camera, a photo of the code (a screenshot given to the file input), and a pasted link.
The invitation itself reaches the guest as a phone's camera app would pass it on: the
page's own decoder reads the host's QR code and the guest opens the link in it.

Figures (characters in the link, QR version; before: the whole description, as the page
sent it until now) go to test-artifacts/friend-invite.json."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import zlib

import pytest
from gamedriver import ARTIFACTS, assert_nothing_cut, no_page_errors  # noqa: F401
from sitekit import ROOT, Site
from test_friend import RTC_ARGS, Friend, own_address
from test_friend import devices as friend_devices
from test_friend import pair as friend_pair

import build

FILM_W, FILM_H = 640, 480

# The decoder the scanner loads (net/qrscan.js), run on a picture (PNG bytes, base64).
DECODE_PNG_JS = """async (png) => {
  const base = document.querySelector('link[rel=stylesheet][href*="assets/"]').href
    .replace(/css\\/site\\.css$/, '');
  const { decodePixels } = await import(base + 'js/net/qrscan.js');
  const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(bitmap, 0, 0);
  const pixels = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
  return decodePixels(pixels.data, bitmap.width, bitmap.height);
}"""


@pytest.fixture(scope="module")
def film(tmp_path_factory):
    return tmp_path_factory.mktemp("camera") / "camera.y4m"


# test_friend's two devices and their pages, here in the camera browser below
devices = friend_devices
pair = friend_pair


@pytest.fixture(scope="module")
def rtc_browser(playwright, film):
    """test_friend's two-page fixture (`pair`) in a Chromium with a fake camera."""
    if own_address() is None:
        pytest.skip("no network interface but loopback: WebRTC gathers no candidate here")
    write_film(film, None)  # a blank picture until a test films a code
    args = [
        *RTC_ARGS,
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={film}",
    ]
    browser = playwright.chromium.launch(executable_path=build.find_chromium(), args=args)
    yield browser
    browser.close()


def modules_of(path: str, size: int) -> list[list[bool]]:
    """Rows of dark (True) and light modules from a QR path (web/js/net/qr.js's form)."""
    rows = [[False] * size for _ in range(size)]
    for x, y, w in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", path):
        for col in range(int(x), int(x) + int(w)):
            rows[int(y)][col] = True
    return rows


def qr_modules(page) -> list[list[bool]]:
    """The QR code the page drew (#friend-qr)."""
    full = int(page.get_attribute("#friend-qr svg.qr", "viewBox").split()[2])
    return modules_of(page.get_attribute("#friend-qr svg.qr path.qr-fg", "d"), full - 8)


def node_qr_path(text: str) -> dict:
    """{size, path}: the QR code of a text as the page's own encoder makes it
    (web/js/net/qr.js), in Node."""
    script = (
        "import('./web/js/net/qr.js').then(({qrPath}) =>"
        " console.log(JSON.stringify(qrPath(process.argv[1]))))"
    )
    run = subprocess.run(
        ["node", "--input-type=module", "-e", script, text],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(run.stdout)


def node_qr(text: str) -> list[list[bool]]:
    qr = node_qr_path(text)
    return modules_of(qr["path"], qr["size"])


def write_film(path, modules) -> None:
    """One frame of YUV 4:2:0 video: a QR code (or nothing) in the middle of a grey room."""
    luma = bytearray([150]) * (FILM_W * FILM_H)
    if modules:
        size = len(modules) + 8  # with the quiet zone
        scale = min(FILM_W, FILM_H) * 9 // 10 // size
        left = (FILM_W - size * scale) // 2
        top = (FILM_H - size * scale) // 2
        for y in range(size * scale):
            for x in range(size * scale):
                r, c = y // scale - 4, x // scale - 4
                dark = 0 <= r < len(modules) and 0 <= c < len(modules) and modules[r][c]
                luma[(top + y) * FILM_W + left + x] = 20 if dark else 235
    chroma = bytes([128]) * (FILM_W * FILM_H // 4)
    header = f"YUV4MPEG2 W{FILM_W} H{FILM_H} F10:1 Ip A1:1 C420jpeg\n".encode()
    path.write_bytes(header + b"FRAME\n" + bytes(luma) + chroma + chroma)


def qr_version(page) -> int:
    full = int(page.get_attribute("#friend-qr svg.qr", "viewBox").split()[2])
    return (full - 8 - 17) // 4


def long_link(url: str, kind: str, sdp: str, about: dict | None) -> tuple[int, int]:
    """The same signal as the page sent it until now (J1: deflate-raw of the whole SDP, and
    the game offered, in base64url): its length, and the QR version net/qr.js makes of it."""
    code = zlib.compressobj(wbits=-15)
    line = json.dumps(about, separators=(",", ":")) + "\n" if about else ""
    packed = code.compress(f"{kind[0]}\nlan\n\n{line}{sdp}".encode()) + code.flush()
    text = "J1" + base64.urlsafe_b64encode(packed).decode().rstrip("=")
    old = url.split("#")[0] + "#friend=" + text
    return len(old), (node_qr_path(old)["size"] - 17) // 4


def host_invites(site: Site, server) -> Friend:
    host = Friend(site.open(server.url), seed=1)
    host.page.emulate_media(reduced_motion="reduce")
    host.page.check("#variant-classic")
    host.choose("mode", "friend")
    host.page.click("#btn-play")
    host.link()
    return host


def guest_joins(host: Friend, guest_site: Site, server) -> Friend:
    """The guest reads the host's QR code (the decoder the scanner uses, on a picture of
    it) and opens the link in it, then joins: its reply QR code is on screen."""
    picture = host.page.locator("#friend-qr svg.qr").screenshot()
    reader = guest_site.open(server.url)
    url = reader.evaluate(DECODE_PNG_JS, base64.b64encode(picture).decode())
    assert url == host.link(), "the QR code holds the invitation link"
    assert url.startswith(server.url) and "#friend=J2" in url
    reader.close()
    guest = Friend(guest_site.open(url))
    guest.page.wait_for_selector("#btn-join")
    guest.page.click("#btn-join")
    guest.link()
    return guest


def connected(host: Friend, guest: Friend) -> None:
    host.wait_conn("open")
    guest.wait_conn("open")
    for side in (host, guest):
        side.wait("setup", mine=False, timeout=60_000)


def figures(name: str, side: Friend, kind: str, into: dict) -> None:
    url = side.link()
    link = "window.junqiUI.game.session.connection"  # the friend game's links and channel
    sdp = side.page.evaluate(f"() => {link}.channel.pc.localDescription.sdp")
    about = side.page.evaluate(f"() => {link}.offered()") if kind == "offer" else None
    before, was = long_link(url, kind, sdp, about)
    into[name] = {
        "characters": len(url),
        "qr_version": qr_version(side.page),
        "before_characters": before,
        "before_qr_version": was,
    }


def test_a_scan_by_camera_connects(pair, server, film):
    host_site, guest_site = pair
    host_site.context.grant_permissions(["camera"], origin=server.url.rstrip("/"))
    host = host_invites(host_site, server)
    guest = guest_joins(host, guest_site, server)
    sizes: dict = {}
    figures("invitation", host, "offer", sizes)
    figures("reply", guest, "answer", sizes)
    # The invitation also names the game it offers (rules with every option, the clock):
    # ~190 characters more than the reply.
    limits = {"invitation": (450, 11), "reply": (300, 8)}
    for name, size in sizes.items():
        characters, version = limits[name]
        assert size["characters"] < characters and size["qr_version"] <= version, (name, size)
        assert size["qr_version"] < size["before_qr_version"] - 6, (name, size)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "friend-invite.json").write_text(json.dumps(sizes, indent=1) + "\n")
    print(json.dumps(sizes, indent=1))
    # The host's scanner films the guest's screen.
    write_film(film, qr_modules(guest.page))
    host.page.bring_to_front()  # a page in the background gets no camera frames
    host.page.click("#btn-friend-scan")
    host.page.wait_for_selector("dialog#scanner")
    assert host.page.evaluate("document.activeElement.id") == "scan-cancel"
    host.page.wait_for_selector("dialog#scanner", state="detached", timeout=30_000)
    connected(host, guest)


def test_a_photo_of_the_code_connects_and_other_codes_are_refused(pair, server, film, tmp_path):
    host_site, guest_site = pair
    host_site.context.grant_permissions(["camera"], origin=server.url.rstrip("/"))
    host = host_invites(host_site, server)
    guest = guest_joins(host, guest_site, server)
    # The camera sees a QR code of something else: said, and the scan goes on.
    write_film(film, node_qr("https://example.org/not-a-game"))
    host.page.bring_to_front()  # a page in the background gets no camera frames
    host.page.click("#btn-friend-scan")
    host.page.wait_for_selector("dialog#scanner")
    host.page.wait_for_function(
        "() => document.getElementById('scan-state').textContent.includes('not a friend-game')",
        timeout=20_000,
    )
    ARTIFACTS.mkdir(exist_ok=True)
    host.page.screenshot(path=str(ARTIFACTS / "friend-scan-camera.png"))
    # A picture with no code in it: said too.
    blank = tmp_path / "blank.png"
    blank.write_bytes(guest.page.locator(".site-header").screenshot())
    host.page.set_input_files("#scan-file", str(blank))
    host.page.wait_for_function(
        "() => document.getElementById('scan-photo-state').textContent.includes('No QR code')"
    )
    assert host.page.is_visible("dialog#scanner")
    # The guest's reply, as a photo.
    reply = tmp_path / "reply.png"
    reply.write_bytes(guest.page.locator("#friend-qr").screenshot())
    host.page.set_input_files("#scan-file", str(reply))
    host.page.wait_for_selector("dialog#scanner", state="detached")
    connected(host, guest)


def phone(side: Friend, screen: str) -> None:
    """At 360x740: nothing cut, and a screenshot of the screen."""
    side.page.set_viewport_size({"width": 360, "height": 740})
    assert_nothing_cut(side.page, screen)
    ARTIFACTS.mkdir(exist_ok=True)
    side.page.screenshot(path=str(ARTIFACTS / f"screen-{screen}-360x740.png"))


def test_a_pasted_link_connects(pair, server):
    host_site, guest_site = pair
    host = host_invites(host_site, server)
    phone(host, "friend-invite")
    guest = Friend(guest_site.open(host.link()))
    guest.page.wait_for_selector("#btn-join")
    phone(guest, "friend-join")
    guest.page.click("#btn-join")
    reply = guest.link()
    phone(guest, "friend-reply")
    host.paste(reply)
    connected(host, guest)
    phone(host, "friend-setup")
