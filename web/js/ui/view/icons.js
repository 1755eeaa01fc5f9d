// Small inline SVG icons (no icon font: every glyph draws the same on every system).
// Each returns a fresh <svg> that is decorative (aria-hidden); the button names the action.

import { s } from "./dom.js";

const PATHS = {
  // a stopwatch
  clock: [
    ["circle", { cx: 12, cy: 13.5, r: 8 }],
    ["path", { d: "M12 9.5v4.5l3 2M9.5 2.5h5M12 2.5v3M18.5 6l1.5-1.5" }],
  ],
  // three bars
  menu: [["path", { d: "M4 7h16M4 12h16M4 17h16" }]],
  // a speaker with waves / crossed out
  sound: [
    ["path", { d: "M4 9.5h3.5L12 5.5v13L7.5 14.5H4z", class: "solid" }],
    ["path", { d: "M15.5 9a4.5 4.5 0 0 1 0 6M18 6.5a8 8 0 0 1 0 11" }],
  ],
  mute: [
    ["path", { d: "M4 9.5h3.5L12 5.5v13L7.5 14.5H4z", class: "solid" }],
    ["path", { d: "M15.5 9.5l5 5M20.5 9.5l-5 5" }],
  ],
  // a board seen from above / tilted
  flat: [["rect", { x: 4.5, y: 4.5, width: 15, height: 15, rx: 1.5 }],
    ["path", { d: "M4.5 12h15M12 4.5v15" }]],
  tilted: [["path", { d: "M7 6h10l3.5 12.5h-17z" }], ["path", { d: "M5.2 12.3h13.6M12 6v12.5" }]],
  // a magnifier with a plus / a minus: zoom the board in / out
  zoomIn: [["circle", { cx: 10.5, cy: 10.5, r: 6 }], ["path", { d: "M15 15l5 5M8 10.5h5M10.5 8v5" }]],
  zoomOut: [["circle", { cx: 10.5, cy: 10.5, r: 6 }], ["path", { d: "M15 15l5 5M8 10.5h5" }]],
  // an arrow turning back (undo)
  undo: [["path", { d: "M9 7L4.5 11.5 9 16" }], ["path", { d: "M4.5 11.5h10a5 5 0 0 1 0 10H12" }]],
  // replay: first, back, play, pause, forward, last, close
  first: [["path", { d: "M6 5.5v13" }], ["path", { d: "M18 6l-9 6 9 6z", class: "solid" }]],
  back: [["path", { d: "M16 6l-9 6 9 6z", class: "solid" }]],
  play: [["path", { d: "M8 5.5l11 6.5-11 6.5z", class: "solid" }]],
  pause: [["path", { d: "M7 5.5h3.5v13H7zM13.5 5.5H17v13h-3.5z", class: "solid" }]],
  forward: [["path", { d: "M8 6l9 6-9 6z", class: "solid" }]],
  last: [["path", { d: "M18 5.5v13" }], ["path", { d: "M6 6l9 6-9 6z", class: "solid" }]],
  close: [["path", { d: "M6 6l12 12M18 6L6 18" }]],
};

export function icon(name) {
  const svg = s("svg", { class: `icon icon-${name}`, viewBox: "0 0 24 24", "aria-hidden": "true",
    focusable: "false" });
  for (const [tag, attrs] of PATHS[name]) svg.append(s(tag, attrs));
  return svg;
}
