// Stops the servers that global-setup.ts started (SIGTERM: it drains and exits).
export default async function globalTeardown(): Promise<void> {
  for (const name of ['ENYGMA_E2E_SERVER_PID', 'ENYGMA_E2E_SERVER_PID_NO_ISOLATION']) {
    const pid = Number(process.env[name] || 0);
    if (!pid) continue;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
