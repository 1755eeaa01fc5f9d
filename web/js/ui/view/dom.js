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

/** A message in its fixed-height area: a long one scrolls there with its newest line in
 * view (also when the area changes size, unless the reader scrolled back), and then takes
 * keyboard focus too, so it can be scrolled without a pointer. */
export function showMessage(el, text) {
  if (!el.dataset.watched) {
    el.dataset.watched = "1";
    const settle = () => {
      const scrolls = el.scrollHeight > el.clientHeight + 1;
      if (scrolls) el.setAttribute("tabindex", "0");
      else el.removeAttribute("tabindex");
      if (scrolls && !el.readingBack) el.scrollTop = el.scrollHeight;
      el.classList.toggle("more-above", scrolls && el.scrollTop > 1);
    };
    el.settle = settle;
    el.addEventListener("scroll", () => {
      el.readingBack = el.scrollTop + el.clientHeight < el.scrollHeight - 2;
      el.classList.toggle("more-above", el.scrollTop > 1);
    });
    new ResizeObserver(settle).observe(el);
  }
  if (el.textContent !== text) {
    el.textContent = text;
    el.readingBack = false;
  }
  el.settle();
}
