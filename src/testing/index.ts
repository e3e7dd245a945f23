/**
 * Helpers for integration tests of CNI runtimes and plugins (libcni/testing): what a Go test
 * takes from containernetworking/plugins' `pkg/testutils` and `pkg/ns` (the mapping:
 * docs/testing.md, "Names from Go"), and the conformance checker. What they create is named
 * for its owner (names.ts) and removed by `await using` or `remove()`; what a killed process
 * left, by the next one's sweep (sweep.ts). This entry exports its own names only
 * (docs/public-surface.md): namespaces are `libcni/netns`'s, the fake Exec `libcni/invoke`'s.
 * @module
 */

export {
  CommandFailedError,
  EventuallyError,
  MissingPluginsError,
  RootlessError,
  type RootlessFailure,
} from "../errors/testing.js";
export {
  type CheckPluginOptions,
  type ConformanceReport,
  type ConformanceRule,
  checkPlugin,
  conformanceRules,
  type FormatReportOptions,
  formatReport,
  type RuleLevel,
  type RuleResult,
  type RuleStatus,
  type VersionCounts,
} from "./conformance/index.js";
export { type EventuallyOptions, eventually } from "./eventually.js";
export {
  type Failpoint,
  type FailpointAction,
  type FailpointOptions,
  type FailpointVerb,
  failpointPlugin,
} from "./failpoint.js";
export { checkNamePrefix, testNamePrefix } from "./names.js";
export { type PingOptions, type PingResult, ping } from "./ping.js";
export {
  type FindPluginDirsOptions,
  findPluginDirs,
  requirePlugins,
  wellKnownPluginDirs,
} from "./plugin-dirs.js";
export { type RootlessResult, type RunRootlessOptions, runRootless } from "./rootless.js";
export { runInNetns } from "./run.js";
export {
  allSpecVersions,
  specVersionHasChaining,
  specVersionHasCheck,
  specVersionHasGC,
  specVersionHasIPVersion,
  specVersionHasMultipleIPs,
  specVersionHasStatus,
} from "./spec-versions.js";
export {
  type SweepFailure,
  type SweepTestLeftoversOptions,
  type SweptTestLeftovers,
  sweepTestLeftovers,
} from "./sweep.js";
export { type TempNetns, type TempNetnsOptions, tempNetns } from "./temp-netns.js";
export {
  type TestHost,
  type TestHostOptions,
  type TestHostRuntimeOptions,
  testHost,
} from "./test-host.js";
