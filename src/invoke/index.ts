/**
 * Finding and running CNI plugins: the runtime side of the wire (upstream pkg/invoke).
 *
 * A plugin is an executable that gets its network config on stdin and the CNI_* variables in
 * its environment, and answers on stdout. {@link RawExec} runs it with bounded output and a
 * clean stop on abort; {@link execPluginWithResult}, {@link execPluginWithoutResult} and
 * {@link getVersionInfo} are the three ways libcni calls plugins; the `delegate*` functions are
 * for plugins that call other plugins; {@link FakeExec} stands in for plugins in tests.
 * @module
 */

export type {
  LaunchedChild,
  LaunchedOutput,
  LaunchedStdin,
  Launcher,
  LauncherName,
  LaunchRun,
} from "../engines/plugin-start.js";
export {
  PluginAbortedError,
  type PluginExecDetails,
  PluginExecError,
  PluginLookupError,
  PluginNotFoundError,
} from "../errors/invoke.js";
export { Args, type ArgsInit, argsFromEnv, type CNIArgs, DelegateArgs } from "./args.js";
export { delegateAdd, delegateCheck, delegateDel, delegateGC, delegateStatus } from "./delegate.js";
export {
  DefaultExec,
  defaultExec,
  type Exec,
  execPluginWithoutResult,
  execPluginWithResult,
  getVersionInfo,
} from "./exec.js";
export { FakeCNIArgs, FakeExec, type FakeExecPluginCall } from "./fake-exec.js";
export { executableFileExtensions, findInPath } from "./find.js";
export {
  defaultGraceMs,
  defaultMaxOutputBytes,
  type ExecOptions,
  RawExec,
  type RawExecOptions,
  type StderrSink,
} from "./raw-exec.js";
