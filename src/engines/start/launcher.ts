/**
 * The process launcher: the one step of a plugin run that differs between the direct
 * `child_process.spawn` (direct.ts) and the spawner helper (engines/spawner).
 *
 * A launcher only starts the process and hands back something shaped like a ChildProcess
 * (pid, the three pipes, `error`/`exit`/`close`). Everything else about a run stays in
 * invoke/run-plugin.ts and raw-exec.ts for every launcher alike: the process group and its
 * SIGTERM, grace and SIGKILL, the output caps, EPIPE on stdin, the ETXTBSY retries, the error
 * texts.
 */
import { errnoText } from "../../internal/errno.js";
import { PluginEnv } from "./plugin-env.js";

/** The plugin's stdin as a run uses it. */
export interface LaunchedStdin {
  on(event: "error", listener: (error: NodeJS.ErrnoException) => void): unknown;
  end(chunk: Uint8Array): unknown;
  destroy(): unknown;
}

/** The plugin's stdout or stderr as a run uses it. */
export interface LaunchedOutput {
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  destroy(): unknown;
}

/**
 * A started plugin process, as a run uses it: the subset of ChildProcess that
 * invoke/run-plugin.ts relies on, with ChildProcess's event semantics (`exit` once reaped,
 * `close` once reaped and both output pipes closed; `error` without a pid means it never
 * started).
 */
export interface LaunchedChild {
  readonly pid?: number | undefined;
  readonly stdin: LaunchedStdin | null;
  readonly stdout: LaunchedOutput | null;
  readonly stderr: LaunchedOutput | null;
  on(event: "error", listener: (error: Error) => void): unknown;
  once(
    event: "close",
    listener: (code: number | null, signal: NodeJS.Signals | null) => void,
  ): unknown;
  once(event: "exit", listener: () => void): unknown;
}

/** A child started at once, or once the start is answered (see {@link Launcher}). */
export type Started = LaunchedChild | Promise<LaunchedChild>;

/**
 * Starts plugin processes. The plugin must lead a new process group (a new session), get
 * exactly three pipes as stdin, stdout and stderr, default signal dispositions and an empty
 * signal mask, and `argv` of just its path.
 *
 * `launch` either returns the child in the same tick as the start (events are wired by the
 * caller before any can fire), or a promise of a child whose events are held until the turn
 * after the promise settles. A start the OS refused is a thrown or rejected errno error
 * (`code` ENOENT, EACCES, ETXTBSY...), as Node's spawn reports it.
 */
export interface Launcher {
  /** `direct` or `spawner`, for NODE_DEBUG and the bench. */
  readonly name: string;
  launch(
    path: string,
    env: NodeJS.ProcessEnv,
    run?: LaunchRun,
  ): LaunchedChild | Promise<LaunchedChild>;
}

/**
 * What a launcher may use of the run at its start. The caller still ends the child's stdin
 * with the same bytes; a launcher that sent them with the start (the spawner helper: one
 * write, no wait for the start's answer) makes that end a no-op.
 */
export interface LaunchRun {
  /** The bytes for the plugin's stdin. */
  readonly stdin: Uint8Array;
  /** The cap on each of stdout and stderr, past which the caller stops the plugin. */
  readonly maxOutputBytes: number;
  /**
   * The arguments after the path (`argv[1..]`); none for a plugin. Set only by libcni/netns's
   * `execInNetns`.
   */
  readonly args?: readonly string[] | undefined;
  /**
   * The network namespace (a path) the process must start in, rather than this process's:
   * RawExec's `netns` option. A custom launcher given one must start the process there (or
   * fail the start).
   */
  readonly netns?: string | undefined;
  /** The call's signal: a launcher that queues the start gives it up (rejecting) on abort. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * How a RawExec starts a plugin: from the run's {@link PluginEnv}. The library's spawner
 * launchers ({@link OwnLauncher}) take its entries as they are; any other launcher gets its
 * env object ({@link objectStarter}), so a custom {@link Launcher} is wrapped once, at the
 * RawExec ({@link pluginStarter}).
 */
export interface PluginStarter {
  start(path: string, env: PluginEnv, run: LaunchRun | undefined): Started;
}

/** A launcher of the library's own: started from a run's {@link PluginEnv}, `launch` being the same. */
export abstract class OwnLauncher implements Launcher, PluginStarter {
  abstract readonly name: string;

  abstract start(path: string, env: PluginEnv, run: LaunchRun | undefined): Started;

  launch(path: string, env: NodeJS.ProcessEnv, run?: LaunchRun): Started {
    return this.start(path, PluginEnv.ofObject(env), run);
  }
}

/** A launcher started through its public `launch`, with the run's env object. */
export function objectStarter(launcher: Launcher): PluginStarter {
  return { start: (path, env, run) => launcher.launch(path, env.object(), run) };
}

/** How a RawExec starts plugins with `launcher`: its own start, or its `launch` wrapped. */
export function pluginStarter(launcher: Launcher): PluginStarter {
  return launcher instanceof OwnLauncher ? launcher : objectStarter(launcher);
}

/**
 * A run's namespace that cannot be entered: no start errno `code` (the plugin did not fail to
 * start), the namespace's errno as `netnsCode`, as the spawner helper reports it.
 */
export function netnsEntryError(netns: string, code: string): Error & { netnsCode: string } {
  return Object.assign(
    new Error(
      `enter network namespace ${netns}: ${code === "EINVAL" ? "not a network namespace" : errnoText(code)}`,
    ),
    { netnsCode: code },
  );
}
