/**
 * Reachability from inside a namespace, as upstream's `testutils.Ping` checks it: ICMP echo
 * with iputils `ping`, run in the namespace.
 */
import { assertOptions, InvalidArgumentError, wrongTypeError } from "../errors/base.js";
import { MAX_TIMER_MS } from "../internal/timer-limit.js";
import { execInNetns } from "../netns/index.js";

/** Options of {@link ping}. */
export interface PingOptions {
  /** Echo requests to send. Default 1. */
  count?: number;
  /**
   * Milliseconds to wait for each reply (ping's `-W`, rounded up to whole seconds). Default
   * 2000; at most 2147483647 (a timer's longest).
   */
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
 * @throws NetnsError when the namespace is not one, or `ping` (iputils-ping) is not installed;
 *   InvalidArgumentError for a `netnsPath` or `address` not a string, a `timeoutMs` that is not
 *   an integer from 0 to 2147483647, or a `count` whose waits add up to more.
 */
export async function ping(
  netnsPath: string,
  address: string,
  options: PingOptions = {},
): Promise<PingResult> {
  if (typeof netnsPath !== "string") throw wrongTypeError("netnsPath", "a string", netnsPath);
  if (typeof address !== "string") throw wrongTypeError("address", "a string", address);
  assertOptions(options, "timeoutMs");
  const count = options.count ?? 1;
  const waitSeconds = Math.max(1, Math.ceil((options.timeoutMs ?? 2_000) / 1000));
  // ping ends by itself; the bound only guards a ping that never does, and must fit a timer.
  const boundMs = (count * waitSeconds + 5) * 1000;
  if (!(boundMs <= MAX_TIMER_MS)) {
    throw new InvalidArgumentError(
      "count",
      `ping: count ${count} with timeoutMs ${options.timeoutMs ?? 2_000} waits longer than ${MAX_TIMER_MS} ms, the longest a Node timer waits`,
    );
  }
  // -n: no DNS lookups of the replies' sources (a pod has no resolver); -6 for an IPv6 address.
  const family = address.includes(":") ? ["-6"] : [];
  const result = await execInNetns(
    netnsPath,
    ["ping", ...family, "-n", "-c", String(count), "-W", String(waitSeconds), address],
    { timeoutMs: boundMs, signal: options.signal },
  );
  return {
    ok: result.exitCode === 0 && !result.timedOut,
    output: `${result.stdout}${result.stderr}`,
  };
}
