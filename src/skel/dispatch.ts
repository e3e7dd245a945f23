/**
 * The dispatcher (upstream `skel.dispatcher.pluginMain`): reads the CNI_* environment and the
 * config, checks versions, and calls the verb's callback. Returns the error to report instead
 * of printing it, so that tests and custom mains decide what to do with it.
 */

import { CNIError, isCNIError } from "../errors/types.js";
import { messageOf } from "../internal/error-message.js";
import { traceContextFromEnv } from "../internal/trace-context.js";
import {
  ErrDecodingFailure,
  ErrIncompatibleCNIVersion,
  ErrInternal,
  ErrInvalidEnvironmentVariables,
  ErrInvalidNetNS,
  ErrIOFailure,
} from "../types/error-codes.js";
import { configDecoder } from "../version/conf.js";
import { greaterThanOrEqualTo } from "../version/parse.js";
import type { PluginInfo } from "../version/plugin-info.js";
import { reconcile } from "../version/reconcile.js";
import { validateConfig } from "./config.js";
import { type Environment, readEnv } from "./env.js";
import { readAll, type StdinSource, stdioErrorText, writeAll } from "./io.js";
import { isPluginNetNS } from "./netns.js";
import { abortOnSigterm } from "./sigterm.js";
import type { CmdArgs, CNIFuncs, OutputStream, PluginCallback, PluginContext } from "./types.js";

/**
 * What the dispatcher reads and writes. Every field defaults to the real process's, so a plugin
 * passes nothing; tests pass a table, bytes and collectors, as upstream's dispatcher tests do.
 */
export interface PluginMainOptions {
  /** The environment to read CNI_* from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The config source (default `process.stdin`); never read for VERSION. */
  stdin?: StdinSource;
  /** Where VERSION output goes, and callbacks' `ctx.stdout` (default `process.stdout`). */
  stdout?: OutputStream;
  /** Where the about text goes, and callbacks' `ctx.stderr` (default `process.stderr`). */
  stderr?: OutputStream;
  /** The callbacks' abort signal (default: one that aborts on SIGTERM while they run). */
  signal?: AbortSignal;
}

/** Go's `errors.As` for a CNIError: the error, its `cause`s, an AggregateError's members. */
function findCNIError(error: unknown, depth = 0): CNIError | undefined {
  if (isCNIError(error)) return error;
  if (depth > 32 || typeof error !== "object" || error === null) return undefined;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = findCNIError(inner, depth + 1);
      if (found) return found;
    }
  }
  return "cause" in error ? findCNIError(error.cause, depth + 1) : undefined;
}

/** Each verb's callback, the config version it needs, and whether the netns is checked. */
const verbs = new Map<string, { callback: keyof CNIFuncs; minVersion?: string; netns?: true }>([
  ["ADD", { callback: "add", netns: true }],
  ["DEL", { callback: "del", netns: true }],
  ["CHECK", { callback: "check", minVersion: "0.4.0" }],
  ["GC", { callback: "gc", minVersion: "1.1.0" }],
  ["STATUS", { callback: "status", minVersion: "1.1.0" }],
]);

/**
 * The version checks: a verb newer than the config format is refused below its `minVersion` and
 * when no version the plugin supports is at least the config's (parse errors are code 6); then
 * the config version must be one the plugin lists, exactly (code 1).
 */
function checkVersions(
  verb: string,
  minVersion: string | undefined,
  stdinData: Uint8Array,
  info: PluginInfo,
): CNIError | undefined {
  let configVersion: string;
  try {
    configVersion = configDecoder.decode(stdinData);
    if (minVersion !== undefined) {
      if (!greaterThanOrEqualTo(configVersion, minVersion)) {
        return new CNIError(ErrIncompatibleCNIVersion, `config version does not allow ${verb}`);
      }
      if (!info.supportedVersions().some((v) => greaterThanOrEqualTo(v, configVersion))) {
        return new CNIError(ErrIncompatibleCNIVersion, `plugin version does not allow ${verb}`);
      }
    }
  } catch (error) {
    return new CNIError(ErrDecodingFailure, messageOf(error), "", { cause: error });
  }
  const incompatible = reconcile(configVersion, info);
  const text = "incompatible CNI versions";
  return incompatible && new CNIError(ErrIncompatibleCNIVersion, text, incompatible.details());
}

