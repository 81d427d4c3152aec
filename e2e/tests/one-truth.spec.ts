/**
 * One truth per number (issue #20): the Health page's "Corrupting links in service", the topology
 * legend beside it and the Links page filtered to corrupting links in service show the same count
 * for the demo fabric (its derivation leaves corrupting links, some kept in service for capacity).
 */
import { expect, test } from "@playwright/test";

import { DEMO_FABRIC, findFabric, loginAs } from "./helpers";

test("Health, the topology legend and the filtered Links page count the same corrupting links", async ({
  page,
}) => {
  await loginAs(page, "viewer");
  const fabric = await findFabric(page.request, DEMO_FABRIC);
  await page.goto(`/fabric-health?fabric=${fabric.id}`);

  const metric = page.getByTestId("metric-corrupting-in-service");
  await expect(metric).toHaveText(/^\d+$/);
  const count = Number(await metric.textContent());
  await expect(page.getByTestId("legend-corrupting-in-service")).toHaveText(
    `Corrupting in service (${count.toLocaleString("en-US")})`,
  );
  await expect(page.getByTestId("health-updated")).toContainText(
    /Updated \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
  );

  await metric.getByRole("link").click();
  await expect(page).toHaveURL(
    new RegExp(`/links\\?fabric=${fabric.id}&corrupting_in_service=true`),
  );
  await expect(page.getByLabel("Corrupting in service only")).toBeChecked();
  if (count === 0) {
    await expect(page.getByTestId("links-empty")).toBeVisible();
  } else {
    await expect(
      page.getByRole("navigation", { name: "Links pages" }),
    ).toContainText(`of ${count.toLocaleString("en-US")}`);
  }
});
