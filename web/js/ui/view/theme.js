// The page's colours: <html data-theme="light|dark"> (web/css/dark.css holds the dark ones).
// js/theme.js sets it before the first paint; this keeps it to the player's choice in the
// menu and, while that choice is "system", to the system's setting as it changes.

const DARK = "(prefers-color-scheme: dark)";

/** What a choice shows: "light" or "dark".
 * @param {string} choice "system", "light" or "dark"
 * @param {boolean} systemDark whether the system prefers dark colours */
export function resolveTheme(choice, systemDark) {
  if (choice === "light" || choice === "dark") return choice;
  return systemDark ? "dark" : "light";
}

export class Theme {
  /** @param {{theme: string}} settings
   *  @param {HTMLElement} [root]
   *  @param {{matches: boolean, addEventListener(type: string, fn: () => void): void}} [media] */
  constructor(settings, root = document.documentElement, media = matchMedia(DARK)) {
    this.settings = settings;
    this.root = root;
    this.media = media;
    media.addEventListener("change", () => this.apply());
    this.apply();
  }

  /** Show the colours the choice and the system's setting ask for now. */
  apply() {
    const theme = resolveTheme(this.settings.theme, this.media.matches);
    this.root.dataset.theme = theme;
    // The browser's own bar (phones) takes the header's colour.
    const meta = this.root.ownerDocument?.querySelector('meta[name="theme-color"]');
    const header = meta && getComputedStyle(this.root).getPropertyValue("--accent").trim();
    if (header) meta.setAttribute("content", header);
  }
}
