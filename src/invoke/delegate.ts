/**
 * Delegation: a plugin calling another plugin, typically IPAM (upstream pkg/invoke/delegate.go).
 * The delegate gets this process's environment with only CNI_COMMAND replaced, is looked up in
 * this process's CNI_PATH, and gets the config unchanged.
 */
import type { Result } from "../types/index.js";
import { DelegateArgs } from "./args.js";
import { defaultExec, type Exec, execPluginWithoutResult, execPluginWithResult } from "./exec.js";
import { splitList } from "./find.js";
import type { ExecOptions } from "./raw-exec.js";

type Run<T> = (path: string, args: DelegateArgs, exec: Exec) => Promise<T>;

async function delegate<T>(verb: string, plugin: string, exec: Exec | undefined, run: Run<T>) {
  const runner = exec ?? defaultExec();
  const path = await runner.findInPath(plugin, splitList(process.env.CNI_PATH ?? ""));
  return run(path, new DelegateArgs({ command: verb }), runner);
}

/** A delegate verb without a result (upstream's `DelegateCheck`, `DelegateDel`, ...). */
const withoutResult =
  (verb: string) =>
  (delegatePlugin: string, netconf: Uint8Array, exec?: Exec, options: ExecOptions = {}) =>
    delegate(verb, delegatePlugin, exec, (path, args, runner) =>
      execPluginWithoutResult(path, netconf, args, runner, options),
    );

/** Runs the delegate plugin for ADD with `netconf`, resolving to its result. */
export function delegateAdd(
  delegatePlugin: string,
  netconf: Uint8Array,
  exec?: Exec,
  options: ExecOptions = {},
): Promise<Result> {
  return delegate("ADD", delegatePlugin, exec, (path, args, runner) =>
    execPluginWithResult(path, netconf, args, runner, options),
  );
}

/** Runs the delegate plugin for CHECK with `netconf`. */
export const delegateCheck = withoutResult("CHECK");

/** Runs the delegate plugin for DEL with `netconf`. */
export const delegateDel = withoutResult("DEL");

/** Runs the delegate plugin for STATUS with `netconf`. */
export const delegateStatus = withoutResult("STATUS");

/** Runs the delegate plugin for GC with `netconf`. */
export const delegateGC = withoutResult("GC");
