/**
 * A small WCAG 2 contrast check for the screens a medic reads in a moving ambulance: every visible piece
 * of text on the page, its colour composited over the backgrounds behind it, against the AA ratio (4.5:1,
 * or 3:1 for large text). Disabled controls are exempt, as WCAG says. It catches text that inherits a
 * colour meant for another surface (white on white), which role-based checks cannot see.
 *
 * `{ minimum: 7 }` holds every text under the scope to 7:1 whatever its size (issue 16: the key texts of
 * the case screen and the board, read in sunlight through a windscreen or across an ED — WCAG's AAA level
 * for body text, applied to large text too). `exempt` is a CSS selector of elements whose colours the
 * check does not judge (their text included): colours that come from data under a rule the spec fixes.
 */
import type { Locator, Page } from '@playwright/test';

export interface LowContrastText {
  text: string;
  ratio: number;
  required: number;
  color: string;
  background: string;
}

/** Text under `scope` (the whole page by default) that fails WCAG AA contrast. */
export async function lowContrastTexts(
  page: Page,
  scope?: Locator,
  { minimum, exempt }: { minimum?: number; exempt?: string } = {},
): Promise<LowContrastText[]> {
  const root = scope ? await scope.elementHandle() : await page.evaluateHandle(() => document.body);
  return root!.evaluate(
    (
      rootElement: Element,
      { minimumRatio, exemptSelector }: { minimumRatio: number | null; exemptSelector: string | null },
    ) => {
      type Rgba = { r: number; g: number; b: number; a: number };
      const parse = (css: string): Rgba | null => {
        const match = /rgba?\(([^)]+)\)/.exec(css);
        if (!match) return null;
        const [r = 0, g = 0, b = 0, a = 1] = match[1]!
          .split(/[\s,/]+/)
          .filter(Boolean)
          .map(Number);
        return { r, g, b, a };
      };
      const over = (top: Rgba, bottom: Rgba): Rgba => ({
        r: top.r * top.a + bottom.r * (1 - top.a),
        g: top.g * top.a + bottom.g * (1 - top.a),
        b: top.b * top.a + bottom.b * (1 - top.a),
        a: 1,
      });
      const luminance = ({ r, g, b }: Rgba) => {
        const channel = (v: number) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
      };
      // The colour behind an element, or null when an image or gradient is behind it (not judged here).
      const backgroundOf = (element: Element): Rgba | null => {
        const layers: Rgba[] = [];
        for (let node: Element | null = element; node; node = node.parentElement) {
          const style = getComputedStyle(node);
          const color = parse(style.backgroundColor);
          if (color && color.a > 0) layers.push(color);
          if (color && color.a >= 1) break;
          if (style.backgroundImage !== 'none') return null;
        }
        return layers.reduceRight<Rgba>((below, layer) => over(layer, below), { r: 255, g: 255, b: 255, a: 1 });
      };
      const isDisabled = (element: Element) =>
        element.closest('[aria-disabled="true"], :disabled') !== null ||
        (element.closest('label') as HTMLLabelElement | null)?.control?.matches(':disabled') === true;

      const failures: LowContrastText[] = [];
      const all = [rootElement, ...rootElement.querySelectorAll('*')];
      for (const element of all) {
        const ownText = [...element.childNodes]
          .filter((node) => node.nodeType === Node.TEXT_NODE)
          .map((node) => node.textContent ?? '')
          .join('')
          .trim();
        if (!ownText) continue;
        const rect = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        if (rect.width <= 1 || rect.height <= 1 || style.visibility === 'hidden' || style.opacity === '0') continue;
        if (isDisabled(element)) continue;
        if (exemptSelector && element.closest(exemptSelector)) continue;
        const text = parse(style.color);
        if (!text) continue;
        const background = backgroundOf(element);
        if (!background) continue;
        const foreground = over(text, background);
        const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [number, number];
        const ratio = (light + 0.05) / (dark + 0.05);
        const size = parseFloat(style.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
        const required = minimumRatio ?? (large ? 3 : 4.5);
        if (ratio < required) {
          failures.push({
            text: ownText.slice(0, 60),
            ratio: Math.round(ratio * 100) / 100,
            required,
            color: style.color,
            background: `rgb(${Math.round(background.r)}, ${Math.round(background.g)}, ${Math.round(background.b)})`,
          });
        }
      }
      return failures;
    },
    { minimumRatio: minimum ?? null, exemptSelector: exempt ?? null },
  );
}
