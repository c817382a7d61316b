import { encode } from 'uqr';

/** Props of {@link QrCode}. */
export interface QrCodeProps {
  /** The text encoded (an address). */
  value: string;
  /** The image's accessible name. */
  label: string;
  /** Width and height in CSS pixels. */
  size?: number | undefined;
}

/**
 * A QR code as an SVG drawn by React from the module matrix (no markup string, no innerHTML):
 * one path of dark runs, black on white whatever the theme (scanners need dark on light), with
 * the 4-module quiet zone ISO/IEC 18004 asks for, error correction M.
 * @example <QrCode value={address} label={`QR code of ${address}`} />
 */
export function QrCode({ value, label, size = 176 }: QrCodeProps) {
  const { data, size: modules } = encode(value, { ecc: 'M', border: 4 });
  let d = '';
  data.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      let run = 1;
      while (row[x + run]) run++;
      d += `M${x} ${y}h${run}v1h-${run}z`;
      x += run - 1;
    }
  });
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${modules} ${modules}`} width={size} height={size} shapeRendering="crispEdges" data-testid="wk-qr">
      <rect width={modules} height={modules} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
