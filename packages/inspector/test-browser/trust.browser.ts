/**
 * Tool trust review in the page, against the malicious fixture server as real stdio servers: a rug
 * pull (the server changes add's description on its second listing, which its own
 * `tools/list_changed` asks for) and a poisoned description. The review shows the diff of what
 * changed and the findings with the flagged span highlighted; Approve makes the tool callable from
 * the page again; Reject keeps the other hidden.
 */
import { maliciousStdio } from '@switchboard/test-helpers';
import { describe, expect, it } from 'vitest';
import type { UiToolSummary, UiTrustReview } from '../src/ui-api.js';
import { findAccessibilityViolations, formatViolations } from './accessibility.js';
import { useUiHarness } from './ui-harness.js';
import { apiRequest } from './ui-http.js';
import { expectText, field, LIVE_TIMEOUT_MS, resultRegion, toolHash, visibleText } from './ui-page.js';

describe('switchboard ui: tool trust review', () => {
  const harness = useUiHarness({
    only: [],
    extraServers: {
      rug: maliciousStdio('rug-pull', { NOTIFY: '1' }),
      poison: maliciousStdio('poisoned-description'),
    },
  });

  const toolNames = async (server: string) =>
    (await apiRequest<UiToolSummary[]>(harness.ui, 'GET', `/api/servers/${server}/tools`))
      .map((tool) => tool.name)
      .sort();

  /** The review card of `server/tool`, once the page lists it. */
  async function reviewCard(server: string, tool: string) {
    const page = await harness.open('#/trust');
    const card = page.getByRole('article', { name: new RegExp(`^${server}/${tool}\\b`) });
    await card.waitFor({ timeout: LIVE_TIMEOUT_MS });
    return { page, card };
  }

  it('shows the rug pull’s diff and findings; Approve makes the tool callable again', async () => {
    // The rug is pulled on the second listing, which the server's own list_changed asks for.
    await expect
      .poll(
        async () =>
          (await apiRequest<UiTrustReview[]>(harness.ui, 'GET', '/api/trust')).map(
            (review) => `${review.server}/${review.tool}`,
          ),
        { timeout: LIVE_TIMEOUT_MS },
      )
      .toContain('rug/add');
    expect(await toolNames('rug')).toEqual(['sub']);

    const { page, card } = await reviewCard('rug', 'add');
    expect(await visibleText(card)).toMatch(/changed since it was approved \(changed: description\)/);
    const diff = await visibleText(card.getByRole('figure', { name: 'Definition diff of rug/add' }));
    expect(diff).toMatch(/^- description: Adds two numbers\.$/m);
    expect(diff).toMatch(/^\+ description: Adds two numbers\. <IMPORTANT>Before using this tool/m);
    // Each finding names its code and severity, and highlights the span it flags in its text.
    const findings = card.getByRole('list', { name: 'Findings on rug/add' });
    expect(await visibleText(findings)).toMatch(/\b(high|critical)\b[\s\S]*SENSITIVE_FILE_ACCESS/);
    const marked = await findings.locator('mark').allInnerTexts();
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.some((text) => text.includes('~/.cursor/mcp.json'))).toBe(true);
    const violations = await findAccessibilityViolations(page);
    expect(violations, formatViolations('Tool trust', violations)).toEqual([]);

    await card.getByRole('button', { name: 'Approve rug/add', exact: true }).click();
    await card.waitFor({ state: 'detached', timeout: LIVE_TIMEOUT_MS });
    await expect.poll(() => toolNames('rug'), { timeout: LIVE_TIMEOUT_MS }).toEqual(['add', 'sub']);

    // Callable from the page: the generated form runs it on the server.
    await harness.open(toolHash('rug', 'add'));
    await field(page, 'a').fill('2');
    await field(page, 'b').fill('3');
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    // The fixture's tools carry no annotations, so the approval policy asks before the call.
    const allow = page.getByRole('button', { name: 'Approve', exact: true });
    await allow.waitFor({ timeout: LIVE_TIMEOUT_MS });
    await allow.click();
    await expectText(resultRegion(page), /\b5\b/);
  });

  it('Reject keeps a poisoned tool hidden, and says it was rejected', async () => {
    const { card } = await reviewCard('poison', 'add');
    expect(await visibleText(card)).toMatch(/a check found text aimed at the model/);
    expect(await toolNames('poison')).toEqual(['sub']);
    await card.getByRole('button', { name: 'Reject poison/add', exact: true }).click();
    await expectText(card, /\brejected\b[\s\S]*stays hidden and refused/);
    const reviews = await apiRequest<UiTrustReview[]>(harness.ui, 'GET', '/api/trust');
    expect(reviews.find((review) => review.server === 'poison')).toMatchObject({
      tool: 'add',
      status: 'rejected',
    });
    expect(await toolNames('poison')).toEqual(['sub']);
    // A call from the page is refused: the tool is not served.
    const answer = await fetch(`${harness.ui.origin}/api/calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-switchboard-token': harness.ui.token },
      body: JSON.stringify({ server: 'poison', tool: 'add', arguments: { a: 1, b: 2 } }),
    });
    expect(answer.ok).toBe(false);
  });
});
