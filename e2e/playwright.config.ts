// Playwright configuration of the browser tests (e2e/run.sh; `make test-e2e`).
//
// Debian's chromium, never a downloaded browser (`playwright install` is never run). The
// global setup starts the real native server (build/bin/enygma serve) with development keys
// and the built demo (build-wasm/web); see e2e/global-setup.ts for the variables that move
// them. One worker: every proof uses all the cores already.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  outputDir: './test-results',
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 60_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.ENYGMA_CHROMIUM || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'e2e', testMatch: /(demo|product)\.spec\.ts$/ },
    // Timings for docs/performance.md, not assertions: `e2e/run.sh --bench`.
    { name: 'bench', testMatch: /bench\.spec\.ts$/, timeout: 600_000 },
    // snarkjs vs our WebAssembly prover in one page (issue #7): `e2e/run.sh --bench-snarkjs`.
    { name: 'bench-snarkjs', testMatch: /bench-snarkjs\.spec\.ts$/, timeout: 900_000 },
  ],
});
