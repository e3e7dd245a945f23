/** Validation of the names that build a cache path, on the verbs where upstream has none. */
import { InvalidArgumentError } from "../errors/base.js";
import { CNIError } from "../errors/types.js";
import { goQuote } from "../internal/go-quote.js";
import { ErrInvalidEnvironmentVariables, ErrInvalidNetworkConfig } from "../types/error-codes.js";
import { validateContainerID, validateInterfaceName, validateNetworkName } from "../utils/index.js";

/**
 * Refuses a network name, container ID or interface name that ADD would have refused
 * (upstream validates them on ADD only), with the validators' CNIError (codes 4 and 7).
 * Empty values pass: the cache path reports them with upstream's own message.
 */
export function validateNames(
  netName: string,
  rt: { readonly containerID: string; readonly ifName: string },
): void {
  const invalid =
    (rt.containerID === "" ? undefined : validateContainerID(rt.containerID)) ??
    (netName === "" ? undefined : validateNetworkName(netName)) ??
    (rt.ifName === "" ? undefined : validateInterfaceName(rt.ifName));
  if (invalid) throw invalid;
  if (netName !== "" && rt.containerID !== "" && rt.ifName !== "") {
    const tooLong = validateCacheFileName(netName, rt.containerID, rt.ifName);
    if (tooLong) throw tooLong;
  }
}

/**
 * ADD's validation of an attachment's names: the container ID, network name and interface
 * name (upstream's order and codes), then the record name's length; undefined when valid.
 */
export function attachmentNameError(
  netName: string,
  containerID: string,
  ifName: string,
): CNIError | undefined {
  return (
    validateContainerID(containerID) ??
    validateNetworkName(netName) ??
    validateInterfaceName(ifName) ??
    validateCacheFileName(netName, containerID, ifName)
  );
}

/** Linux's NAME_MAX: the longest file name, in bytes. */
export const NAME_MAX = 255;

/**
 * Refuses valid names whose cache record `<net>-<cid>-<ifname>` cannot exist (over NAME_MAX
 * bytes): without this the plugins would run and succeed, and only the cache write fail
 * (ENAMETOOLONG), leaving a network up that nothing records. The longer of the network name
 * (code 7) and the container ID (code 4) is named; the interface name is at most 15 bytes.
 */
export function validateCacheFileName(
  netName: string,
  containerID: string,
  ifName: string,
): CNIError | undefined {
  const netBytes = Buffer.byteLength(netName, "utf8");
  const idBytes = Buffer.byteLength(containerID, "utf8");
  const total = netBytes + idBytes + Buffer.byteLength(ifName, "utf8") + 2;
  if (total <= NAME_MAX) return undefined;
  const details = `the cache file name <network>-<containerID>-<ifName> would be ${total} bytes, over NAME_MAX (${NAME_MAX})`;
  return netBytes > idBytes
    ? new CNIError(ErrInvalidNetworkConfig, "network name is too long", details)
    : new CNIError(ErrInvalidEnvironmentVariables, "containerID is too long", details);
}

/** The pod's ID, by upstream's container ID rule. */
export function assertPodID(id: unknown, argument = "pod.id"): asserts id is string {
  if (typeof id !== "string") {
    throw new InvalidArgumentError(argument, `${argument} must be a string, got ${typeof id}`);
  }
  const invalid = validateContainerID(id);
  if (invalid) {
    throw new InvalidArgumentError(argument, `${argument} ${goQuote(id)}: ${invalid.message}`, {
      cause: invalid,
    });
  }
}
