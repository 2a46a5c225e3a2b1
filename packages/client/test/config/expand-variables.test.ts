// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds ${VAR} references on purpose
import { SwitchboardError } from '@switchboard/core';
import { describe, expect, it } from 'vitest';
import { expandServerConfig, expandVariables } from '../../src/config/expand-variables.js';

const location = {
  file: '/home/u/.switchboard/mcp.json',
  server: 'github',
  path: ['mcpServers', 'github', 'url'],
};

function catchError(run: () => unknown): SwitchboardError {
  try {
    run();
  } catch (error) {
    if (SwitchboardError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('expandVariables', () => {
  const env = { HOST: 'example.com', EMPTY: '', PORT: '8080' };

  it('expands ${VAR}, ${env:VAR} and defaults', () => {
    expect(expandVariables('https://${HOST}:${PORT}/mcp', env, location)).toBe(
      'https://example.com:8080/mcp',
    );
    expect(expandVariables('${env:HOST}', env, location)).toBe('example.com');
    expect(expandVariables('${MISSING:-fallback}', env, location)).toBe('fallback');
    expect(expandVariables('${EMPTY:-fallback}', env, location)).toBe('fallback');
    expect(expandVariables('${EMPTY-fallback}', env, location)).toBe('');
    expect(expandVariables('${MISSING-fallback}', env, location)).toBe('fallback');
    expect(expandVariables('${env:MISSING:-d}', env, location)).toBe('d');
    expect(expandVariables('${MISSING:-${HOST}}', env, location)).toBe('example.com');
    expect(expandVariables('${MISSING:-}', env, location)).toBe('');
  });

  it('treats $$ as a literal $ and leaves other $ alone', () => {
    expect(expandVariables('$${HOST}', env, location)).toBe('${HOST}');
    expect(expandVariables('a$$b', env, location)).toBe('a$b');
    expect(expandVariables('cost $5 and $HOME', env, location)).toBe('cost $5 and $HOME');
  });

  it('names variable, server, file and path of an unset variable', () => {
    const error = catchError(() => expandVariables('Bearer ${API_TOKEN}', env, location));
    expect(error.code).toBe('CONFIG_VARIABLE_UNSET');
    expect(error.message).toContain('API_TOKEN');
    expect(error.message).toContain('"github"');
    expect(error.message).toContain('/home/u/.switchboard/mcp.json');
    expect(error.message).toContain('mcpServers.github.url');
    expect(error.context).toMatchObject({ variables: ['API_TOKEN'], server: 'github' });
  });

  it('rejects malformed references and VS Code inputs clearly', () => {
    expect(catchError(() => expandVariables('${HOST', env, location)).message).toContain('not closed');
    expect(catchError(() => expandVariables('${1BAD}', env, location)).message).toContain(
      'not a variable name',
    );
    const leaky = catchError(() => expandVariables('p@ss${hunter2 secret}', env, location));
    expect(leaky.message).toContain('not a variable name');
    expect(leaky.message).not.toContain('hunter2');
    const input = catchError(() => expandVariables('${input:token}', env, location));
    expect(input.code).toBe('CONFIG_INPUT_UNRESOLVED');
    expect(input.message).toContain('importConfig');
  });
});

describe('expandServerConfig', () => {
  it('expands command, args, env, url, headers and cwd but not keys or other fields', () => {
    const env = { BIN: 'node', TOKEN: 'secret-value', DIR: '/srv' };
    const out = expandServerConfig(
      {
        command: '${BIN}',
        args: ['--dir', '${DIR}'],
        env: { GITHUB_TOKEN: '${TOKEN}' },
        headers: { Authorization: 'Bearer ${TOKEN}' },
        url: 'https://x/${DIR}',
        cwd: '${DIR}/work',
        description: 'uses ${TOKEN}',
        type: 'stdio',
      },
      env,
      { file: 'f', server: 's', path: ['mcpServers', 's'] },
    );
    expect(out).toEqual({
      command: 'node',
      args: ['--dir', '/srv'],
      env: { GITHUB_TOKEN: 'secret-value' },
      headers: { Authorization: 'Bearer secret-value' },
      url: 'https://x//srv',
      cwd: '/srv/work',
      description: 'uses ${TOKEN}',
      type: 'stdio',
    });
  });

  it('reports every unset variable of an entry at once, with their paths, and no values', () => {
    const error = catchError(() =>
      expandServerConfig(
        {
          command: 'x',
          env: { A: '${ONE}', SET: 'secret-value' },
          headers: { Authorization: 'Bearer ${TWO}', X: '${ONE}' },
        },
        { SET_ELSEWHERE: 'secret-value' },
        { file: 'f.json', server: 'srv', path: ['mcpServers', 'srv'] },
      ),
    );
    expect(error.context.variables).toEqual(['ONE', 'TWO']);
    expect(error.context.paths).toEqual([
      'mcpServers.srv.env.A',
      'mcpServers.srv.headers.Authorization',
      'mcpServers.srv.headers.X',
    ]);
    expect(error.message).not.toContain('secret-value');
  });
});
