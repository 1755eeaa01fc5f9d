// Reading a QR code with this device's camera or from a picture, on this page: the
// browser's BarcodeDetector where it has one that reads QR codes, else jsQR, which
// net/qrscan.js brings from our own origin on first use. Frames never leave the page.
// Knows no game rules.
//
//   const reader = await qrReader(decoderURL);        // {native: bool, read(source)}
//   const camera = await Camera.start(videoElement);  // throws when there is no camera
//   const text = await camera.watch(reader, (text) => isWanted(text));  // stop() ends it
//   const text = await readPicture(file, reader);      // a photo or screenshot of a code

const MAX_SIDE = 800; // frames are scaled down to this before decoding: fast enough, sharp enough
const EVERY_MS = 180; // between two looks at the camera

let library = null;

/** The decoder: BarcodeDetector when it reads QR codes, else the library at `decoderURL`. */
export async function qrReader(decoderURL, { Detector = globalThis.BarcodeDetector } = {}) {
  try {
    if (Detector && (await Detector.getSupportedFormats()).includes("qr_code")) {
      const detector = new Detector({ formats: ["qr_code"] });
      return {
        native: true,
        async read(source) {
          const codes = await detector.detect(source);
          return codes.length ? codes[0].rawValue : null;
        },
      };
    }
  } catch {
    // a detector that cannot be used: the library reads the codes
  }
  library ??= import(decoderURL);
  const { decodePixels } = await library;
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  return {
    native: false,
    async read(source) {
      const width = source.videoWidth || source.naturalWidth || source.width;
      const height = source.videoHeight || source.naturalHeight || source.height;
      if (!width || !height) return null;
      const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      context.drawImage(source, 0, 0, canvas.width, canvas.height);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
      return decodePixels(pixels.data, canvas.width, canvas.height);
    },
  };
}

/** A picture chosen by the player (a photo or a screenshot of the other screen). */
export async function readPicture(file, reader) {
  const bitmap = await createImageBitmap(file);
  try {
    return await reader.read(bitmap);
  } finally {
    bitmap.close?.();
  }
}

/** The camera, shown in a <video>, looked at until a wanted code is seen. */
export class Camera {
  static available() {
    return Boolean(globalThis.navigator?.mediaDevices?.getUserMedia);
  }

  /** Ask for the camera (the back one on a phone); throws when there is none or the
   * player says no. */
  static async start(video) {
    if (!Camera.available()) throw new Error("no camera API");
    const stream = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: { ideal: "environment" } }, audio: false,
    });
    video.srcObject = stream;
    video.muted = true;
    video.playsInline = true;
    await video.play();
    return new Camera(video, stream);
  }

  constructor(video, stream) {
    this.video = video;
    this.stream = stream;
    this.stopped = false;
    this.timer = null;
  }

  /** Resolves with the first code `wanted(text)` accepts (`seen(text)` hears the others),
   * or null once stopped.
   * @param {any} reader
   * @param {(text: string) => boolean} wanted
   * @param {(text: string) => void} [seen] */
  watch(reader, wanted, seen = () => {}) {
    return new Promise((resolve) => {
      this.resolve = resolve;
      const look = async () => {
        if (this.stopped) return;
        let text = null;
        try {
          text = await reader.read(this.video);
        } catch {
          text = null; // a frame not ready yet
        }
        if (this.stopped) return;
        if (text && wanted(text)) {
          resolve(text); // first: stop() would settle it with null
          this.stop();
          return;
        }
        if (text) seen(text);
        this.timer = setTimeout(look, EVERY_MS);
      };
      look();
    });
  }

  stop() {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    for (const track of this.stream.getTracks()) track.stop();
    this.video.srcObject = null;
    this.resolve?.(null);
  }
}
