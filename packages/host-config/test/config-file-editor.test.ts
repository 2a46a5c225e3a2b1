// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds ${VAR} references on purpose
import { chmod, readdir, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '@switchboard/client';
import { parseJsonc } from '@switchboard/client/config-documents';
import { SwitchboardError } from '@switchboard/core';
import { createTemporaryDirectory, type TemporaryDirectory } from '@switchboard/test-helpers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addServer,
  readConfigFile,
  removeServer,
  rewriteJsonc,
  updateConfigFile,
} from '../src/config-file-editor.js';

let temp: TemporaryDirectory;

beforeEach(async () => {
  temp = createTemporaryDirectory('switchboard-config-');
});

afterEach(async () => {
  temp.remove();
});

async function editError(promise: Promise<unknown>): Promise<SwitchboardError> {
  try {
    await promise;
  } catch (error) {
    if (SwitchboardError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the edit to fail');
}

const handWritten = `{
  // Switchboard servers for this repo
  "$schema": "https://example.com/switchboard.schema.json",
  "mcpServers": {
    // GitHub, token from the environment
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"], // pinned image
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "\${GITHUB_TOKEN}" },
      "x-team-owner": "platform",
    },
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] },
  },
  "allowedServers": ["github", "memory"],
  "x-custom": { "keep": true },
}
`;

describe('addServer', () => {
  it('creates the file and its folder, 0600, in the mcpServers format loadConfig reads', async () => {
    const file = join(temp.path, 'project', '.switchboard', 'mcp.json');
    await addServer(file, 'fs', {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
    });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] } },
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const config = await loadConfig({ configFile: file, env: {} });
    expect(config.mcpServers.fs?.command).toBe('npx');
  });

  it('adds to a hand-written file keeping comments, unknown fields, trailing commas and key order', async () => {
    const file = temp.write('mcp.json', handWritten);
    await addServer(file, 'remote', {
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer ${REMOTE_TOKEN}' },
    });
    const text = await readFile(file, 'utf8');
    // Everything before the insertion is byte-for-byte what it was.
    const memoryLine =
      '    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] },\n';
    const head = handWritten.slice(0, handWritten.indexOf(memoryLine) + memoryLine.length);
    expect(text.startsWith(head)).toBe(true);
    expect(text).toContain(
      '    "remote": {\n      "type": "http",\n      "url": "https://mcp.example.com/mcp",\n      "headers": {\n        "Authorization": "Bearer ${REMOTE_TOKEN}"\n      }\n    },\n  },\n  "allowedServers"',
    );
    expect(text).toContain('// pinned image');
    expect(text).toContain('"x-custom": { "keep": true },');
    const data = (await readConfigFile(file)).data;
    expect(Object.keys(data)).toEqual(['$schema', 'mcpServers', 'allowedServers', 'x-custom']);
    expect(Object.keys(data.mcpServers as object)).toEqual(['github', 'memory', 'remote']);
    expect((data.mcpServers as Record<string, Record<string, unknown>>).github?.['x-team-owner']).toBe(
      'platform',
    );
  });

  it('refuses to replace an existing server unless told to, then replaces only that entry', async () => {
    const file = temp.write('mcp.json', handWritten);
    const error = await editError(addServer(file, 'memory', { command: 'other' }));
    expect(error.code).toBe('CONFIG_SERVER_EXISTS');
    expect(error.message).toContain('"memory"');
    expect(await readFile(file, 'utf8')).toBe(handWritten);

    await addServer(file, 'memory', { command: 'node', args: ['memory.js'] }, { overwrite: true });
    const text = await readFile(file, 'utf8');
    expect(text).toContain('// GitHub, token from the environment');
    expect(text).toContain('// pinned image');
    // The entry was written inline, so its changed members are too.
    expect(text).toContain('    "memory": { "command": "node", "args": ["memory.js"] },\n');
    expect(parseJsonc(text, file).value).toMatchObject({
      mcpServers: { memory: { command: 'node', args: ['memory.js'] } },
    });
  });

  it('validates the entry first, naming the JSON path', async () => {
    const file = join(temp.path, 'mcp.json');
    const error = await editError(addServer(file, 'bad', { args: ['x'] } as never));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('mcpServers.bad');
    expect(error.message).toContain('neither "command" nor "url"');
    await expect(stat(file)).rejects.toThrow();
  });

  it('leaves a file with invalid JSON untouched and says where it broke', async () => {
    const broken = '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n';
    const file = temp.write('mcp.json', broken);
    const error = await editError(addServer(file, 'c', { command: 'y' }));
    expect(error.code).toBe('CONFIG_INVALID_JSON');
    expect(error.message).toContain(`${file}:4:5`);
    expect(await readFile(file, 'utf8')).toBe(broken);
  });

  it('keeps CRLF line endings, tab indentation and inline style', async () => {
    const crlf = temp.write(
      'crlf.json',
      '{\r\n\t"mcpServers": {\r\n\t\t"a": { "command": "x" }\r\n\t}\r\n}\r\n',
    );
    await addServer(crlf, 'b', { command: 'y' });
    expect(await readFile(crlf, 'utf8')).toBe(
      '{\r\n\t"mcpServers": {\r\n\t\t"a": { "command": "x" },\r\n\t\t"b": {\r\n\t\t\t"command": "y"\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
    const inline = temp.write(
      'inline.json',
      '{\n  "mcpServers": {\n    "a": {"command": "x", "args": ["1"]}\n  }\n}',
    );
    await updateConfigFile(inline, (data) => {
      (data.mcpServers as Record<string, Record<string, unknown>>).a = {
        command: 'x',
        args: ['1'],
        cwd: '/w',
      };
    });
    expect(await readFile(inline, 'utf8')).toBe(
      '{\n  "mcpServers": {\n    "a": {"command": "x", "args": ["1"], "cwd": "/w"}\n  }\n}',
    );
  });

  it('lays out a one-line file afresh', async () => {
    const file = temp.write('mcp.json', '{"mcpServers": {}}\n');
    await addServer(file, 'a', { command: 'x', args: ['y'] });
    expect(await readFile(file, 'utf8')).toBe(
      '{\n  "mcpServers": {\n    "a": {\n      "command": "x",\n      "args": ["y"]\n    }\n  }\n}\n',
    );
  });

  it('adds mcpServers to a file that has none, keeping the other keys', async () => {
    const file = temp.write('mcp.json', '{\n  // nothing yet\n  "theme": "dark"\n}\n');
    await addServer(file, 'a', { command: 'x' });
    expect(await readFile(file, 'utf8')).toBe(
      '{\n  // nothing yet\n  "theme": "dark",\n  "mcpServers": {\n    "a": {\n      "command": "x"\n    }\n  }\n}\n',
    );
  });
});

