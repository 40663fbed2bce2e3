/**
 * axe-core 4 (through @axe-core/playwright) on a screen as it is shown: every WCAG 2.0–2.2 A/AA rule and
 * axe's best practices. A violation is reported with its rule, its impact and the first elements it
 * names, so a failing test says where to look.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export interface ScreenViolation {
  screen: string;
  rule: string;
  impact: string;
  targets: string[];
}

export async function axeViolations(page: Page, screen: string): Promise<ScreenViolation[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations.map((violation) => ({
    screen,
    rule: violation.id,
    impact: violation.impact ?? 'unknown',
    targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
  }));
}

/** One line per violation, for the failure message. */
export function describeViolations(violations: readonly ScreenViolation[]): string {
  return violations.map((v) => `${v.screen}: ${v.rule} (${v.impact}) at ${v.targets.join(' | ')}`).join('\n');
}
