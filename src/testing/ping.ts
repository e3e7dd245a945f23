/**
 * Reachability from inside a namespace, as upstream's `testutils.Ping` checks it: ICMP echo
 * with iputils `ping`, run in the namespace.
 */
import { execInNetns } from "../netns/index.js";

/** Options of {@link ping}. */
export interface PingOptions {
  /** Echo requests to send. Default 1. */
  count?: number;
  /** Milliseconds to wait for each reply (ping's `-W`, rounded up to whole seconds). Default 2000. */
  timeoutMs?: number;
  /** Aborting stops the ping (`ok` false). */
  signal?: AbortSignal;
}

/** What {@link ping} saw. */
export interface PingResult {
  /** True when ping exited 0: at least one request was answered (iputils' rule). */
  ok: boolean;
  /** ping's stdout and stderr, for the assertion's message. */
  output: string;
}

/**
 * Pings `address` from inside the network namespace at `netnsPath`. An unanswered ping is
 * `{ ok: false }` with ping's output, not an error, so a test can assert either way
 * (`expect(r.ok, r.output).toBe(true)`).
 * @throws NetnsError when the namespace is not one, or `ping` (iputils-ping) is not installed.
 */
export async function ping(
  netnsPath: string,
  address: string,
  options: PingOptions = {},
): Promise<PingResult> {
  const count = options.count ?? 1;
  const waitSeconds = Math.max(1, Math.ceil((options.timeoutMs ?? 2_000) / 1000));
  // -n: no DNS lookups of the replies' sources (a pod has no resolver); -6 for an IPv6 address.
  const family = address.includes(":") ? ["-6"] : [];
  const result = await execInNetns(
    netnsPath,
    ["ping", ...family, "-n", "-c", String(count), "-W", String(waitSeconds), address],
    // ping ends by itself; the bound only guards a ping that never does.
    { timeoutMs: (count * waitSeconds + 5) * 1000, signal: options.signal },
  );
  return {
    ok: result.exitCode === 0 && !result.timedOut,
    output: `${result.stdout}${result.stderr}`,
  };
}