describe('removeServer', () => {
  it('removes one entry with its comments, leaving the others as written', async () => {
    const file = temp.write('mcp.json', handWritten);
    await removeServer(file, 'github');
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('github-mcp-server');
    expect(text).not.toContain('GitHub, token');
    expect(text).toContain('// Switchboard servers for this repo');
    expect(text).toContain(
      '    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] },\n',
    );
    expect(parseJsonc(text, file).value).toEqual({
      $schema: 'https://example.com/switchboard.schema.json',
      mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } },
      allowedServers: ['github', 'memory'],
      'x-custom': { keep: true },
    });
  });

  it('removes the last entry of a strict-JSON object without leaving a dangling comma', async () => {
    const strict = `${JSON.stringify({ mcpServers: { a: { command: 'a' }, b: { command: 'b' }, c: { command: 'c' } } }, null, 2)}\n`;
    const file = temp.write('mcp.json', strict);
    await removeServer(file, 'c');
    await removeServer(file, 'b');
    const text = await readFile(file, 'utf8');
    expect(JSON.parse(text)).toEqual({ mcpServers: { a: { command: 'a' } } });
    expect(text).toBe(`${JSON.stringify({ mcpServers: { a: { command: 'a' } } }, null, 2)}\n`);
    await removeServer(file, 'a');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ mcpServers: {} });
  });

  it('names the file and the servers it has when the name is unknown', async () => {
    const file = temp.write('mcp.json', handWritten);
    const error = await editError(removeServer(file, 'gihtub'));
    expect(error.code).toBe('SERVER_NOT_FOUND');
    expect(error.message).toContain(file);
    expect(error.message).toContain('github, memory');
    expect(error.context.known).toEqual(['github', 'memory']);
  });
});

