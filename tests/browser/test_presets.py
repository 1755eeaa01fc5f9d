"""A whole game under every preset, played in the page's own engine (Pyodide): two Easy
CPU seats through the bridge as the page calls it.  The record each game exports replays
in CPython under the same rules to the same result (docs/rules.md, "Rule options")."""

from __future__ import annotations

import json

import pytest

from junqi_core.record import import_record
from junqi_core.variants import PRESETS

CASES = [
    (variant, preset.id)
    for variant in ("classic", "blind", "gunjin")
    for preset in PRESETS[variant]
]

PLAY = """async ([variant, preset]) => {
  const call = (request) => window.junqi.engine.call(request);
  const game = (await call({op: "new_game", variant, preset, seed: 7,
                            cpu: {"0": "easy", "1": "easy"}})).game;
  let view = (await call({op: "view", game, player: null})).view;
  while (view.phase === "play" && view.ply < 400) {
    view = (await call({op: "cpu_act", game, player: view.turn, viewer: null})).view;
  }
  if (view.phase === "play") await call({op: "act", game, player: view.turn ^ 1,
                                         action: `resign:${view.turn ^ 1}`});
  const record = (await call({op: "record_export", game})).record;
  await call({op: "drop", game});
  return record;
}"""


@pytest.mark.parametrize("variant, preset", CASES)
def test_a_game_under_each_preset_plays_to_the_end_in_the_page(ready_page, variant, preset):
    record = ready_page.evaluate(PLAY, [variant, preset])
    assert record["variant"] == variant and record["preset"] == preset
    assert record["result"] is not None
    replay = import_record(json.dumps(record))
    assert replay.variant.preset == preset
    assert {"winner": replay.result.winner, "reason": replay.result.reason} == record["result"]
    print(f"{variant}/{preset}: {len(record['actions'])} actions, {record['result']}")
