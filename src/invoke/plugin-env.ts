/**
 * A plugin run's environment as the library hands it to a launcher: the call's `KEY=value`
 * list (or an env object, when the trace variables were added to a copy), made into an env
 * object only for a launcher that takes one (the direct spawn, a custom launcher). The spawner
 * helper takes the list's entries as they are (env-memo.ts `envEntriesOfList`): building and
 * freezing an object of some forty variables per call cost 43 us of the main thread and is
 * most of what a call holds while its plugin runs.
 */
import { type EnvEntries, envEntriesOfList, envEntriesOnce, envObjectOnce } from "./env-memo.js";
import type { LaunchedChild, Launcher, LaunchRun } from "./spawner/launcher.js";

/**
 * A run's environment as of the exec call (a list changed afterwards does not change it): its
 * entries, and its env object made on demand.
 */
export class PluginEnv {
  private constructor(
    private readonly listEntries: EnvEntries | undefined,
    private obj: Readonly<Record<string, string>> | undefined,
  ) {}

  /** The environment of a `KEY=value` list (the last of a key wins, as in Go's exec). */
  static ofList(list: readonly string[]): PluginEnv {
    return new PluginEnv(envEntriesOfList(list), undefined);
  }

  /** The environment of an env object. */
  static ofObject(object: Readonly<Record<string, string>>): PluginEnv {
    return new PluginEnv(undefined, object);
  }

  /**
   * The env object, as Node's spawn takes it: made once per list (from its entries, which hold
   * each key once, so the object has the same variables in the same order).
   */
  object(): Readonly<Record<string, string>> {
    this.obj ??= envObjectOnce((this.listEntries as EnvEntries).entries);
    return this.obj;
  }

  /** The `KEY=value` entries the object gives, in its order. */
  entries(): EnvEntries {
    return this.listEntries ?? envEntriesOnce(this.object());
  }
}

/** How one of the library's launchers starts a plugin from a {@link PluginEnv}. */
export type EnvLaunch = (
  path: string,
  env: PluginEnv,
  run: LaunchRun | undefined,
) => LaunchedChild | Promise<LaunchedChild>;

// The library's own launchers that start from entries; kept here rather than as a method, so
// the public Launcher interface stays what a custom launcher implements.
const fromEnv = new WeakMap<Launcher, EnvLaunch>();

/** Lets `launcher` start plugins from a {@link PluginEnv} with `launch`. */
export function launchesFromEnv(launcher: Launcher, launch: EnvLaunch): void {
  fromEnv.set(launcher, launch);
}

/**
 * Starts `path` with `launcher`: from the env's entries when the launcher is one of the
 * library's that can, else through `Launcher.launch` with the env object (`undefined`: this
 * process's environment).
 */
export function launchPlugin(
  launcher: Launcher,
  path: string,
  env: PluginEnv | undefined,
  run: LaunchRun | undefined,
): LaunchedChild | Promise<LaunchedChild> {
  if (env === undefined) return launcher.launch(path, process.env, run);
  const launch = fromEnv.get(launcher);
  return launch !== undefined ? launch(path, env, run) : launcher.launch(path, env.object(), run);
}
