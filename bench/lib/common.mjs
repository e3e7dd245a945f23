/** The settings and small helpers every bench driver (run.mjs, pod.mjs) starts from. */
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** bench/ and the repository root. */
export const benchDir = join(dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = join(benchDir, "..");
/** Rounds of a run: BENCH_ROUNDS, else the driver's default. */
export const rounds = (fallback) => Number(process.env.BENCH_ROUNDS ?? fallback);
/** ADD calls per round and figure, by chain length. */
export const CALLS = { 1: 25, 5: 6 };
/** ADDs in flight in the concurrency figure. */
export const CONCURRENT = 100;
/** A progress line on stderr (stdout is the report). */
export const log = (...a) => process.stderr.write(`${a.join(" ")}\n`);
/** The load averages as printed in a report's header. */
export const loadText = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/** The worker command for CONCURRENT ADDs of the chain of 1 into `cacheDir` (round `r`). */
export const concurrentCmd = (fx, cacheDir, r, extra = {}) => ({
  op: "concurrent",
  conflist: fx.chain1,
  cacheDir,
  calls: CONCURRENT,
  prefix: `r${r}-`,
  pluginDir: fx.pluginDir,
  ...extra,
});
