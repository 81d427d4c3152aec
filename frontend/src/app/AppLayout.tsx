import { type MouseEvent, type ReactNode, useState } from 'react';
import { NavLink, useNavigation } from 'react-router';

import { Loading } from '@/components/Loading';

import { ErrorList } from '@/components/ErrorList';
import { ThemeToggle } from '@/components/ThemeToggle';
import { type CurrentUser, useLogout } from '@/features/auth';
import { TODAY_ROLES } from '@/features/maintenance';
import { WEBHOOK_ROLES } from '@/features/webhooks';
import { PLANNING_ROLES } from '@/features/planning';
import { RECONFIG_JOB_ROLES } from '@/features/reconfig';
import { HeaderSearch } from '@/features/search';
import { SIMULATION_ROLES } from '@/features/simulation';
import { TicketNavCounts } from '@/features/tickets';

import './layout.css';

/** Operator pages: who watches capacity and CorrOpt's decisions (everyone may still open them). */
const OPERATOR_AUDIENCE = ['operator', 'admin', 'planner', 'viewer'];

const NAV_ITEMS: readonly { to: string; label: string; audience?: readonly string[] }[] = [
  { to: '/today', label: 'Today', audience: TODAY_ROLES },
  { to: '/fabrics', label: 'Fabrics' },
  { to: '/links', label: 'Links' },
  { to: '/at-risk', label: 'At risk' },
  { to: '/tickets', label: 'Tickets' },
  { to: '/work-orders', label: 'Work orders' },
  { to: '/fabric-health', label: 'Health', audience: OPERATOR_AUDIENCE },
  { to: '/decisions', label: 'Decisions', audience: OPERATOR_AUDIENCE },
  { to: '/simulations', label: 'Simulations', audience: SIMULATION_ROLES },
  { to: '/planning', label: 'Planning', audience: PLANNING_ROLES },
  { to: '/circuits', label: 'Circuits' },
  { to: '/sharebackup', label: 'Failover', audience: RECONFIG_JOB_ROLES },
  { to: '/larry', label: 'Uplinks', audience: RECONFIG_JOB_ROLES },
  { to: '/jobs', label: 'Jobs' },
  { to: '/audit', label: 'Audit' },
  { to: '/webhooks', label: 'Webhooks', audience: WEBHOOK_ROLES },
];

export function AppLayout({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const logout = useLogout();
  // A page's chunk is loading: the old page stays, with this line, until the new one can render.
  const changingPage = useNavigation().state === 'loading';
  const roles = user.roles.length > 0 ? user.roles : user.is_admin ? ['admin'] : [];
  const navItems = NAV_ITEMS.filter((item) => !item.audience || item.audience.some((role) => roles.includes(role)));
  // Phones: the navigation and the user sit behind "Menu" (open, they took ~300 px of an 844 px
  // screen); following a link closes it. Wider screens show them and never see the button.
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenuOnLink = (event: MouseEvent<HTMLElement>) => {
    if (event.target instanceof Element && event.target.closest('a')) setMenuOpen(false);
  };

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className={menuOpen ? 'topbar menu-open' : 'topbar'}>
        <span className="brand">Lightpath</span>
        <HeaderSearch />
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="topbar-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <div className="topbar-menu" id="topbar-menu" onClick={closeMenuOnLink}>
          <nav aria-label="Main">
            <ul>
              {navItems.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to}>{item.label}</NavLink>
                  {item.to === '/tickets' ? <TicketNavCounts /> : null}
                </li>
              ))}
              <li>
                {/* The server's page (Swagger UI), outside the app's routes. */}
                <a href="/api/docs/">API docs</a>
              </li>
            </ul>
          </nav>
          <div className="user" data-testid="current-user">
            <span className="user-name">{user.username}</span>
            <span className="user-roles" aria-label="Roles">
              {roles.length > 0 ? (
                roles.map((role) => (
                  <span key={role} className="role">
                    {role}
                  </span>
                ))
              ) : (
                <span className="role">no role</span>
              )}
            </span>
            <ThemeToggle />
            <button type="button" onClick={() => logout.mutate()} disabled={logout.isPending}>
              {logout.isPending ? 'Logging out…' : 'Logout'}
            </button>
          </div>
        </div>
      </header>
      {logout.error ? (
        <div className="content">
          <ErrorList error={logout.error} title="Could not log out." />
        </div>
      ) : null}
      <main id="main" className="content">
        {changingPage ? <Loading label="Loading page…" /> : null}
        {children}
      </main>
    </div>
  );
}
