import { defineConfig, devices } from '@playwright/test';

/**
 * User journeys against a running Lightpath stack (Django serving the built UI and /api/).
 * The browser is Debian's chromium: Playwright's own browser download cannot work here.
 */
export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: './test-results',
  use: {
    baseURL: process.env.LIGHTPATH_URL ?? 'http://127.0.0.1:8000',
    screenshot: 'only-on-failure',
    trace: 'off',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1400, height: 900 },
        launchOptions: {
          executablePath: process.env.LIGHTPATH_CHROMIUM ?? '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
            '--disable-quic',
          ],
        },
      },
    },
  ],
});
