import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';

/** Demo users exist only in demo mode; username = role name. */
export const DEMO_PASSWORD = 'lightpath-demo';
export const DEMO_FABRIC = 'demo-fb';

/** The catalog's 100G-SR4 as a fabric document describes it, for the specs that import a fabric of their own. */
export const SR4_MODEL = {
  name: '100G-SR4',
  speed_gbps: 100,
  fiber: 'MMF',
  reach_m: 70,
  price_usd: null,
  rx_power_min_dbm: -10.3,
  rx_power_max_dbm: 2.4,
  tx_power_min_dbm: -8.4,
  tx_power_max_dbm: 2.4,
};

export async function loginThroughForm(page: Page, username: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export async function loginAs(page: Page, username: string): Promise<void> {
  await loginThroughForm(page, username);
  await expect(page.getByTestId('current-user')).toContainText(username);
}

/**
 * Follows a page's link in the top bar, opening what holds it first: the phone's "Menu", or the
 * bar's "Plan" / "More" menu (only the daily pages are links in the bar itself).
 */
export async function followNavLink(page: Page, name: string): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  // Folded links are hidden, so the lookup includes hidden ones.
  const link = nav.getByRole('link', { name, exact: true, includeHidden: true });
  await link.waitFor({ state: 'attached' });
  const phoneMenu = page.getByRole('button', { name: 'Menu', exact: true });
  if ((await phoneMenu.isVisible()) && (await phoneMenu.getAttribute('aria-expanded')) !== 'true') {
    await phoneMenu.click();
  }
  if (!(await link.isVisible())) {
    const folded = page.getByRole('link', { name, exact: true, includeHidden: true });
    await nav.locator('.header-menu').filter({ has: folded }).getByRole('button').click();
  }
  await link.click();
}

/** Opens the account menu (name, roles, theme, Logout) at the end of the top bar. */
export async function openAccountMenu(page: Page): Promise<void> {
  const account = page.getByTestId('current-user').getByRole('button', { name: /^Account: / });
  if ((await account.getAttribute('aria-expanded')) !== 'true') await account.click();
}

