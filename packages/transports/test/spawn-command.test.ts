import { describe, expect, it } from 'vitest';
import { resolveSpawnCommand } from '../src/spawn-command.js';

describe('resolveSpawnCommand', () => {
  it('starts commands directly on POSIX', () => {
    expect(resolveSpawnCommand('npx', ['-y', 'server'], 'linux')).toEqual({
      file: 'npx',
      args: ['-y', 'server'],
      windowsVerbatimArguments: false,
    });
  });

  it('runs .cmd shims such as npx through cmd.exe on Windows, quoting and escaping arguments', () => {
    const resolved = resolveSpawnCommand(
      'npx',
      ['-y', '@scope/server', 'C:\\My Files\\', 'a&b'],
      'win32',
      'cmd.exe',
    );
    expect(resolved.file).toBe('cmd.exe');
    expect(resolved.windowsVerbatimArguments).toBe(true);
    expect(resolved.args.slice(0, 3)).toEqual(['/d', '/s', '/c']);
    expect(resolved.args[3]).toBe('"^"npx^" ^"-y^" ^"@scope/server^" ^"C:\\My^ Files\\\\^" ^"a^&b^""');
  });

  it('starts .exe files directly on Windows', () => {
    expect(resolveSpawnCommand('C:\\node\\node.exe', ['server.js'], 'win32').file).toBe('C:\\node\\node.exe');
  });
});
