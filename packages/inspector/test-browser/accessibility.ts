/**
 * axe-core run inside the page: the accessibility check of each main view. Only `serious` and
 * `critical` violations fail a test (the bar); each is returned with the rule, its help
 * text and the offending elements so that a failure says what to fix.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeScript = require.resolve('axe-core/axe.min.js');
let axeSource: string | undefined;

/** One serious or critical axe violation, reduced to what a reader needs. */
export interface AccessibilityViolation {
  rule: string;
  impact: string;
  help: string;
  /** CSS selectors of the elements at fault, with their HTML (cut short). */
  nodes: Array<{ target: string; html: string }>;
}

interface AxeResults {
  violations: Array<{
    id: string;
    impact?: string | null;
    help: string;
    nodes: Array<{ target: unknown[]; html: string }>;
  }>;
}

/** Runs axe over the whole document as it is now and returns its serious and critical violations. */
export async function findAccessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  // Evaluated through the DevTools protocol rather than added as a <script>: the page's
  // Content-Security-Policy (script-src 'self') rightly refuses inline scripts, and bypassing CSP
  // for the whole test would hide a page that only works without it. Once per document.
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= readFileSync(axeScript, 'utf8');
    await page.evaluate(axeSource);
  }
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run(): Promise<unknown> } }).axe.run(),
  )) as AxeResults;
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      nodes: violation.nodes.map((node) => ({
        target: node.target.map(String).join(' '),
        html: node.html.length > 200 ? `${node.html.slice(0, 200)}…` : node.html,
      })),
    }));
}

/** A readable list of violations, for a test's failure message. */
export function formatViolations(view: string, violations: AccessibilityViolation[]): string {
  const lines = violations.flatMap((violation) => [
    `${view}: [${violation.impact}] ${violation.rule}: ${violation.help}`,
    ...violation.nodes.map((node) => `    ${node.target}  ${node.html}`),
  ]);
  return lines.join('\n');
}
