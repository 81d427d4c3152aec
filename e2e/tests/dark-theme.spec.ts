import { expect, type Locator, type Page, test } from "@playwright/test";

import { DEMO_FABRIC, findFabric, loginAs, openAccountMenu } from "./helpers";

// The browser says the system is dark: the UI follows it until the account menu's theme chooses.
test.use({ colorScheme: "dark" });

/** The page background's lightness, 0 (black) to 255 (white). */
async function pageLightness(page: Page): Promise<number> {
  const color = await page.evaluate(
    () => getComputedStyle(document.documentElement).backgroundColor,
  );
  const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number);
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

test("a dark system gets the dark theme; the account menu picks light or dark, remembered, and goes back to the system", async ({
  page,
}) => {
  await loginAs(page, "viewer");
  await page.goto("/fabric-health");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await openAccountMenu(page);
  const theme = page.getByRole("group", { name: "Theme" });
  await expect(theme.getByRole("radio", { name: "System (dark)" })).toBeChecked();
  // The three choices share one row (trial 30: "Dark" wrapped onto a second line at 1440 px).
  const tops = await theme
    .locator("label")
    .evaluateAll((labels) => labels.map((label) => Math.round(label.getBoundingClientRect().top)));
  expect(tops).toHaveLength(3);
  expect(new Set(tops).size).toBe(1);
  expect(await pageLightness(page)).toBeLessThan(60);
  // Text stays readable: the ink is light on the dark page.
  const ink = await page.evaluate(
    () => getComputedStyle(document.querySelector("h1") as Element).color,
  );
  expect(Number(ink.match(/\d+/)?.[0])).toBeGreaterThan(180);

  await theme.getByRole("radio", { name: "Light", exact: true }).check();
  expect(await pageLightness(page)).toBeGreaterThan(200);

  await page.reload();
  await openAccountMenu(page);
  await expect(theme.getByRole("radio", { name: "Light", exact: true })).toBeChecked();
  expect(await pageLightness(page)).toBeGreaterThan(200);

  await theme.getByRole("radio", { name: "Dark", exact: true }).check();
  expect(await pageLightness(page)).toBeLessThan(60);

  // Back to the system (trial 30: once chosen, light or dark could not be undone): still dark
  // here, and it stays the system's after a reload.
  await theme.getByRole("radio", { name: "System (dark)" }).check();
  expect(await pageLightness(page)).toBeLessThan(60);
  await page.reload();
  await openAccountMenu(page);
  await expect(theme.getByRole("radio", { name: "System (dark)" })).toBeChecked();
  await page.emulateMedia({ colorScheme: "light" });
  await expect(theme.getByRole("radio", { name: "System (light)" })).toBeChecked();
  expect(await pageLightness(page)).toBeGreaterThan(200);
});

