/**
 * The name validators of upstream pkg/utils (utils.go), with its exact error codes, messages
 * and details, returned rather than thrown as upstream returns `*types.Error` or nil. A name
 * that is no string (Go's are) is thrown as an InvalidArgumentError: the regular expression
 * would read `undefined` as the valid name "undefined".
 */
import { wrongTypeError } from "../errors/base.js";
import { CNIError } from "../errors/types.js";
import {
  ErrInvalidEnvironmentVariables,
  ErrInvalidNetworkConfig,
  ErrUnknownContainer,
} from "../types/error-codes.js";
import { isGoSpace } from "./unicode-space.js";

/**
 * Upstream's `cniValidNameChars` anchored as `^...*$`. Without the `m` flag JavaScript's `$`
 * matches only at the very end, as Go's does, so a trailing newline is rejected in both.
 */
const validName = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;

/** A plain string argument (a plugin type, a container ID). */
export function assertString(name: unknown, argument: string): asserts name is string {
  if (typeof name !== "string") throw wrongTypeError(argument, "a string", name);
}

/** Undefined for a valid name, else the error of `code` and `msg` with the name as details. */
function invalidName(name: string, code: number, msg: string): CNIError | undefined {
  return validName.test(name) ? undefined : new CNIError(code, msg, name);
}

/** Linux's IFNAMSIZ is 16 including the terminating NUL, so at most 15 bytes. */
const MAX_INTERFACE_NAME_LENGTH = 15;

/**
 * Checks a container ID: not empty (code 3 `missing containerID`) and made of
 * `[a-zA-Z0-9][a-zA-Z0-9_.-]*` (code 4 `invalid characters in containerID`, details = the ID).
 */
export function validateContainerID(containerID: string): CNIError | undefined {
  assertString(containerID, "containerID");
  if (containerID === "") return new CNIError(ErrUnknownContainer, "missing containerID", "");
  const text = "invalid characters in containerID";
  return invalidName(containerID, ErrInvalidEnvironmentVariables, text);
}

/**
 * Checks a network name: not empty (code 7 `missing network name:`, with upstream's trailing
 * colon) and made of `[a-zA-Z0-9][a-zA-Z0-9_.-]*` (code 7
 * `invalid characters found in network name`, details = the name).
 */
export function validateNetworkName(networkName: string): CNIError | undefined {
  assertString(networkName, "networkName");
  if (networkName === "") return new CNIError(ErrInvalidNetworkConfig, "missing network name:", "");
  const text = "invalid characters found in network name";
  return invalidName(networkName, ErrInvalidNetworkConfig, text);
}

/**
 * Checks an interface name as the Linux kernel's `dev_valid_name` does, all code 4, in
 * upstream's order: empty (`interface name is empty`); longer than 15 UTF-8 bytes
 * (`interface name is too long`, details `interface name should be less than 16 characters`);
 * `.` or `..` (`interface name is . or ..`); beyond upstream, containing NUL (`interface name
 * contains a NUL byte`); containing `/`, `:` or a Go `unicode.IsSpace` character
 * (`interface name contains / or : or whitespace characters`).
 */
export function validateInterfaceName(ifName: string): CNIError | undefined {
  assertString(ifName, "ifName");
  const invalid = (msg: string, details = "") =>
    new CNIError(ErrInvalidEnvironmentVariables, msg, details);
  if (ifName.length === 0) return invalid("interface name is empty");
  // Upstream's len() counts bytes, and the kernel's limit is in bytes too: nine U+00E9 are 9
  // characters but 18 bytes. A lone surrogate becomes U+FFFD (3 bytes), as it would on its
  // way into an environment variable.
  if (Buffer.byteLength(ifName, "utf8") > MAX_INTERFACE_NAME_LENGTH) {
    const limit = MAX_INTERFACE_NAME_LENGTH + 1;
    return invalid(
      "interface name is too long",
      `interface name should be less than ${limit} characters`,
    );
  }
  if (ifName === "." || ifName === "..") return invalid("interface name is . or ..");
  // Beyond upstream: a NUL cannot pass through an environment variable (CNI_IFNAME), so the
  // plugin could never be started; refused here, before any plugin runs.
  if (ifName.includes("\0")) return invalid("interface name contains a NUL byte");
  for (const ch of ifName) {
    if (ch === "/" || ch === ":" || isGoSpace(ch.codePointAt(0)!)) {
      return invalid("interface name contains / or : or whitespace characters");
    }
  }
  return undefined;
}
