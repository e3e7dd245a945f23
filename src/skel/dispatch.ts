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
import { readAll, type StdinSource, writeAll } from "./io.js";
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

/**
 * Finds a CNIError in an error's chain, as Go's `errors.As` does through `Unwrap`: the error
 * itself, its `cause`s, and the members of an AggregateError (Go's joined errors).
 */
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

function decodingFailure(error: unknown): CNIError {
  return new CNIError(ErrDecodingFailure, messageOf(error), "", { cause: error });
}

class Dispatcher {
  constructor(
    private readonly env: Environment,
    private readonly stdin: () => StdinSource,
    private readonly stdout: OutputStream,
    private readonly stderr: OutputStream,
    private readonly signal: AbortSignal | undefined,
  ) {}

  async run(funcs: CNIFuncs, info: PluginInfo, about: string): Promise<CNIError | undefined> {
    const env = readEnv(this.env);
    if (env instanceof CNIError) {
      // No command at all is a human running the binary: tell them what it is.
      if (
        env.code === ErrInvalidEnvironmentVariables &&
        (this.env.CNI_COMMAND ?? "") === "" &&
        about !== ""
      ) {
        // Upstream ignores a failure to write this courtesy text.
        await writeAll(
          this.stderr,
          `${about}\nCNI protocol versions supported: ${info.supportedVersions().join(", ")}\n`,
        ).catch(() => {});
        return undefined;
      }
      return env;
    }

    let stdinData: Uint8Array = new Uint8Array(0);
    if (env.command !== "VERSION") {
      try {
        stdinData = await readAll(this.stdin());
      } catch (error) {
        return new CNIError(ErrIOFailure, `error reading from stdin: ${messageOf(error)}`, "", {
          cause: error,
        });
      }
      const invalid = validateConfig(stdinData);
      if (invalid) return invalid;
    }

    const args: CmdArgs = {
      containerID: env.containerID,
      netns: env.netns,
      ifName: env.ifName,
      args: env.args,
      path: env.path,
      netnsOverride: env.netnsOverride,
      stdinData,
    };

    switch (env.command) {
      case "ADD":
        return this.checkVersionAndCall(args, info, funcs.add, true);
      case "DEL":
        return this.checkVersionAndCall(args, info, funcs.del, true);
      case "CHECK":
        return this.gated("CHECK", "0.4.0", args, info, funcs.check);
      case "GC":
        return this.gated("GC", "1.1.0", args, info, funcs.gc);
      case "STATUS":
        return this.gated("STATUS", "1.1.0", args, info, funcs.status);
      case "VERSION":
        try {
          await writeAll(this.stdout, info.encode());
        } catch (error) {
          return new CNIError(ErrIOFailure, messageOf(error), "", { cause: error });
        }
        return undefined;
      default:
        return new CNIError(ErrInvalidEnvironmentVariables, `unknown CNI_COMMAND: ${env.command}`);
    }
  }

  /**
   * The verbs newer than the config format: refused below `minVersion`, and refused when no
   * version the plugin supports is at least the config's. Version parse errors are code 6.
   */
  private async gated(
    verb: string,
    minVersion: string,
    args: CmdArgs,
    info: PluginInfo,
    callback: PluginCallback | undefined,
  ): Promise<CNIError | undefined> {
    let configVersion: string;
    try {
      configVersion = configDecoder.decode(args.stdinData);
      if (!greaterThanOrEqualTo(configVersion, minVersion)) {
        return new CNIError(ErrIncompatibleCNIVersion, `config version does not allow ${verb}`);
      }
    } catch (error) {
      return decodingFailure(error);
    }
    for (const pluginVersion of info.supportedVersions()) {
      let newer: boolean;
      try {
        newer = greaterThanOrEqualTo(pluginVersion, configVersion);
      } catch (error) {
        return decodingFailure(error);
      }
      if (newer) return this.checkVersionAndCall(args, info, callback, false);
    }
    return new CNIError(ErrIncompatibleCNIVersion, `plugin version does not allow ${verb}`);
  }

  /**
   * The config version must be one the plugin lists, exactly (code 1 otherwise). For ADD and
   * DEL the netns check follows, then the callback; its CNIError is passed through and any
   * other error becomes code 999.
   */
  private async checkVersionAndCall(
    args: CmdArgs,
    info: PluginInfo,
    callback: PluginCallback | undefined,
    checkNetNS: boolean,
  ): Promise<CNIError | undefined> {
    let configVersion: string;
    try {
      configVersion = configDecoder.decode(args.stdinData);
    } catch (error) {
      return decodingFailure(error);
    }
    const incompatible = reconcile(configVersion, info);
    if (incompatible) {
      return new CNIError(
        ErrIncompatibleCNIVersion,
        "incompatible CNI versions",
        incompatible.details(),
      );
    }
    if (checkNetNS) {
      const override = args.netnsOverride;
      if (override.toUpperCase() !== "TRUE" && override !== "1") {
        try {
          if (await isPluginNetNS(args.netns)) {
            return new CNIError(
              ErrInvalidNetNS,
              "plugin's netns and netns from CNI_NETNS should not be the same",
            );
          }
        } catch (error) {
          return findCNIError(error) ?? new CNIError(ErrInvalidNetNS, messageOf(error));
        }
      }
    }
    if (!callback) return undefined;
    return this.call(callback, args);
  }

  private async call(callback: PluginCallback, args: CmdArgs): Promise<CNIError | undefined> {
    // Listen for SIGTERM only while the callback runs, and only when no signal was given.
    let signal = this.signal;
    let dispose = (): void => {};
    if (!signal) {
      const sigterm = abortOnSigterm();
      signal = sigterm.signal;
      dispose = sigterm.dispose;
    }
    const ctx: PluginContext = {
      signal,
      stdout: this.stdout,
      stderr: this.stderr,
      traceContext: traceContextFromEnv(this.env),
    };
    // Signal listeners do not keep Node alive: a callback awaiting only its signal would let the
    // event loop drain and the process exit mid-call with no output. Hold it open until settled.
    const keepAlive = setInterval(() => {}, 0x7fffffff);
    try {
      await callback(args, ctx);
      return undefined;
    } catch (error) {
      // Don't wrap a CNI error in another (upstream: "don't wrap Error in Error").
      return (
        findCNIError(error) ?? new CNIError(ErrInternal, messageOf(error), "", { cause: error })
      );
    } finally {
      clearInterval(keepAlive);
      dispose();
    }
  }
}

/**
 * Runs a plugin's verb and returns the error to report, or undefined on success (upstream
 * `PluginMainFuncsWithError`). Nothing is printed on error and the process does not exit: a
 * spec-compliant plugin prints the error as JSON to stdout and exits non-zero, which
 * `pluginMain` does.
 *
 * Order of checks (each failure returns at once): the CNI_* environment (missing variables,
 * code 4, all listed; invalid container ID or interface name); with no CNI_COMMAND and an
 * `about` text, the about text on stderr and success; stdin (code 5) and the config's JSON and
 * network name (codes 6, 7), skipped for VERSION; then the verb.
 */
export async function pluginMainWithError(
  funcs: CNIFuncs,
  versionInfo: PluginInfo,
  about: string,
  options: PluginMainOptions = {},
): Promise<CNIError | undefined> {
  return new Dispatcher(
    options.env ?? process.env,
    // Lazily: touching process.stdin opens fd 0, which VERSION must not read.
    () => options.stdin ?? process.stdin,
    options.stdout ?? process.stdout,
    options.stderr ?? process.stderr,
    options.signal,
  ).run(funcs, versionInfo, about);
}
