import { create } from 'qrcode';

/** White modules around the code, as the QR standard asks for a clean read. */
const QUIET_ZONE = 2;

/**
 * The dark modules of a QR code as one SVG path: one rectangle per horizontal run, so a link's
 * code is a few kilobytes. Pure geometry from the matrix: nothing from the text reaches the markup.
 */
export function qrPath(text: string): { size: number; d: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const parts: string[] = [];
  for (let row = 0; row < n; row += 1) {
    let col = 0;
    while (col < n) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < n && modules.get(row, col)) col += 1;
      parts.push(`M${start + QUIET_ZONE} ${row + QUIET_ZONE}h${col - start}v1h${start - col}z`);
    }
  }
  return { size: n + 2 * QUIET_ZONE, d: parts.join('') };
}

/**
 * A QR code of `text` as inline SVG, server-rendered (works without JavaScript). Colours are
 * presentation attributes, not `style`, so the strict CSP (no inline styles) allows it.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, d } = qrPath(text);
  return (
    <svg
      class="qr"
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shape-rendering="crispEdges"
    >
      <rect width={String(size)} height={String(size)} fill="#ffffff" />
      <path d={d} fill="#000000" />
    </svg>
  );
}
