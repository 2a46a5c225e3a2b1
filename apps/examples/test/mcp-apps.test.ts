import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('mcp-apps example', () => {
  it('serves an app tool, keeps its app-only helper from models, and answers the app’s call', async () => {
    const { stdout, stderr, exitCode } = await runExample('mcp-apps');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toContain('mcp__counter__increment: app ui://show_counter/app.html, for app');
    expect(stdout).toContain('mcp__counter__show_counter: app ui://show_counter/app.html, for model and app');
    expect(stdout).toContain('a model is offered: mcp__counter__show_counter\n');
    expect(stdout).toMatch(/app ui:\/\/show_counter\/app\.html: \d+ bytes of HTML, prefersBorder true/);
    expect(stdout).toContain('tool result for the app: {"count":0}');
    expect(stdout).toContain('the app called increment → {"count":1}');
    expect(stdout).toContain('the app called delete_everything → APP_REQUEST_REFUSED');
  });
});
