/**
 * A plugin's stdout made a Result, in one call (upstream: `fixupResultVersion`, then
 * `create.Create`). A small result is parsed and decoded as paced steps (internal/pacer.ts), so
 * that the results of a burst of plugin exits are not all decoded in one turn of the event
 * loop; a large one (near the output cap) is src/large-documents/' (read in slices). Both give
 * the same Result.
 */

import { paced } from "../internal/pacer.js";
import { decodeLargePluginResult, isLargeDocument } from "../large-documents/plugin-output.js";
import { findCreator } from "../types/create.js";
import type { Result } from "../types/result.js";
import { fixupResultVersion } from "../version/fixup-result.js";

/**
 * The result a plugin printed, in the version it printed, or the config's when it has none;
 * never converted. Decoded once: the fixed-up value is what parsing its bytes again would give.
 * `confVersion`, when known, is the stdin's `cniVersion` (the stdin is then not read for it).
 * @throws as `fixupResultVersion` for output that is not a JSON object; the version's decoding
 *   errors.
 */
export async function decodePluginResult(
  netconf: Uint8Array,
  stdout: Uint8Array,
  confVersion?: string,
): Promise<Result> {
  if (isLargeDocument(stdout.length)) return decodeLargePluginResult(netconf, stdout, confVersion);
  const { version, value } = await paced(() => fixupResultVersion(netconf, stdout, confVersion));
  return paced(() => findCreator(version)(value));
}
