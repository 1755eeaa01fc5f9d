// A QR code of a link, computed on this page (qrcode-generator from npm, pinned in
// package.json and bundled by build.py: nothing is fetched to draw it). No DOM: it returns
// an SVG path that the view draws.

import qrcode from "qrcode-generator";

/** {size, path}: `size` modules a side (without the quiet zone); `path` draws every dark
 * module as a 1x1 square, in module units. Error correction "L": a link of ~800
 * characters still fits a version a phone camera reads from a screen. */
export function qrPath(text, level = "L") {
  const qr = qrcode(0, level);
  qr.addData(text, "Byte");
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
