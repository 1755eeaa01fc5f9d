"""Siguo's rules in the rules dialog on a 360 px phone, in each language: nothing cut, the
cross and the combat table inside the dialog, no axe finding."""

from __future__ import annotations

import json

from conftest import CHROMIUM_ARGS, LOCAL, wait_ready  # noqa: F401
from gamedriver import ARTIFACTS, assert_nothing_cut, axe_scan, no_page_errors  # noqa: F401

LANGUAGES = ["en", "es", "pt", "zh", "ja"]

# What showRules (web/js/ui/view/dialogs.js) puts in the dialog for a variant: its section of
# the language's rules page and the page's controls section. The start screen does not offer
# Siguo in every build yet, so the test opens the Gunjin rules and puts Siguo's in their place.
SHOW_SIGUO_JS = """async (url) => {
  const html = await (await fetch(url)).text();
  const doc = new DOMParser().parseFromString(html, "text/html");
  const body = document.querySelector("dialog.rules .rules-body");
  body.replaceChildren(...["rules-siguo", "rules-controls"].map(
    (id) => document.importNode(doc.getElementById(id), true)));
  body.closest("dialog").scrollTop = 0;
}"""

# Boxes that must lie inside the dialog's content box: the figure and the table.
OUTSIDE_JS = """() => {
  const body = document.querySelector("dialog.rules .rules-body").getBoundingClientRect();
  const out = {};
  for (const sel of ["#rules-siguo svg.cross", "#rules-siguo table.siguo-combat"]) {
    const r = document.querySelector(sel).getBoundingClientRect();
    if (r.left < body.left - 1 || r.right > body.right + 1 || r.width < 200)
      out[sel] = [Math.round(r.left), Math.round(r.right), Math.round(body.left),
                  Math.round(body.right)];
  }
  return out;
}"""


def test_siguo_rules_on_a_phone(browser, server):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    )
    context.route(
        "**/*",
        lambda route: route.continue_() if LOCAL.match(route.request.url) else route.abort(),
    )
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.emulate_media(reduced_motion="reduce")
        page.goto(server.url)
        page.wait_for_selector("#app[data-ui=ready]", state="attached")  # the engine may load on
        page.click("[data-rules=gunjin]")
        page.wait_for_selector("dialog.rules #rules-gunjin")
        english = page.evaluate(
            """() => performance.getEntriesByType("resource").map((e) => e.name)
                .find((n) => n.includes("/rules/en.html"))"""
        )
        assert english, "the rules page was not loaded"
        findings = {}
        for lang in LANGUAGES:
            page.evaluate(SHOW_SIGUO_JS, english.replace("/en.html", f"/{lang}.html"))
            page.wait_for_selector("dialog.rules #rules-siguo table.siguo-combat")
            ARTIFACTS.mkdir(exist_ok=True)
            for part in ("svg.cross", "table.siguo-combat"):
                page.locator(f"#rules-siguo {part}").scroll_into_view_if_needed()
                name = f"rules-siguo-{lang}-{part.split('.')[1]}-360x740.png"
                page.screenshot(path=str(ARTIFACTS / name))
            assert_nothing_cut(page, f"Siguo rules ({lang})")
            outside = page.evaluate(OUTSIDE_JS)
            assert not outside, (lang, outside)
            findings[lang] = axe_scan(page, server.url, "dialog.rules")
        bad = {k: v for k, v in findings.items() if v}
        assert not bad, json.dumps(bad, indent=1)
        assert not errors, errors
    finally:
        context.close()
