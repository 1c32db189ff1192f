// ENYGMA_E2E_JS_COVERAGE=dir: each test's page writes V8's raw coverage of the scripts it ran
// (the page's, and the Web Workers' it started: enygma_worker.js) to dir/<test>.json, for
// scripts/js_coverage.cjs to report. Unset (the default), the page fixture is Playwright's own.
// Counts are taken every half second, before each page.goto and page.reload, and when the test
// ends: a worker ended in between (terminate(), a restart) loses what it ran since, and a
// worker's top-level code may run before its profiler starts (Playwright resumes it too): best
// effort.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test as base } from '@playwright/test';

type Snapshot = { url: string; functions: { ranges: { count: number }[] }[] };

export const test = base.extend({
  page: async ({ page }, use, testInfo) => {
    const dir = process.env.ENYGMA_E2E_JS_COVERAGE;
    if (!dir) return use(page);
    const snapshots: Snapshot[] = [];
    // The workers, through the page's DevTools session (not flattened: Playwright's session
    // object sends to its own target only): each is held at its start until its profiler runs.
    const session = await page.context().newCDPSession(page);
    const workers = new Set<string>();
    const answers = new Map<number, { sessionId: string; resolve: (result: any) => void }>();
    let nextId = 1;
    const ask = (sessionId: string, method: string, params = {}) => new Promise<any>((resolve) => {
      const id = nextId++;
      answers.set(id, { sessionId, resolve });
      session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
        .catch(() => resolve(null));
    });
    session.on('Target.receivedMessageFromTarget', ({ message }) => {
      const m = JSON.parse(message);
      if (m.id !== undefined && answers.has(m.id)) {
        answers.get(m.id)!.resolve(m.result ?? null);
        answers.delete(m.id);
      }
    });
    session.on('Target.attachedToTarget', async ({ sessionId, targetInfo }) => {
      if (targetInfo.type === 'worker') {
        await ask(sessionId, 'Profiler.enable');
        await ask(sessionId, 'Profiler.startPreciseCoverage', { callCount: true, detailed: true });
        workers.add(sessionId);
      }
      await ask(sessionId, 'Runtime.runIfWaitingForDebugger');
    });
    session.on('Target.detachedFromTarget', ({ sessionId }) => {
      workers.delete(sessionId);
      for (const [id, answer] of answers) {
        if (answer.sessionId === sessionId) {
          answer.resolve(null);
          answers.delete(id);
        }
      }
    });
    const keep = (taken: any) => {
      // (a script that ran nothing since the last snapshot adds nothing)
      if (taken) snapshots.push(...taken.result.filter((s: Snapshot) => s.url.startsWith('http') && s.functions.some((f) => f.ranges.some((r) => r.count > 0))));
    };
    const take = async () => {
      await Promise.all([session.send('Profiler.takePreciseCoverage').then(keep, () => {}),
        ...[...workers].map(async (sessionId) => keep(await ask(sessionId, 'Profiler.takePreciseCoverage')))]);
    };
    await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
    await session.send('Profiler.enable');
    await session.send('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
    // the document's counts before another replaces it (and its workers end): the test's
    // page.goto and page.reload wait for them
    for (const method of ['goto', 'reload'] as const) {
      const navigate = (page[method] as (...a: unknown[]) => Promise<unknown>).bind(page);
      (page as any)[method] = async (...a: unknown[]) => {
        await take();
        return navigate(...a);
      };
    }
    const timer = setInterval(() => void take(), 500);
    try {
      await use(page);
    } finally {
      clearInterval(timer);
      await take().catch(() => {});
      const sources: Record<string, string> = {};
      for (const s of snapshots) {
        if (!(s.url in sources)) sources[s.url] = await page.request.get(s.url).then((r) => r.text(), () => '');
      }
      fs.mkdirSync(dir, { recursive: true });
      const name = testInfo.titlePath.slice(1).join(' ').replace(/[^\w.-]+/g, '_').slice(0, 150);
      fs.writeFileSync(path.join(dir, `${name}-${testInfo.retry}.json`), JSON.stringify({ title: testInfo.title, sources, scripts: snapshots }));
    }
  },
});