/** The session's CSRF token, for API calls made with page.request (which shares the browser's cookies). */
export async function csrfToken(context: BrowserContext, request: APIRequestContext): Promise<string> {
  const fromCookies = async () => (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value;
  const existing = await fromCookies();
  if (existing) return existing;
  const response = await request.get('/api/auth/csrf/');
  expect(response.ok()).toBeTruthy();
  const body = (await response.json()) as { csrf_token: string };
  return (await fromCookies()) ?? body.csrf_token;
}

export interface ApiListPage<T> {
  count: number;
  results: T[];
}

export interface FabricRow {
  id: number;
  name: string;
  switch_count: number;
  link_count: number;
}

export async function findFabric(request: APIRequestContext, name: string): Promise<FabricRow> {
  const response = await request.get('/api/fabrics/', { params: { limit: 1000 } });
  expect(response.ok(), `GET /api/fabrics/ answered ${response.status()}`).toBeTruthy();
  const page = (await response.json()) as ApiListPage<FabricRow>;
  const fabric = page.results.find((candidate) => candidate.name === name);
  expect(fabric, `fabric ${name} exists`).toBeDefined();
  return fabric!;
}

export interface CapacityAnswer {
  summary: { tors: number; below_constraint: number; min_fraction: number | null };
  tors: { name: string; below_constraint: boolean }[];
}

export interface LinkRow {
  id: number;
  fabric: number;
  a_switch_name: string;
  a_port: string;
  z_switch_name: string;
  z_port: string;
  health: 'unknown' | 'clean' | 'lossy' | 'corrupting';
  rx_low: boolean;
}

/** The first link of a fabric matching the filters (the API's own query parameters). */
export async function findLink(
  request: APIRequestContext,
  fabricId: number,
  filters: Record<string, string> = {},
): Promise<LinkRow> {
  const response = await request.get('/api/links/', { params: { fabric: fabricId, limit: 1, ...filters } });
  expect(response.ok(), `GET /api/links/ answered ${response.status()}`).toBeTruthy();
  const page = (await response.json()) as ApiListPage<LinkRow>;
  expect(page.results.length, `a link of fabric ${fabricId} with ${JSON.stringify(filters)}`).toBeGreaterThan(0);
  return page.results[0]!;
}

/** One sample of docs/telemetry.md: a link end at one instant, any subset of the measurements. */
export interface TelemetrySample {
  time: string;
  switch: string;
  port: string;
  [measurement: string]: string | number;
}

/** The two ends of a link, as the links API names them. */
export type LinkEnds = Pick<LinkRow, 'a_switch_name' | 'a_port' | 'z_switch_name' | 'z_port'>;

const FIVE_MINUTES_MS = 5 * 60_000;

/**
 * Two hours of telemetry (24 polls) that make a link corrupting A→Z, ending at the current minute:
 * optics every 5 minutes, counters every 15 (one window each third poll); Z receives 50 FCS errors
 * per million packets (5e-5, far above the 1e-6 action threshold), A receives cleanly.
 */
export function corruptingSamples(
  link: LinkEnds,
  {
    polls = 24,
    txDbm = { a: -1.2, z: -1.2 },
    outDiscardsPerWindow = 0,
    zRxDbm = () => -4.5,
  }: {
    polls?: number;
    txDbm?: { a: number; z: number };
    outDiscardsPerWindow?: number;
    /** Z's received power at a poll (a spec may make it go dark once). */
    zRxDbm?: (poll: number) => number;
  } = {},
): TelemetrySample[] {
  const start = Math.floor(Date.now() / 60_000) * 60_000 - (polls - 1) * FIVE_MINUTES_MS;
  const samples: TelemetrySample[] = [];
  for (let poll = 0; poll < polls; poll++) {
    const time = new Date(start + poll * FIVE_MINUTES_MS).toISOString();
    const window = poll % 3 === 0 ? poll / 3 + 1 : null;
    for (const end of [
      { switch: link.a_switch_name, port: link.a_port, rx: -3.1, tx: txDbm.a, fcs: 0 },
      { switch: link.z_switch_name, port: link.z_port, rx: zRxDbm(poll), tx: txDbm.z, fcs: 50 },
    ]) {
      const sample: TelemetrySample = {
        time,
        switch: end.switch,
        port: end.port,
        input_power_dbm: end.rx,
        output_power_dbm: end.tx,
      };
      if (window !== null) {
        Object.assign(sample, {
          in_pkts: window * 1_000_000,
          in_fcs_errors: window * end.fcs,
          out_pkts: window * 1_000_000,
          out_discards: window * outDiscardsPerWindow,
        });
      }
      samples.push(sample);
    }
  }
  return samples;
}

/** POST /api/telemetry/ as the logged-in user; fails the test with the API's errors if the batch is refused. */
export async function pushTelemetry(page: Page, fabricName: string, samples: TelemetrySample[]): Promise<unknown> {
  const token = await csrfToken(page.context(), page.request);
  const response = await page.request.post(`/api/telemetry/?fabric=${encodeURIComponent(fabricName)}`, {
    data: { samples },
    headers: { 'X-CSRFToken': token, 'Content-Type': 'application/json' },
  });
  expect(response.ok(), `POST /api/telemetry/ answered ${response.status()}: ${await response.text()}`).toBeTruthy();
  return response.json();
}

/** POST /api/fabrics/import/ as the logged-in user (planner or operator); the new fabric's row. */
export async function importFabric(page: Page, document: Record<string, unknown>): Promise<FabricRow> {
  const token = await csrfToken(page.context(), page.request);
  const response = await page.request.post('/api/fabrics/import/', {
    data: document,
    headers: { 'X-CSRFToken': token, 'Content-Type': 'application/json' },
  });
  expect(response.status(), `POST /api/fabrics/import/ answered: ${await response.text()}`).toBe(201);
  return (await response.json()) as FabricRow;
}
