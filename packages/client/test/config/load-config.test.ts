// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds ${VAR} references on purpose
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import { createTemporaryDirectory, type TemporaryDirectory } from '@switchboard/test-helpers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findProjectDirectory, loadConfig } from '../../src/config/load-config.js';

let temp: TemporaryDirectory;
let home: string;
let project: string;

beforeEach(async () => {
  temp = createTemporaryDirectory('switchboard-config-');
  home = join(temp.path, 'home');
  project = join(temp.path, 'work', 'app');
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
});

afterEach(async () => {
  temp.remove();
});

async function loadError(promise: Promise<unknown>): Promise<SwitchboardError> {
  try {
    await promise;
  } catch (error) {
    if (SwitchboardError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected loadConfig to fail');
}

/** `file:line:column` of the first occurrence of `needle` in `text`. */
function at(file: string, text: string, needle: string): string {
  const offset = text.indexOf(needle);
  const before = text.slice(0, offset).split('\n');
  return `${file}:${before.length}:${(before[before.length - 1] as string).length + 1}`;
}

const userFile = () => join(home, '.switchboard', 'mcp.json');
const projectFile = () => join(project, '.switchboard', 'mcp.json');

describe('loadConfig merging', () => {
  it('merges user, project and env JSON, later sources replacing whole entries', async () => {
    temp.write(
      'home/.switchboard/mcp.json',
      JSON.stringify({
        mcpServers: {
          shared: { command: 'user-cmd', args: ['--user'], env: { ONLY_USER: '1' } },
          userOnly: { url: 'https://user.example/mcp' },
          envWins: { command: 'from-user' },
        },
      }),
    );
    temp.write(
      'work/app/.switchboard/mcp.json',
      JSON.stringify({ mcpServers: { shared: { command: 'project-cmd' }, projectOnly: { command: 'p' } } }),
    );
    const config = await loadConfig({
      cwd: project,
      home,
      env: { SWITCHBOARD_MCP_SERVERS: JSON.stringify({ mcpServers: { envWins: { command: 'from-env' } } }) },
    });
    expect(config.mcpServers.shared).toEqual({ command: 'project-cmd' });
    expect(config.mcpServers.userOnly).toEqual({ url: 'https://user.example/mcp' });
    expect(config.mcpServers.envWins).toEqual({ command: 'from-env' });
    expect(config.mcpServers.projectOnly).toEqual({ command: 'p' });
    expect(config.sources).toEqual([
      { path: userFile(), kind: 'user' },
      { path: projectFile(), kind: 'project' },
      { path: 'env:SWITCHBOARD_MCP_SERVERS', kind: 'env' },
    ]);
    expect(config.serverSources.shared).toEqual({ path: projectFile(), kind: 'project' });
    expect(config.serverSources.userOnly?.kind).toBe('user');
  });

  it('accepts the env JSON as a bare map of servers', async () => {
    const config = await loadConfig({
      cwd: project,
      home,
      env: { SWITCHBOARD_MCP_SERVERS: '{"mem": {"command": "node", "args": ["server.js"]}}' },
    });
    expect(config.mcpServers).toEqual({ mem: { command: 'node', args: ['server.js'] } });
  });

  it('reports invalid env JSON by its variable name, line and column', async () => {
    const error = await loadError(
      loadConfig({ cwd: project, home, env: { SWITCHBOARD_MCP_SERVERS: '{"a": }' } }),
    );
    expect(error.code).toBe('CONFIG_INVALID_JSON');
    expect(error.message).toContain('env:SWITCHBOARD_MCP_SERVERS:1:7');
  });

  it('finds the project by walking up to .switchboard/ or .git, not past home', async () => {
    const nested = join(project, 'src', 'deep');
    await mkdir(nested, { recursive: true });
    temp.write('work/app/.switchboard/mcp.json', '{"mcpServers": {"p": {"command": "x"}}}');
    expect(await findProjectDirectory(nested, home)).toBe(project);
    const config = await loadConfig({ cwd: nested, home, env: {} });
    expect(Object.keys(config.mcpServers)).toEqual(['p']);

    const repo = join(temp.path, 'repo');
    await mkdir(join(repo, '.git', 'objects'), { recursive: true });
    await mkdir(join(repo, 'pkg'), { recursive: true });
    expect(await findProjectDirectory(join(repo, 'pkg'), home)).toBe(repo);

    // Inside home without markers: the project is cwd itself, and home's .switchboard is only the user file.
    temp.write('home/.switchboard/mcp.json', '{"mcpServers": {"u": {"command": "x"}}}');
    const inHome = join(home, 'notes');
    await mkdir(inHome, { recursive: true });
    expect(await findProjectDirectory(inHome, home)).toBe(inHome);
    const homeConfig = await loadConfig({ cwd: home, home, env: {} });
    expect(homeConfig.sources).toEqual([{ path: userFile(), kind: 'user' }]);
  });

  it('uses only configFile (plus env JSON) when given, and fails clearly when it is missing', async () => {
    temp.write('home/.switchboard/mcp.json', '{"mcpServers": {"u": {"command": "x"}}}');
    const file = temp.write('custom.json', '{"mcpServers": {"c": {"command": "y"}}}');
    const config = await loadConfig({ cwd: temp.path, home, env: {}, configFile: 'custom.json' });
    expect(Object.keys(config.mcpServers)).toEqual(['c']);
    expect(config.sources).toEqual([{ path: file, kind: 'file' }]);

    const error = await loadError(loadConfig({ cwd: temp.path, home, env: {}, configFile: 'nope.json' }));
    expect(error.code).toBe('CONFIG_NOT_FOUND');
    expect(error.message).toContain(join(temp.path, 'nope.json'));
  });

  it('merges extra files after the discovered ones', async () => {
    temp.write('home/.switchboard/mcp.json', '{"mcpServers": {"a": {"command": "user"}}}');
    temp.write('extra.json', '{"mcpServers": {"a": {"command": "extra"}}}');
    const config = await loadConfig({ cwd: project, home, env: {}, files: [join(temp.path, 'extra.json')] });
    expect(config.mcpServers.a?.command).toBe('extra');
  });

  it('returns an empty config when no file exists', async () => {
    const config = await loadConfig({ cwd: project, home, env: {} });
    expect(config).toEqual({ mcpServers: {}, sources: [], serverSources: {}, warnings: [], errors: [] });
  });
});

describe('loadConfig allowedServers and enabled', () => {
  it('filters by allowedServers and warns about names no config defines', async () => {
    temp.write(
      'home/.switchboard/mcp.json',
      JSON.stringify({
        allowedServers: ['a', 'ghost'],
        mcpServers: { a: { command: 'a' }, b: { command: 'b' } },
      }),
    );
    const logged: string[] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      error: () => {},
      warn: (first: unknown, message?: string) => logged.push(String(message ?? first)),
    };
    const config = await loadConfig({ cwd: project, home, env: {}, logger });
    expect(Object.keys(config.mcpServers)).toEqual(['a']);
    expect(config.allowedServers).toEqual(['a', 'ghost']);
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]).toContain('"ghost"');
    expect(config.warnings[0]).toContain('known: a, b');
    expect(logged).toEqual(config.warnings);

    const overridden = await loadConfig({ cwd: project, home, env: {}, allowedServers: ['b'] });
    expect(Object.keys(overridden.mcpServers)).toEqual(['b']);
  });

  it('keeps disabled servers, marked, without requiring their variables', async () => {
    temp.write(
      'home/.switchboard/mcp.json',
      '{"mcpServers": {"off": {"command": "x", "env": {"T": "${NOT_SET}"}, "enabled": false}, "cline": {"command": "y", "disabled": true}}}',
    );
    const config = await loadConfig({ cwd: project, home, env: {} });
    expect(config.mcpServers.off).toEqual({ command: 'x', env: { T: '${NOT_SET}' }, enabled: false });
    expect(config.mcpServers.cline?.enabled).toBe(false);
  });
});

