/**
 * The command table's specs, which the CLI reads without loading the commands' modules, against
 * what those modules and the packages accept.
 */
import { hostIds } from '@switchboard/client';
import { approvalPrompts } from '@switchboard/server';
import { describe, expect, it } from 'vitest';
import { serveCommandSpec } from '../src/commands/serve-command-spec.js';
import { serverHosts } from '../src/commands/servers-command-spec.js';
import { commands } from '../src/index.js';

describe('command specs', () => {
  it('name the hosts the client imports from and exports to (the spec spells them out)', () => {
    expect([...serverHosts].sort()).toEqual([...hostIds].sort());
  });

  it('name the approval prompts the server knows (serve --approval; the spec spells them out)', () => {
    expect(serveCommandSpec.optionValues?.approval).toEqual([...approvalPrompts]);
  });

  it('every command has a summary, a help with its usage, and unique flags', () => {
    const names = commands.map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
    for (const command of commands) {
      expect(command.summary.length).toBeGreaterThan(0);
      expect(command.help).toContain(`switchboard ${command.name}`);
      for (const option of Object.keys(command.optionValues ?? {})) {
        expect(command.options ?? {}, `${command.name} --${option}`).toHaveProperty(option);
        expect(command.options?.[option]?.type, `${command.name} --${option}`).toBe('string');
      }
    }
  });
});
