// Starts what the browser tests talk to: the real native server with development keys and the
// built demo. Paths (defaults relative to the repository root):
//   ENYGMA_BIN       the CLI                                  build/bin/enygma
//   ENYGMA_WEB       the built demo folder                    build-wasm/web
//   ENYGMA_E2E_KEYS  keys of the circuits below, made when  <bin>/../e2e-keys
//                    missing or older than the CLI (enygma setup)
// Two servers over the same keys and demo: one with the cross-origin isolation headers (the
// page gets the module with threads) and one with --no-isolation (the module without).
// Publishes ENYGMA_E2E_URL, ENYGMA_E2E_URL_NO_ISOLATION, ENYGMA_E2E_CIRCUITS, ENYGMA_E2E_KEYS
// and ENYGMA_BIN for the tests (env is inherited by the test workers) and the servers' pids for
// the teardown.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';

const root = path.resolve(__dirname, '..');
// The transfer circuit at the smallest and the largest k of the demo, and one circuit of every
// other family (the small ones): each setup and key load costs CI time. One the CLI does not
// know (enygma info --circuit all) fails the run, so that a family dropped from the registry is
// not a browser test turned into a skip; ENYGMA_E2E_ALLOW_MISSING=1 leaves such circuits out
// (an older binary).
const WANTED = ['transfer-k2', 'transfer-k6', 'deposit-k2', 'withdraw-k2', 'ownership-721', 'joinsplit-enygma'];

function knownCircuits(bin: string): string[] {
  const out = (args: string[]) => [].concat(JSON.parse(execFileSync(bin, ['info', ...args]).toString()));
  const ids = new Set([...out(['--circuit', 'all', '--k', '2,6']), ...out(['--circuit', 'all'])].map((c: any) => c.circuit));
  const missing = WANTED.filter((id) => !ids.has(id));
  if (missing.length > 0 && process.env.ENYGMA_E2E_ALLOW_MISSING !== '1') {
    throw new Error(`e2e: ${bin} does not know ${missing.join(', ')} (ENYGMA_E2E_ALLOW_MISSING=1 to leave them out)`);
  }
  return WANTED.filter((id) => ids.has(id));
}

function newerThan(a: string, b: string): boolean {
  return fs.statSync(a).mtimeMs > fs.statSync(b).mtimeMs;
}

function ensureKeys(bin: string, dir: string, circuits: string): void {
  const stamp = path.join(dir, '.made-by-enygma-setup');
  if (fs.existsSync(stamp) && !newerThan(bin, stamp) && fs.readFileSync(stamp, 'utf8') === circuits) return;
  fs.mkdirSync(dir, { recursive: true });
  const t0 = Date.now();
  execFileSync(bin, ['setup', '--circuit', circuits, '--out', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  fs.writeFileSync(stamp, circuits);
  console.log(`e2e: development keys for ${circuits} in ${dir} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

async function startServer(bin: string, keys: string, web: string, circuits: string,
                           extra: string[] = []): Promise<{ url: string; pid: number }> {
  const server = spawn(bin, ['serve', '--bind', '127.0.0.1', '--port', '0', '--keys', keys, '--circuits', circuits,
    '--web', web, '--access-log', 'off', ...extra], { stdio: ['ignore', 'pipe', 'inherit'], detached: false });
  const lines = readline.createInterface({ input: server.stdout! });
  // A server that does not come up is stopped (nothing else would: its pid is not published).
  const url = await new Promise<string>((resolve, reject) => {
    const fail = (error: Error) => {
      clearTimeout(timer);
      server.kill('SIGKILL');
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error('e2e: the server did not start within 120 s')), 120_000);
    server.on('error', (e) => fail(new Error(`e2e: cannot start ${bin}: ${e.message}`)));
    server.on('exit', (code) => fail(new Error(`e2e: the server exited (${code}) before listening`)));
    lines.on('line', (line) => {
      try {
        const event = JSON.parse(line);
        if (event.event === 'listening') {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${event.port}`);
        }
      } catch {
        // not JSON: ignore
      }
    });
  });
  lines.on('line', () => {}); // keep draining stdout
  server.unref();
  (server.stdout as any).unref?.();
  return { url, pid: server.pid! };
}

export default async function globalSetup(): Promise<void> {
  const bin = path.resolve(root, process.env.ENYGMA_BIN || 'build/bin/enygma');
  const web = path.resolve(root, process.env.ENYGMA_WEB || 'build-wasm/web');
  const keys = path.resolve(root, process.env.ENYGMA_E2E_KEYS || path.join(path.dirname(bin), '..', 'e2e-keys'));
  for (const [what, p] of [['the CLI', bin], ['the demo', path.join(web, 'index.html')], ['the module', path.join(web, 'enygma', 'enygma_module.wasm')]]) {
    if (!fs.existsSync(p)) throw new Error(`e2e: ${what} is missing: ${p} (make build)`);
  }
  const circuits = knownCircuits(bin).join(',');
  ensureKeys(bin, keys, circuits);
  // Each pid is published as soon as its server listens, so that the teardown (which Playwright
  // runs also after a failed setup) stops the first server when the second does not start.
  const { url, pid } = await startServer(bin, keys, web, circuits);
  process.env.ENYGMA_E2E_SERVER_PID = String(pid);
  const plain = await startServer(bin, keys, web, circuits, ['--no-isolation']);
  process.env.ENYGMA_E2E_SERVER_PID_NO_ISOLATION = String(plain.pid);
  process.env.ENYGMA_E2E_URL = url;
  process.env.ENYGMA_E2E_URL_NO_ISOLATION = plain.url;
  process.env.ENYGMA_E2E_CIRCUITS = circuits;
  process.env.ENYGMA_E2E_KEYS = keys;
  process.env.ENYGMA_BIN = bin;
  fs.mkdirSync(path.join(__dirname, 'artifacts'), { recursive: true });
  console.log(`e2e: servers ${url} (pid ${pid}) and, without isolation headers, ${plain.url} ` +
              `(pid ${plain.pid}); web ${web}, keys ${keys}`);
}
