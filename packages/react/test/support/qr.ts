/**
 * Read back a QR code the kit drew: the SVG path's dark runs (`M x y h n v1 h-n z`, one module
 * per unit) are painted into an RGBA image, 4 pixels per module, which an independent decoder
 * (paulmillr's `qr/decode.js`, a test-only dependency) reads as a camera frame would be.
 */
import decodeQR from 'qr/decode.js';

export function decodeSvgQr(svg: SVGSVGElement): string {
  const modules = Number(svg.getAttribute('viewBox')!.split(' ')[2]);
  const scale = 4;
  const width = modules * scale;
  const data = new Uint8Array(width * width * 4).fill(255);
  const d = svg.querySelector('path')!.getAttribute('d')!;
  for (const [, x, y, run] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let px = Number(x) * scale; px < (Number(x) + Number(run)) * scale; px++) {
      for (let py = Number(y) * scale; py < (Number(y) + 1) * scale; py++) data.fill(0, (py * width + px) * 4, (py * width + px) * 4 + 3);
    }
  }
  return decodeQR({ width, height: width, data });
}
