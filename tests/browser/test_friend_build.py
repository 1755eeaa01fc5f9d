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
    app = (assets / "js" / "app.js").read_text()
    assert "qrcode-generator" not in app, "bundled, not imported by name at run time"
    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    pin = package["dependencies"]["qrcode-generator"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", pin), "pinned exactly"
    assert lock["packages"]["node_modules/qrcode-generator"]["version"] == pin