describe('loadConfig variable expansion', () => {
  const secret = 'ghp_s3cr3t-value-that-must-not-leak';

  it('expands variables with defaults in every expandable field', async () => {
    temp.write(
      'work/app/.switchboard/mcp.json',
      JSON.stringify({
        mcpServers: {
          github: {
            command: '${NODE_BIN:-node}',
            args: ['${SERVER_DIR}/index.js', '--port', 3000, '$${LITERAL}'],
            env: { GITHUB_TOKEN: '${env:GITHUB_TOKEN}' },
            cwd: '${SERVER_DIR}',
          },
          remote: {
            type: 'streamable-http',
            url: 'https://${API_HOST:-api.example.com}/mcp',
            headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
          },
        },
      }),
    );
    const config = await loadConfig({
      cwd: project,
      home,
      env: { SERVER_DIR: '/srv/gh', GITHUB_TOKEN: secret },
    });
    expect(config.mcpServers.github).toEqual({
      command: 'node',
      args: ['/srv/gh/index.js', '--port', '3000', '${LITERAL}'],
      env: { GITHUB_TOKEN: secret },
      cwd: '/srv/gh',
    });
    expect(config.mcpServers.remote).toEqual({
      type: 'http',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: `Bearer ${secret}` },
    });
  });

  it('fails on an unset variable naming variable, server, file and JSON path, and no secret values', async () => {
    const text = `{
  "mcpServers": {
    "github": {
      "command": "docker",
      "env": { "GITHUB_TOKEN": "${secret}", "ORG": "\${GITHUB_ORG}" },
      "headers": { "X-Key": "${secret}" }
    }
  }
}`;
    const file = temp.write('work/app/.switchboard/mcp.json', text);
    const error = await loadError(loadConfig({ cwd: project, home, env: { OTHER: secret } }));
    expect(error.code).toBe('CONFIG_VARIABLE_UNSET');
    expect(error.message).toContain('GITHUB_ORG');
    expect(error.message).toContain('"github"');
    expect(error.message).toContain(file);
    expect(error.message).toContain('mcpServers.github.env.ORG');
    expect(error.message).toContain(at(file, text, '"${GITHUB_ORG}"'));
    expect(error.message).not.toContain(secret);
    expect(JSON.stringify(error.context)).not.toContain(secret);
  });

  it('expands ~ in cwd to the home directory', async () => {
    temp.write(
      'work/app/.switchboard/mcp.json',
      '{"mcpServers": {"s": {"command": "x", "cwd": "~/servers"}}}',
    );
    const config = await loadConfig({ cwd: project, home, env: {} });
    expect(config.mcpServers.s?.cwd).toBe(join(home, 'servers'));
  });

  it('reads envFile relative to the config file, explicit env winning', async () => {
    temp.write(
      'work/app/.switchboard/server.env',
      '# tokens\nexport A=from-file\nB="two words" # comment\nC=x\n',
    );
    temp.write(
      'work/app/.switchboard/mcp.json',
      '{"mcpServers": {"s": {"command": "x", "envFile": "server.env", "env": {"C": "explicit"}}}}',
    );
    const config = await loadConfig({ cwd: project, home, env: {} });
    expect(config.mcpServers.s).toEqual({
      command: 'x',
      env: { A: 'from-file', B: 'two words', C: 'explicit' },
    });

    temp.write(
      'work/app/.switchboard/mcp.json',
      '{"mcpServers": {"s": {"command": "x", "envFile": "missing.env"}}}',
    );
    const error = await loadError(loadConfig({ cwd: project, home, env: {} }));
    expect(error.code).toBe('CONFIG_NOT_FOUND');
    expect(error.message).toContain('missing.env');
    expect(error.message).toContain('"s"');
  });

  it('rejects a URL that is invalid after expansion without quoting it', async () => {
    temp.write('work/app/.switchboard/mcp.json', '{"mcpServers": {"r": {"url": "${HOST}/mcp?key=${KEY}"}}}');
    const error = await loadError(
      loadConfig({ cwd: project, home, env: { HOST: 'not a url', KEY: secret } }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('mcpServers.r.url');
    expect(error.message).not.toContain(secret);
  });
});

describe("loadConfig onError: 'skip'", () => {
  it('leaves out only the bad entries and files, reporting each, and loads the rest', async () => {
    const secret = 'tok-never-in-errors';
    temp.write(
      'home/.switchboard/mcp.json',
      JSON.stringify({ mcpServers: { shadowed: { command: 'user-version' }, fine: { command: 'ok' } } }),
    );
    const projectText = JSON.stringify({
      mcpServers: {
        shadowed: { args: ['no command'] },
        unset: { command: 'x', env: { TOKEN: '${MISSING_TOKEN}', OTHER: secret } },
        good: { command: 'y', env: { OTHER: secret } },
      },
      allowedServers: 'not-a-list',
    });
    const file = temp.write('work/app/.switchboard/mcp.json', projectText);
    const logged: string[] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      error: () => {},
      warn: (first: unknown, message?: string) => logged.push(`${JSON.stringify(first)} ${message ?? ''}`),
    };
    const config = await loadConfig({
      cwd: project,
      home,
      env: { SWITCHBOARD_MCP_SERVERS: '{"broken": ' },
      onError: 'skip',
      logger,
    });
    // An invalid overriding entry does not fall back to the entry it overrides.
    expect(Object.keys(config.mcpServers).sort()).toEqual(['fine', 'good']);
    expect(config.errors.map((problem) => [problem.server, problem.error.code])).toEqual([
      [undefined, 'CONFIG_INVALID'],
      ['shadowed', 'CONFIG_INVALID'],
      [undefined, 'CONFIG_INVALID_JSON'],
      ['unset', 'CONFIG_VARIABLE_UNSET'],
    ]);
    expect(config.errors[0]?.error.message).toContain('allowedServers');
    expect(config.errors[1]?.source).toEqual({ path: file, kind: 'project' });
    expect(config.errors[2]?.source.kind).toBe('env');
    expect(logged).toHaveLength(4);
    expect(logged.join('\n')).not.toContain(secret);
    expect(JSON.stringify(config.errors.map((problem) => problem.error.toJSON()))).not.toContain(secret);

    // The default still throws on the first bad file.
    const error = await loadError(loadConfig({ cwd: project, home, env: {} }));
    expect(error.code).toBe('CONFIG_INVALID');
  });
});

