/**
 * Helpers for integration tests of CNI runtimes and plugins (libcni/testing): the pieces a
 * Go test takes from containernetworking/plugins' `pkg/testutils` and `pkg/ns`, for Node.
 * Everything they create is named for its owner by one scheme (./names.ts):
 * `lcnitest-<pid>-<start>.<ns>-<n>…` for what tempNetns and testHost make (namespaces, temp
 * dirs), `lcnicheck-<pid>-<start>.<ns>-<n>…` for what the conformance checker makes
 * (namespaces, network names, container IDs), `<n>` one counter for the whole process. It is
 * removed by `await using` (or `remove()`), also when the test throws; what a killed process
 * left is removed by the next one's first tempNetns, testHost or checkPlugin, or by
 * {@link sweepTestLeftovers}. Namespaces need root (CAP_SYS_ADMIN), or a rootless sandbox
 * ({@link runRootless}, `cnitool rootless`) where the kernel allows unprivileged user namespaces. `await using` needs
 * TypeScript 5.2+ (vitest compiles it) or Node 24+; elsewhere, `remove()` in a `finally`.
 * This entry exports its own names only (docs/public-surface.md): namespaces themselves are
 * `libcni/netns`'s, the fake Exec `libcni/invoke`'s.
 *
 * | Go | here |
 * | --- | --- |
 * | `testutils.NewNS()` | {@link tempNetns} (`await using ns = await tempNetns()`) |
 * | `ns.WithNetNSPath(p, f)` around an exec | {@link runInNetns}, `ns.exec` (and `libcni/netns`'s `execInNetns`) |
 * | running the test in `ip netns exec <host>` | {@link testHost}: plugins run in its namespace |
 * | `testutils.Ping` | {@link ping} |
 * | `testutils.AllSpecVersions` | {@link allSpecVersions} |
 * | `testutils.SpecVersionHasCHECK`, `…HasGC`, `…HasSTATUS`, `…HasChaining`, `…HasIPVersion`, `…HasMultipleIPs` | {@link specVersionHasCheck}, {@link specVersionHasGC}, {@link specVersionHasStatus}, {@link specVersionHasChaining}, {@link specVersionHasIPVersion}, {@link specVersionHasMultipleIPs} |
 * | gomega's `Eventually` | {@link eventually} |
 * | `pkg/invoke/fakes` | `FakeExec`, `FakeCNIArgs` from `libcni/invoke` |
 * | containerd's `cni-bridge-fp` | {@link failpointPlugin} |
 * | a hard-coded `/opt/cni/bin` | {@link findPluginDirs}, {@link requirePlugins} |
 * | (none: no conformance suite exists) | {@link checkPlugin}: a plugin against SPEC.md's rules |
 * | (none: a killed `go test` leaves its namespaces) | {@link sweepTestLeftovers} (also run by the first helper call) |
 * | (none: `sudo go test`) | {@link runRootless}, `cnitool rootless -- <command>`: all of the above without root, in a user namespace |
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
export {
  type RootlessResult,
  type RunRootlessOptions,
  runRootless,
} from "./rootless.js";
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
