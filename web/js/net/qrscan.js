// The QR decoder for browsers without BarcodeDetector: jsQR (npm, pinned in package.json),
// bundled by build.py into this file of its own, which net/scan.js loads only when a
// player scans a code (the start of the page never pays for it). Knows no game rules.

import jsQR from "jsqr";

/** RGBA pixels -> the text of the QR code in them, or null. */
export function decodePixels(data, width, height) {
  const found = jsQR(data, width, height, { inversionAttempts: "attemptBoth" });
  return found ? found.data : null;
}
