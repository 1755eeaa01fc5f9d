// The page's colours before its first paint, so a dark page never flashes light: a classic
// script in <head> (index.html), not a module (modules wait for the whole document). It
// reads the choice the menu keeps (ui/prefs.js: localStorage "junqi.prefs.v1", "theme":
// system, light or dark) and sets <html data-theme="light|dark"> for web/css/dark.css;
// ui/view/theme.js keeps it current afterwards.
(() => {
  let choice = "system";
  try {
    choice = JSON.parse(localStorage.getItem("junqi.prefs.v1") || "{}").theme || choice;
  } catch {
    // no storage (private mode): the system's setting
  }
  const dark = choice === "dark" || (choice !== "light" && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
})();
