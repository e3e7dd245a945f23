/**
 * Which launcher a RawExec uses: the `launcher` option, else `LIBCNI_LAUNCHER`, else "auto"
 * (docs/bundling.md, "Plugin starts off the main thread", says what each name does).
 */
import { access, constants } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { InvalidArgumentError } from "../../errors/base.js";
import { SpawnerUnavailableError } from "../../errors/spawner.js";
import { debug } from "../../internal/diagnostics.js";
import { messageOf } from "../../internal/error-message.js";
import { SpawnerLauncher } from "../spawner/pool.js";
import { directLauncher } from "./direct.js";
import {
  type Launcher,
  type LaunchRun,
  OwnLauncher,
  type PluginStarter,
  pluginStarter,
  type Started,
} from "./launcher.js";
import type { PluginEnv } from "./plugin-env.js";

/** The names the `launcher` option and `LIBCNI_LAUNCHER` take. */
export type LauncherName = "auto" | "spawner" | "direct";

/**
 * Where the spawner binary for a platform is: `dist/native/<platform>-<arch>/libcni-spawner`
 * in the package (built by `npm run build:native`, shipped in the npm package).
 */
export function spawnerBinaryPath(
  platform: string = process.platform,
  arch: string = process.arch,
): string {
  // Three levels below the package root from src/engines/start and build/engines/start; the
  // shipped bundle's chunk is one level below, and scripts/build.mjs rewrites this path there.
  return fileURLToPath(
    new URL(`../../../dist/native/${platform}-${arch}/libcni-spawner`, import.meta.url),
  );
}

let spawner: SpawnerLauncher | undefined;

/**
 * The process-wide spawner launcher, for `LIBCNI_SPAWNER_BINARY` when set and not empty (a
 * bundled app ships the binary beside its bundle), else the package's own for this platform.
 */
export function sharedSpawner(): SpawnerLauncher {
  spawner ??= new SpawnerLauncher({
    binaryPath: process.env.LIBCNI_SPAWNER_BINARY || spawnerBinaryPath(),
  });
  return spawner;
}

/** The forced spawner: fails every run, with the reason, when the helper cannot run. */
class ForcedSpawner extends OwnLauncher {
  readonly name = "spawner";

  start(path: string, env: PluginEnv, run: LaunchRun | undefined): Started {
    if (process.platform !== "linux") {
      return Promise.reject(
        new SpawnerUnavailableError(`spawner: not available on ${process.platform}`),
      );
    }
    return sharedSpawner().start(path, env, run);
  }
}

/**
 * "auto": decides on the first run, once for the process, and says which and why on
 * NODE_DEBUG=libcni (and in {@link AutoLauncher.reason}).
 */
export class AutoLauncher extends OwnLauncher {
  private chosen: Launcher | undefined;
  private chosenStarter: PluginStarter | undefined;
  private deciding: Promise<PluginStarter> | undefined;
  /** Why the launcher in use was chosen; empty until the first run. */
  reason = "";

  /** @param spawner the spawner launcher to try (the platform's binary by default) */
  constructor(private readonly spawner: () => SpawnerLauncher = sharedSpawner) {
    super();
  }

  /** The chosen launcher's name, or `auto` before the first run. */
  get name(): string {
    return this.chosen?.name ?? "auto";
  }

  start(path: string, env: PluginEnv, run: LaunchRun | undefined): Started {
    if (this.chosenStarter !== undefined) return this.chosenStarter.start(path, env, run);
    this.deciding ??= this.decide();
    return this.deciding.then((starter) => starter.start(path, env, run));
  }

  private async decide(): Promise<PluginStarter> {
    const [launcher, reason] = await this.choose();
    this.reason = reason;
    debug("launcher: %s", reason);
    this.chosen = launcher;
    this.chosenStarter = pluginStarter(launcher);
    return this.chosenStarter;
  }

  private async choose(): Promise<[Launcher, string]> {
    if (process.platform !== "linux") {
      return [directLauncher, `direct spawn (no spawner helper on ${process.platform})`];
    }
    const launcher = this.spawner();
    try {
      await access(launcher.binaryPath, constants.X_OK);
    } catch {
      return [
        directLauncher,
        `direct spawn (no spawner binary for ${process.platform}-${process.arch} at ${launcher.binaryPath}; ${missingBinaryHint()})`,
      ];
    }
    try {
      await launcher.probe();
    } catch (error) {
      return [
        directLauncher,
        `direct spawn (spawner ${launcher.binaryPath} cannot run: ${messageOf(error)})`,
      ];
    }
    return [launcher, `spawner ${launcher.binaryPath}`];
  }
}

/** What to do about a missing binary: it depends on whether the path was chosen or derived. */
function missingBinaryHint(): string {
  if (process.env.LIBCNI_SPAWNER_BINARY) return "LIBCNI_SPAWNER_BINARY names no executable file";
  return "a bundled app: ship dist/native/<platform>-<arch>/libcni-spawner with it and set LIBCNI_SPAWNER_BINARY (docs/bundling.md, Bundling); a clone of the repository: npm run build:native";
}

const auto = new AutoLauncher();
const forced = new ForcedSpawner();

/** True for the names the option takes. */
function isLauncherName(value: unknown): value is LauncherName {
  return value === "auto" || value === "spawner" || value === "direct";
}

/** The launcher for an option value (a name or a Launcher), or the environment's default. */
export function selectLauncher(option: LauncherName | Launcher | undefined): Launcher {
  if (typeof option === "object" && option !== null) return option;
  if (option !== undefined && !isLauncherName(option)) {
    // As RawExec's other options: a bad value is an InvalidArgumentError at construction.
    throw new InvalidArgumentError(
      "launcher",
      `RawExec option launcher must be "auto", "spawner", "direct" or a Launcher, got ${String(option)}`,
    );
  }
  const fromEnv = process.env.LIBCNI_LAUNCHER;
  const name = option ?? (isLauncherName(fromEnv) ? fromEnv : "auto");
  if (name === "direct") return directLauncher;
  if (name === "spawner") return forced;
  return auto;
}
