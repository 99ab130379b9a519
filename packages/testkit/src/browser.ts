import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { testDriver } from './test-env.ts';

/** Where every browser test saves its screenshots (a CI artifact). */
export const SCREENSHOTS_DIR = 'test-results/screenshots';

/** The two sizes every page is checked at: a phone (390×844) and a desktop (1280×800). */
export const SCREEN_SIZES = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const satisfies Record<string, BrowserContextOptions>;

/** Debian's `chromium` as `command -v chromium` finds it; never a downloaded browser. */
function systemChromium(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'chromium');
    if (dir && existsSync(candidate)) return candidate;
  }
  throw new Error('chromium is not on PATH: install Debian’s chromium package (scripts/ensure-services.sh does, as root).');
}

/** The system Chromium, headless, with the flags these machines need. */
export function launchTestBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  return chromium.launch({
    executablePath: systemChromium(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** A new context whose CSP violations and page errors are collected in `problems` (a test expects none). */
export async function openWatchedContext(
  browser: Browser,
  options: BrowserContextOptions,
): Promise<{ context: BrowserContext; problems: string[] }> {
  const context = await browser.newContext(options);
  const problems: string[] = [];
  context.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  context.on('weberror', (error) => problems.push(String(error.error())));
  return { context, problems };
}

/** Saves a full-page screenshot as `test-results/screenshots/<driver>-<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOTS_DIR}/${testDriver()}-${name}.png`, fullPage: true });
}

/**
 * True when nothing scrolls sideways: the page is no wider than the layout viewport. Measured
 * against `clientWidth`, not `innerWidth`: a mobile viewport widens `innerWidth` to fit content
 * that is too wide, so a check against it could never fail at phone size.
 */
export function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
}

/**
 * What sticks out sideways: the page's scroll width, the layout viewport's width (`clientWidth`;
 * a mobile viewport widens `innerWidth` to fit content that is too wide, so that would hide it)
 * and each element whose box reaches past either edge, as `tag.class (left–right)`.
 */
export function sidewaysOverflow(page: Page): Promise<{ width: number; scrollWidth: number; elements: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const elements = [...document.body.querySelectorAll('*')].flatMap((element) => {
      const box = element.getBoundingClientRect();
      if (box.right <= width + 0.5 && box.left >= -0.5) return [];
      const name = `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).replace(/ /g, '.')}` : ''}`;
      return [`${name} (${Math.round(box.left)}–${Math.round(box.right)})`];
    });
    return { width, scrollWidth: document.documentElement.scrollWidth, elements };
  });
}

/** The WCAG 2.2 A and AA rules axe-core checks (and its best practices are left out: they are not WCAG). */
const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The WCAG 2.2 AA violations axe-core finds on the page as it is now, one line each (rule, the
 * elements, the help text): a test expects `[]`. Contrast is checked in the colour scheme the
 * context emulates, so a test runs it in light and dark.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const { AxeBuilder } = await import('@axe-core/playwright');
  const results = await new AxeBuilder({ page }).withTags(WCAG_AA_TAGS).analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}
