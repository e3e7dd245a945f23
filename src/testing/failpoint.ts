/**
 * Failpoints for any plugin (containerd's `cni-bridge-fp` is the idea): a `/bin/sh` wrapper
 * named as the plugin, in a dir searched first, that runs the real plugin unless the chosen
 * verb (or its Nth call) is to fail, hang or crash: rollback and recovery against real plugins.
 */
import { chmod, readFile, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { assertOptions, InvalidArgumentError } from "../errors/base.js";
import { findInPath } from "../invoke/find.js";
import { findPluginDirs } from "./plugin-dirs.js";

/** The verbs a failpoint can be set on (CNI_COMMAND). */
export type FailpointVerb = "ADD" | "CHECK" | "DEL" | "GC" | "STATUS" | "VERSION";

/**
 * What the failpoint does: `fail` prints the spec's error object on stdout and exits 1 (a
 * plugin's ordinary error); `hang` sleeps until killed (for timeout and abort tests: it is
 * the plugin process itself, so stopping the process group stops it); `crash` kills itself
 * with SIGKILL (no output); `garbage` prints text that is not JSON and exits 0.
 */
export type FailpointAction = "fail" | "hang" | "crash" | "garbage";

/** Options of {@link failpointPlugin}. */
export interface FailpointOptions {
  /**
   * The real plugin: its path, or its name (no `/`) looked up in {@link findPluginDirs}'s dirs
   * (`dir` left out, so the wrapper never finds itself).
   */
  plugin: string;
  /** The dir the wrapper is written to: put it before the real plugins' dir in the plugin path. */
  dir: string;
  /** The wrapper's name (the `type` configs use). Default: the plugin's file name. */
  name?: string;
  /** The verb that triggers it. Default: every verb. */
  verb?: FailpointVerb;
  /** Trigger only on this call (1-based, counting the calls of `verb`, or all calls without one). Default: every call. */
  call?: number;
  /** What happens when it triggers. */
  action: FailpointAction;
  /** The error code of `fail`. Default 999 (the spec leaves 100 and up to plugins). */
  code?: number;
  /** The error message of `fail`. Default `failpoint: <verb> of <name> failed on purpose`. */
  message?: string;
  /** The `cniVersion` of `fail`'s error object. Default "1.0.0". */
  cniVersion?: string;
}

/** A written failpoint wrapper. */
export interface Failpoint {
  /** The wrapper's path. */
  readonly path: string;
  /** Its name (the plugin type it stands for). */
  readonly name: string;
  /** How many calls it has seen, of `verb` or of every verb; failing and passing ones alike. */
  calls(verb?: FailpointVerb): Promise<number>;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The lines that do the action (the shell has decided it triggers). */
function actionLines(options: FailpointOptions, name: string): string[] {
  switch (options.action) {
    case "fail": {
      const error = {
        cniVersion: options.cniVersion ?? "1.0.0",
        code: options.code ?? 999,
        msg: options.message ?? `failpoint: ${options.verb ?? "call"} of ${name} failed on purpose`,
      };
      return [`printf '%s\\n' ${shellQuote(JSON.stringify(error))}`, "exit 1"];
    }
    case "hang":
      // exec: the sleep is the plugin process, so a signal to it (or its group) ends the run.
      return ["exec sleep 2147483647"];
    case "crash":
      return ["kill -KILL $$", "exit 137"];
    case "garbage":
      return ["printf 'failpoint: this is not JSON\\n'", "exit 0"];
  }
}

/**
 * The wrapper: log the call under a lock (flock(1) of util-linux when present, so parallel
 * calls count right; without it sequential calls still do), count the calls that match, then
 * either do the action or exec the real plugin with the same stdin, env and arguments.
 */
function wrapperScript(options: FailpointOptions, name: string, log: string): string {
  const matches = options.verb === undefined ? "" : `^${options.verb}$`;
  const triggers =
    options.call === undefined ? '[ "$n" -gt 0 ]' : `[ "$n" -eq ${String(options.call)} ]`;
  return [
    "#!/bin/sh",
    `# libcni failpoint wrapper for ${name}: ${options.action} on ${options.verb ?? "every verb"}, call ${options.call ?? "every"}.`,
    `log=${shellQuote(log)}`,
    "record() {",
    // An empty CNI_COMMAND is a line too (calls() counts lines with a verb).
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    '  printf \'%s\\n\' "${CNI_COMMAND:-(none)}" >> "$log"',
    `  grep -c ${shellQuote(matches)} "$log"`,
    "}",
    "if command -v flock >/dev/null 2>&1; then",
    '  n=$( { flock 9; record; } 9>>"$log.lock" )',
    "else",
    "  n=$(record)",
    "fi",
    `if ${options.verb === undefined ? "true" : `[ "$CNI_COMMAND" = ${shellQuote(options.verb)} ]`} && ${triggers}; then`,
    ...actionLines(options, name).map((line) => `  ${line}`),
    "fi",
    `exec ${shellQuote(options.plugin)} "$@"`,
    "",
  ].join("\n");
}

/** The real plugin's path: as given, or the name found in the plugin dirs but the wrapper's. */
async function realPlugin(plugin: string, wrapperDir: string): Promise<string> {
  // Absolute: the wrapper runs wherever the plugin's caller runs it.
  if (plugin.includes("/")) return resolve(plugin);
  const dirs = (await findPluginDirs()).filter((dir) => resolve(dir) !== resolve(wrapperDir));
  return findInPath(plugin, dirs);
}

/**
 * Writes a failpoint wrapper for `options.plugin` into `options.dir` (named as the plugin, or
 * `options.name`), with its call log beside it (`.<name>.calls`). Put `dir` first in the
 * plugin path (a {@link TestHost}'s `binDir` is): the library and any plugin delegating by
 * type (bridge to host-local) then run the wrapper, and the wrapper the real one.
 * @throws InvalidArgumentError for a `call` that is not a positive integer, an unknown `action`,
 *   a `verb` that is not a command, a `name` that is not a file name; the library's
 *   plugin lookup error when a plugin named by name is not installed.
 */
export async function failpointPlugin(options: FailpointOptions): Promise<Failpoint> {
  assertOptions(options);
  const { call } = options;
  if (call !== undefined && (!Number.isSafeInteger(call) || call < 1)) {
    throw new InvalidArgumentError(
      "call",
      `failpoint call must be a positive integer, got ${call}`,
    );
  }
  // Written into a shell script and a path: a name stays in `dir`, neither breaks a line.
  if (!["fail", "hang", "crash", "garbage"].includes(options.action)) {
    throw new InvalidArgumentError(
      "action",
      `failpoint action ${String(options.action)} is none of fail, hang, crash, garbage`,
    );
  }
  if (options.verb !== undefined && !/^[A-Z]+$/.test(options.verb)) {
    throw new InvalidArgumentError(
      "verb",
      `failpoint verb must be a CNI command (ADD, DEL...), got ${JSON.stringify(options.verb)}`,
    );
  }
  const plugin = await realPlugin(options.plugin, options.dir);
  const name = options.name ?? basename(plugin);
  if (!/^[^/\0\n\r]+$/.test(name) || name === "." || name === "..") {
    throw new InvalidArgumentError(
      "name",
      `failpoint name must be a file name, got ${JSON.stringify(name)}`,
    );
  }
  const path = join(options.dir, name);
  const log = join(options.dir, `.${name}.calls`);
  await writeFile(log, "");
  await writeFile(path, wrapperScript({ ...options, plugin }, name, log));
  await chmod(path, 0o755);
  return {
    path,
    name,
    calls: async (verb) => {
      const lines = (await readFile(log, "utf8")).split("\n").filter((l) => l !== "");
      return verb === undefined ? lines.length : lines.filter((l) => l === verb).length;
    },
  };
}
