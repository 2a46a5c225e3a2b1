// Secrets (env values, header values, tokens) never appear in logs or error messages.
import { describe, expect, it } from 'vitest';
import { connectMcp, createMcpClient, serverSecrets } from '../src/index.js';
import { collectSecrets, createRedactor } from '../src/redactor.js';
import { createRecordingLogger, fixture, freePort } from './helpers/servers.js';

const token = 'sk-live-4f9a8b7c6d5e';
const password = 'hunter2-correct-horse';
const headerToken = 'ghp_abcdefghijklmnop1234';

describe('redaction', () => {
  it('masks every known secret, longest first', () => {
    const redactor = createRedactor(['abcd', 'abcdef', 'x']);
    expect(redactor.redact('key abcdef and abcd and x')).toBe('key [REDACTED] and [REDACTED] and x');
    expect(
      collectSecrets({
        env: { TOKEN: token },
        headers: { Authorization: `Bearer ${headerToken}` },
        url: `https://user:${password}@example.com/mcp?api_key=qwertyuiop&page=2`,
      }),
    ).toEqual(expect.arrayContaining([token, `Bearer ${headerToken}`, headerToken, password, 'qwertyuiop']));
  });

  it('keeps env values, header values and URL tokens out of logs and errors', async () => {
    const { lines, logger } = createRecordingLogger();
    const port = await freePort();
    const errors: unknown[] = [];
    // The garbage server echoes its token to stderr; the crash server prints its password on the way out.
    errors.push(
      await createMcpClient(
        'noisy',
        { command: process.execPath, args: [fixture('garbage-server.mjs')], env: { SECRET_TOKEN: token } },
        { logger, initializeTimeoutMs: 1500 },
      ).catch((e) => e),
    );
    errors.push(
      await createMcpClient(
        'crashy',
        { command: process.execPath, args: [fixture('crash-server.mjs')], env: { DB_PASSWORD: password } },
        { logger },
      ).catch((e) => e),
    );
    errors.push(
      await createMcpClient(
        'remote',
        {
          url: `http://127.0.0.1:${port}/mcp?token=${token}`,
          headers: { Authorization: `Bearer ${headerToken}` },
        },
        { logger },
      ).catch((e) => e),
    );
    const skipped = await connectMcp(
      {
        crashy: {
          command: process.execPath,
          args: [fixture('crash-server.mjs')],
          env: { DB_PASSWORD: password },
        },
      },
      { onError: 'skip', logger },
    );
    const status = JSON.stringify(skipped.status());
    await skipped.close();

    // The failures are real and explained (so the test would notice if nothing was logged at all).
    expect((errors[1] as Error).message).toContain('cannot open database');
    expect(lines.some((line) => line.includes('cannot open database'))).toBe(true);
    expect(lines.join('\n')).toContain('[REDACTED]');
    const everything = [
      ...lines,
      status,
      ...errors.map((error) => {
        const value = error as Error & { toJSON?: () => unknown };
        return `${value.message} ${JSON.stringify(value.toJSON?.() ?? {})} ${String((value.cause as Error)?.message ?? '')}`;
      }),
    ].join('\n');
    for (const secret of [token, password, headerToken]) expect(everything).not.toContain(secret);
  });

  it('lists every secret of an entry in one place: env, headers and OAuth secrets', () => {
    const secrets = serverSecrets({
      url: 'https://example.com/mcp',
      headers: { 'X-Api-Key': headerToken },
      env: { TOKEN: token },
      auth: { clientId: 'switchboard', clientSecret: password },
    } as never);
    expect(secrets).toEqual(expect.arrayContaining([token, headerToken, password]));
    expect(secrets).not.toContain('switchboard');
  });
});
