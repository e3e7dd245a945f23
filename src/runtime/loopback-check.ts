/**
 * checkPod's look at the pod's loopback interface (containerd/go-cni#124: `lo` is UP), which
 * nothing would ever look at again, as the loopback's configuration (0.3.1) has no CHECK.
 * `ip -o link show dev lo` runs inside the pod's netns through libcni/netns's execInNetns:
 * nothing blocks the event loop and this process never forks.
 */
import { NetnsError } from "../errors/netns.js";
import { LoopbackDownError } from "../errors/runtime.js";
import { debug } from "../internal/diagnostics.js";
import { messageOf } from "../internal/error-message.js";
import { isNetns } from "../netns/check.js";

/** How long the look may take when the call has no per-network time limit. */
const defaultProbeMs = 10_000;

/**
 * lo's flags from `ip -o link show dev lo` (`1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 ...`), or
 * undefined when the line is not that.
 */
export function loopbackFlags(output: string): string[] | undefined {
  const match = /^\d+:\s+lo(?:@\S+)?:\s+<([^>]*)>/m.exec(output);
  if (match === null) return undefined;
  return (match[1] ?? "").split(",").filter((f) => f !== "");
}

/**
 * Looks at `lo` in `netns`: resolves true when it is up, undefined when it could not be looked
 * at (no `ip` here, no right to enter the namespace: said on the debug log, not a failure of
 * the pod); throws LoopbackDownError when it is down or the netns is gone.
 */
export async function checkLoopbackUp(
  podID: string,
  netns: string,
  timeout: number,
  signal: AbortSignal | undefined,
): Promise<true | undefined> {
  // The namespace itself first: a pod whose netns is gone cannot have lo up (and execInNetns
  // would refuse it for reasons of its own).
  if (!(await isNetns(netns))) throw new LoopbackDownError(podID, netns, "no-netns");
  // Loaded on first use: a runtime without the loopback network never loads the exec part.
  const { execInNetns } = await import("../netns/exec.js");
  let result: Awaited<ReturnType<typeof execInNetns>>;
  try {
    result = await execInNetns(netns, ["ip", "-o", "link", "show", "dev", "lo"], {
      signal,
      timeoutMs: timeout > 0 ? timeout : defaultProbeMs,
      maxOutputBytes: 64 * 1024,
      env: { PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" },
    });
  } catch (error) {
    // Gone since it was looked at: as above.
    if (error instanceof NetnsError && error.reason === "not-a-netns") {
      throw new LoopbackDownError(podID, netns, "no-netns", [], { cause: error });
    }
    debug("check pod %s: lo not looked at in %s: %s", podID, netns, messageOf(error));
    return undefined;
  }
  const flags = result.exitCode === 0 ? loopbackFlags(result.stdout) : undefined;
  if (flags === undefined) {
    debug(
      "check pod %s: lo not looked at in %s: ip exited %s: %s",
      podID,
      netns,
      result.exitCode ?? result.signal,
      result.stderr.trim(),
    );
    return undefined;
  }
  if (!flags.includes("UP")) throw new LoopbackDownError(podID, netns, "down", flags);
  return true;
}
