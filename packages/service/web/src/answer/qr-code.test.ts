import { create } from 'qrcode';
import { describe, expect, it } from 'vitest';
import { renderAnswerPage } from './answer-page.tsx';
import { commitSurface, openView } from './fixtures.ts';
import { qrPath } from './qr-code.tsx';

const LINK = `https://links.example.test/s/${'T'.repeat(43)}`;

/** Paints the path's rectangles (`M x y h w v1 h-w z`) back onto a grid. */
function paint(d: string, size: number): boolean[][] {
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const [, x, y, w] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let i = 0; i < Number(w); i += 1) {
      const row = grid[Number(y)];
      if (!row || row[Number(x) + i]) throw new Error('overlapping or out-of-range run');
      row[Number(x) + i] = true;
    }
  }
  return grid;
}

describe('the QR code of a link', () => {
  it('draws exactly the dark modules of the code for that text, inside a 2-module quiet zone', () => {
    const { size, d } = qrPath(LINK);
    const { modules } = create(LINK, { errorCorrectionLevel: 'M' });
    expect(size).toBe(modules.size + 4);
    const grid = paint(d, size);
    for (let row = 0; row < size; row += 1) {
      for (let col = 0; col < size; col += 1) {
        const inside = row >= 2 && col >= 2 && row < size - 2 && col < size - 2;
        const expected = inside ? Boolean(modules.get(row - 2, col - 2)) : false;
        expect(grid[row]?.[col], `module ${row},${col}`).toBe(expected);
      }
    }
  });

  it('differs for another link, so the code is of this page and no other', () => {
    expect(qrPath(LINK).d).not.toBe(qrPath(`${LINK.slice(0, -1)}U`).d);
  });

  it('is inline SVG with colours as attributes: no style attribute, no script, nothing fetched', () => {
    const html = renderAnswerPage(openView(commitSurface(), { link: LINK }), 'bm9uY2U=');
    const svg = /<svg class="qr"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
    expect(svg).toContain(`viewBox="0 0 ${qrPath(LINK).size} ${qrPath(LINK).size}"`);
    expect(svg).toContain('role="img" aria-label="QR code of this page’s link"');
    expect(svg).not.toMatch(/style=|<script|href=|<image/);
    expect(html).not.toMatch(/\sstyle=/);
  });
});
