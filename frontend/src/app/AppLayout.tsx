import { type MouseEvent, type ReactNode, useCallback, useState } from 'react';
import { NavLink, useLocation, useNavigation } from 'react-router';

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

import { HeaderMenu } from './HeaderMenu';
import './layout.css';

/** Operator pages: who watches capacity and CorrOpt's decisions (everyone may still open them). */
const OPERATOR_AUDIENCE = ['operator', 'admin', 'planner', 'viewer'];

type NavItem = { to: string; label: string; audience?: readonly string[]; external?: boolean };
type NavGroup = { label: string; items: readonly NavItem[] };

/**
 * The top bar is one row from 1280 px for an admin (trial 30: 16 links wrapped it to 3-4 rows).
 * The pages people open every day stay in the bar; the planning tools and the records/settings
 * pages sit in two labelled menus; the user, roles, theme and logout sit in the account menu.
 * Audiences only thin the navigation (every page still opens for whoever the server lets in):
 * technicians get the daily pages and "More", nothing else.
 */
const DAILY_ITEMS: readonly NavItem[] = [
  { to: '/today', label: 'Today', audience: TODAY_ROLES },
  { to: '/fabrics', label: 'Fabrics' },
  { to: '/links', label: 'Links' },
  { to: '/at-risk', label: 'At risk' },
  { to: '/tickets', label: 'Tickets' },
  { to: '/work-orders', label: 'Work orders' },
  { to: '/fabric-health', label: 'Health', audience: OPERATOR_AUDIENCE },
];

const NAV_GROUPS: readonly NavGroup[] = [
  {
    label: 'Plan',
    items: [
      { to: '/simulations', label: 'Simulations', audience: SIMULATION_ROLES },
      { to: '/planning', label: 'Planning', audience: PLANNING_ROLES },
      { to: '/circuits', label: 'Circuits', audience: OPERATOR_AUDIENCE },
      { to: '/sharebackup', label: 'Failover', audience: RECONFIG_JOB_ROLES },
      { to: '/larry', label: 'Uplinks', audience: RECONFIG_JOB_ROLES },
    ],
  },
  {
    label: 'More',
    items: [
      { to: '/decisions', label: 'Decisions', audience: OPERATOR_AUDIENCE },
      { to: '/jobs', label: 'Jobs' },
      { to: '/audit', label: 'Audit' },
      { to: '/webhooks', label: 'Webhooks', audience: WEBHOOK_ROLES },
      // The server's page (Swagger UI), outside the app's routes.
      { to: '/api/docs/', label: 'API docs', external: true },
    ],
  },
];

function visibleTo(roles: readonly string[]) {
  return (item: NavItem) => !item.audience || item.audience.some((role) => roles.includes(role));
}

function isCurrent(item: NavItem, pathname: string): boolean {
  return !item.external && (pathname === item.to || pathname.startsWith(`${item.to}/`));
}

function NavItemLink({ item }: { item: NavItem }) {
  return item.external ? <a href={item.to}>{item.label}</a> : <NavLink to={item.to}>{item.label}</NavLink>;
}

export function AppLayout({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const logout = useLogout();
  const { pathname } = useLocation();
  // A page's chunk is loading: the old page stays, with this line, until the new one can render.
  const changingPage = useNavigation().state === 'loading';
  const roles = user.roles.length > 0 ? user.roles : user.is_admin ? ['admin'] : [];
  const shown = visibleTo(roles);
  const dailyItems = DAILY_ITEMS.filter(shown);
  const groups = NAV_GROUPS.map((group) => ({ ...group, items: group.items.filter(shown) })).filter(
    (group) => group.items.length > 0,
  );
  // Phones: the navigation and the account sit behind "Menu" (open, they took ~300 px of an 844 px
  // screen), every group unfolded. Wider screens show the bar and never see the button.
  const [menuOpen, setMenuOpen] = useState(false);
  // Which of the bar's drop-down menus is open: one at a time.
  const [openMenu, setOpenMenu] = useState<string | null>(null);
  const closeMenus = useCallback(() => setOpenMenu(null), []);
  const toggleMenu = (label: string) => setOpenMenu((open) => (open === label ? null : label));
  // Following a link closes every menu, the page's own link included (the address does not change).
  const closeMenusOnLink = (event: MouseEvent<HTMLElement>) => {
    if (event.target instanceof Element && event.target.closest('a')) {
      setMenuOpen(false);
      setOpenMenu(null);
    }
  };
  // A new page closes them too (the back button, a link in the page): adjusted while rendering.
  const [menusPathname, setMenusPathname] = useState(pathname);
  if (menusPathname !== pathname) {
    setMenusPathname(pathname);
    setMenuOpen(false);
    setOpenMenu(null);
  }

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
        <div className="topbar-menu" id="topbar-menu" onClick={closeMenusOnLink}>
          <nav aria-label="Main">
            <ul className="nav-items">
              {dailyItems.map((item) => (
                <li key={item.to}>
                  <NavItemLink item={item} />
                  {item.to === '/tickets' ? <TicketNavCounts /> : null}
                </li>
              ))}
              {groups.map((group) => (
                <li key={group.label}>
                  <HeaderMenu
                    label={group.label}
                    phoneHeading={group.label}
                    className="nav-group"
                    current={group.items.some((item) => isCurrent(item, pathname))}
                    open={openMenu === group.label}
                    onToggle={() => toggleMenu(group.label)}
                    onClose={closeMenus}
                  >
                    <ul>
                      {group.items.map((item) => (
                        <li key={item.to}>
                          <NavItemLink item={item} />
                        </li>
                      ))}
                    </ul>
                  </HeaderMenu>
                </li>
              ))}
            </ul>
          </nav>
          <HeaderMenu
            label={`Account: ${user.username}`}
            buttonContent={user.username}
            className="user"
            testId="current-user"
            open={openMenu === 'account'}
            onToggle={() => toggleMenu('account')}
            onClose={closeMenus}
          >
            <p className="user-line">
              Signed in as <span className="user-name">{user.username}</span>
            </p>
            <p className="user-roles" aria-label="Roles">
              {roles.length > 0 ? (
                roles.map((role) => (
                  <span key={role} className="role">
                    {role}
                  </span>
                ))
              ) : (
                <span className="role">no role</span>
              )}
            </p>
            <ThemeToggle />
            <button type="button" onClick={() => logout.mutate()} disabled={logout.isPending}>
              {logout.isPending ? 'Logging out…' : 'Logout'}
            </button>
          </HeaderMenu>
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