describe('updateConfigFile', () => {
  it('changes one nested value and nothing else', async () => {
    const file = temp.write('mcp.json', handWritten);
    const result = await updateConfigFile(file, (data) => {
      const servers = data.mcpServers as Record<string, Record<string, unknown>>;
      (servers.github as Record<string, unknown>).args = ['run', '-i', 'ghcr.io/github/github-mcp-server:v2'];
    });
    expect(result.changed).toBe(true);
    const text = await readFile(file, 'utf8');
    expect(text).toBe(
      handWritten.replace(
        '["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"]',
        '["run", "-i", "ghcr.io/github/github-mcp-server:v2"]',
      ),
    );
  });

  it('does not write when nothing changed', async () => {
    const file = temp.write('mcp.json', handWritten);
    // A time in the past: any write would stamp the file with now (no need to wait for the clock).
    const past = new Date('2020-01-01T00:00:00Z');
    await utimes(file, past, past);
    const before = await stat(file);
    expect((await updateConfigFile(file, () => undefined)).changed).toBe(false);
    const after = await stat(file);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.ino).toBe(before.ino);
  });

  it('keeps the file mode, writes through symlinks and leaves no temp files', async () => {
    const file = temp.write('real/mcp.json', '{"mcpServers": {}}');
    await chmod(file, 0o640);
    const link = join(temp.path, 'link.json');
    await symlink(file, link);
    await addServer(link, 'a', { command: 'x' });
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect((await readConfigFile(file)).data).toEqual({ mcpServers: { a: { command: 'x' } } });
    expect(await readdir(join(temp.path, 'real'))).toEqual(['mcp.json']);
  });

  it('round-trips an import: importing servers into a config keeps what was there', async () => {
    const file = temp.write('mcp.json', handWritten);
    await updateConfigFile(file, (data) => {
      data.mcpServers = {
        ...(data.mcpServers as object),
        time: { command: 'uvx', args: ['mcp-server-time'] },
      };
      return data;
    });
    const config = await loadConfig({ configFile: file, env: { GITHUB_TOKEN: 't' } });
    expect(Object.keys(config.mcpServers)).toEqual(['github', 'memory']);
    const all = await loadConfig({
      configFile: file,
      env: { GITHUB_TOKEN: 't' },
      allowedServers: ['github', 'memory', 'time'],
    });
    expect(all.mcpServers.time).toEqual({ command: 'uvx', args: ['mcp-server-time'] });
    expect(await readFile(file, 'utf8')).toContain('// pinned image');
  });

  it('starts over when another writer changed the file meanwhile, losing neither change', async () => {
    const file = temp.write('mcp.json', '{\n  "mcpServers": {\n    "a": { "command": "a" }\n  }\n}\n');
    let calls = 0;
    await updateConfigFile(file, async (data) => {
      calls++;
      if (calls === 1) {
        // Another process adds a server while this update is being computed.
        await writeFile(
          file,
          '{\n  "mcpServers": {\n    "a": { "command": "a" },\n    "b": { "command": "b" }\n  }\n}\n',
        );
      }
      (data.mcpServers as Record<string, unknown>).c = { command: 'c' };
    });
    expect(calls).toBe(2);
    expect(Object.keys((await readConfigFile(file)).data.mcpServers as object)).toEqual(['a', 'b', 'c']);
  });

  it('refuses a root that is not an object', async () => {
    const file = temp.write('mcp.json', '[1, 2]');
    const error = await editError(addServer(file, 'a', { command: 'x' }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('got an array');
  });
});

describe('rewriteJsonc', () => {
  it('handles removing several neighbours and adding in one edit', () => {
    const text = '{\n  "a": 1,\n  // about b\n  "b": 2,\n  "c": 3\n}\n';
    const out = rewriteJsonc(parseJsonc(text, 'f'), { a: 1, d: 4 });
    expect(out).toBe('{\n  "a": 1,\n  "d": 4\n}\n');
    const inline = '{\n  "x": {"a": 1, "b": 2, "c": 3}\n}';
    const wrap = (value: object) => ({ x: value });
    const inner = (out: string) => out.slice(out.indexOf('{', 1), out.lastIndexOf('}'));
    expect(inner(rewriteJsonc(parseJsonc(inline, 'f'), wrap({ a: 1 })))).toBe('{"a": 1}\n');
    expect(inner(rewriteJsonc(parseJsonc(inline, 'f'), wrap({ c: 3 })))).toBe('{"c": 3}\n');
    expect(inner(rewriteJsonc(parseJsonc(inline, 'f'), wrap({ a: 1, c: 3 })))).toBe('{"a": 1, "c": 3}\n');
    expect(inner(rewriteJsonc(parseJsonc(inline, 'f'), wrap({ b: 2, d: 4 })))).toBe('{"b": 2, "d": 4}\n');
  });

  it('keeps a trailing comment of the member before an insertion on its line', () => {
    const text = '{\n  "a": 1, // first\n  "b": 2 // second\n}\n';
    expect(rewriteJsonc(parseJsonc(text, 'f'), { a: 1, b: 2, c: 3 })).toBe(
      '{\n  "a": 1, // first\n  "b": 2, // second\n  "c": 3\n}\n',
    );
  });
});

it('writes the file only through a complete rename (a reader never sees a partial file)', async () => {
  // A large entry makes a partial write observable if the writer were not atomic.
  const file = temp.write('mcp.json', '{"mcpServers": {}}');
  const big = { command: 'x', args: Array.from({ length: 20_000 }, (_, index) => `arg-${index}`) };
  let reads = 0;
  let stop = false;
  const reader = (async () => {
    while (!stop) {
      JSON.parse(await readFile(file, 'utf8'));
      reads++;
    }
  })();
  await addServer(file, 'big', big);
  await updateConfigFile(file, (data) => {
    (data.mcpServers as Record<string, unknown>).big2 = big;
  });
  stop = true;
  await reader;
  expect(reads).toBeGreaterThan(0);
  await writeFile(join(temp.path, 'done'), '');
});

describe('rewriteJsonc on generated documents', () => {
  // A seeded generator, so a failure reproduces.
  function createRandom(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
  }

  function randomValue(random: () => number, depth: number): unknown {
    const pick = random();
    if (depth > 2 || pick < 0.3) return Math.floor(random() * 100);
    if (pick < 0.45) return `s${Math.floor(random() * 10)}`;
    if (pick < 0.6)
      return Array.from({ length: Math.floor(random() * 3) }, () => randomValue(random, depth + 1));
    const out: Record<string, unknown> = {};
    const count = Math.floor(random() * 4);
    for (let index = 0; index < count; index++)
      out[`k${Math.floor(random() * 6)}`] = randomValue(random, depth + 1);
    return out;
  }

  function mutate(
    random: () => number,
    value: Record<string, unknown>,
    depth: number,
  ): Record<string, unknown> {
    const out = structuredClone(value);
    for (const key of Object.keys(out)) {
      const pick = random();
      if (pick < 0.2) delete out[key];
      else if (pick < 0.35) out[key] = randomValue(random, depth + 1);
      else if (pick < 0.6 && typeof out[key] === 'object' && out[key] !== null && !Array.isArray(out[key])) {
        out[key] = mutate(random, out[key] as Record<string, unknown>, depth + 1);
      }
    }
    if (random() < 0.4) out[`n${Math.floor(random() * 4)}`] = randomValue(random, depth + 1);
    return out;
  }

  const styles: Array<[string, (value: unknown) => string]> = [
    ['pretty', (value) => `${JSON.stringify(value, null, 2)}\n`],
    [
      'trailing commas',
      (value) => `${JSON.stringify(value, null, 2).replace(/([^[{,\s])(\n\s*[}\]])/g, '$1,$2')}\n`,
    ],
    [
      'comments',
      (value) =>
        `// head\n${JSON.stringify(value, null, 4)
          .split('\n')
          .map((line, index) =>
            index > 0 && /^\s*"/.test(line) && index % 2 === 0 ? `    // note ${index}\n${line}` : line,
          )
          .join('\n')} // tail\n`,
    ],
    ['crlf tabs', (value) => `${JSON.stringify(value, null, '\t').replace(/\n/g, '\r\n')}\r\n`],
  ];

  it.each(styles)('keeps %s documents valid and equal to the new data', (name, render) => {
    const random = createRandom(42);
    for (let round = 0; round < 300; round++) {
      const before = { mcpServers: randomValue(random, 0), other: randomValue(random, 1) } as Record<
        string,
        unknown
      >;
      const after = mutate(random, before, 0);
      const text = render(before);
      const out = rewriteJsonc(parseJsonc(text, 'f'), after);
      const parsed = parseJsonc(out, 'f').value;
      expect(parsed, `round ${round}\n${text}\n→\n${out}`).toEqual(JSON.parse(JSON.stringify(after)));
      // A strict-JSON file stays strict JSON: no trailing commas slip in.
      if (name === 'pretty' || name === 'crlf tabs') expect(() => JSON.parse(out), out).not.toThrow();
    }
  });
});
