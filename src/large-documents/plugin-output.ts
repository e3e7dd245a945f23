/**
 * The invoke side's entry to large documents: a plugin's stdout near the output cap made a
 * Result, its long lists kept as text (long-array.ts, long-list.ts, result100.ts), the event
 * loop getting a turn between the stages. The Result is the one the small path gives.
 */

import type { Result } from "../types/result.js";
import { fixupParsedResult, fixupResultVersion } from "../version/fixup-result.js";
import { materializeLongArrays, parseKeepingLongArrays } from "./long-array.js";
import { decodeKeptResult, longListPaths100 } from "./result100.js";
import { yieldToEventLoop } from "./slices.js";

export { isLargeDocument } from "./slices.js";

/**
 * `decodePluginResult` of a large output (invoke/plugin-result.ts): the result in the version
 * the plugin printed, or the config's when it has none; never converted.
 * @throws as `fixupResultVersion` for output that is not a JSON object; the version's decoding
 *   errors.
 */
export async function decodeLargePluginResult(
  netconf: Uint8Array,
  stdout: Uint8Array,
  confVersion: string | undefined,
): Promise<Result> {
  await yieldToEventLoop();
  const kept = await parseKeepingLongArrays(stdout, longListPaths100);
  const { version, value } =
    kept === undefined
      ? fixupResultVersion(netconf, stdout, confVersion)
      : fixupParsedResult(
          netconf,
          stdout,
          kept,
          () => materializeLongArrays(kept, longListPaths100),
          confVersion,
        );
  await yieldToEventLoop();
  const result = await decodeKeptResult(value, version);
  await yieldToEventLoop();
  return result;
}
