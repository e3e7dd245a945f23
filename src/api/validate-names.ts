/**
 * Validation of the names that build a cache path, on the verbs where upstream has none.
 */
import { validateContainerID, validateInterfaceName, validateNetworkName } from "../utils/index.js";
import type { RuntimeConf } from "./types.js";

/**
 * Refuses a network name, container ID or interface name that ADD would have refused
 * (upstream validates them on ADD only), with the validators' CNIError (codes 4 and 7).
 * Empty values pass: the cache path reports them with upstream's own message.
 */
export function validateNames(
  netName: string,
  rt: Pick<RuntimeConf, "containerID" | "ifName">,
): void {
  const invalid =
    (rt.containerID === "" ? undefined : validateContainerID(rt.containerID)) ??
    (netName === "" ? undefined : validateNetworkName(netName)) ??
    (rt.ifName === "" ? undefined : validateInterfaceName(rt.ifName));
  if (invalid) throw invalid;
}
