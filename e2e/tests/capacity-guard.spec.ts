/**
 * The operator's controls of the capacity guard (docs/capacity-guard.md, issue #15): a link disabled
 * after its preview, a refusal naming the blocking ToR, a spine drained and undrained from the
 * topology's switch panel, and the optimizer run from Health with its result page.
 *
 * Every test puts back what it changed (links enabled again, constraints restored), so the shared
 * demo database stays as it was for the other specs.
 */
import { expect, test, type Page } from '@playwright/test';

import { csrfToken, DEMO_FABRIC, findFabric, loginAs, type ApiListPage } from './helpers';

interface GuardTor {
  switch: number;
  name: string;
  paths_before: number;
  paths_after: number;
  required_paths: number;
  design_paths: number;
  constraint: number;
}

interface GuardPreview {
  verdict: 'safe' | 'unsafe';
  detail: string;
  links: number[];
  affected_tors: GuardTor[];
  blocking_tors: GuardTor[];
}

interface TorCapacity {
  switch: number;
  name: string;
  available_paths: number;
  total_paths: number;
  below_constraint: boolean;
}

interface Link {
  id: number;
  a_switch: number;
  z_switch: number;
  admin_state: 'enabled' | 'disabled';
  admin_reason: string;
  oper_state: 'up' | 'down';
}

interface Constraints {
  default: number;
  overrides: Record<string, number>;
}

/** page.request with the session's CSRF token: the logged-in user's own API calls. */
async function send(page: Page, method: 'PATCH' | 'POST' | 'PUT', path: string, data?: unknown) {
  const token = await csrfToken(page.context(), page.request);
  return page.request.fetch(path, {
    method,
    data,
    headers: { 'X-CSRFToken': token },
  });
}

async function getJson<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path);
  expect(response.ok(), `GET ${path} answered ${response.status()}`).toBeTruthy();
  return (await response.json()) as T;
}

async function capacity(page: Page, fabricId: number): Promise<TorCapacity[]> {
  return (await getJson<{ tors: TorCapacity[] }>(page, `/api/fabrics/${fabricId}/capacity/`)).tors;
}

/** A ToR's enabled, up links (its uplinks: a ToR is always the A end). */
async function usableLinks(page: Page, fabricId: number, switchId: number): Promise<Link[]> {
  const query = `fabric=${fabricId}&switch=${switchId}&admin_state=enabled&oper_state=up&limit=100`;
  return (await getJson<ApiListPage<Link>>(page, `/api/links/?${query}`)).results;
}

