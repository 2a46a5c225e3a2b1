/**
 * `renderNginxConfig`: the nginx config for replicas (what `switchboard deploy nginx` prints), read
 * as text. The cli's `deploy-nginx.test.ts` runs the printed file in the real nginx.
 */
import { describe, expect, it } from 'vitest';
import { renderNginxConfig } from '../src/index.js';

describe('renderNginxConfig', () => {
  const config = renderNginxConfig({
    listen: { host: '127.0.0.1', port: 8080 },
    upstreams: [
      { host: '127.0.0.1', port: 3001 },
      { host: '127.0.0.1', port: 3002 },
      { host: '[::1]', port: 3003 },
    ],
    prefix: '/srv/switchboard/nginx',
  });
  const directives = config
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);

  it('balances round robin over every replica, each with a passive health check', () => {
    expect(directives).toContain('server 127.0.0.1:3001 max_fails=3 fail_timeout=10s;');
    expect(directives).toContain('server 127.0.0.1:3002 max_fails=3 fail_timeout=10s;');
    expect(directives).toContain('server [::1]:3003 max_fails=3 fail_timeout=10s;');
    expect(directives.join('\n')).not.toMatch(/\b(ip_hash|hash|sticky|least_conn|random)\b/);
  });

  it('keeps HTTP/1.1 connections to the replicas and streams unbuffered', () => {
    for (const directive of [
      'keepalive 32;',
      'proxy_http_version 1.1;',
      'proxy_set_header Connection "";',
      'proxy_buffering off;',
      'proxy_cache off;',
      'add_header X-Accel-Buffering no always;',
      'proxy_read_timeout 1h;',
      'underscores_in_headers on;',
    ]) {
      expect(directives).toContain(directive);
    }
  });

  it('moves to another replica only on connection errors, never re-sending a POST', () => {
    expect(directives).toContain('proxy_next_upstream error timeout;');
    expect(directives.join('\n')).not.toContain('non_idempotent');
    expect(directives.join('\n')).not.toMatch(/proxy_next_upstream .*http_5\d\d/);
    expect(config).toMatch(/# .*non_idempotent/);
  });

  it('writes pid, logs and temp files under the prefix, and logs the upstream address', () => {
    expect(directives).toContain('daemon off;');
    expect(directives).toContain('pid /srv/switchboard/nginx/nginx.pid;');
    expect(directives).toContain('error_log /srv/switchboard/nginx/error.log warn;');
    expect(directives).toContain('access_log /srv/switchboard/nginx/access.log switchboard;');
    for (const line of directives.filter((directive) => directive.includes('_temp_path'))) {
      expect(line).toMatch(/ \/srv\/switchboard\/nginx\/\w+_temp;$/);
    }
    expect(config).toContain('upstream=$upstream_addr');
  });

  it('refuses values that would change the config instead of filling it in', () => {
    const base = { listen: { host: '127.0.0.1', port: 8080 }, upstreams: [{ host: '127.0.0.1', port: 1 }] };
    expect(() => renderNginxConfig({ ...base, upstreams: [] })).toThrow(/no upstreams/);
    expect(() => renderNginxConfig({ ...base, path: '/mcp; return 200' })).toThrow(/path/);
    expect(() => renderNginxConfig({ ...base, listen: { host: 'a', port: 0 } })).toThrow(/1-65535/);
    expect(() => renderNginxConfig({ ...base, prefix: 'relative' })).toThrow(/absolute/);
  });
});
