import { expect, type Page, test } from "@playwright/test";

import { loginAs, openAccountMenu } from "./helpers";

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