/** The netns check of ADD and DEL, unless CNI_NETNS_OVERRIDE is `true` or `1`. */
async function checkNetNS(args: CmdArgs): Promise<CNIError | undefined> {
  const override = args.netnsOverride;
  if (override.toUpperCase() === "TRUE" || override === "1") return undefined;
  try {
    if (!(await isPluginNetNS(args.netns))) return undefined;
  } catch (error) {
    return findCNIError(error) ?? new CNIError(ErrInvalidNetNS, messageOf(error));
  }
  const text = "plugin's netns and netns from CNI_NETNS should not be the same";
  return new CNIError(ErrInvalidNetNS, text);
}

/** The callback's CNIError is passed through; any other error becomes code 999. */
async function call(
  callback: PluginCallback,
  args: CmdArgs,
  env: Environment,
  options: { stdout: OutputStream; stderr: OutputStream; signal: AbortSignal | undefined },
): Promise<CNIError | undefined> {
  // Listen for SIGTERM only while the callback runs, and only when no signal was given.
  const { signal, dispose } = options.signal
    ? { signal: options.signal, dispose: () => {} }
    : abortOnSigterm();
  const { stdout, stderr } = options;
  const ctx: PluginContext = { signal, stdout, stderr, traceContext: traceContextFromEnv(env) };
  // Signal listeners do not keep Node alive: a callback awaiting only its signal would let the
  // event loop drain and the process exit mid-call with no output. Hold it open until settled.
  const keepAlive = setInterval(() => {}, 0x7fffffff);
  try {
    // A returned error (Go's `return types.NewError(...)`, ported) fails as a thrown one does.
    const returned: unknown = await callback(args, ctx);
    if (returned instanceof Error) throw returned;
    return undefined;
  } catch (error) {
    // Don't wrap a CNI error in another (upstream: "don't wrap Error in Error").
    return findCNIError(error) ?? new CNIError(ErrInternal, messageOf(error), "", { cause: error });
  } finally {
    clearInterval(keepAlive);
    dispose();
  }
}

/**
 * Runs a plugin's verb and returns the error to report, or undefined on success (upstream
 * `PluginMainFuncsWithError`): nothing is printed and the process does not exit, which
 * `pluginMain` does. The checks and their order are upstream's (docs/deviations/skel.md).
 */
export async function pluginMainWithError(
  funcs: CNIFuncs,
  versionInfo: PluginInfo,
  about: string,
  options: PluginMainOptions = {},
): Promise<CNIError | undefined> {
  const environment = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = readEnv(environment);
  if (env instanceof CNIError) {
    // No command at all (readEnv's code 4) is a human running the binary: tell them what it is.
    if ((environment.CNI_COMMAND ?? "") === "" && about !== "") {
      // Upstream ignores a failure to write this courtesy text.
      const versions = versionInfo.supportedVersions().join(", ");
      const text = `${about}\nCNI protocol versions supported: ${versions}\n`;
      await writeAll(stderr, text).catch(() => {});
      return undefined;
    }
    return env;
  }

  let stdinData: Uint8Array = new Uint8Array(0);
  if (env.command !== "VERSION") {
    try {
      // Lazily: touching process.stdin opens fd 0, which VERSION must not read.
      stdinData = await readAll(options.stdin ?? process.stdin);
    } catch (error) {
      const text = `error reading from stdin: ${stdioErrorText(error, "read")}`;
      return new CNIError(ErrIOFailure, text, "", { cause: error });
    }
    const invalid = validateConfig(stdinData);
    if (invalid) return invalid;
  }

  const { command, ...envArgs } = env;
  const args: CmdArgs = { ...envArgs, stdinData };
  if (command === "VERSION") {
    try {
      await writeAll(stdout, versionInfo.encode());
    } catch (error) {
      return new CNIError(ErrIOFailure, stdioErrorText(error, "write"), "", { cause: error });
    }
    return undefined;
  }
  const verb = verbs.get(command);
  if (verb === undefined) {
    return new CNIError(ErrInvalidEnvironmentVariables, `unknown CNI_COMMAND: ${command}`);
  }
  const refused =
    checkVersions(command, verb.minVersion, stdinData, versionInfo) ??
    (verb.netns ? await checkNetNS(args) : undefined);
  if (refused) return refused;
  const callback = funcs[verb.callback];
  if (!callback) return undefined;
  return call(callback, args, environment, { stdout, stderr, signal: options.signal });
}
