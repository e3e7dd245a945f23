/**
 * Running the system tools the e2e suite inspects namespaces with (ip, iptables, tc, ping,
 * sysctl). Async on purpose: the library under test runs plugins concurrently and the test
 * process must keep serving them.
 */
import { execa } from "execa";
import { execInNetns } from "../../../src/netns/index.js";
import { runInNetns } from "../../../src/testing/index.js";
import { netnsPath } from "./netns.js";

/** What a finished command left behind. */
export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Options of {@link run}. */
export interface RunOptions {
  /** Bytes or text for stdin. */
  input?: string | Uint8Array;
  /** Extra environment (added to the test process's). */
  env?: Record<string, string>;
  /** When false a non-zero exit is returned instead of thrown. Default true. */
  check?: boolean;
  /** Milliseconds before the command is killed. Default 30 s. */
  timeoutMs?: number;
}

/**
 * Runs `file args...` and returns its output; throws (with the command line, exit code and
 * stderr in the message) when it fails and `check` is not false.
 */
export async function run(
  file: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<CommandOutput> {
  const result = await execa(file, args, {
    input: options.input,
    env: options.env,
    reject: false,
    stripFinalNewline: false,
    timeout: options.timeoutMs ?? 30_000,
  });
  const exitCode = result.exitCode ?? -1;
  const out: CommandOutput = {
    stdout: String(result.stdout ?? ""),
    stderr: String(result.stderr ?? ""),
    exitCode,
  };
  if (options.check !== false && (exitCode !== 0 || result.failed)) {
    throw new Error(
      `command failed (${result.shortMessage ?? `exit ${exitCode}`}): ${[file, ...args].join(" ")}\n` +
        `stdout: ${out.stdout}\nstderr: ${out.stderr}`,
    );
  }
  return out;
}

/**
 * Runs a command inside the named network namespace (under /run/netns), with libcni/netns's
 * execInNetns (what `ip netns exec <ns> ...` did, without a fork of the test process when the
 * spawner helper runs); the same output, check and timeout as {@link run}.
 */
export async function inNetns(
  ns: string,
  file: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<CommandOutput> {
  const argv = [file, ...args];
  const execOptions = {
    stdin: options.input,
    env: options.env === undefined ? process.env : { ...process.env, ...options.env },
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  if (options.check !== false) {
    const { stdout, stderr } = await runInNetns(netnsPath(ns), argv, execOptions);
    return { stdout, stderr, exitCode: 0 };
  }
  const result = await execInNetns(netnsPath(ns), argv, execOptions);
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode ?? -1 };
}
