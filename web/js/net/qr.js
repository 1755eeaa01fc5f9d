// A QR code of a link, computed on this page (qrcode-generator from npm, pinned in
// package.json and bundled by build.py: nothing is fetched to draw it). No DOM: it returns
// an SVG path that the view draws.

import qrcode from "qrcode-generator";

// What QR's alphanumeric mode holds (5.5 bits a character instead of 8).
const ALPHANUMERIC = /[0-9A-Z $%*+\-./:]*$/;
const MIN_RUN = 12; // a shorter run does not pay for a second segment's header

/** The QR version (1-40) of a code `size` modules a side. */
export const qrVersion = (size) => (size - 17) / 4;

/** {size, path}: `size` modules a side (without the quiet zone); `path` draws every dark
 * module as a 1x1 square, in module units. A text ending in capitals, digits and QR's few
 * signs (a compact friend code, net/link.js) is stored in two segments, the end in the
 * alphanumeric mode: a smaller code. Error correction "L": fine from a screen.
 * @param {string} text
 * @param {"L" | "M" | "Q" | "H"} [level] */
export function qrPath(text, level = "L") {
  const qr = qrcode(0, level);
  const tail = ALPHANUMERIC.exec(text)[0];
  if (tail.length >= MIN_RUN) {
    if (tail.length < text.length) qr.addData(text.slice(0, text.length - tail.length), "Byte");
    qr.addData(tail, "Alphanumeric");
  } else {
    qr.addData(text, "Byte");
  }
  qr.make();
  const size = qr.getModuleCount();
  const parts = [];
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!qr.isDark(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && qr.isDark(row, col)) col++;
      parts.push(`M${start} ${row}h${col - start}v1h${start - col}z`);
    }
  }
  return { size, path: parts.join("") };
}
