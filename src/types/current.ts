import type { Result } from "./result.js";
import { Result100 } from "./v100.js";

/**
 * `result` as the current CNI version (1.1.0), typed: `addNetworkList` returns the interface
 * `Result` (a plugin may answer in any version its config names), whose `ips` TypeScript does
 * not see until it is converted. Upstream's `current.NewResultFromResult` /
 * `types100.GetResult`; a result already 1.1.0 is returned as it is, and `undefined` (an ADD
 * over a list without plugins) stays `undefined`.
 *
 * ```ts
 * const result = currentResult(await cni.addNetworkList(list, rt));
 * for (const ip of result?.ips ?? []) console.log(ipNetToString(ip.address));
 * ```
 * @throws ConversionError when the result cannot be held by 1.1.0 (a 0.2.0 result without IPs
 *   converts; a result with a `null` entry does not).
 */
export function currentResult(result: Result): Result100;
export function currentResult(result: Result | undefined): Result100 | undefined;
export function currentResult(result: Result | undefined): Result100 | undefined {
  return result === undefined ? undefined : Result100.getResult(result);
}
