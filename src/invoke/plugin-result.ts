/**
 * A plugin's stdout made a Result (upstream: `fixupResultVersion`, then `create.Create`). A
 * small one is decoded as paced steps (internal/pacer.ts), so a burst of plugin exits is not
 * decoded in one turn; a large one is src/large-documents/' (read in slices), to the same Result.
 */

import { paced } from "../internal/pacer.js";
import { decodeLargePluginResult, isLargeDocument } from "../large-documents/plugin-output.js";
import { findCreator } from "../types/create.js";
import type { Result } from "../types/result.js";
import { fixupResultVersion } from "../version/fixup-result.js";

/**
 * The result a plugin printed, in its version, or the config's when it has none; never
 * converted. Parsed once: the fixed-up value is what a second parse would give. `confVersion`,
 * when known, is the stdin's `cniVersion` (not read again from it).
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
