// The loading and error screen (#loader). Knows nothing about the game.

const STAGE_LABELS = {
  runtime: "Loading the Python runtime…",
  engine: "Starting the game engine…",
  ready: "Ready",
};

export class Loader {
  constructor(root) {
    this.root = root;
    this.loading = root.querySelector('[data-view="loading"]');
    this.errorView = root.querySelector('[data-view="error"]');
    this.stage = root.querySelector("#loader-stage");
    this.bar = root.querySelector("#loader-progress");
    this.detail = root.querySelector("#loader-detail");
    this.retryButton = root.querySelector("#loader-retry");
  }

  /** progress: {stage, fraction in 0..1, detail} */
  progress({ stage, fraction, detail }) {
    this.root.hidden = false;
    this.loading.hidden = false;
    this.errorView.hidden = true;
    this.root.dataset.stage = stage;
    this.stage.textContent = STAGE_LABELS[stage] || stage;
    this.bar.value = fraction;
    this.bar.textContent = `${Math.round(fraction * 100)}%`;
    this.detail.textContent = detail || "";
  }

  /** Show the error screen; onRetry runs when the user presses Retry. */
  error(message, detail, onRetry) {
    this.root.hidden = false;
    this.loading.hidden = true;
    this.errorView.hidden = false;
    this.root.querySelector("#loader-error-message").textContent = message;
    this.root.querySelector("#loader-error-detail").textContent = detail || "(none)";
    this.retryButton.onclick = onRetry;
    this.retryButton.focus();
  }

  hide() {
    this.root.hidden = true;
  }
}
