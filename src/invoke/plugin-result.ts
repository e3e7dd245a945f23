/**
 * A plugin's stdout made a Result, in one call (upstream: `fixupResultVersion`, then
 * `create.Create`). Which path serves it is decided here: a small result is parsed and decoded
 * as paced steps (internal/pacer.ts), so that the results of a burst of plugin exits are not
 * all decoded in one turn of the event loop; a large one (near the output cap) is parsed with
 * its long lists kept as text and checked in slices (encoding/long-arrays.ts), yielding to the
 * event loop between stages. Both give the same Result.
 */
import { paced } from "../internal/pacer.js";
import { isLargeDocument, yieldIfLarge } from "../internal/yield.js";
import { findCreator } from "../types/create.js";
import type { Result } from "../types/result.js";
import { longListPaths100, prepareLongLists } from "../types/v100.js";
import { fixupLargeResultVersion, fixupResultVersion } from "./fixup.js";

/**
 * The result a plugin printed, in the version it printed, or the config's when it has none;
 * never converted. Decoded once: the fixed-up value is what parsing its bytes again would give.
 * @throws as `fixupResultVersion` for output that is not a JSON object; the version's decoding
 *   errors.
 */
export async function decodePluginResult(netconf: Uint8Array, stdout: Uint8Array): Promise<Result> {
  if (!isLargeDocument(stdout.length)) {
    const { version, value } = await paced(() => fixupResultVersion(netconf, stdout));
    return paced(() => findCreator(version)(value));
  }
  await yieldIfLarge(stdout.length);
  const { version, value } =
    (await fixupLargeResultVersion(netconf, stdout, longListPaths100)) ??
    fixupResultVersion(netconf, stdout);
  await yieldIfLarge(stdout.length);
  // The long lists are checked in slices, before the decoder's single pass.
  await prepareLongLists(value);
  const result = findCreator(version)(value);
  await yieldIfLarge(stdout.length);
  return result;
}
