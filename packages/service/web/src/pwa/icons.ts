import { deflateSync } from 'node:zlib';

/**
 * Sess's mark: a white speech bubble with three dots (a question waiting for its answer) on the
 * accent blue, edge to edge so a launcher may mask it to any shape (everything drawn sits inside
 * the central 80 % circle a maskable icon keeps). The SVG and the PNGs draw the same shapes.
 */
const ACCENT = [0x1d, 0x4e, 0xd8] as const;
const WHITE = [0xff, 0xff, 0xff] as const;

/** In units of the icon's side (0..1). */
const BUBBLE = { left: 0.22, top: 0.26, right: 0.78, bottom: 0.64, radius: 0.1 };
const TAIL: [number, number][] = [
  [0.32, 0.6],
  [0.32, 0.77],
  [0.47, 0.62],
];
const DOTS = [0.36, 0.5, 0.64].map((x) => ({ x, y: 0.45, r: 0.045 }));

export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" role="img" aria-label="Sess">
<rect width="100" height="100" fill="#1d4ed8"/>
<rect x="22" y="26" width="56" height="38" rx="10" fill="#fff"/>
<path d="M32 60 L32 77 L47 62 Z" fill="#fff"/>
${DOTS.map((d) => `<circle cx="${d.x * 100}" cy="${d.y * 100}" r="${d.r * 100}" fill="#1d4ed8"/>`).join('\n')}
</svg>
`;

function inRoundedRect(x: number, y: number): boolean {
  const { left, top, right, bottom, radius } = BUBBLE;
  if (x < left || x > right || y < top || y > bottom) return false;
  const cx = Math.min(Math.max(x, left + radius), right - radius);
  const cy = Math.min(Math.max(y, top + radius), bottom - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

function inTriangle(x: number, y: number): boolean {
  const [[ax, ay], [bx, by], [cx, cy]] = TAIL as [[number, number], [number, number], [number, number]];
  const side = (px: number, py: number, qx: number, qy: number) => (x - qx) * (py - qy) - (px - qx) * (y - qy);
  const d1 = side(ax, ay, bx, by);
  const d2 = side(bx, by, cx, cy);
  const d3 = side(cx, cy, ax, ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
}

/** True where the mark is white. */
function isWhite(x: number, y: number): boolean {
  if (DOTS.some((d) => (x - d.x) ** 2 + (y - d.y) ** 2 <= d.r ** 2)) return false;
  return inRoundedRect(x, y) || inTriangle(x, y);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The mark as an opaque RGB PNG `size` pixels square, edges smoothed by 4×4 supersampling. */
export function renderIconPng(size: number): Buffer {
  const SAMPLES = 4;
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let py = 0; py < size; py++) {
    const row = py * (1 + size * 3);
    rows[row] = 0; // filter: none
    for (let px = 0; px < size; px++) {
      let white = 0;
      for (let sy = 0; sy < SAMPLES; sy++)
        for (let sx = 0; sx < SAMPLES; sx++)
          if (isWhite((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size)) white++;
      const share = white / (SAMPLES * SAMPLES);
      for (let channel = 0; channel < 3; channel++)
        rows[row + 1 + px * 3 + channel] = Math.round(
          (ACCENT[channel] as number) * (1 - share) + (WHITE[channel] as number) * share,
        );
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
