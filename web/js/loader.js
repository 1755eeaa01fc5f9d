// The engine's loading indicator (small, in the header: the start screen is usable while
// Python starts) and the error screen (#loader, when the page cannot start). Knows
// nothing about the game.

const STAGE_LABELS = {
  runtime: "Loading the Python runtime…",
  engine: "Starting the game engine…",
  ready: "Ready",
};

export class Loader {
  constructor(doc = document) {
    this.root = doc.getElementById("loader");
    this.pill = doc.getElementById("engine-progress");
    this.label = doc.getElementById("engine-progress-label");
    this.bar = doc.getElementById("loader-progress");
    this.retryButton = doc.getElementById("loader-retry");
    this.labels = STAGE_LABELS;
  }

  /** progress: {stage, fraction in 0..1, detail} */
  progress({ stage, fraction, detail }) {
    if (this.failed) return; // the error screen stays as it is
    this.pill.hidden = false;
    this.pill.dataset.stage = stage;
    this.label.textContent = this.labels[stage] || stage;
    this.bar.value = fraction;
    this.bar.textContent = `${Math.round(fraction * 100)}%`;
    this.pill.title = detail || "";
  }

  /** Words for the stages, in the page's language once the UI has them. */
  setLabels(labels) {
    this.labels = { ...STAGE_LABELS, ...labels };
    const stage = this.pill.dataset.stage;
    if (stage) this.label.textContent = this.labels[stage] || stage;
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

  hide() {
    this.pill.hidden = true;
  }
}
