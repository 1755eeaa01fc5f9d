// The engine's loading indicator (small, in the header: the start screen is usable while
// Python starts) and the error screen (#loader, when the page cannot start). Knows
// nothing about the game.
//
// The indicator says what happens now, with a count (bytes downloaded, modules imported)
// and, when a step is quiet for a while, for how long: loading is only called stuck after
// a long time without any progress (engine.js), so a slow device sees it working.

/** Words for the loading steps (worker.js), in English until the UI gives its language's.
 * `{done}`, `{total}` and `{s}` are filled in.
 * @type {Record<string, string>} */
export const STEP_LABELS = {
  download: "Downloading Python",
  compile: "Compiling Python",
  python: "Starting Python",
  wheel: "Downloading the game engine",
  install: "Installing the game engine",
  restore: "Restoring the game engine",
  answer: "Starting the game engine",
  ready: "Engine ready",
  bytes: "{done} of {total} MB",
  kilobytes: "{done} of {total} KB",
  modules: "{done} of {total} modules",
  quiet: "still working, {s} s",
};

/** Seconds of a quiet step after which the indicator shows its time. */
export const QUIET_SHOWN_S = 5;

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));

/** Bytes in words: MB with a decimal, or KB for a file under a megabyte. */
function byteWords(count, words) {
  const small = count.total < 1_000_000;
  const size = (n) => (small ? Math.round(n / 1000) : (n / 1_000_000).toFixed(1));
  return fill(words[small ? "kilobytes" : "bytes"],
    { done: size(Math.min(count.done, count.total)), total: size(count.total) });
}

/** The progress ({step, count}) in words, in two parts: the step ("Downloading Python")
 * and how far it is (": 4.2 of 12.3 MB", " (still working, 12 s)"); `quiet`: seconds
 * since it last moved. */
export function progressParts(progress, quiet = 0, labels = STEP_LABELS) {
  const words = { ...STEP_LABELS, ...labels };
  const step = progress?.step || "download";
  let detail = "";
  const count = progress?.count;
  if (count && count.total > 0 && step !== "ready") {
    detail += `: ${count.unit === "bytes" ? byteWords(count, words)
      : fill(words.modules, { done: count.done, total: count.total })}`;
  }
  if (quiet >= QUIET_SHOWN_S && step !== "ready") detail += ` (${fill(words.quiet, { s: quiet })})`;
  return { step: words[step] || step, detail };
}

/** "Downloading Python: 4.2 of 12.3 MB", "Starting Python (still working, 12 s)". */
export function progressText(progress, quiet = 0, labels = STEP_LABELS) {
  const { step, detail } = progressParts(progress, quiet, labels);
  return step + detail;
}

export class Loader {
  constructor(doc = document) {
    this.root = doc.getElementById("loader");
    this.pill = doc.getElementById("engine-progress");
    this.label = doc.getElementById("engine-progress-label");
    this.bar = /** @type {HTMLProgressElement} */ (doc.getElementById("loader-progress"));
    this.retryButton = doc.getElementById("loader-retry");
    this.labels = STEP_LABELS;
    this.last = null;
    // The count changes many times a second: shown, but not read out by the indicator's
    // live region (which says each new step).
    this.count = doc.createElement("span");
    this.count.className = this.label.className;
    this.count.setAttribute("aria-hidden", "true");
    this.label.after(this.count);
  }

  /** progress: {stage, step, fraction in 0..1, detail, count}; quiet: seconds since it
   * last moved. */
  progress(progress, quiet = 0) {
    if (this.failed) return; // the error screen stays as it is
    this.last = { progress, quiet };
    this.pill.hidden = false;
    this.pill.dataset.stage = progress.stage;
    this.pill.dataset.step = progress.step || "";
    const { step, detail } = progressParts(progress, quiet, this.labels);
    if (this.label.textContent !== step) this.label.textContent = step;
    this.count.textContent = detail;
    this.bar.value = progress.fraction;
    this.bar.textContent = `${Math.round(progress.fraction * 100)}%`;
    this.pill.title = progress.detail || "";
  }

  /** Words for the steps, in the page's language once the UI has them. */
  setLabels(labels) {
    this.labels = { ...STEP_LABELS, ...labels };
    if (this.last) this.progress(this.last.progress, this.last.quiet);
  }

  /** Show the error screen; onRetry runs when the user presses Retry. */
  error(message, detail, onRetry) {
    this.failed = true;
    this.pill.hidden = true;
    this.root.hidden = false;
    this.root.querySelector("#loader-error-message").textContent = message;
    this.root.querySelector("#loader-error-detail").textContent = detail || "(none)";
    this.retryButton.onclick = onRetry;
    this.retryButton.focus();
  }

  /** The engine is ready: the indicator goes, and stays gone (a language change after
   * it relabels nothing). */
  hide() {
    this.pill.hidden = true;
    this.last = null;
  }
}
