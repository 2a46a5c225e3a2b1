/**
 * Calling tools from the generated form, against the real servers: text, an image, progress and
 * cancel, an elicitation answered in the page, the approval prompt of a destructive tool (approve
 * and deny, checked on disk), and a validation error shown at its field before anything is sent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { UiLogEntry } from '../src/ui-api.js';
import { findAccessibilityViolations, formatViolations } from './accessibility.js';
import { useUiHarness } from './ui-harness.js';
import { apiRequest } from './ui-http.js';
import { expectText, field, LIVE_TIMEOUT_MS, resultRegion, toolHash, visibleText } from './ui-page.js';

describe('switchboard ui: calls', () => {
  const harness = useUiHarness();

  async function openTool(server: string, tool: string): Promise<Page> {
    const page = await harness.open(toolHash(server, tool));
    await page.getByRole('button', { name: 'Call tool', exact: true }).waitFor({ timeout: LIVE_TIMEOUT_MS });
    return page;
  }

  it('calls echo through the generated form and shows the text in the Result region', async () => {
    const page = await openTool('everything', 'echo');
    harness.readmeImage('ui-call');
    await field(page, 'message').fill('hello from chromium');
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    await expectText(resultRegion(page), /Echo: hello from chromium/);
  });

  it('renders get-tiny-image as an image that has loaded', async () => {
    const page = await openTool('everything', 'get-tiny-image');
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    const image = resultRegion(page).getByRole('img', { name: 'image result' }).first();
    await image.waitFor({ timeout: LIVE_TIMEOUT_MS });
    await expect
      .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth), {
        timeout: LIVE_TIMEOUT_MS,
      })
      .toBeGreaterThan(0);
    expect(await image.evaluate((element) => (element as HTMLImageElement).complete)).toBe(true);
  });

  it('shows the progress of trigger-long-running-operation and cancels it', async () => {
    const page = await openTool('everything', 'trigger-long-running-operation');
    // 20 steps of 1 s: long enough to see progress and cancel well before the end.
    await field(page, 'duration').fill('20');
    await field(page, 'steps').fill('20');
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    const progress = page.getByRole('progressbar', { name: 'Progress' });
    await progress.waitFor({ timeout: LIVE_TIMEOUT_MS });
    await expect
      .poll(
        async () =>
          Number((await progress.getAttribute('aria-valuenow')) ?? (await progress.getAttribute('value'))),
        {
          timeout: LIVE_TIMEOUT_MS,
        },
      )
      .toBeGreaterThanOrEqual(1);
    await page.getByRole('button', { name: 'Cancel call', exact: true }).click();
    await expectText(resultRegion(page), /cancelled/i);
    expect(await visibleText(resultRegion(page))).not.toMatch(/Long running operation completed/);
    // The server was told: notifications/cancelled went out on the wire.
    await expect
      .poll(
        async () =>
          (await apiRequest<UiLogEntry[]>(harness.ui, 'GET', '/api/log')).filter(
            (entry) => entry.direction === 'out' && entry.method === 'notifications/cancelled',
          ).length,
        { timeout: LIVE_TIMEOUT_MS },
      )
      .toBeGreaterThan(0);
  });

  it('answers the elicitation of trigger-elicitation-request in the page', async () => {
    const page = await openTool('everything', 'trigger-elicitation-request');
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    const submit = page.getByRole('button', { name: 'Submit', exact: true });
    await submit.waitFor({ timeout: LIVE_TIMEOUT_MS });
    // The form generated from the server's requestedSchema is checked too, while it is open.
    const violations = await findAccessibilityViolations(page);
    expect(violations, formatViolations('Elicitation form', violations)).toEqual([]);
    await field(page, 'name').fill('Ada Lovelace');
    await submit.click();
    await expectText(resultRegion(page), /Name: Ada Lovelace/);
    expect(await visibleText(resultRegion(page))).toMatch(/User provided the requested information/);
  });

  it('asks approval for a destructive tool: Approve runs it', async () => {
    const target = join(harness.config.dataDir, 'approved.txt');
    const page = await openTool('files', 'write_file');
    await field(page, 'path').fill(target);
    await field(page, 'content').fill('written after approval');
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    await approve.waitFor({ timeout: LIVE_TIMEOUT_MS });
    // Nothing has run while the question is open.
    expect(existsSync(target)).toBe(false);
    const violations = await findAccessibilityViolations(page);
    expect(violations, formatViolations('Approval prompt', violations)).toEqual([]);
    await approve.click();
    await expectText(resultRegion(page), /Successfully wrote/i);
    expect(readFileSync(target, 'utf8')).toBe('written after approval');
  });

  it('asks approval for a destructive tool: Deny refuses it', async () => {
    const target = join(harness.config.dataDir, 'denied.txt');
    const page = await openTool('files', 'write_file');
    await field(page, 'path').fill(target);
    await field(page, 'content').fill('never written');
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    const deny = page.getByRole('button', { name: 'Deny', exact: true });
    await deny.waitFor({ timeout: LIVE_TIMEOUT_MS });
    await deny.click();
    await expectText(resultRegion(page), /refused|denied/i);
    expect(existsSync(target)).toBe(false);
  });

  /** How many `tools/call` requests for `tool` went out to a server so far (from the protocol log). */
  async function callsSent(tool: string): Promise<number> {
    const log = await apiRequest<UiLogEntry[]>(harness.ui, 'GET', '/api/log');
    return log.filter(
      (entry) =>
        entry.direction === 'out' &&
        entry.method === 'tools/call' &&
        (entry.message as { params?: { name?: string } }).params?.name === tool,
    ).length;
  }

  /** The text of the messages tied to a field (aria-describedby / aria-errormessage). */
  function fieldMessages(page: Page, property: string): Promise<string> {
    return field(page, property).evaluate((input) => {
      const ids = `${input.getAttribute('aria-describedby') ?? ''} ${input.getAttribute('aria-errormessage') ?? ''}`;
      return ids
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
    });
  }

  it('shows a validation error at the field and sends nothing: a required field left empty', async () => {
    const page = await openTool('everything', 'get-sum');
    const before = await callsSent('get-sum');
    // `a` is required and left empty; `b` is given.
    await field(page, 'b').fill('2');
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    await expect
      .poll(() => field(page, 'a').getAttribute('aria-invalid'), { timeout: LIVE_TIMEOUT_MS })
      .toBe('true');
    expect(await fieldMessages(page, 'a')).toMatch(/required|missing/i);
    expect(await field(page, 'b').getAttribute('aria-invalid')).not.toBe('true');
    expect(await visibleText(resultRegion(page))).not.toMatch(/The sum of/);
    expect(await callsSent('get-sum')).toBe(before);
  });

  it('shows a validation error at the field and sends nothing: a value of the wrong type (Raw JSON)', async () => {
    // A number box takes no text, so the wrong type goes in through the raw-JSON mode.
    const page = await openTool('everything', 'get-sum');
    const before = await callsSent('get-sum');
    await page.getByRole('button', { name: 'Raw JSON', exact: true }).click();
    await field(page, 'Arguments (JSON)').fill('{ "a": "three", "b": 2 }');
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    const box = field(page, 'Arguments (JSON)');
    await expect.poll(() => box.getAttribute('aria-invalid'), { timeout: LIVE_TIMEOUT_MS }).toBe('true');
    const message = await fieldMessages(page, 'Arguments (JSON)');
    expect(message).toContain('/a');
    expect(message).toMatch(/number/i);
    expect(message).not.toContain('/b');
    expect(await visibleText(resultRegion(page))).not.toMatch(/The sum of/);
    expect(await callsSent('get-sum')).toBe(before);
  });

  it('the tool page with its call form has no serious or critical accessibility violations', async () => {
    const page = await openTool('everything', 'echo');
    await field(page, 'message').fill('axe');
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    await expectText(resultRegion(page), /Echo: axe/);
    const violations = await findAccessibilityViolations(page);
    expect(violations, formatViolations('Tool page', violations)).toEqual([]);
  });
});
