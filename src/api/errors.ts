/**
 * The errors the api adds around plugin and cache errors, with upstream's texts.
 *
 * Upstream wraps with `fmt.Errorf("...: %w", err)`; here the wrapped error is the standard
 * `cause`, so `err.cause` is what Go's `errors.Unwrap(err)` returns, and a CNIError from a
 * plugin stays reachable with its code.
 */

import { goQuote } from "../encoding/go-quote.js";
import type { PluginConf } from "../types/plugin-conf.js";

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * An error that wraps another with context, as Go's `fmt.Errorf("<context>: %w", err)`:
 * its message is `<context>: <cause's message>` and `cause` is the wrapped error.
 */
export class LibcniError extends Error {
  constructor(context: string, cause: unknown) {
    super(`${context}: ${messageOf(cause)}`, { cause });
    this.name = "LibcniError";
  }
}

/**
 * The sentinel of a CHECK on a configuration older than 0.4.0 (upstream `ErrorCheckNotSupp`):
 * the thrown {@link CheckNotSupportedError} has it as its `cause`, as Go's `%w` does.
 */
export const ErrorCheckNotSupp: Error = new Error("does not support the CHECK command");

/** CHECK on a configuration older than 0.4.0: `configuration version "<v>" does not support the CHECK command`. */
export class CheckNotSupportedError extends Error {
  /** The configuration's CNI version. */
  readonly cniVersion: string;
  constructor(cniVersion: string) {
    super(`configuration version ${goQuote(cniVersion)} ${ErrorCheckNotSupp.message}`, {
      cause: ErrorCheckNotSupp,
    });
    this.name = "CheckNotSupportedError";
    this.cniVersion = cniVersion;
  }
}

/**
 * Upstream's `pluginDescription`: `type="<t>"`, then ` name="<n>"` when the plugin has a name,
 * with Go's `%q` quoting; `<missing>` without a configuration.
 */
export function pluginDescription(network: PluginConf | undefined): string {
  if (network === undefined) return "<missing>";
  let out = `type=${goQuote(network.type)}`;
  if (network.name !== "") out += ` name=${goQuote(network.name)}`;
  return out;
}

/** The verb a {@link PluginChainError} names, as upstream writes it. */
export type ChainVerb = "add" | "delete";

/**
 * A plugin of a list failed on ADD or DEL:
 * `plugin type="<t>" name="<n>" failed (add): <the plugin's error>`. `cause` is the plugin's
 * error (a CNIError with its code when the plugin reported one).
 */
export class PluginChainError extends Error {
  /** "add" or "delete". */
  readonly verb: ChainVerb;
  /** The failing plugin's `type`. */
  readonly pluginType: string | undefined;
  constructor(verb: ChainVerb, network: PluginConf | undefined, cause: unknown) {
    super(`plugin ${pluginDescription(network)} failed (${verb}): ${messageOf(cause)}`, { cause });
    this.name = "PluginChainError";
    this.verb = verb;
    this.pluginType = network?.type;
  }
}

/**
 * Several errors reported together, as Go's `errors.Join` (GC: one per line) or `%v` of an
 * error slice (validation: `[e1 e2]`). `errors` holds them in order.
 */
export class MultiError extends AggregateError {
  constructor(errors: readonly unknown[], format: "lines" | "list") {
    const messages = errors.map(messageOf);
    super(errors, format === "lines" ? messages.join("\n") : `[${messages.join(" ")}]`);
    this.name = "MultiError";
  }
}

/** The message of any thrown value. */
export { messageOf };
