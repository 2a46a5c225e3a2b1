/**
 * Skills (SEP-2640) through the gateway: SDK v2 upstreams of both eras serving skills with the
 * SDK's own extension, the gateway's own folder beside them, and the official SDK v2 client in
 * both eras downstream reading and verifying them with the SDK's `SkillsClient`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Skill, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { ClientError, ClientErrorCode, connectMcp } from '@switchboard/client';
import { serve } from '@switchboard/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway } from '../src/index.js';
import { startSkillsUpstream } from './fixtures/skills-upstream.js';
import type { WebHandlerHost } from './fixtures/web-handler-host.js';

const skillMd = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;

const alphaRefunds = {
  'SKILL.md': skillMd('refunds', 'Refunds the alpha way.', 'Read references/GUIDE.md first.'),
  'references/GUIDE.md': '# Alpha guide\n',
};
const betaRefunds = { 'SKILL.md': skillMd('refunds', 'Refunds the beta way.', 'Ask before refunding.') };
const tamperedSkill = {
  'SKILL.md': skillMd('audit', 'Audits a ledger.', 'Use the checklist.'),
  'checklist.md': '- totals\n',
};
const digestOf = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

const upstreams: WebHandlerHost[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
let url: string;
let folder: string;

beforeAll(async () => {
  const alpha = await startSkillsUpstream({ legacy: 'reject', skills: { refunds: alphaRefunds } });
  const beta = await startSkillsUpstream({ legacy: 'stateless', skills: { refunds: betaRefunds } });
  const tamper = await startSkillsUpstream({
    legacy: 'reject',
    skills: { audit: tamperedSkill },
    tampered: 'skill://audit/checklist.md',
  });
  upstreams.push(alpha, beta, tamper);
  // The gateway's own folder has a skill folder named like the upstream "alpha".
  folder = mkdtempSync(join(tmpdir(), 'gateway-skills-'));
  mkdirSync(join(folder, 'alpha'));
  writeFileSync(join(folder, 'alpha', 'SKILL.md'), skillMd('alpha', 'The local alpha skill.', 'Local.'));
  const gateway = await createGateway({
    config: {
      mcpServers: {
        alpha: { url: alpha.url },
        // A 2025-era upstream connection to a dual server.
        beta: { url: beta.url, protocolVersion: '2025-11-25' },
        tamper: { url: tamper.url },
      },
    },
    skills: { directory: folder },
  });
  cleanups.push(() => gateway.close());
  const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
  cleanups.push(() => handle.close());
  url = handle.url as string;
}, 60_000);

afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  await Promise.all(upstreams.map((upstream) => upstream.close()));
  rmSync(folder, { recursive: true, force: true });
});

async function downstream(era: 'modern' | 'legacy') {
  const client = new Client({ name: `skills-downstream-${era}`, version: '1.0.0' }, {
    ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
  } as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return { client, skills: new SkillsClient(client) };
}

const byUri = (skills: readonly Skill[]) => new Map(skills.map((skill) => [skill.uri, skill]));

describe.each(['modern', 'legacy'] as const)('skills through the gateway, %s downstream', (era) => {
  test('lists every origin under its own namespace, entries and digests unchanged', async () => {
    const { skills } = await downstream(era);
    expect(skills.supported).toBe(true);
    const listed = byUri((await skills.list()).skills);
    expect([...listed.keys()].sort()).toEqual([
      'skill://alpha-upstream/refunds/SKILL.md',
      'skill://alpha/SKILL.md',
      'skill://beta/refunds/SKILL.md',
      'skill://tamper/audit/SKILL.md',
    ]);
    // Same name and same upstream URI on two upstreams: two skills, their origin in the path.
    const alpha = listed.get('skill://alpha-upstream/refunds/SKILL.md');
    const beta = listed.get('skill://beta/refunds/SKILL.md');
    expect(alpha?.frontmatter).toEqual({ name: 'refunds', description: 'Refunds the alpha way.' });
    expect(beta?.frontmatter).toEqual({ name: 'refunds', description: 'Refunds the beta way.' });
    expect(alpha?._meta?.['switchboard/server']).toBe('alpha');
    expect(alpha?.resources).toEqual([
      {
        uri: 'skill://alpha-upstream/refunds/SKILL.md',
        digest: digestOf(alphaRefunds['SKILL.md']),
        size: Buffer.byteLength(alphaRefunds['SKILL.md']),
      },
      {
        uri: 'skill://alpha-upstream/refunds/references/GUIDE.md',
        digest: digestOf(alphaRefunds['references/GUIDE.md']),
        size: Buffer.byteLength(alphaRefunds['references/GUIDE.md']),
      },
    ]);
    expect(listed.get('skill://alpha/SKILL.md')?.frontmatter.name).toBe('alpha');
  });

  test('reads each file from its own upstream, verified by the downstream client', async () => {
    const { skills } = await downstream(era);
    const listed = byUri((await skills.list()).skills);
    const alpha = listed.get('skill://alpha-upstream/refunds/SKILL.md') as Skill;
    const manifest = await skills.read(alpha);
    expect(manifest.verified).toBe(true);
    expect(manifest.text).toBe(alphaRefunds['SKILL.md']);
    const guide = await skills.read(alpha, 'references/GUIDE.md');
    expect(guide.text).toBe(alphaRefunds['references/GUIDE.md']);
    const beta = await skills.read(listed.get('skill://beta/refunds/SKILL.md') as Skill);
    expect(beta.text).toBe(betaRefunds['SKILL.md']);
    const local = await skills.read(listed.get('skill://alpha/SKILL.md') as Skill);
    expect(local.frontmatter?.name).toBe('alpha');
    // skills/get by the served URI, without a listing on this side: the same entry.
    const got = await skills.get('skill://beta/refunds/SKILL.md');
    expect(got.skill).toEqual(listed.get('skill://beta/refunds/SKILL.md'));
  });

  test('lists a skill folder of each origin under the URIs served here (resources/directory/read)', async () => {
    const { skills } = await downstream(era);
    expect(skills.directoryRead).toBe(true);
    const alpha = await skills.readDirectory('skill://alpha-upstream/refunds');
    expect(alpha.resources).toEqual([
      {
        uri: 'skill://alpha-upstream/refunds/SKILL.md',
        name: 'SKILL.md',
        size: Buffer.byteLength(alphaRefunds['SKILL.md']),
      },
      { uri: 'skill://alpha-upstream/refunds/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    const references = await skills.readDirectory('skill://alpha-upstream/refunds/references');
    expect(references.resources.map((child) => child.uri)).toEqual([
      'skill://alpha-upstream/refunds/references/GUIDE.md',
    ]);
    // The local folder's skill too; a file is no directory (-32602).
    expect((await skills.readDirectory('skill://alpha')).resources.map((child) => child.name)).toEqual([
      'SKILL.md',
    ]);
    const notDirectory = await skills.readDirectory('skill://beta/refunds/SKILL.md').then(
      () => undefined,
      (error: unknown) => error as { code?: number },
    );
    expect(notDirectory?.code).toBe(-32602);
  });

  test('refuses a file whose bytes do not match the entry, naming the upstream, file and reason', async () => {
    const { client, skills } = await downstream(era);
    const audit = byUri((await skills.list()).skills).get('skill://tamper/audit/SKILL.md') as Skill;
    // SKILL.md is intact: served.
    expect((await skills.read(audit)).verified).toBe(true);
    const failure = await client.readResource({ uri: 'skill://tamper/audit/checklist.md' }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toContain('skill://audit/checklist.md');
    expect(failure?.message).toContain('"tamper"');
    expect(failure?.message).toContain('digest');
    expect((failure as { data?: { reason?: string } }).data?.reason).toBe('SKILL_INVALID');
  });
});

test('the Switchboard client verifies each file it reads and names the one that failed', async () => {
  const tamper = upstreams[2] as WebHandlerHost;
  const connection = await connectMcp({ tamper: { url: tamper.url } });
  cleanups.push(() => connection.close());
  const client = connection.client('tamper') ?? expect.fail('the upstream "tamper" is not connected');
  const [audit] = await client.listSkills();
  expect((await client.readSkill(audit as Skill)).verified).toBe(true);
  const failure = await client.readSkill(audit as Skill, 'checklist.md').then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(ClientError.isInstance(failure)).toBe(true);
  expect((failure as ClientError).code).toBe(ClientErrorCode.SkillInvalid);
  expect((failure as ClientError).context).toMatchObject({
    server: 'tamper',
    uri: 'skill://audit/checklist.md',
    reason: 'digest',
  });
});

test('a gateway told not to serve upstream skills serves only its folder', async () => {
  const gateway = await createGateway({
    config: { mcpServers: { alpha: { url: (upstreams[0] as WebHandlerHost).url } } },
    upstreamSkills: false,
  });
  cleanups.push(() => gateway.close());
  const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
  cleanups.push(() => handle.close());
  const client = new Client({ name: 'no-skills', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url as string)));
  cleanups.push(() => client.close());
  expect(new SkillsClient(client).supported).toBe(false);
});
