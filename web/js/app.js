// The game UI mounts here. For now a minimal "engine ready" panel: engine version,
// start a game, and the raw JSON the engine answers. The game screens (issue 5) replace
// this module; they get the same two things: the #app element and the engine.

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
};

export function mount(root, engine) {
  const info = engine.info;
  const variant = el("select", { id: "variant", "aria-label": "Variant" },
    ...info.variants.map((name) => el("option", { value: name }, name)));
  const start = el("button", { type: "button", id: "new-game" }, "New game");
  const output = el("pre", { id: "output", class: "json" });

  const show = (response) => {
    output.textContent = JSON.stringify(response, null, 2);
    output.dataset.ok = String(Boolean(response.ok));
  };

  start.addEventListener("click", async () => {
    start.disabled = true;
    try {
      const game = await engine.call({ op: "new_game", variant: variant.value, seed: 1, mode: "hotseat" });
      show(game.ok ? await engine.call({ op: "view", game: game.game, player: 0 }) : game);
    } catch (err) {
      show({ ok: false, error: { code: "crash", message: err.message } });
    } finally {
      start.disabled = false;
    }
  });

  root.replaceChildren(
    el("p", { class: "status", id: "engine-version" },
      `Engine ${info.engine} ready (API ${info.api}).`),
    el("div", { class: "controls" }, variant, start),
    output,
  );
}
