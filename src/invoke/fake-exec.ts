/**
 * Test doubles for code that runs plugins (upstream pkg/invoke/fakes): a {@link FakeExec}
 * passed wherever an {@link Exec} is accepted records what a plugin would get and scripts its
 * answer, without plugin executables on disk.
 */
import { toBytes } from "../internal/bytes.js";
import type { TraceContext } from "../internal/trace-context.js";
import { decodePluginInfo, type PluginInfo } from "../version/index.js";
import type { CNIArgs } from "./args.js";
import type { Exec } from "./exec.js";
import type { ExecOptions } from "./raw-exec.js";

/** One recorded `execPlugin` call. */
export interface FakeExecPluginCall {
  /** The plugin path asked for. */
  pluginPath: string;
  /** The bytes that would have been the plugin's stdin. */
  stdinData: Uint8Array;
  /** The environment (`undefined`: inherit). */
  environ: string[] | undefined;
  /** The call's AbortSignal, if any. */
  signal: AbortSignal | undefined;
  /** The call's trace context, if any (RawExec would pass it as `TRACEPARENT`, ...). */
  traceContext: TraceContext | undefined;
}

/**
 * A scriptable {@link Exec}. Each method records what it received (the last call in
 * `*Call.received`, every call in `calls`) and answers with `*Call.returns`, or rejects with
 * `returns.error` when that is set. `execPluginCall.handler`, when set, computes the answer per
 * call instead. `decode` uses the real VERSION decoder unless `decodeCall.returns` is set.
 */
export class FakeExec implements Exec {
  /** The execPlugin script and record. */
  readonly execPluginCall: {
    received: FakeExecPluginCall;
    returns: { resultBytes: string | Uint8Array; error?: unknown };
    handler?: (call: FakeExecPluginCall) => string | Uint8Array | Promise<string | Uint8Array>;
  } = {
    received: {
      pluginPath: "",
      stdinData: new Uint8Array(),
      environ: undefined,
      signal: undefined,
      traceContext: undefined,
    },
    returns: { resultBytes: new Uint8Array() },
  };

  /** The findInPath script and record. */
  readonly findInPathCall: {
    received: { plugin: string; paths: readonly string[] };
    returns: { path: string; error?: unknown };
  } = { received: { plugin: "", paths: [] }, returns: { path: "" } };

  /** The decode script and record. */
  readonly decodeCall: {
    received: { jsonBytes: Uint8Array };
    returns: { pluginInfo?: PluginInfo; error?: unknown };
  } = { received: { jsonBytes: new Uint8Array() }, returns: {} };

  /** Every execPlugin call, in order. */
  readonly calls: FakeExecPluginCall[] = [];

  /** Records the call and answers as scripted. */
  async execPlugin(
    pluginPath: string,
    stdinData: Uint8Array,
    environ: string[] | undefined,
    options: ExecOptions = {},
  ): Promise<Uint8Array> {
    const call = {
      pluginPath,
      stdinData,
      environ,
      signal: options.signal,
      traceContext: options.traceContext,
    };
    this.execPluginCall.received = call;
    this.calls.push(call);
    if (this.execPluginCall.handler !== undefined) {
      return toBytes(await this.execPluginCall.handler(call));
    }
    const { returns } = this.execPluginCall;
    if (returns.error !== undefined) throw returns.error;
    return toBytes(returns.resultBytes);
  }

  /** Records the lookup and answers as scripted. */
  async findInPath(plugin: string, paths: readonly string[]): Promise<string> {
    this.findInPathCall.received = { plugin, paths };
    const { returns } = this.findInPathCall;
    if (returns.error !== undefined) throw returns.error;
    return returns.path;
  }

  /** Records the bytes and answers as scripted, or decodes them for real. */
  decode(jsonBytes: Uint8Array): PluginInfo {
    this.decodeCall.received = { jsonBytes };
    const { returns } = this.decodeCall;
    if (returns.error !== undefined) throw returns.error;
    return returns.pluginInfo ?? decodePluginInfo(jsonBytes);
  }
}

/** CNIArgs whose environment is whatever the test says (upstream fakes.CNIArgs). */
export class FakeCNIArgs implements CNIArgs {
  /** The environment asEnv returns. */
  env: string[] | undefined;

  constructor(env: string[] | undefined = []) {
    this.env = env;
  }

  /** Returns {@link FakeCNIArgs.env} as is. */
  asEnv(): string[] | undefined {
    return this.env;
  }
}
