// Where the page's own files are (assets/<build>/): strings, rules. The built page is
// bundled (build.py), so a module cannot find them from its own URL; app.js sets the base
// from main.js's. Unbundled (web/ as written) the default is right too.

let base = new URL("../../", import.meta.url).href;

export function setBase(url) {
  base = url;
}

export function assetURL(rel) {
  return new URL(rel, base).href;
}
