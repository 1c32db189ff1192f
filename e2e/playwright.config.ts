// Playwright configuration of the browser tests (e2e/run.sh; `make test-e2e`).
//
// Debian's chromium, never a downloaded browser (`playwright install` is never run). The
// global setup starts the real native server (build/bin/enygma serve) with development keys
// and the built demo (build-wasm/web); see e2e/global-setup.ts for the variables that move
// them. Two workers, one per spec file: most of a test is page loads, key transfers and module
// start-up, so two side by side keep the cores busy. The tests that time the page's timers
// during a proof ("stays responsive") run afterwards, alone (project e2e after e2e-parallel).
// ENYGMA_CHROMIUM_ARGS adds arguments to Chromium's (space-separated; e.g.
// --js-flags=--no-liftoff, for experiments).
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  outputDir: './test-results',
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  fullyParallel: false,
  workers: 2,
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
        ...(process.env.ENYGMA_CHROMIUM_ARGS ? process.env.ENYGMA_CHROMIUM_ARGS.split(' ') : []),
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'e2e-parallel', testMatch: /(demo|product)\.spec\.ts$/, grepInvert: /stays responsive/ },
    { name: 'e2e', testMatch: /demo\.spec\.ts$/, grep: /stays responsive/, dependencies: ['e2e-parallel'] },
    // Timings for docs/performance.md, not assertions: `e2e/run.sh --bench`.
    { name: 'bench', testMatch: /bench\.spec\.ts$/, timeout: 600_000 },
    // snarkjs vs our WebAssembly prover in one page (issue #7): `e2e/run.sh --bench-snarkjs`.
    { name: 'bench-snarkjs', testMatch: /bench-snarkjs\.spec\.ts$/, timeout: 900_000 },
  ],
});
