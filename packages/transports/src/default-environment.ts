/**
 * Variables a spawned server inherits from this process. Not all of them: the parent's environment
 * often holds secrets (API keys, tokens) that belong to no server; those go only where a server's
 * own `env` puts them.
 */
const inheritedVariables =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'COMSPEC',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PATHEXT',
        'PROCESSOR_ARCHITECTURE',
        'PROGRAMDATA',
        'PROGRAMFILES',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'TMP',
        'USERNAME',
        'USERPROFILE',
        'WINDIR',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'TMPDIR', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ'];

/** Proxy and certificate settings: without them a server behind a corporate proxy cannot reach anything. */
const networkVariables = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
];

/**
 * The environment a stdio server starts with: a safe subset of this process's environment
 * (PATH, HOME, locale, proxies...) with `extra` added on top (not a replacement).
 */
export function createServerEnvironment(
  extra: Record<string, string> | undefined,
  inherit: 'safe' | 'all' = 'safe',
): Record<string, string> {
  const environment: Record<string, string> = {};
  if (inherit === 'all') {
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) environment[key] = value;
  } else {
    for (const key of [...inheritedVariables, ...networkVariables]) {
      const value = process.env[key];
      // Shell functions exported by bash ("() { ...") are a known injection vector; never pass them on.
      if (value !== undefined && !value.startsWith('()')) environment[key] = value;
    }
  }
  return { ...environment, ...extra };
}
