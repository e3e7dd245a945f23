/** The spec's error codes (upstream `types.Err*`), written once: `libcni/types` re-exports them. */

/** Code 0: an unknown error. */
export const ErrUnknown = 0;
/** Code 1: the plugin does not support the configuration's CNI version. */
export const ErrIncompatibleCNIVersion = 1;
/** Code 2: the configuration holds a field the plugin does not support. */
export const ErrUnsupportedField = 2;
/** Code 3: the container is unknown or does not exist. */
export const ErrUnknownContainer = 3;
/** Code 4: a CNI_* environment variable is missing or invalid. */
export const ErrInvalidEnvironmentVariables = 4;
/** Code 5: an I/O failure, such as reading stdin. */
export const ErrIOFailure = 5;
/** Code 6: the configuration or another input could not be decoded. */
export const ErrDecodingFailure = 6;
/** Code 7: the network configuration is invalid. */
export const ErrInvalidNetworkConfig = 7;
/** Code 8: the network namespace is invalid. */
export const ErrInvalidNetNS = 8;
/** Code 11: a transient condition; try again later. */
export const ErrTryAgainLater = 11;
/** Code 50: the plugin is not available (STATUS). */
export const ErrPluginNotAvailable = 50;
/** Code 51: the plugin has limited connectivity (STATUS). */
export const ErrLimitedConnectivity = 51;
/** Code 999: an internal error, such as an untyped error thrown by a plugin callback. */
export const ErrInternal = 999;
