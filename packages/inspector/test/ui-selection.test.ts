/**
 * The selection playground and the metrics over real HTTP: the tool selector's ranking of the
 * connected tools (longer than k, the threshold, alwaysInclude, tokens), a dataset folder in the
 * benchmark format, and calls counted per tool — this run's, and earlier runs' from the host.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { everythingStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UiCallStarted, UiErrorBody, UiMetrics, UiSelection } from '../src/ui-api.js';
import { createSandbox, eventOf, startUi, type UiHarness } from './inspector-harness.js';

const servers = {
  everything: everythingStdio(),
};
const sandbox = createSandbox();
let ui: UiHarness;

beforeAll(async () => {
  ui = await startUi(servers, { sandbox });
});
afterAll(async () => {
  await ui?.close();
  sandbox.cleanup();
});

describe('switchboard ui: the selection playground', () => {
  it('ranks get-sum first for "add two numbers", past k, with the line and the tokens saved', async () => {
    const { status, body } = await ui.api<UiSelection>('POST', '/api/select', {
      query: 'add two numbers',
      k: 3,
    });
    expect(status).toBe(200);
    expect(body.ranking[0]).toMatchObject({ originalName: 'get-sum', server: 'everything', selected: true });
    expect(body.ranking.length).toBeGreaterThan(3);
    expect(body.selectedCount).toBe(3);
    expect(body.ranking.filter((tool) => tool.selected)).toHaveLength(3);
    expect(body.ranking[3]?.selected).toBe(false);
    expect(body.minScore).toBe(0);
    expect(body.ranking[0]?.lexicalRank).toBeDefined();
    expect(body.tokens.selectedTools).toBe(3);
    expect(body.tokens.selectedTokens).toBeLessThan(body.tokens.totalTokens);
    expect(body.tokens.savedTokens).toBe(body.tokens.totalTokens - body.tokens.selectedTokens);
    expect(body.embedder ?? body.denseUnavailable).toBeDefined();
  });

  it('draws the line at minScore, keeps alwaysInclude, and ranks by one signal when asked', async () => {
    const first = (await ui.api<UiSelection>('POST', '/api/select', { query: 'add two numbers' })).body;
    const top = first.ranking[0]?.score ?? 0;
    const strict = (
      await ui.api<UiSelection>('POST', '/api/select', {
        query: 'add two numbers',
        minScore: top + 1,
        alwaysInclude: ['mcp__everything__echo'],
      })
    ).body;
    expect(strict.selectedCount).toBe(1);
    expect(strict.ranking.find((tool) => tool.selected)).toMatchObject({
      name: 'mcp__everything__echo',
      alwaysIncluded: true,
    });
    expect(strict.ranking.some((tool) => tool.originalName === 'get-sum' && !tool.selected)).toBe(true);
    const lexical = (
      await ui.api<UiSelection>('POST', '/api/select', { query: 'add two numbers', signals: 'lexical' })
    ).body;
    expect(lexical.ranking[0]?.originalName).toBe('get-sum');
    expect(lexical.ranking.every((tool) => tool.denseRank === undefined)).toBe(true);
    const bad = await ui.api<UiErrorBody>('POST', '/api/select', { query: '' });
    expect(bad.status).toBe(400);
  });

  it('ranks the tools of a dataset folder instead, and says what is wrong with a bad one', async () => {
    const folder = join(sandbox.root, 'dataset');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'tools.jsonl'),
      [
        { name: 'weather_forecast', description: 'Get the weather forecast for a city' },
        { name: 'currency_convert', description: 'Convert an amount of money between currencies' },
        { name: 'translate_text', description: 'Translate text into another language' },
      ]
        .map((tool) => JSON.stringify(tool))
        .join('\n'),
    );
    writeFileSync(
      join(folder, 'queries.jsonl'),
      `${JSON.stringify({ query: 'q', expected: ['translate_text'] })}\n`,
    );
    const { body } = await ui.api<UiSelection>('POST', '/api/select', {
      query: 'convert dollars to euros',
      dataset: folder,
    });
    expect(body.ranking[0]).toMatchObject({ originalName: 'currency_convert', server: 'dataset' });
    expect(body.tokens.totalTools).toBe(3);
    const missing = await ui.api<UiErrorBody>('POST', '/api/select', {
      query: 'x',
      dataset: join(sandbox.root, 'none'),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'UI_DATASET_INVALID' });
    expect(missing.body.error.message).toContain('tools.jsonl');
    // The connected tools are still there to rank.
    const live = (await ui.api<UiSelection>('POST', '/api/select', { query: 'add two numbers' })).body;
    expect(live.ranking[0]?.originalName).toBe('get-sum');
  });
});

describe('switchboard ui: metrics', () => {
  it('counts calls per tool, samples latency over time, and adds the host’s earlier runs', async () => {
    const events = await ui.events();
    for (const message of ['one', 'two']) {
      const started = (
        await ui.api<UiCallStarted>('POST', '/api/calls', {
          server: 'everything',
          tool: 'echo',
          arguments: { message },
        })
      ).body;
      await events.next(eventOf('call-end', (event) => event.call.callId === started.callId));
    }
    const metrics = (await ui.api<UiMetrics>('GET', '/api/metrics')).body;
    expect(metrics.toolCalls).toContainEqual(
      expect.objectContaining({ server: 'everything', tool: 'echo', calls: 2 }),
    );
    await events.next(
      eventOf('servers', (event) =>
        event.servers.some((server) => server.name === 'everything' && server.calls === 2),
      ),
    );
    // The sampler runs on its own beat (200 ms here) and publishes a sample only when the servers'
    // list changed, which it no longer does: no event tells of the sample that saw both calls, so
    // the series is read until it holds one.
    const sampled = (series: UiMetrics['series']) =>
      series.find((item) => item.servers.everything?.calls === 2);
    const sample = await vi.waitFor(
      async () => {
        const found = sampled((await ui.api<UiMetrics>('GET', '/api/metrics')).body.series);
        if (!found) throw new Error('no sample of the metrics has seen both calls yet');
        return found;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(sample?.servers.everything?.p50).toBeGreaterThanOrEqual(0);

    // A second run whose host kept this run's calls (a registry store) shows them beside its own.
    await ui.close();
    ui = await startUi(servers, {
      sandbox,
      host: {
        storedUsage: async () => [
          {
            server: 'everything',
            tool: 'echo',
            publicName: 'mcp__everything__echo',
            calls: 2,
            errors: 0,
            latencySamples: 0,
          },
        ],
      },
    });
    const next = (await ui.api<UiMetrics>('GET', '/api/metrics')).body;
    expect(next.toolCalls).toContainEqual(
      expect.objectContaining({ server: 'everything', tool: 'echo', calls: 0, storedCalls: 2 }),
    );
  });
});
