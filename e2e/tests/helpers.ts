import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';

/** Demo users exist only in demo mode; username = role name. */
export const DEMO_PASSWORD = 'lightpath-demo';
export const DEMO_FABRIC = 'demo-fb';

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
