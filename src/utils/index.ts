/**
 * Name validation, as upstream pkg/utils: container IDs, network names and interface names.
 * Each validator returns a `CNIError` with upstream's code, message and details, or `undefined`.
 * @module
 */
export { validateContainerID, validateInterfaceName, validateNetworkName } from "./validate.js";
