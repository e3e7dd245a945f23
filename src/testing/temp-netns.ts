/**
 * A disposable network namespace for a test (upstream's `testutils.NewNS`): uniquely named,
 * removed by `await using` when the test ends, whether it passed or threw.
 */
import { assertOptions } from "../errors/base.js";
import {
  createNetns,
  type ExecInNetnsOptions,
  type ExecInNetnsResult,
  execInNetns,
  type NetnsMechanism,
  removeNetns,
} from "../netns/index.js";
import { uniqueTestName } from "./names.js";
import { runInNetns } from "./run.js";
import { sweepLeftoversOnce } from "./sweep.js";

/** Options of {@link tempNetns}. */
export interface TempNetnsOptions {
  /** Appended to the unique name (`lcnitest-<owner>-<n>-<label>`), to tell namespaces apart. */
  label?: string;
  /** Where it is pinned. Default `/run/netns` (so `ip netns list` shows it). */
  dir?: string;
  /** Bring its `lo` up (a fresh namespace's is down, as a new container's is). Default false. */
  loopbackUp?: boolean;
  /** How it is pinned and entered (libcni/netns): "spawner", "direct" or "auto" (the default). */
  mechanism?: NetnsMechanism;
}

/** A namespace made by {@link tempNetns}. */
export interface TempNetns {
  /** Its name (the file name under its dir). */
  readonly name: string;
  /** Its path: what a plugin gets as CNI_NETNS. */
  readonly path: string;
  /** Runs `argv` inside it; a non-zero exit is a result (see `execInNetns`). */
  exec(argv: readonly string[], options?: ExecInNetnsOptions): Promise<ExecInNetnsResult>;
  /** Runs `argv` inside it and throws `CommandFailedError` unless it exits 0 (see `runInNetns`). */
  run(argv: readonly string[], options?: ExecInNetnsOptions): Promise<ExecInNetnsResult>;
  /** Removes it; again is a no-op. Its interfaces go with it (veth peers elsewhere too). */
  remove(): Promise<void>;
  /** {@link TempNetns.remove}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Creates a network namespace named for this process (names.ts), removed when an `await using`
 * block ends, however it ends. The first call of a process first sweeps what gone processes
 * left in its dir and the temp dir (`sweepTestLeftovers`).
 * @throws NetnsError when it cannot be created (`permission` without CAP_SYS_ADMIN); nothing
 *   is left behind then, nor when bringing `lo` up fails.
 */
export async function tempNetns(options: TempNetnsOptions = {}): Promise<TempNetns> {
  assertOptions(options);
  const netnsOptions = { dir: options.dir, mechanism: options.mechanism };
  await sweepLeftoversOnce({ netnsDir: options.dir, mechanism: options.mechanism });
  const name = await uniqueTestName(options.label);
  const path = await createNetns(name, netnsOptions);
  const execOptions = (extra: ExecInNetnsOptions = {}): ExecInNetnsOptions => ({
    mechanism: options.mechanism,
    ...extra,
  });
  let removal: Promise<void> | undefined;
  const ns: TempNetns = {
    name,
    path,
    exec: (argv, extra) => execInNetns(path, argv, execOptions(extra)),
    run: (argv, extra) => runInNetns(path, argv, execOptions(extra)),
    // One removal however often it is asked for (dispose after an explicit remove); a failed
    // one may be retried.
    remove: () => {
      removal ??= removeNetns(path, netnsOptions).catch((error: unknown) => {
        removal = undefined;
        throw error;
      });
      return removal;
    },
    [Symbol.asyncDispose]: () => ns.remove(),
  };
  if (options.loopbackUp === true) {
    await ns.run(["ip", "link", "set", "lo", "up"]).catch(async (error: unknown) => {
      await ns.remove();
      throw error;
    });
  }
  return ns;
}
