"""The build's friend-play settings, checked without a browser: the STUN server list and
the QR encoder bundled from our own npm pin."""

from __future__ import annotations

import json
import re

import pytest
from sitekit import ROOT

import build


def test_stun_servers_come_from_the_build_setting(monkeypatch):
    monkeypatch.delenv("JUNQI_STUN", raising=False)
    assert build.stun_servers() == [build.DEFAULT_STUN]
    monkeypatch.setenv("JUNQI_STUN", "stun:stun.example.org:3478, stun:other.example.net")
    assert build.stun_servers() == ["stun:stun.example.org:3478", "stun:other.example.net"]
    monkeypatch.setenv("JUNQI_STUN", "")
    assert build.stun_servers() == []  # a site with "same network" only
    for bad in ("https://stun.example.org", "turn:relay.example.org:3478", "stun:a b"):
        monkeypatch.setenv("JUNQI_STUN", bad)
        with pytest.raises(SystemExit):
            build.stun_servers()


def test_the_page_gets_the_stun_list_and_the_qr_encoder(dist):
    manifest = json.loads((dist / "build.json").read_text())
    assets = dist / manifest["assets"]
    info = (assets / "js" / "build-info.js").read_text()
    data = json.loads(re.search(r"export const BUILD = (\{.*\});", info, re.S).group(1))
    assert data["stun"] == build.stun_servers()
    # every script of the page (app.js and the chunks the build splits off)
    for script in (assets / "js").rglob("*.js"):
        text = script.read_text()
        assert "qrcode-generator" not in text, f"bundled, not imported by name: {script.name}"
    assert_pinned("qrcode-generator")


def assert_pinned(name: str) -> None:
    """An npm package the page bundles: an exact version in package.json, the same locked."""
    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    pin = package["dependencies"][name]
    assert re.fullmatch(r"\d+\.\d+\.\d+", pin), "pinned exactly"
    assert lock["packages"][f"node_modules/{name}"]["version"] == pin


def test_the_qr_decoder_is_pinned_bundled_apart_and_loaded_only_to_scan(dist):
    """jsQR (npm, pinned) is bundled into js/net/qrscan.js of our own origin, which the
    scanner imports on first use: not in the game UI's bundle, not preloaded at start."""
    manifest = json.loads((dist / "build.json").read_text())
    assets = dist / manifest["assets"]
    decoder = (assets / "js" / "net" / "qrscan.js").read_text()
    assert "attemptBoth" in decoder, "the decoder is in it"
    by_name = re.search(r'from\s*"jsqr"|import\(\s*"jsqr"', decoder)
    assert not by_name, "bundled, not imported by name"
    # the game UI: app.js and the chunks the build splits off (the screens loaded on first
    # use, the code they share), every script of the page but the decoder and the worker
    ui = {
        p.relative_to(assets).as_posix(): p.read_text()
        for p in (assets / "js").rglob("*.js")
        if p.name not in ("qrscan.js", "worker.js")
    }
    assert "js/app.js" in ui
    holding = [rel for rel, text in ui.items() if "attemptBoth" in text]
    assert not holding, f"the decoder is in the game UI's scripts: {holding}"
    assert any("js/net/qrscan.js" in text for text in ui.values()), (
        "the scanner finds it from our own origin"
    )
    index = (dist / "index.html").read_text()
    assert "qrscan" not in index, "not preloaded: the start never pays for it"
    assert_pinned("jsqr")