async function previewDisable(page: Page, linkId: number): Promise<GuardPreview> {
  const response = await send(page, 'PATCH', `/api/links/${linkId}/?dry_run=1`, {
    admin_state: 'disabled',
    admin_reason: '',
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as GuardPreview;
}

/** Puts a link back as it was (a no-op when it already is). */
async function restoreLink(page: Page, link: Link): Promise<void> {
  const response = await send(page, 'PATCH', `/api/links/${link.id}/`, {
    admin_state: link.admin_state,
    admin_reason: link.admin_reason,
  });
  expect(response.ok(), `restoring link ${link.id}: ${await response.text()}`).toBeTruthy();
}

/**
 * A ToR with every up-path available whose first usable uplink may be disabled (its own constraint
 * allows losing those paths, not twice as many), and a second uplink.
 */
async function fullTor(page: Page, fabricId: number) {
  for (const tor of await capacity(page, fabricId)) {
    if (tor.available_paths !== tor.total_paths) continue;
    const links = await usableLinks(page, fabricId, tor.switch);
    if (links.length < 2) continue;
    const preview = await previewDisable(page, links[0]!.id);
    const row = preview.affected_tors.find((affected) => affected.name === tor.name);
    if (preview.verdict !== 'safe' || !row) continue;
    // Taking a second uplink's paths too must be refused, for the race below.
    if (row.paths_after - (row.paths_before - row.paths_after) >= row.required_paths) continue;
    return { tor, links, preview, row };
  }
  throw new Error(`no ToR of ${DEMO_FABRIC} has all its up-paths and a safe uplink to disable`);
}

function guardRow(page: Page, testId: string, torName: string) {
  return page.getByTestId(testId).locator(`[data-testid="guard-tor"][data-tor="${torName}"]`);
}

test('an operator previews a link’s disable, sees every ToR before → after, disables it and enables it again', async ({
  page,
}) => {
  await loginAs(page, 'operator');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  const { tor, links } = await fullTor(page, fabric.id);
  const link = links[0]!;
  const expected = await previewDisable(page, link.id);
  expect(expected.verdict).toBe('safe');
  const affected = expected.affected_tors.find((row) => row.name === tor.name)!;

  try {
    await page.goto(`/links/${link.id}`);
    await expect(page.getByTestId('link-admin-state')).toContainText('enabled');
    await page.getByRole('button', { name: 'Disable link…' }).click();

    const dialog = page.getByRole('dialog', { name: /^Disable / });
    await expect(dialog.getByTestId('guard-verdict')).toContainText('Safe');
    await expect(dialog.getByTestId('guard-verdict')).toContainText(expected.detail);
    const row = guardRow(page, 'disable-dialog', tor.name);
    await expect(row).toContainText(`${affected.paths_before} → ${affected.paths_after} of ${affected.design_paths}`);
    await expect(row).toContainText(`${affected.required_paths} (${affected.constraint})`);
    await expect(row).toContainText('keeps its constraint');
    // A preview changes nothing.
    expect((await getJson<Link>(page, `/api/links/${link.id}/`)).admin_state).toBe('enabled');

    await dialog.getByLabel(/^Reason/).fill('e2e: reseat the optics');
    await dialog.getByRole('button', { name: 'Disable link', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('link-change-done')).toHaveText('Disabled.');
    await expect(page.getByTestId('link-admin-state')).toContainText('disabled');
    await expect(page.getByTestId('link-admin-state')).toContainText('e2e: reseat the optics');
    const after = await getJson<Link>(page, `/api/links/${link.id}/`);
    expect([after.admin_state, after.admin_reason]).toEqual(['disabled', 'e2e: reseat the optics']);

    await page.getByRole('button', { name: 'Enable link…' }).click();
    const enable = page.getByRole('dialog', { name: /^Enable / });
    await expect(enable).toContainText('Enabling is always allowed');
    await expect(enable).toContainText('CorrOpt’s optimizer re-runs on this fabric');
    await enable.getByRole('button', { name: 'Enable link', exact: true }).click();
    await expect(enable).toBeHidden();
    await expect(page.getByTestId('link-admin-state')).toContainText('enabled');
  } finally {
    await restoreLink(page, link);
  }
});

test('a change the guard refuses names the blocking ToR: in the preview, and in the 409 of a race', async ({
  page,
}) => {
  await loginAs(page, 'operator');
  const fabric = await findFabric(page.request, DEMO_FABRIC);

  // A ToR already under its constraint may lose nothing more: any of its usable links is refused.
  const under = (await capacity(page, fabric.id)).find((tor) => tor.below_constraint);
  expect(under, `${DEMO_FABRIC} has a ToR under its constraint`).toBeDefined();
  const [unsafeLink] = await usableLinks(page, fabric.id, under!.switch);
  expect(unsafeLink, `${under!.name} has a usable link`).toBeDefined();
  const refused = await previewDisable(page, unsafeLink!.id);
  expect(refused.verdict).toBe('unsafe');
  const blocking = refused.blocking_tors[0]!;
  expect(blocking.name).toBe(under!.name);

  await page.goto(`/links/${unsafeLink!.id}`);
  await page.getByRole('button', { name: 'Disable link…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Disable / });
  await expect(dialog.getByTestId('guard-verdict')).toContainText('Unsafe');
  const row = guardRow(page, 'disable-dialog', blocking.name);
  await expect(row).toHaveAttribute('data-falls-under', 'true');
  await expect(row).toContainText(`${blocking.paths_before} → ${blocking.paths_after} of ${blocking.design_paths}`);
  await expect(row).toContainText(`${blocking.required_paths} (${blocking.constraint})`);
  await expect(row).toContainText('falls under its constraint');
  // An operator cannot push it through; there is no override for them.
  await expect(dialog.getByRole('button', { name: 'Disable link', exact: true })).toBeDisabled();
  await expect(dialog.getByRole('checkbox', { name: /Override capacity/ })).toHaveCount(0);
  await expect(dialog.getByTestId('guard-no-override')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // A race: the preview was safe, then another change took the ToR's headroom before Confirm.
  const { tor, links } = await fullTor(page, fabric.id);
  const [first, second] = [links[0]!, links[1]!];
  try {
    await page.goto(`/links/${first.id}`);
    await page.getByRole('button', { name: 'Disable link…' }).click();
    const race = page.getByRole('dialog', { name: /^Disable / });
    await expect(race.getByTestId('guard-verdict')).toContainText('Safe');

    const other = await send(page, 'PATCH', `/api/links/${second.id}/`, {
      admin_state: 'disabled',
      admin_reason: 'e2e: taken first',
    });
    expect(other.status(), await other.text()).toBe(200);

    await race.getByRole('button', { name: 'Disable link', exact: true }).click();
    const refusal = race.getByTestId('guard-refusal');
    await expect(refusal).toBeVisible();
    await expect(refusal).toContainText(tor.name);
    await expect(refusal).toContainText('Nothing changed.');
    const blocked = refusal.locator(`[data-testid="guard-tor"][data-tor="${tor.name}"]`);
    await expect(blocked).toHaveAttribute('data-falls-under', 'true');
    expect((await getJson<Link>(page, `/api/links/${first.id}/`)).admin_state).toBe('enabled');
  } finally {
    await restoreLink(page, second);
    await restoreLink(page, first);
  }
});

test('a spine is drained and undrained from the topology’s switch panel', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, 'operator');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  const topology = await getJson<{
    switches: { id: number; name: string; tier: number }[];
  }>(page, `/api/fabrics/${fabric.id}/topology/`);
  const top = Math.max(...topology.switches.map((sw) => sw.tier));
  const spines = topology.switches.filter((sw) => sw.tier === top);

  // Each spine's drain as the guard sees it now.
  const previews = [];
  for (const spine of spines) {
    const response = await send(page, 'POST', `/api/switches/${spine.id}/drain/?dry_run=1`, {});
    expect(response.status(), await response.text()).toBe(200);
    previews.push({ spine, preview: (await response.json()) as GuardPreview });
  }
  // ToRs that keep a corrupting link in service: lowering their constraint would let the optimizer
  // disable it (and nothing puts it back), so the test never touches them.
  const kept = await getJson<ApiListPage<{ blocking_tor_name: string | null }>>(
    page,
    `/api/decisions/?fabric=${fabric.id}&kept_for_capacity=true&limit=500`,
  );
  const keeping = new Set(kept.results.map((decision) => decision.blocking_tor_name));
  const candidates = previews
    .filter(({ preview }) => preview.blocking_tors.every((tor) => !keeping.has(tor.name)))
    .sort((a, b) => a.preview.blocking_tors.length - b.preview.blocking_tors.length);
  expect(candidates.length, 'a spine whose drain blocks no ToR that keeps a corrupting link').toBeGreaterThan(0);
  const { spine, preview } = candidates[0]!;

  const before = await getJson<Constraints>(page, `/api/fabrics/${fabric.id}/constraints/`);
  const lowered = preview.blocking_tors.length > 0;
  try {
    if (lowered) {
      // At the default constraint every spine's drain is refused on demo-fb (ToRs sit at their floor):
      // let each blocking ToR lose exactly the path the drain takes, for this test only.
      const overrides = { ...before.overrides };
      for (const tor of preview.blocking_tors) overrides[tor.name] = tor.paths_after / tor.design_paths;
      const put = await send(page, 'PUT', `/api/fabrics/${fabric.id}/constraints/`, {
        default: before.default,
        overrides,
      });
      expect(put.status(), await put.text()).toBe(200);
    }

    await page.goto(`/fabrics/${fabric.id}`);
    const node = page.locator(`circle.topology-node[data-switch="${spine.name}"]`);
    await expect(node).toBeVisible();
    const box = (await node.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);

    const panel = page.getByTestId('switch-panel');
    await expect(panel.getByRole('heading', { name: spine.name })).toBeVisible();
    await expect(panel.getByTestId('switch-drained')).toHaveCount(0);
    await panel.getByRole('button', { name: 'Drain…', exact: true }).click();

    const drain = page.getByRole('dialog', { name: `Drain ${spine.name}` });
    await expect(drain.getByTestId('guard-verdict')).toContainText('Safe');
    const affected = drain.getByTestId('guard-tor');
    await expect(affected.first()).toBeVisible();
    expect(await affected.count()).toBeGreaterThan(0);
    await expect(drain.locator('[data-testid="guard-tor"][data-falls-under="true"]')).toHaveCount(0);
    await drain.getByLabel(/^Reason/).fill('e2e PSU swap');
    await drain.getByRole('button', { name: 'Drain switch', exact: true }).click();
    await expect(drain).toBeHidden();
    await expect(panel.getByTestId('switch-change-done')).toContainText(
      /^Drained: \d+ links? disabled for maintenance\.$/,
    );
    await expect(panel.getByTestId('switch-drained')).toHaveText('drained');

    const drained = await getJson<ApiListPage<Link>>(
      page,
      `/api/links/?fabric=${fabric.id}&switch=${spine.id}&admin_state=disabled&limit=100`,
    );
    expect(drained.results.some((link) => link.admin_reason === 'maintenance: e2e PSU swap')).toBe(true);

    await panel.getByRole('button', { name: 'Undrain…', exact: true }).click();
    const undrain = page.getByRole('dialog', { name: `Undrain ${spine.name}` });
    await expect(undrain.getByTestId('guard-verdict')).toContainText('Safe');
    await expect(undrain.getByTestId('guard-tor').first()).toContainText('gains up-paths');
    await undrain.getByRole('button', { name: 'Undrain switch', exact: true }).click();
    await expect(undrain).toBeHidden();
    await expect(panel.getByTestId('switch-change-done')).toContainText(/^Undrained: \d+ links? back in service\.$/);
    await expect(panel.getByTestId('switch-drained')).toHaveCount(0);
  } finally {
    const sw = await getJson<{ drained: boolean }>(page, `/api/switches/${spine.id}/`);
    if (sw.drained) await send(page, 'POST', `/api/switches/${spine.id}/undrain/`, {});
    if (lowered) {
      const put = await send(page, 'PUT', `/api/fabrics/${fabric.id}/constraints/`, {
        default: before.default,
        overrides: before.overrides,
      });
      expect(put.status(), await put.text()).toBe(200);
    }
  }
});

test('the optimizer runs from Health and its result page lists what it did', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, 'operator');
  const fabric = await findFabric(page.request, DEMO_FABRIC);

  await page.goto(`/fabric-health?fabric=${fabric.id}`);
  await page.getByRole('button', { name: 'Run optimizer now' }).click();
  await expect(page).toHaveURL(/\/optimizer\/\d+$/);
  const jobId = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(
    page.getByRole('heading', {
      level: 1,
      name: `Optimizer run #${jobId} on ${DEMO_FABRIC}`,
    }),
  ).toBeVisible();
  await expect(page.getByTestId('optimizer-status')).toHaveAttribute('data-state', 'succeeded', { timeout: 90_000 });
  await expect(page.getByRole('progressbar', { name: 'Optimizer run progress' })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );

  const job = await getJson<{
    kind: string;
    result: {
      candidates: number;
      disabled: { link_name: string }[];
      kept: { link_name: string; blocking_tor_name: string | null }[];
      still_kept: number;
      reasons: string[];
      proven_optimal: boolean;
    };
  }>(page, `/api/jobs/${jobId}/`);
  expect(job.kind).toBe('corruption.optimize');
  const { result } = job;
  expect(result.reasons.length).toBeGreaterThan(0);
  for (const reason of result.reasons) await expect(page.getByTestId('optimizer-reasons')).toContainText(reason);
  await expect(page.getByTestId('optimizer-candidates')).toHaveText(String(result.candidates));
  await expect(page.getByTestId('optimizer-disabled-count')).toHaveText(String(result.disabled.length));
  await expect(page.getByTestId('optimizer-optimality')).toContainText(
    result.proven_optimal ? 'Proven optimal' : 'Not proven optimal',
  );
  if (result.disabled.length === 0) await expect(page.getByTestId('optimizer-disabled-empty')).toBeVisible();
  for (const row of result.disabled) await expect(page.getByTestId('optimizer-disabled')).toContainText(row.link_name);
  for (const row of result.kept) {
    const line = page.getByTestId('optimizer-kept').getByRole('row', { name: new RegExp(row.link_name) });
    await expect(line).toContainText(row.blocking_tor_name ?? '—');
  }
  if (result.still_kept > 0) {
    await expect(page.getByTestId('optimizer-still-kept')).toContainText(String(result.still_kept));
    // Those links are listed as kept now, each with the ToR that blocks it.
    const keptNow = await getJson<ApiListPage<{ link_name: string; blocking_tor_name: string }>>(
      page,
      `/api/decisions/?fabric=${fabric.id}&kept_for_capacity=true&limit=500`,
    );
    for (const decision of keptNow.results) {
      const line = page.getByTestId('optimizer-kept-now-row').filter({ hasText: decision.link_name });
      await expect(line).toContainText(decision.blocking_tor_name);
    }
  }

  // Jobs links the run's number to this page.
  await page.goto('/jobs');
  await page
    .locator(`[data-testid="job-row"][data-job-id="${jobId}"]`)
    .getByRole('link', { name: `#${jobId}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/optimizer/${jobId}$`));
  await expect(page.getByTestId('optimizer-status')).toHaveAttribute('data-state', 'succeeded');
});
