/**
 * The CNI_* environment a plugin is run with (upstream pkg/invoke/args.go): the runtime's
 * environment plus the six CNI_* variables, which win over inherited ones (a runtime that is
 * itself a delegating plugin has CNI_COMMAND set). Upstream's order is a Go map's, random; here
 * each key sits at its last occurrence (docs/deviations/invoke.md, "Deterministic environment").
 */

/** Something that produces a plugin's environment (upstream `CNIArgs`). */
export interface CNIArgs {
  /**
   * The environment as `KEY=value` strings, or `undefined` to inherit this process's
   * environment unchanged (upstream returns nil for that).
   */
  asEnv(): string[] | undefined;
}

/** Each inherited variable's last value and entry (cleared when many more than are set). */
const entries = new Map<string, { value: string; entry: string }>();

/**
 * The process environment as `KEY=value` strings in its own order, without the variables named
 * in `replaced`, then `overrides` (whose keys `replaced` holds): upstream's de-duplication, as
 * process.env lists each key once. A variable whose value is the one of the last call gives the
 * same entry: a run's environment, held by every ADD in flight, is then the list alone
 * (bench/README.md, "what 100 ADDs in flight hold").
 */
function environWith(replaced: ReadonlySet<string>, overrides: readonly string[]): string[] {
  const env = process.env;
  const out: string[] = [];
  for (const key of Object.keys(env)) {
    const value = env[key];
    // A key can read as undefined (as "1" can): skipped.
    if (value === undefined || replaced.has(key)) continue;
    const known = entries.get(key);
    const entry = known?.value === value ? known.entry : `${key}=${value}`;
    if (entry !== known?.entry) entries.set(key, { value, entry });
    out.push(entry);
  }
  if (entries.size > 2 * out.length + 64) entries.clear();
  for (const kv of overrides) out.push(kv);
  return out;
}

/** The variables {@link Args} sets. */
const argsNames: ReadonlySet<string> = new Set([
  "CNI_COMMAND",
  "CNI_CONTAINERID",
  "CNI_NETNS",
  "CNI_ARGS",
  "CNI_IFNAME",
  "CNI_PATH",
]);

/** The variable {@link DelegateArgs} sets. */
const delegateNames: ReadonlySet<string> = new Set(["CNI_COMMAND"]);

/** The fields of {@link Args}; all optional, an absent one is sent as an empty variable. */
export interface ArgsInit {
  /** CNI_COMMAND: ADD, DEL, CHECK, GC, STATUS or VERSION. */
  command?: string;
  /** CNI_CONTAINERID. */
  containerID?: string;
  /** CNI_NETNS: the path of the network namespace. */
  netNS?: string;
  /** CNI_ARGS as key/value pairs, used when {@link ArgsInit.pluginArgsStr} is empty. */
  pluginArgs?: readonly (readonly [string, string])[];
  /** CNI_ARGS verbatim; wins over {@link ArgsInit.pluginArgs} when not empty. */
  pluginArgsStr?: string;
  /** CNI_IFNAME. */
  ifName?: string;
  /** CNI_PATH: the plugin search path, already joined with `:`. */
  path?: string;
}

/** A plugin invocation's CNI_* variables on top of the runtime's environment (upstream `Args`). */
export class Args implements CNIArgs {
  /** CNI_COMMAND. */
  command: string;
  /** CNI_CONTAINERID. */
  containerID: string;
  /** CNI_NETNS. */
  netNS: string;
  /** CNI_ARGS as pairs, used when {@link Args.pluginArgsStr} is empty. */
  pluginArgs: readonly (readonly [string, string])[];
  /** CNI_ARGS verbatim, when not empty. */
  pluginArgsStr: string;
  /** CNI_IFNAME. */
  ifName: string;
  /** CNI_PATH, `:`-joined. */
  path: string;

  /** Absent fields are empty strings (Go's zero values). */
  constructor(init: ArgsInit = {}) {
    this.command = init.command ?? "";
    this.containerID = init.containerID ?? "";
    this.netNS = init.netNS ?? "";
    this.pluginArgs = init.pluginArgs ?? [];
    this.pluginArgsStr = init.pluginArgsStr ?? "";
    this.ifName = init.ifName ?? "";
    this.path = init.path ?? "";
  }

  /** This process's environment plus the six CNI_* variables, which always win. */
  asEnv(): string[] {
    // Upstream's stringify: `k=v` pairs joined by `;`, no escaping.
    const pluginArgsStr =
      this.pluginArgsStr !== ""
        ? this.pluginArgsStr
        : this.pluginArgs.map(([k, v]) => `${k}=${v}`).join(";");
    return environWith(argsNames, [
      `CNI_COMMAND=${this.command}`,
      `CNI_CONTAINERID=${this.containerID}`,
      `CNI_NETNS=${this.netNS}`,
      `CNI_ARGS=${pluginArgsStr}`,
      `CNI_IFNAME=${this.ifName}`,
      `CNI_PATH=${this.path}`,
    ]);
  }
}

/**
 * The environment of a plugin delegating to another (upstream `DelegateArgs`): this process's
 * environment, which already holds the CNI_* variables it was called with, with only
 * CNI_COMMAND replaced.
 */
export class DelegateArgs implements CNIArgs {
  /** The CNI_COMMAND the delegate is run with. */
  command: string;

  /** @param init `command`: the verb for the delegate (empty if absent). */
  constructor(init: { command?: string } = {}) {
    this.command = init.command ?? "";
  }

  /** This process's environment with CNI_COMMAND set to {@link DelegateArgs.command}. */
  asEnv(): string[] {
    return environWith(delegateNames, [`CNI_COMMAND=${this.command}`]);
  }
}

const inherited: CNIArgs = { asEnv: () => undefined };

/** Args that make the plugin inherit this process's environment as is (upstream `ArgsFromEnv`). */
export function argsFromEnv(): CNIArgs {
  return inherited;
}

/**
 * A call's CNIArgs: the environment built on the first plugin run and the same list handed to
 * every later run of the call (`share`: the library's own Exec, which never changes it), or a
 * copy of it to an Exec that might.
 */
export class OnceArgs implements CNIArgs {
  private env: string[] | undefined;
  private built = false;

  constructor(
    private readonly args: CNIArgs,
    private readonly share: boolean,
  ) {}

  asEnv(): string[] | undefined {
    if (!this.built) {
      this.env = this.args.asEnv();
      this.built = true;
    }
    if (this.env === undefined || this.share) return this.env;
    return this.env.slice();
  }
}
