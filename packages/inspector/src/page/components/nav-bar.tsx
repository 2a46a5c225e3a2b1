/** The main navigation: one link per view, the current one marked for screen readers too. */
import type { Route } from '../hash-route.js';

const links: Array<{ label: string; href: string; views: Route['view'][] }> = [
  { label: 'Servers', href: '#/servers', views: ['servers', 'server'] },
  { label: 'Tools', href: '#/tools', views: ['tools', 'tool'] },
  { label: 'Log', href: '#/log', views: ['log'] },
  { label: 'Playground', href: '#/playground', views: ['playground'] },
  { label: 'Metrics', href: '#/metrics', views: ['metrics'] },
  { label: 'Trust', href: '#/trust', views: ['trust'] },
];

export function NavBar(props: { route: Route }) {
  return (
    <nav aria-label="Main">
      <ul>
        {links.map((link) => (
          <li key={link.href}>
            <a href={link.href} aria-current={link.views.includes(props.route.view) ? 'page' : undefined}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
