/**
 * Delegation: a plugin calling another plugin, typically IPAM (upstream pkg/invoke/delegate.go).
 *
 * The delegating plugin runs with the CNI_* environment it was given; the delegate gets the
 * same environment with only CNI_COMMAND replaced, and is looked up in this process's
 * CNI_PATH. The config is passed through unchanged.
 */
import type { Result } from "../types/index.js";
import { DelegateArgs } from "./args.js";
import { defaultExec, type Exec, execPluginWithoutResult, execPluginWithResult } from "./exec.js";
import { splitList } from "./find.js";
import type { ExecOptions } from "./raw-exec.js";

async function delegateCommon(
  delegatePlugin: string,
  exec: Exec | undefined,
): Promise<{ pluginPath: string; exec: Exec }> {
  const runner = exec ?? defaultExec();
  const paths = splitList(process.env.CNI_PATH ?? "");
  const pluginPath = await runner.findInPath(delegatePlugin, paths);
  return { pluginPath, exec: runner };
}

async function delegateNoResult(
  verb: string,
  delegatePlugin: string,
  netconf: Uint8Array,
  exec: Exec | undefined,
  options: ExecOptions,
): Promise<void> {
  const found = await delegateCommon(delegatePlugin, exec);
  await execPluginWithoutResult(
    found.pluginPath,
    netconf,
    new DelegateArgs({ command: verb }),
    found.exec,
    options,
  );
}

/** Runs the delegate plugin for ADD with `netconf`, resolving to its result. */
export async function delegateAdd(
  delegatePlugin: string,
  netconf: Uint8Array,
  exec?: Exec,
  options: ExecOptions = {},
): Promise<Result> {
  const found = await delegateCommon(delegatePlugin, exec);
  return execPluginWithResult(
    found.pluginPath,
    netconf,
    new DelegateArgs({ command: "ADD" }),
    found.exec,
    options,
  );
}

/** Runs the delegate plugin for CHECK with `netconf`. */
export function delegateCheck(
  delegatePlugin: string,
  netconf: Uint8Array,
  exec?: Exec,
  options: ExecOptions = {},
): Promise<void> {
  return delegateNoResult("CHECK", delegatePlugin, netconf, exec, options);
}

/** Runs the delegate plugin for DEL with `netconf`. */
export function delegateDel(
  delegatePlugin: string,
  netconf: Uint8Array,
  exec?: Exec,
  options: ExecOptions = {},
): Promise<void> {
  return delegateNoResult("DEL", delegatePlugin, netconf, exec, options);
}

/** Runs the delegate plugin for STATUS with `netconf`. */
export function delegateStatus(
  delegatePlugin: string,
  netconf: Uint8Array,
  exec?: Exec,
  options: ExecOptions = {},
): Promise<void> {
  return delegateNoResult("STATUS", delegatePlugin, netconf, exec, options);
}

/** Runs the delegate plugin for GC with `netconf`. */
export function delegateGC(
  delegatePlugin: string,
  netconf: Uint8Array,
  exec?: Exec,
  options: ExecOptions = {},
): Promise<void> {
  return delegateNoResult("GC", delegatePlugin, netconf, exec, options);
}
