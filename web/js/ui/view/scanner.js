// The QR scanner: a dialog with the camera's view that reads the code on the other screen
// (net/scan.js: BarcodeDetector, else jsQR from our own origin), or a photo of it when
// there is no camera to use. Nothing of the picture leaves the page.

import { h } from "./dom.js";
import { t } from "../i18n.js";
import { assetURL } from "../assets.js";
import { Camera, qrReader, readPicture } from "../../net/scan.js";
import { keepFocusInside } from "./dialogs.js";

/** Resolves with the text of the first code that `wanted(text)` accepts, or null when
 * the player cancels. */
export function scanDialog(host, { title, wanted }) {
  return new Promise((resolve) => {
    const before = /** @type {HTMLElement} */ (document.activeElement);
    const state = h("p", { class: "scan-state", id: "scan-state", role: "status" }, t("scan.starting"));
    const video = h("video", { class: "scan-video", id: "scan-video", muted: true, playsinline: true,
      "aria-label": t("scan.video_label"), hidden: true });
    const file = h("input", { type: "file", id: "scan-file", accept: "image/*", class: "scan-file",
      "aria-describedby": "scan-photo-state" });
    const photoState = h("p", { class: "scan-state", id: "scan-photo-state", role: "status" });
    const cancel = h("button", { type: "button", id: "scan-cancel", on: { click: () => done(null) } },
      t("action.cancel"));
    const dialog = h("dialog", { class: "scanner", id: "scanner", "aria-labelledby": "scan-title" },
      h("h2", { id: "scan-title" }, title),
      h("p", { class: "scan-hint" }, t("scan.hint")),
      video, state,
      h("div", { class: "scan-photo" }, h("label", { for: "scan-file" }, t("scan.photo")), file, photoState),
      h("div", { class: "row" }, cancel));
    let camera = null;
    let finished = false;
    const done = (text) => {
      if (finished) return;
      finished = true;
      camera?.stop();
      dialog.close();
      dialog.remove();
      if (before?.isConnected) before.focus({ preventScroll: true });
      resolve(text);
    };
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      done(null);
    });
    keepFocusInside(dialog);
    host.append(dialog);
    dialog.showModal();
    cancel.focus();
    const reading = qrReader(assetURL("js/net/qrscan.js"));
    file.addEventListener("change", async () => {
      const picture = file.files?.[0];
      if (!picture) return;
      let text = null;
      try {
        text = await readPicture(picture, await reading);
      } catch {
        text = null;
      }
      file.value = "";
      if (text && wanted(text)) done(text);
      else photoState.textContent = t(text ? "scan.not_ours" : "scan.not_found");
    });
    (async () => {
      try {
        const reader = await reading;
        if (finished) return;
        camera = await Camera.start(video);
        if (finished) return camera.stop();
        video.hidden = false;
        state.textContent = t("scan.looking");
        const text = await camera.watch(reader, wanted, () => (state.textContent = t("scan.not_ours")));
        if (text) done(text);
      } catch {
        if (!finished) state.textContent = t("scan.no_camera");
      }
    })();
  });
}
