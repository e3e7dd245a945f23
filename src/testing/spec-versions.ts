/**
 * The spec versions a test iterates over (upstream's `testutils.AllSpecVersions`), taken from
 * libcni/version's list so the two never disagree.
 */
import { all } from "../version/index.js";

/** Every CNI spec version, oldest first: 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0, 1.1.0. */
export const allSpecVersions: readonly string[] = Object.freeze([...all.supportedVersions()]);
