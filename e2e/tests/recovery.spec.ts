/**
 * Capacity recovery on the fabric page (issue #18): a ToR falls under its requirement because a link
 * went out of service, and the page proposes the lossy links whose re-enabling brings it back.
 *
 * The demo: CorrOpt disables two corrupting spine uplinks of pod 1 (p1-fab0's and p1-fab2's), so pod
 * 1's ToRs run on 14 of 16 up-paths (12 required); p1-tor3, which lost two uplinks, is under its
 * requirement and no lossy link helps it (it needs a repair). An admin takes p1-tor0's uplink to
 * p1-fab1 out of service with an override (a fibre pulled for a splice): p1-tor0 falls to 10, and
 * re-enabling both lossy uplinks brings it to 12. A viewer reads the proposal; an operator applies
 * it. When the admin puts the uplink back, CorrOpt disables the two lossy links again by itself, so
 * the demo is as it was for the other specs.
 */
import { expect, test, type Page } from "@playwright/test";

import {
  type ApiListPage,
  csrfToken,
  DEMO_FABRIC,
  findFabric,
  type LinkRow,
  loginAs,
} from "./helpers";

interface LinkState extends LinkRow {
  admin_state: "enabled" | "disabled";
  admin_reason: string;
}

async function send(page: Page, path: string, data: unknown) {
  const token = await csrfToken(page.context(), page.request);
  return page.request.fetch(path, {
    method: "PATCH",
    data,
    headers: { "X-CSRFToken": token },
  });
}

async function links(
  page: Page,
  query: Record<string, string | number>,
): Promise<LinkState[]> {
  const response = await page.request.get("/api/links/", {
    params: { limit: 200, ...query },
  });
  expect(
    response.ok(),
    `GET /api/links/ answered ${response.status()}`,
  ).toBeTruthy();
  return ((await response.json()) as ApiListPage<LinkState>).results;
}

/** Pod 1's spine uplinks disabled for corruption now, by id. */
async function disabledUplinks(
  page: Page,
  fabricId: number,
): Promise<LinkState[]> {
  return (await links(page, { fabric: fabricId, admin_state: "disabled" }))
    .filter(
      (link) =>
        ["p1-fab0", "p1-fab2"].includes(link.a_switch_name) &&
        link.admin_reason === "corruption",
    )
    .sort((a, b) => a.id - b.id);
}

/** The two of them, once the worker has decided them (after the stack starts). */
async function lossyUplinks(
  page: Page,
  fabricId: number,
): Promise<LinkState[]> {
  let found: LinkState[] = [];
  await expect
    .poll(
      async () => {
        found = await disabledUplinks(page, fabricId);
        return found.length;
      },
      {
        message: "pod 1's corrupting spine uplinks disabled by CorrOpt",
        timeout: 90_000,
        intervals: [1_000, 2_000],
      },
    )
    .toBe(2);
  return found;
}

async function switchUser(page: Page, username: string) {
  await page.context().clearCookies();
  await loginAs(page, username);
}

