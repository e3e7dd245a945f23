/**
 * Starting a plugin run: the one interface of the plugin-start engines that the rest of the
 * library sees (invoke's RawExec and plugin calls, libcni/netns, the conformance sessions).
 * Everything outside engines/ imports it from here, never from the modules behind it.
 *
 * - The interface: a {@link PluginStarter} starts the plugin at `path` with a run's
 *   {@link PluginEnv} and {@link LaunchRun} (its stdin bytes, the output cap, arguments and
 *   network namespace) and hands back a {@link LaunchedChild}, the part of a ChildProcess a run
 *   uses. A {@link Launcher} is the public shape (RawExec's `launcher` option), started from an
 *   env object; {@link pluginStarter} turns one into a starter. The shapes are defined in
 *   start/launcher.ts.
 * - The plain implementation: {@link directLauncher}, Node's `child_process.spawn`
 *   (start/direct.ts).
 * - The fast one: the spawner helper (native/spawner.c) through its client in spawner/, one
 *   request per start on a socket instead of a fork of this process on the main thread; it
 *   falls back to the plain spawn for a run it cannot take.
 * - The selection: {@link selectLauncher} (start/select.ts): the `launcher` option, else
 *   `LIBCNI_LAUNCHER` (`auto`, `spawner`, `direct`), else `auto`, which tries the helper on the
 *   first run and keeps its choice for the process (NODE_DEBUG=libcni says which, and why).
 * - The {@link spawnGate} (start/spawn-gate.ts): at most one start per turn of the event loop,
 *   for every launcher alike.
 */

export type { SpawnerLauncher } from "./spawner/pool.js";
export { directLauncher } from "./start/direct.js";
export {
  type LaunchedChild,
  type LaunchedOutput,
  type LaunchedStdin,
  type Launcher,
  type LaunchRun,
  objectStarter,
  type PluginStarter,
  pluginStarter,
} from "./start/launcher.js";
export { envObject, PluginEnv } from "./start/plugin-env.js";
export { type LauncherName, selectLauncher, sharedSpawner } from "./start/select.js";
export { spawnGate } from "./start/spawn-gate.js";