describe('loadConfig validation', () => {
  it('accepts comments and trailing commas', async () => {
    temp.write(
      'work/app/.switchboard/mcp.json',
      `{
  // my servers
  "mcpServers": {
    /* files */
    "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp",], },
  },
}`,
    );
    const config = await loadConfig({ cwd: project, home, env: {} });
    expect(config.mcpServers.fs?.args).toEqual(['-y', '@modelcontextprotocol/server-filesystem', '/tmp']);
  });

  it('reports invalid JSON with file, line and column', async () => {
    const file = temp.write(
      'work/app/.switchboard/mcp.json',
      '{\n  "mcpServers": {\n    "a": { "command": "x" },,\n  }\n}',
    );
    const error = await loadError(loadConfig({ cwd: project, home, env: {} }));
    expect(error.code).toBe('CONFIG_INVALID_JSON');
    expect(error.message).toContain(`${file}:3:29`);
    expect(error.context).toMatchObject({ file, line: 3, column: 29 });
  });

  it('reports every shape problem of a file with its JSON path, position and a fix', async () => {
    const text = `{
  "mcpServers": {
    "github": { "command": "npx", "args": ["-y", "server", {"oops": true}], "env": {"TOKEN": ["secret-in-array"]} },
    "weird": { "type": "carrier-pigeon", "url": "https://x" },
    "empty": { "description": "nothing to start" },
    "both": { "command": "x", "url": "https://x" },
    "http": { "type": "http", "command": "x" },
    "bad": { "command": "x", "timeouts": { "connectMs": -1 }, "approval": "sometimes", "enabled": "yes", "protocolVersion": "2099-01-01" },
    "notAnObject": 42
  },
  "allowedServers": "github"
}`;
    const file = temp.write('work/app/.switchboard/mcp.json', text);
    const error = await loadError(loadConfig({ cwd: project, home, env: {} }));
    expect(error.code).toBe('CONFIG_INVALID');
    const message = error.message;
    expect(message).toContain(file);
    expect(message).toContain(
      `mcpServers.github.args[2] (${at(file, text, '{"oops"')}): expected a string, got an object`,
    );
    expect(message).toContain('mcpServers.github.env.TOKEN');
    expect(message).not.toContain('secret-in-array');
    expect(message).toContain('mcpServers.weird.type (');
    expect(message).toContain("unknown transport 'carrier-pigeon'");
    expect(message).toMatch(/mcpServers\.empty .*neither "command" nor "url"\. Add "command"/);
    expect(message).toMatch(/mcpServers\.both .*both "command" and "url"/);
    expect(message).toMatch(/mcpServers\.http .*type 'http' needs a "url"/);
    expect(message).toContain('mcpServers.bad.timeouts.connectMs');
    expect(message).toContain('got -1');
    expect(message).toContain('mcpServers.bad.approval (');
    expect(message).toContain('mcpServers.bad.enabled');
    expect(message).toMatch(
      /mcpServers\.bad\.protocolVersion .*expected one of .*"2025-06-18".*got "2099-01-01"/,
    );
    expect(message).toContain('mcpServers.notAnObject');
    expect(message).toContain('allowedServers');
    expect((error.context.issues as unknown[]).length).toBe(12);
  });

  it('normalises transport spellings and coerces numbers in args and env', async () => {
    temp.write(
      'work/app/.switchboard/mcp.json',
      JSON.stringify({
        mcpServers: {
          a: { type: 'streamableHttp', url: 'https://a' },
          b: { type: 'SSE', url: 'https://b/sse' },
          c: { transport: 'websocket', url: 'wss://c' },
          d: { command: 'x', args: ['--port', 8080, true], env: { PORT: 8080 } },
          e: {
            command: 'x',
            prefix: 'gh',
            timeouts: { connectMs: 5000, callMs: 60000 },
            approval: { mode: 'always', allow: ['read_*'], deny: ['delete_*'] },
            description: 'GitHub',
            protocolVersion: '2025-06-18',
          },
        },
      }),
    );
    const config = await loadConfig({ cwd: project, home, env: {} });
    expect(config.mcpServers.a?.type).toBe('http');
    expect(config.mcpServers.b?.type).toBe('sse');
    expect(config.mcpServers.c?.type).toBe('ws');
    expect(config.mcpServers.d).toEqual({
      command: 'x',
      args: ['--port', '8080', 'true'],
      env: { PORT: '8080' },
    });
    expect(config.mcpServers.e).toEqual({
      command: 'x',
      prefix: 'gh',
      timeouts: { connectMs: 5000, callMs: 60000 },
      approval: { mode: 'always', allow: ['read_*'], deny: ['delete_*'] },
      description: 'GitHub',
      protocolVersion: '2025-06-18',
    });
  });

  it('warns about unknown keys with their location but keeps the server', async () => {
    const text = '{"mcpServers": {"a": {"command": "x", "comand": "y"}}}';
    const file = temp.write('work/app/.switchboard/mcp.json', text);
    const config = await loadConfig({ cwd: project, home, env: {} });
    expect(config.mcpServers.a).toEqual({ command: 'x' });
    expect(config.warnings).toEqual([
      expect.stringContaining(`mcpServers.a.comand (${at(file, text, '"y"')}): unknown key`),
    ]);
  });

  it('reports an unreadable config file as an IO error naming it', async () => {
    if (process.getuid?.() === 0) return; // root reads anything
    const file = temp.write('work/app/.switchboard/mcp.json', '{}');
    await chmod(file, 0o000);
    const error = await loadError(loadConfig({ cwd: project, home, env: {} }));
    expect(error.code).toBe('CONFIG_IO_ERROR');
    expect(error.message).toContain(file);
  });
});
