/**
 * A test step in a namespace (`ip link set lo up`): where `execInNetns` returns a non-zero exit
 * as a result, the step fails the test, with the program's output in the message.
 */

import { CommandFailedError } from "../errors/testing.js";
import { type ExecInNetnsOptions, type ExecInNetnsResult, execInNetns } from "../netns/index.js";

/** How a run ended, in words, for the error message. */
function endText(result: ExecInNetnsResult): string {
  if (result.timedOut) return "timed out";
  if (result.aborted) return `aborted (${result.signal ?? "stopped"})`;
  if (result.signal !== undefined) return `killed by ${result.signal}`;
  return `exit status ${result.exitCode}`;
}

/**
 * Runs `argv` inside the network namespace at `netnsPath` and resolves to its result when it
 * exits 0.
 * @throws CommandFailedError when it exits non-zero, is killed or times out (the message holds
 *   the command line and its stdout and stderr); NetnsError when it cannot start there.
 */
export async function runInNetns(
  netnsPath: string,
  argv: readonly string[],
  options: ExecInNetnsOptions = {},
): Promise<ExecInNetnsResult> {
  const result = await execInNetns(netnsPath, argv, options);
  if (result.exitCode === 0 && !result.timedOut) return result;
  throw new CommandFailedError(
    `${argv.join(" ")} (in ${netnsPath}): ${endText(result)}\n` +
      `stdout: ${result.stdout.trimEnd()}\nstderr: ${result.stderr.trimEnd()}`,
    argv,
    netnsPath,
    result,
  );
}

/** IP forwarding on in a host namespace (a fresh one has it off), as on a container host. */
export async function enableForwarding(netnsPath: string, options: ExecInNetnsOptions = {}) {
  await runInNetns(netnsPath, ["sysctl", "-q", "-w", "net.ipv4.ip_forward=1"], options);
  // A kernel without IPv6 has no such key; forwarding v4 is what matters then.
  await execInNetns(netnsPath, ["sysctl", "-q", "-w", "net.ipv6.conf.all.forwarding=1"], options);
}
