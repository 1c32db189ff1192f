// Starts what the browser tests talk to: the real native server with development keys and the
// built demo. Paths (defaults relative to the repository root):
//   ENYGMA_BIN       the CLI                                  build/bin/enygma
//   ENYGMA_WEB       the built demo folder                    build-wasm/web
//   ENYGMA_E2E_KEYS  keys for k = 2 and 6, made when missing <bin>/../e2e-keys
//                    or older than the CLI (enygma setup)
// Publishes ENYGMA_E2E_URL, ENYGMA_E2E_KEYS and ENYGMA_BIN for the tests (env is inherited by
// the test workers) and the server's pid for the teardown.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';

const root = path.resolve(__dirname, '..');
// Only the smallest and the largest k of the demo: each setup and key load costs CI time.
const E2E_K = '2,6';

function newerThan(a: string, b: string): boolean {
  return fs.statSync(a).mtimeMs > fs.statSync(b).mtimeMs;
}

function ensureKeys(bin: string, dir: string): void {
  const stamp = path.join(dir, '.made-by-enygma-setup');
  if (fs.existsSync(stamp) && !newerThan(bin, stamp)) return;
  fs.mkdirSync(dir, { recursive: true });
  const t0 = Date.now();
  execFileSync(bin, ['setup', '--k', E2E_K, '--out', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  fs.writeFileSync(stamp, '');
  console.log(`e2e: development keys for k=${E2E_K} in ${dir} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

async function startServer(bin: string, keys: string, web: string): Promise<{ url: string; pid: number }> {
  const server = spawn(bin, ['serve', '--bind', '127.0.0.1', '--port', '0', '--keys', keys, '--k', E2E_K,
    '--web', web, '--access-log', 'off'], { stdio: ['ignore', 'pipe', 'inherit'], detached: false });
  const lines = readline.createInterface({ input: server.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('e2e: the server did not start within 120 s')), 120_000);
    server.on('exit', (code) => reject(new Error(`e2e: the server exited (${code}) before listening`)));
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
  for (const [what, p] of [['the CLI', bin], ['the demo', path.join(web, 'index.html')], ['the module', path.join(web, 'enygma_module.wasm')]]) {
    if (!fs.existsSync(p)) throw new Error(`e2e: ${what} is missing: ${p} (make build)`);
  }
  ensureKeys(bin, keys);
  const { url, pid } = await startServer(bin, keys, web);
  process.env.ENYGMA_E2E_URL = url;
  process.env.ENYGMA_E2E_KEYS = keys;
  process.env.ENYGMA_BIN = bin;
  process.env.ENYGMA_E2E_SERVER_PID = String(pid);
  fs.mkdirSync(path.join(__dirname, 'artifacts'), { recursive: true });
  console.log(`e2e: server ${url} (pid ${pid}), web ${web}, keys ${keys}`);
}
