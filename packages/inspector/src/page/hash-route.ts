/**
 * Hash routing: `#/servers`, `#/servers/NAME`, `#/servers/NAME/tools/TOOL`, `#/tools`, `#/log`,
 * `#/playground`, `#/metrics`, `#/trust`. The hash keeps the token-free URL of the page bookmarkable and needs
 * nothing of the process (every route is the one index.html).
 */
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { view: 'servers' }
  | { view: 'server'; server: string; tab: 'tools' | 'resources' | 'prompts' }
  | { view: 'tool'; server: string; tool: string }
  | { view: 'tools' }
  | { view: 'log' }
  | { view: 'playground' }
  | { view: 'metrics' }
  | { view: 'trust' };

export function parseRoute(hash: string): Route {
  const parts = hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => safeDecode(part));
  const [first, second, third, fourth] = parts;
  if (first === 'servers' && second !== undefined) {
    if (third === 'tools' && fourth !== undefined) return { view: 'tool', server: second, tool: fourth };
    const tab = third === 'resources' || third === 'prompts' ? third : 'tools';
    return { view: 'server', server: second, tab };
  }
  if (
    first === 'tools' ||
    first === 'log' ||
    first === 'playground' ||
    first === 'metrics' ||
    first === 'trust'
  )
    return { view: first };
  return { view: 'servers' };
}

/** The hash of a route, for `href`s. */
export function routeHref(route: Route): string {
  const e = encodeURIComponent;
  switch (route.view) {
    case 'server':
      return `#/servers/${e(route.server)}${route.tab === 'tools' ? '' : `/${route.tab}`}`;
    case 'tool':
      return `#/servers/${e(route.server)}/tools/${e(route.tool)}`;
    default:
      return `#/${route.view}`;
  }
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
