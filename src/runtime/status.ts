/**
 * STATUS of every network at once (ocicni asks the default network only, go-cni stops at the
 * first failure): each network's outcome, and readiness as "at least `minReady` networks
 * ready". A network below CNI 1.1.0 has no STATUS verb and counts as ready, as upstream's
 * GetStatusNetworkList reports it.
 */
import { withDeadline } from "./deadline.js";
import type { CacheCallContext } from "./teardown.js";

/** One network's STATUS. */
export interface NetworkStatus {
  network: string;
  ready: boolean;
  /** What STATUS threw (a CNIError with the plugin's code, e.g. 50), when not ready. */
  error?: unknown;
}

/** The runtime's readiness. */
export interface StatusReport {
  /** At least `minReady` networks are ready, and the runtime has its networks (see `reason`). */
  ready: boolean;
  /**
   * Why the runtime is not ready, when it has no networks yet or a reload lost them: the conf
   * dir missing (named as such), unreadable, without a usable network, or without the named
   * default network (its file deleted, broken or renamed; the skipped files named).
   */
  reason?: string;
  /** The default network is ready (false when there is none). */
  defaultReady: boolean;
  networks: NetworkStatus[];
}

/** Asks every network of the set. */
export async function networkStatus(
  ctx: CacheCallContext,
  minReady: number,
): Promise<StatusReport> {
  const set = ctx.set;
  const networks = set?.networks ?? [];
  const statuses = await Promise.all(
    networks.map(async (n): Promise<NetworkStatus> => {
      try {
        await withDeadline(n.name, "STATUS", ctx.timeout, ctx.signal, (signal) =>
          ctx.cni.getStatusNetworkList(n.config, { signal, traceContext: ctx.traceContext }),
        );
        return { network: n.name, ready: true };
      } catch (error) {
        return { network: n.name, ready: false, error };
      }
    }),
  );
  const readyCount = statuses.filter((s) => s.ready).length;
  const defaultName = set?.defaultNetwork?.name;
  const report: StatusReport = {
    ready: set?.notReady === undefined && networks.length > 0 && readyCount >= minReady,
    defaultReady: statuses.some((s) => s.network === defaultName && s.ready),
    networks: statuses,
  };
  if (set?.notReady !== undefined) report.reason = set.notReady.message;
  return report;
}