/** WCAG contrast of an element's text on its own background (both opaque here). */
async function badgeContrast(page: Page, selector: string): Promise<number> {
  return page.locator(selector).first().evaluate((element) => {
    const style = getComputedStyle(element);
    const luminance = (color: string) => {
      const [r, g, b] = (color.match(/\d+/g) ?? []).slice(0, 3).map((part) => {
        const channel = Number(part) / 255;
        return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
    return (light! + 0.05) / (dark! + 0.05);
  });
}

test("in the dark theme the tickets' state badges stay readable", async ({ page }) => {
  await loginAs(page, "viewer");
  await page.goto("/tickets");
  const badge = '[data-testid="ticket-row"] .badge[class*="badge-ticket-"]';
  await expect(page.locator(badge).first()).toBeVisible({ timeout: 90_000 });
  // Trial 29: the base badge's grey (dark slate here) covered each state's own colours, 1.4:1.
  expect(await badgeContrast(page, badge)).toBeGreaterThanOrEqual(4.5);
});

/**
 * WCAG contrast of a chart mark's paint (an SVG text's fill, a line's stroke) on the first opaque
 * background behind it, the paint blended by its own and its ancestors' opacity.
 */
async function paintContrast(
  mark: Locator,
  paint: "fill" | "stroke" | "background-color" | "border-top-color",
): Promise<number> {
  return mark.evaluate((element, property) => {
    const channels = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const [lr, lg, lb] = [r!, g!, b!].map((value) => {
        const channel = value / 255;
        return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * lr! + 0.7152 * lg! + 0.0722 * lb!;
    };
    const style = getComputedStyle(element);
    let alpha = Number(style.getPropertyValue(`${property}-opacity`) || 1);
    for (let node: Element | null = element; node; node = node.parentElement) {
      alpha *= Number(getComputedStyle(node).opacity);
    }
    // Behind the mark: its parent's background on up (a swatch's own background is its paint).
    let background: number[] | null = null;
    for (let node = element.parentElement; node && background === null; node = node.parentElement) {
      const back = channels(getComputedStyle(node).backgroundColor);
      if (back.length >= 3 && (back[3] ?? 1) > 0) background = back;
    }
    const page = background ?? [255, 255, 255];
    const ink = channels(style.getPropertyValue(property)).slice(0, 3);
    const seen = ink.map((value, index) => alpha * value + (1 - alpha) * page[index]!);
    const [light, dark] = [luminance(seen), luminance(page)].sort((a, b) => b - a);
    return (light! + 0.05) / (dark! + 0.05);
  }, paint);
}

test("in the dark theme the power chart's limit labels and Health's ticket lines stay readable", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await loginAs(page, "viewer");
  // Trial 30: the Tx limit's label was dark olive on navy and the "Unresolved at the end" line
  // and its legend mark near-black; text needs 4.5:1, lines and marks 3:1.
  await page.goto("/fabric-health");
  const tickets = page.getByTestId("repair-history-tickets");
  await expect(tickets).toBeVisible({ timeout: 90_000 });
  for (const line of await tickets.locator('[data-testid="repair-history-tickets-line"] path').all()) {
    expect(await paintContrast(line, "stroke")).toBeGreaterThanOrEqual(3);
  }
  // The capacity chart's marks: its legend's swatches and the rows of disabled and corrupting uplinks.
  const healthLegend = page.getByRole("list", { name: "Fabric health chart legend" });
  await expect(page.locator('[data-testid="marks-corrupting"] rect').first()).toBeVisible();
  for (const name of ["Has disabled uplinks", "Has corrupting uplinks in service"]) {
    const swatch = healthLegend.getByRole("listitem").filter({ hasText: name }).locator(".swatch");
    expect(await paintContrast(swatch, "background-color")).toBeGreaterThanOrEqual(3);
  }
  const blocking = healthLegend.getByRole("listitem").filter({ hasText: "Blocks disabling" }).locator(".swatch");
  expect(await paintContrast(blocking, "border-top-color")).toBeGreaterThanOrEqual(3);
  for (const mark of await page.locator('[data-testid^="marks-"] rect').all()) {
    expect(await paintContrast(mark, "fill")).toBeGreaterThanOrEqual(3);
  }
  const legend = page.getByRole("list", { name: "Tickets opened, resolved and unresolved over time legend" });
  const unresolved = legend.getByRole("listitem").filter({ hasText: "Unresolved at the end" });
  expect(await paintContrast(unresolved.locator("line"), "stroke")).toBeGreaterThanOrEqual(3);

  const fabric = await findFabric(page.request, DEMO_FABRIC);
  let linkId: number | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get("/api/link-forecasts/", {
          params: { fabric: fabric.id, at_risk: "true", limit: 1 },
        });
        linkId = ((await response.json()) as { results: { link: { id: number } }[] }).results[0]?.link.id;
        return linkId !== undefined;
      },
      { message: "the demo fabric has a link at risk", timeout: 120_000, intervals: [1_000, 2_000, 5_000] },
    )
    .toBe(true);
  await page.goto(`/links/${linkId}`);
  const labels = page.getByTestId("power-chart").locator("text.threshold-label");
  await expect(labels.first()).toBeVisible();
  const texts = await labels.allTextContents();
  expect(texts.some((text) => text.startsWith("Tx low"))).toBe(true);
  for (const label of await labels.all()) {
    expect(await paintContrast(label, "fill")).toBeGreaterThanOrEqual(4.5);
  }
  // The lines of both charts (the A end's blue and the Z end's purple were 2.4:1 and 2.3:1) and the
  // loss chart's threshold labels.
  for (const line of await page.locator('[data-testid="power-line"], [data-testid="loss-line"]').all()) {
    expect(await paintContrast(line, "stroke")).toBeGreaterThanOrEqual(3);
  }
  for (const label of await page.getByTestId("loss-chart").locator("text.threshold-label").all()) {
    expect(await paintContrast(label, "fill")).toBeGreaterThanOrEqual(4.5);
  }
});
