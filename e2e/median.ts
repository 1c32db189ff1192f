// The median the browser benchmarks report (e2e/bench.spec.ts, e2e/bench-snarkjs.spec.ts).
export function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const n = v.length;
  return n === 0 ? NaN : n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
