// Stops the server that global-setup.ts started (SIGTERM: it drains and exits).
export default async function globalTeardown(): Promise<void> {
  const pid = Number(process.env.ENYGMA_E2E_SERVER_PID || 0);
  if (!pid) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
