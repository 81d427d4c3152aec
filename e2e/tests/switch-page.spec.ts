import { expect, test } from '@playwright/test';

import { type ApiListPage, type CapacityAnswer, DEMO_FABRIC, findFabric, loginAs } from './helpers';

interface SwitchRow {
  id: number;
  name: string;
  rack: string;
}

test('a ToR page: its links with both racks, its capacity, the way to the filtered links, its neighbours', async ({
  page,
}) => {
  await loginAs(page, 'viewer');
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  const capacity = (await (await page.request.get(`/api/fabrics/${fabric.id}/capacity/`)).json()) as CapacityAnswer & {
    tors: {
      switch: number;
      name: string;
      available_paths: number;
      total_paths: number;
    }[];
  };
  const tor = capacity.tors[0]!;
  const switches = (await (
    await page.request.get('/api/switches/', {
      params: { fabric: fabric.id, name: tor.name },
    })
  ).json()) as ApiListPage<SwitchRow>;
  const row = switches.results[0]!;
  const links = (await (
    await page.request.get('/api/links/', {
      params: { fabric: fabric.id, switch: tor.switch, limit: 1 },
    })
  ).json()) as ApiListPage<{ z_switch: number; z_switch_name: string }>;

  const overview = (await (await page.request.get(`/api/switches/${tor.switch}/overview/`)).json()) as {
    drained: boolean;
  };

  await page.goto(`/switches/${tor.switch}`);
  await expect(page.getByRole('heading', { level: 1, name: tor.name })).toBeVisible();
  await expect(page.getByTestId('switch-facts')).toContainText(row.rack);
  await expect(page.getByTestId('drain-state')).toContainText(overview.drained ? /^Drained: / : /^Not drained: /);
  await expect(page.getByTestId('switch-capacity')).toContainText(
    `${tor.available_paths.toLocaleString('en-US')} of ${tor.total_paths.toLocaleString('en-US')} up-paths`,
  );
  const table = page.getByTestId('switch-links');
  await expect(table.locator('tbody tr')).toHaveCount(links.count);
  await expect(table.locator('tbody tr').first()).toContainText(row.rack); // side A's rack, the ToR's

  // The far end opens its own page: a switch above the ToRs has no capacity of its own.
  await table.getByRole('link', { name: links.results[0]!.z_switch_name }).first().click();
  await expect(page).toHaveURL(new RegExp(`/switches/${links.results[0]!.z_switch}$`));
  await expect(
    page.getByRole('heading', {
      level: 1,
      name: links.results[0]!.z_switch_name,
    }),
  ).toBeVisible();
  await expect(page.getByTestId('switch-capacity')).toHaveCount(0);
  await page.goBack();

  await page.getByRole('link', { name: 'Links of this switch in the links list' }).click();
  await expect(page).toHaveURL(new RegExp(`/links\\?fabric=${fabric.id}&switch=${tor.switch}`));
  await expect(page.getByTestId('links-table').locator('tbody tr')).toHaveCount(links.count);
  // In the Links list a switch's name opens its page too.
  await page
    .getByTestId('links-table')
    .locator('tbody tr')
    .first()
    .getByRole('link', { name: links.results[0]!.z_switch_name, exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`/switches/${links.results[0]!.z_switch}$`));
});
