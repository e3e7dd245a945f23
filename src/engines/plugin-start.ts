/**
 * Starting a plugin run: the plugin-start engines as the rest of the library sees them; nothing
 * outside engines/ imports the modules behind it (docs/development.md, "Where the fast paths
 * live", names each). The spawner helper takes a start as one request on a socket instead of a
 * fork of this process on the main thread, and falls back to the plain spawn for a run it
 * cannot take.
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
