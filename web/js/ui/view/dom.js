// Tiny DOM helpers. The page's CSP forbids inline styles: never set a "style" attribute;
// positions go through CSS classes or the CSSOM (element.style.x = ...), which CSP allows.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "on") for (const [ev, fn] of Object.entries(value)) node.addEventListener(ev, fn);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

/** h("button", {class: "x", on: {click}}, "text", child...) */
export const h = (tag, attrs, ...children) => fill(document.createElement(tag), attrs, children);

/** s("rect", {x, y}) : an SVG element. */
export const s = (tag, attrs, ...children) =>
  fill(document.createElementNS(SVG_NS, tag), attrs, children);

export const clear = (node) => node.replaceChildren();

export const reducedMotion = () =>
  window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