test.describe("capacity recovery on a phone (390x844)", () => {
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });

  test("a ToR under its requirement: the proposal read-only for a viewer, applied by an operator", async ({
    page,
  }) => {
    test.slow(); // the worker disables the lossy links again at the end
    await loginAs(page, "admin");
    const fabric = await findFabric(page.request, DEMO_FABRIC);
    const lossy = await lossyUplinks(page, fabric.id);
    const [uplink] = (
      await links(page, { fabric: fabric.id, admin_state: "enabled" })
    ).filter(
      (link) =>
        link.a_switch_name === "p1-tor0" && link.z_switch_name === "p1-fab1",
    );
    expect(uplink, "p1-tor0's uplink to p1-fab1 is in service").toBeDefined();

    // Before: only p1-tor3 is under, and it needs a repair: nothing to re-enable.
    await page.goto(`/fabrics/${fabric.id}`);
    const panel = page.getByTestId("recovery");
    await expect(panel.getByTestId("recovery-under-tor")).toHaveCount(1);
    await expect(panel.getByTestId("recovery-under-tor")).toHaveAttribute(
      "data-tor",
      "p1-tor3",
    );
    await expect(panel.getByTestId("recovery-unreachable")).toContainText(
      "p1-tor3: no lossy link brings it above 8",
    );
    // What to repair for it is named: its uplinks out of service, each a link.
    await expect(
      panel.getByTestId("recovery-unreachable").getByRole("link", { name: /^p1-tor3:/ }).first(),
    ).toBeVisible();
    await expect(panel.getByTestId("recovery-link")).toHaveCount(0);

    // The admin takes the uplink out of service past the guard, with a reason.
    const down = await send(page, `/api/links/${uplink!.id}/`, {
      admin_state: "disabled",
      admin_reason: "fibre pulled for a splice",
      override_capacity: true,
    });
    expect(down.status(), await down.text()).toBe(200);

    try {
      // A viewer sees who is short, worst first, what would bring p1-tor0 back, and why they cannot apply it.
      await switchUser(page, "viewer");
      await page.goto(`/fabrics/${fabric.id}`);
      await expect(panel.getByTestId("recovery-under-tor")).toHaveCount(2);
      await expect(
        panel.getByTestId("recovery-under-tor").nth(0),
      ).toHaveAttribute("data-tor", "p1-tor3");
      await expect(
        panel.getByTestId("recovery-under-tor").nth(0),
      ).toContainText("8 of 16");
      await expect(
        panel.getByTestId("recovery-under-tor").nth(1),
      ).toHaveAttribute("data-tor", "p1-tor0");
      await expect(
        panel.getByTestId("recovery-under-tor").nth(1),
      ).toContainText("10 of 16");
      await expect(panel.getByTestId("recovery-link")).toHaveCount(2);
      for (const [index, link] of lossy.entries()) {
        await expect(
          panel.getByTestId("recovery-link").nth(index),
        ).toHaveAttribute("data-link-id", String(link.id));
      }
      await expect(panel.getByTestId("recovery-penalty")).toContainText(
        /Added penalty: \S+ \(the least possible\)/,
      );
      await expect(panel.getByTestId("recovery-unreachable")).toContainText(
        "p1-tor3",
      );
      await expect(panel.getByTestId("recovery-read-only")).toContainText(
        "operators and admins apply a recovery",
      );
      await expect(panel.getByRole("button", { name: /Apply/ })).toHaveCount(0);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(390);

      // An operator applies it: both lossy uplinks come back, p1-tor0 with them; p1-tor3 still needs a repair.
      await switchUser(page, "operator");
      await page.goto(`/fabrics/${fabric.id}`);
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({
        path: test.info().outputPath("recovery-panel-operator.png"),
      });
      await panel
        .getByRole("button", { name: "Apply: re-enable 2 links" })
        .click();
      await panel
        .getByRole("button", { name: "Confirm: re-enable 2 links" })
        .click();
      await expect(panel.getByTestId("recovery-applied")).toContainText(
        "Enabled 2 lossy links",
      );
      await expect(panel.getByTestId("recovery-under-tor")).toHaveCount(1);
      await expect(panel.getByTestId("recovery-under-tor")).toHaveAttribute(
        "data-tor",
        "p1-tor3",
      );
      await expect(panel.getByTestId("recovery-link")).toHaveCount(0);
      for (const link of lossy) {
        const [now] = (await links(page, { fabric: fabric.id })).filter(
          (row) => row.id === link.id,
        );
        expect(now).toMatchObject({
          admin_state: "enabled",
          admin_reason: "restoration: capacity recovery",
        });
      }
      // The capacity bars agree: p1-tor0 is no longer below its constraint.
      const capacity = (await (
        await page.request.get(`/api/fabrics/${fabric.id}/capacity/`)
      ).json()) as {
        tors: { name: string; below_constraint: boolean }[];
      };
      expect(
        capacity.tors.find((tor) => tor.name === "p1-tor0")?.below_constraint,
      ).toBe(false);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(390);
    } finally {
      // The uplink back: CorrOpt disables the lossy uplinks again once the guard allows it.
      await switchUser(page, "admin");
      const up = await send(page, `/api/links/${uplink!.id}/`, {
        admin_state: "enabled",
        admin_reason: "",
      });
      expect(up.status(), await up.text()).toBe(200);
    }
    await expect
      .poll(
        async () =>
          (await disabledUplinks(page, fabric.id)).map((link) => link.id),
        {
          message: "CorrOpt disables the recovered lossy links again",
          timeout: 90_000,
        },
      )
      .toEqual(lossy.map((link) => link.id));
  });
});
