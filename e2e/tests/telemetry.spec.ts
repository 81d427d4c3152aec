import { expect, test } from '@playwright/test';

import { corruptingSamples, findLink, importFabric, loginAs, pushTelemetry, SR4_MODEL } from './helpers';

const DARK_POLL = 10; // Z's receiver reports no light once

test('an operator pushes corrupting telemetry for a link and sees it on the link page and in the links table', async ({
  page,
}) => {
  await loginAs(page, 'operator');
  // A fabric of its own: the demo fabric already holds a day of telemetry up to the moment it was
  // loaded, and samples older than a link end's newest are stored but never derived, so a batch
  // "in the last two hours" could not change a demo link's health.
  const fabricName = `e2e-telemetry-${Date.now()}`;
  const fabric = await importFabric(page, {
    format: 'lightpath-fabric/1',
    name: fabricName,
    description: 'One ToR-to-fabric link for the telemetry journey.',
    tiers: ['tor', 'fabric'],
    capacity_constraint: 0.5,
    switches: [
      { name: 'tel-tor0', tier: 0, pod: 0, plane: null },
      { name: 'tel-fab0', tier: 1, pod: 0, plane: 0 },
    ],
    links: [
      {
        a: 'tel-tor0',
        a_port: 'eth2/1',
        b: 'tel-fab0',
        b_port: 'eth1/1',
        length_m: 12,
        speed_gbps: 100,
        fiber: 'MMF',
        transceiver_model: '100G-SR4',
      },
    ],
    transceiver_models: [SR4_MODEL],
  });
  // Names as the API reports them (the link list is where a collector would look them up).
  const link = await findLink(page.request, fabric.id);
  expect(link.health).toBe('unknown');

  // Corrupting A→Z (helpers' corruptingSamples), with Z's receiver dark once and some discards.
  const samples = corruptingSamples(link, {
    txDbm: { a: -1.0, z: -1.4 },
    outDiscardsPerWindow: 20,
    zRxDbm: (poll) => (poll === DARK_POLL ? -40 : -4.5),
  });
  const result = (await pushTelemetry(page, fabricName, samples)) as { inserted: number; derivation: string };
  expect(result.inserted).toBe(samples.length);
  // The push stores the samples; the worker derives health and events right after it commits.
  expect(result.derivation).toBe('queued');
  await expect
    .poll(async () => (await findLink(page.request, fabric.id)).health, { timeout: 30_000 })
    .toBe('corrupting');

  // The links table: filter by health through the form, then open the link page from the row.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Links', exact: true }).click();
  const filters = page.getByRole('form', { name: 'Link filters' });
  await filters.getByLabel('Fabric').selectOption({ label: fabricName });
  await expect(page).toHaveURL(new RegExp(`fabric=${fabric.id}`));
  // The box follows the URL, which the router updates in a transition: click, then wait for both.
  const corruptingBox = filters.getByRole('group', { name: 'Health' }).getByLabel('corrupting', { exact: true });
  await corruptingBox.click();
  await expect(page).toHaveURL(new RegExp(`fabric=${fabric.id}&health=corrupting`));
  await expect(corruptingBox).toBeChecked();
  const row = page.locator(`[data-testid="links-table"] tbody tr[data-link-id="${link.id}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('health-badge')).toHaveText('corrupting');
  await expect(page.locator('[data-testid="links-table"] tbody tr:not([data-health="corrupting"])')).toHaveCount(0);
  await row.getByRole('link', { name: `${link.a_switch_name} ${link.a_port}` }).click();

  // The link page: both ends, the health badge, readings with their limits.
  await expect(page).toHaveURL(new RegExp(`/links/${link.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `${link.a_switch_name} ${link.a_port} ↔ ${link.z_switch_name} ${link.z_port}`,
  );
  await expect(page.getByTestId('link-health').getByTestId('health-badge')).toHaveText('corrupting');
  const zEnd = page.getByRole('region', { name: `Z end ${link.z_switch_name} ${link.z_port}` });
  await expect(zEnd.getByRole('row', { name: /Rx power/ })).toContainText('−4.5 dBm');
  await expect(zEnd.getByRole('row', { name: /Rx lower/ })).toContainText(/catalog|device|manual/);

  // Power chart: four lines with data, their legend, the Rx limit line and the dark sample.
  const power = page.getByTestId('power-chart');
  await expect(power.getByRole('img', { name: /Tx and Rx optical power of both ends in dBm/ })).toBeVisible();
  await expect(power.getByTestId('power-line')).toHaveCount(4);
  for (const series of ['a-rx', 'a-tx', 'z-rx', 'z-tx']) {
    await expect(power.locator(`[data-testid="power-line"][data-series="${series}"]`)).toHaveAttribute('d', /^M.+L/);
  }
  const powerLegend = power.getByRole('list', { name: 'Optical power legend' });
  await expect(powerLegend).toContainText(`A Rx, average of lanes (${link.a_switch_name} ${link.a_port})`);
  await expect(powerLegend).toContainText(`Z Tx, average of lanes (${link.z_switch_name} ${link.z_port})`);
  await expect(powerLegend).toContainText('Rx lower limit');
  expect(await power.getByTestId('power-threshold').count()).toBeGreaterThanOrEqual(1);
  await expect(power.locator('[data-testid="no-light-mark"][data-series="z-rx"]')).toHaveCount(1);

  // Loss chart: A→Z corruption above the action threshold; zero corruption Z→A on the floor.
  const loss = page.getByTestId('loss-chart');
  await expect(loss.getByRole('img', { name: /loss rate per direction on a log scale/ })).toBeVisible();
  await expect(loss.locator('[data-testid="loss-line"][data-series="a_to_z-corruption"]')).toHaveAttribute(
    'd',
    /^M.+L/,
  );
  await expect(loss.getByRole('list', { name: 'Loss rate legend' })).toContainText('A→Z corruption');
  await expect(loss.getByRole('list', { name: 'Loss rate legend' })).toContainText('Action threshold (corrupting)');
  await expect(loss.getByTestId('loss-legend-zero')).toBeVisible();
  const actionY = Number(await loss.getByTestId('loss-threshold-action').getAttribute('y1'));
  const corruptionDots = loss.locator('[data-testid="loss-dot"][data-series="a_to_z-corruption"]');
  expect(await corruptionDots.count()).toBeGreaterThanOrEqual(1);
  for (const cy of await corruptionDots.evaluateAll((dots) => dots.map((dot) => Number(dot.getAttribute('cy'))))) {
    expect(cy).toBeLessThan(actionY); // higher on screen = larger rate
  }

  // The corruption event of direction A→Z, still open.
  const event = page
    .getByTestId('corruption-events')
    .locator('[data-testid="corruption-event"][data-direction="a_to_z"]');
  await expect(event).toHaveCount(1);
  await expect(event).toContainText('ongoing');

  // The loss signature of each direction over the chart's range (two hours: few intervals yet).
  await expect(page.getByTestId('signature-a_to_z')).toHaveText(
    /^(corruption-like|congestion-like|clean|unclear|insufficient data)/,
  );

  // Zoom: the 6 h button puts the range in the URL and the charts keep their data.
  await page.getByRole('group', { name: 'Time range' }).getByRole('button', { name: '6 h' }).click();
  await expect(page).toHaveURL(/from=.+&to=.+/);
  await expect(page.getByRole('group', { name: 'Time range' }).getByRole('button', { name: '6 h' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(power.locator('[data-testid="power-line"][data-series="z-rx"]')).toHaveAttribute('d', /^M.+L/);

  // Drag across the power chart: the range narrows to the brushed interval.
  await expect(page.getByTestId('range-readout')).not.toContainText('loading');
  const before = new URL(page.url());
  const overlay = power.locator('[data-testid="time-brush"] rect.overlay');
  await overlay.scrollIntoViewIfNeeded();
  const box = (await overlay.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.95, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => new URL(page.url()).searchParams.get('from')).not.toBe(before.searchParams.get('from'));
  const zoomed = new URL(page.url()).searchParams;
  const span = Date.parse(zoomed.get('to')!) - Date.parse(zoomed.get('from')!);
  expect(span).toBeLessThan(2 * 3_600_000);
  await expect(power.locator('[data-testid="power-line"][data-series="a-rx"]')).toHaveAttribute('d', /^M/);

  // Shared URL: the links table filtered by health=corrupting lists the link.
  await page.goto(`/links?fabric=${fabric.id}&health=corrupting`);
  await expect(page.locator(`[data-testid="links-table"] tbody tr[data-link-id="${link.id}"]`)).toBeVisible();
  await expect(
    page
      .getByRole('form', { name: 'Link filters' })
      .getByRole('group', { name: 'Health' })
      .getByLabel('corrupting', { exact: true }),
  ).toBeChecked();
});
