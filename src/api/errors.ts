/**
 * Upstream's `pluginDescription`, which the api's error texts embed. Upstream's `%w` wrapping
 * is the standard `cause` here: `err.cause` is what Go's `errors.Unwrap(err)` returns.
 */

import { type ChainVerb, PluginChainError } from "../errors/api.js";
import { goQuote } from "../internal/go-quote.js";
import type { PluginConf } from "../types/plugin-conf.js";

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

/** `plugin type="<t>" name="<n>" failed (add): <err>`, for a plugin of a list. */
export function pluginChainError(
  verb: ChainVerb,
  network: PluginConf | undefined,
  cause: unknown,
  index?: number,
): PluginChainError {
  return new PluginChainError(verb, pluginDescription(network), network?.type, cause, index);
}
