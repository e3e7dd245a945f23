/**
 * A conf dir validated in one call (docs/runtime.md, "Validating a conf dir"): what a tooling
 * author would otherwise build from `lintNetworkList`, `loadNetworks`' problems and
 * `MultiError` entries, every finding placed in its file with a JSON Pointer.
 */
import { dirname, join } from "node:path";
import { isPathSafeName, readConfFile } from "../conf/files.js";
import {
  confFiles,
  type LintFinding,
  lintNetworkList,
  type NetworkConfigList,
} from "../conf/index.js";
import { comparePointers, pointerOf, tokensOf } from "../conf/lint-pointer.js";
import { preloadValidator } from "../conf/lint-schema-findings.js";
import { parseJSON } from "../encoding/parse.js";
import { PluginVersionError } from "../errors/api.js";
import { assertDuration, InvalidArgumentError } from "../errors/base.js";
import { ConfFileError } from "../errors/conf.js";
import { attempt, messageOf } from "../internal/error-message.js";
import { isJSONObject } from "../internal/json-kind.js";
import { limitedSignal } from "../internal/timer-limit.js";
import { type Exec, getVersionInfo } from "../invoke/index.js";
import type { PluginInfo } from "../version/index.js";
import {
  confNamedDirs,
  defaultBinDirs,
  defaultConfDir,
  findPlugin,
  listConfDir,
  loadFile,
  loopbackName,
} from "./load.js";

/** What a finding is about (a stable name to filter on; the message says it in words). */
export type ConfDirFindingKind =
  /** The conf dir is missing, unreadable or holds no conf file; a directory in it is named like one. */
  | "conf-dir"
  /** The runtime cannot load the file (it would skip it): read or parse error, no plugins. */
  | "load"
  /** A finding of the conflist linter (`lintNetworkList`). */
  | "lint"
  /** A single plugin's config in a `.conflist`, or a list in a `.conf`/`.json`. */
  | "wrong-extension"
  /** The network's name is an earlier file's: the runtime skips this file. */
  | "duplicate-network"
  /** A plugin (or its IPAM plugin) is not in the bin dirs. */
  | "plugin-not-found"
  /** A plugin does not support the list's version, or did not answer VERSION. */
  | "plugin-version"
  /** The same plugin type twice in one list. */
  | "duplicate-plugin-type"
  /** No bin dir was given, so no plugin was looked for. */
  | "plugins-unchecked";

/** One finding: where (a file, and a JSON Pointer into it), how serious, and what. */
export interface ConfDirFinding {
  /** The file (a conf file, a drop-in plugin file, or the conf dir itself). */
  file: string;
  /** RFC 6901 pointer into `file`: `/plugins/0/type`; `""` is the whole file. */
  pointer: string;
  /** `error`: the network breaks or the runtime skips the file; `warning`: likely a mistake. */
  severity: "error" | "warning";
  /** What is wrong, in a sentence. */
  message: string;
  /** What kind of check found it. */
  kind: ConfDirFindingKind;
}

/** The outcome of {@link validateConfDir}. */
export interface ConfDirReport {
  /** The conf dir validated. */
  confDir: string;
  /** Where plugins were looked for. */
  binDirs: string[];
  /** The conf files examined, in the order the runtime loads them. */
  files: string[];
  /** Every finding: the conf dir's first, then each file's in file order and document order. */
  findings: ConfDirFinding[];
}

/** Where the conf dir and the plugins are, and how plugins are run. */
export interface ValidateConfDirOptions {
  /** The conf dir; default `/etc/cni/net.d`. */
  confDir?: string;
  /** Plugin directories; default `["/opt/cni/bin"]`; `[]`: plugins are not checked (a warning). */
  binDirs?: readonly string[];
  /** How plugins are found and run (a FakeExec in tests). */
  exec?: Exec;
  /** The limit on each plugin's VERSION, in ms; default 10 000; 0: none; at most 2147483647. */
  timeout?: number;
  /** Aborting stops the running VERSION and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The runtime's `loopback` option: a file naming its network (`cni-loopback`) is skipped. */
  loopback?: boolean;
}

const defaultVersionTimeout = 10_000;

function assertOptions(options: ValidateConfDirOptions): void {
  const { confDir, binDirs, timeout } = options;
  if (confDir !== undefined && (typeof confDir !== "string" || confDir === "")) {
    throw new InvalidArgumentError("confDir", "confDir must be a non-empty string");
  }
  if (
    binDirs !== undefined &&
    (!Array.isArray(binDirs) || binDirs.some((d) => typeof d !== "string" || d === ""))
  ) {
    throw new InvalidArgumentError("binDirs", "binDirs must be an array of non-empty strings");
  }
  // A limit past the longest a timer waits would fire at once: every VERSION "not in time".
  assertDuration("timeout", timeout);
}

/** The key `name` of `object` as Go's decoder finds it: exact, else case-insensitively. */
function keyOf(object: Record<string, unknown>, name: string): string | undefined {
  if (Object.hasOwn(object, name)) return name;
  return Object.keys(object).find((k) => k.toLowerCase() === name);
}

/** A plugin's VERSION: its answer, the error it failed with, or the limit it ran past. */
type Answer = { info: PluginInfo } | { error: unknown } | { timedOut: number };

/** What a plugin entry points at: the file it is written in and its pointer there. */
interface Place {
  file: string;
  prefix: string[];
}

/** `made`'s promise for `key`, made on its first ask (a rejection is the askers', never unhandled). */
function once<T>(made: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let value = made.get(key);
  if (value === undefined) {
    value = make();
    value.catch(() => {});
    made.set(key, value);
  }
  return value;
}

/** One validation's state: the findings, and each plugin looked up and asked once. */
class Validation {
  readonly findings: ConfDirFinding[] = [];
  private readonly paths = new Map<string, Promise<string>>();
  private readonly infos = new Map<string, Promise<Answer>>();
  readonly networks = new Map<string, string>();

  constructor(
    readonly binDirs: readonly string[],
    private readonly options: ValidateConfDirOptions,
  ) {}

  add(
    file: string,
    pointer: string,
    severity: ConfDirFinding["severity"],
    kind: ConfDirFindingKind,
    message: string,
  ): void {
    this.findings.push({ file, pointer, severity, message, kind });
  }

  /** The plugin's VERSION, within the limit; rejects only when the caller aborted. */
  private async askVersion(path: string): Promise<Answer> {
    const { exec, signal, timeout = defaultVersionTimeout } = this.options;
    const limit = timeout > 0 ? limitedSignal(signal, timeout, () => 0) : undefined;
    try {
      return { info: await getVersionInfo(path, exec, { signal: limit?.signal ?? signal }) };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      return limit?.signal.aborted ? { timedOut: timeout } : { error };
    } finally {
      limit?.end();
    }
  }

  /**
   * The plugin `type` (written at `pointer` of `file`) is in the bin dirs and its VERSION
   * lists `cniVersion`; each failure a finding.
   */
  async checkPlugin(
    type: string,
    cniVersion: string,
    file: string,
    pointer: string,
    what: "plugin" | "IPAM plugin",
  ): Promise<void> {
    let path: string;
    try {
      path = await once(this.paths, type, () => findPlugin(type, this.binDirs, this.options.exec));
    } catch (error) {
      const ipam = what === "plugin" ? "" : ` (the ${what})`;
      this.add(file, pointer, "error", "plugin-not-found", `${messageOf(error)}${ipam}`);
      return;
    }
    const answer = await once(this.infos, path, () => this.askVersion(path));
    if (!("info" in answer)) {
      const why =
        "timedOut" in answer
          ? `did not answer VERSION within ${answer.timedOut} ms`
          : `did not answer VERSION: ${messageOf(answer.error)}`;
      this.add(file, pointer, "error", "plugin-version", `${what} ${type} (${path}) ${why}`);
      return;
    }
    const wanted = cniVersion === "" ? "0.1.0" : cniVersion;
    const supported = answer.info.supportedVersions();
    if (!supported.includes(wanted)) {
      const text = new PluginVersionError(type, wanted).message;
      const message = `${what === "plugin" ? text : `IPAM ${text}`} (it supports ${supported.join(", ") || "none"})`;
      this.add(file, pointer, "error", "plugin-version", message);
    }
  }
}

/** A finding's text without the ` (file <path>)` its error added: the finding names the file. */
function withoutFile(message: string, file: string): string {
  const suffix = ` (file ${file})`;
  return message.endsWith(suffix) ? message.slice(0, -suffix.length) : message;
}

/** The drop-in plugin files a list loaded, in load order (as networkPluginConfsFromFiles). */
async function dropInFiles(file: string, list: NetworkConfigList): Promise<string[]> {
  if (list.loadOnlyInlinedPlugins || !isPathSafeName(list.name)) return [];
  return confFiles(join(dirname(file), list.name), [".conf"]).catch(() => []);
}

/** The findings of one conf file (and of its drop-in plugin files). */
async function validateFile(v: Validation, file: string): Promise<void> {
  const isList = file.endsWith(".conflist");
  let bytes: Uint8Array;
  try {
    bytes = await readConfFile(file);
  } catch (error) {
    v.add(file, "", "error", "load", `not loaded: ${withoutFile(messageOf(error), file)}`);
    return;
  }
  const document = attempt(() => parseJSON(bytes));
  const top = isJSONObject(document) ? document : undefined;

  // The shape the extension does not read: a plugin in a .conflist, a list in a .conf.
  const hasPlugins = top !== undefined && Object.hasOwn(top, "plugins");
  const typeIgnored = top !== undefined && isList && !hasPlugins && Object.hasOwn(top, "type");
  if (typeIgnored) {
    const message =
      'a single plugin\'s config ("type", no "plugins") in a .conflist: read as a list, its "type" is ignored and the network gets plugins only from its drop-in directory; name the file .conf, or put the plugin in "plugins"';
    v.add(file, "/type", "error", "wrong-extension", message);
  }
  if (hasPlugins && !isList && keyOf(top, "type") === undefined) {
    const ext = file.slice(file.lastIndexOf("."));
    const message = `a network configuration list ("plugins", no "type") in a ${ext} file: the runtime reads it as a single plugin's config, which fails; name the file .conflist`;
    v.add(file, "/plugins", "error", "wrong-extension", message);
  }

  const list = await loadFile(file).catch((error: unknown) => {
    const where = error instanceof ConfFileError ? error.file : file;
    v.add(where, "", "error", "load", `not loaded: ${withoutFile(messageOf(error), where)}`);
    addLint(v, lintNetworkList(bytes), { file, inline: Number.POSITIVE_INFINITY, dropIns: [] });
  });
  if (list === undefined) return;

  const inline = isList && top !== undefined && Array.isArray(top.plugins) ? top.plugins.length : 0;
  const dropIns = isList ? await dropInFiles(file, list) : [];
  // Drop-in plugins are linted in the list (as loaded); a file of its own is linted as written.
  const added =
    isList && list.plugins.length > inline && inline + dropIns.length === list.plugins.length;
  const where = { file, inline: added ? inline : Number.POSITIVE_INFINITY, dropIns };
  addLint(v, lintNetworkList(added ? list : bytes), where, typeIgnored);

  const nameKey = top === undefined ? "name" : (keyOf(top, "name") ?? "name");
  const earlier = v.networks.get(list.name);
  if (earlier !== undefined) {
    const message = `network ${JSON.stringify(list.name)} is already defined by ${earlier}: the runtime skips this file`;
    v.add(file, pointerOf([nameKey]), "error", "duplicate-network", message);
    return;
  }
  v.networks.set(list.name, file);

  // Each plugin where it is written: inline in the list, in a drop-in file, or the file itself.
  const placeOf = (i: number): Place => {
    if (!isList) return { file, prefix: [] };
    if (i < inline || !added) return { file, prefix: ["plugins", String(i)] };
    return { file: dropIns[i - inline], prefix: [] };
  };
  const seenTypes = new Map<string, { file: string; pointer: string }>();
  const checks: Promise<void>[] = [];
  list.plugins.forEach((plugin, i) => {
    const place = placeOf(i);
    const doc = attempt(() => parseJSON(plugin.bytes));
    const object = isJSONObject(doc) ? doc : {};
    const type = plugin.network.type;
    const typePointer = pointerOf([...place.prefix, keyOf(object, "type") ?? "type"]);
    const first = seenTypes.get(type);
    if (first !== undefined) {
      const message = `plugin type ${JSON.stringify(type)} is already in the list (${first.file === place.file ? "" : `${first.file}:`}${first.pointer}): each runs in turn with the previous one's result, so a chain rarely means to run one twice`;
      v.add(place.file, typePointer, "warning", "duplicate-plugin-type", message);
    } else {
      seenTypes.set(type, { file: place.file, pointer: typePointer });
    }
    if (v.binDirs.length === 0) return;
    // A type that is no file name is the linter's error; nothing to look up.
    if (isPathSafeName(type)) {
      checks.push(v.checkPlugin(type, list.cniVersion, place.file, typePointer, "plugin"));
    }
    const ipamKey = keyOf(object, "ipam");
    const ipam = ipamKey === undefined ? undefined : object[ipamKey];
    if (ipamKey !== undefined && isJSONObject(ipam)) {
      const key = keyOf(ipam, "type");
      const ipamType = key === undefined ? undefined : ipam[key];
      if (key !== undefined && typeof ipamType === "string" && isPathSafeName(ipamType)) {
        const pointer = pointerOf([...place.prefix, ipamKey, key]);
        checks.push(v.checkPlugin(ipamType, list.cniVersion, place.file, pointer, "IPAM plugin"));
      }
    }
  });
  await Promise.all(checks);
}

/** The linter's findings, each placed in the file it is written in. */
function addLint(
  v: Validation,
  lint: { errors: LintFinding[]; warnings: LintFinding[] },
  where: { file: string; inline: number; dropIns: readonly string[] },
  typeIgnored = false,
): void {
  for (const finding of [...lint.errors, ...lint.warnings]) {
    // The top-level "type" of a plugin in a .conflist is said once, as such.
    const atType = typeIgnored && finding.pointer === "/type";
    if (atType && finding.message.startsWith("unknown top-level key")) continue;
    let file = where.file;
    let pointer = finding.pointer;
    const tokens = tokensOf(pointer);
    if (tokens[0] === "plugins" && tokens.length >= 2 && /^\d+$/.test(tokens[1])) {
      const index = Number(tokens[1]);
      if (index >= where.inline && where.dropIns[index - where.inline] !== undefined) {
        file = where.dropIns[index - where.inline];
        pointer = pointer.slice(`/plugins/${tokens[1]}`.length);
      }
    }
    v.add(file, pointer, finding.severity, "lint", finding.message);
  }
}

/** At one place, what the runtime does with the file first, then why, then advice. */
const kindOrder: readonly ConfDirFindingKind[] = [
  "conf-dir",
  "plugins-unchecked",
  "load",
  "duplicate-network",
  "wrong-extension",
  "plugin-not-found",
  "plugin-version",
  "lint",
  "duplicate-plugin-type",
];

/** Document order within a file; at one place errors first, then by kind, then the message. */
function compareFindings(a: ConfDirFinding, b: ConfDirFinding): number {
  return (
    comparePointers(a.pointer, b.pointer) ||
    (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1) ||
    kindOrder.indexOf(a.kind) - kindOrder.indexOf(b.kind) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

/** `findings` grouped by file in first-seen order, each group in document order. */
function ordered(findings: readonly ConfDirFinding[]): ConfDirFinding[] {
  const groups = new Map<string, ConfDirFinding[]>();
  for (const f of findings) {
    const group = groups.get(f.file);
    if (group === undefined) groups.set(f.file, [f]);
    else group.push(f);
  }
  return [...groups.values()].flatMap((group) => group.sort(compareFindings));
}

/**
 * Validates every conf file the runtime would load from `confDir`: linted, loaded as the runtime
 * loads it, and each plugin (and IPAM plugin) looked up in `binDirs` and asked VERSION once
 * (docs/runtime.md, "Validating a conf dir"). Nothing is written; only VERSION is run.
 * @throws InvalidArgumentError for bad options; rejects with the signal's reason when aborted.
 */
export async function validateConfDir(
  options: ValidateConfDirOptions = {},
): Promise<ConfDirReport> {
  assertOptions(options);
  const confDir = options.confDir ?? defaultConfDir;
  const binDirs = [...(options.binDirs ?? defaultBinDirs)];
  const v = new Validation(binDirs, options);
  if (options.loopback) v.networks.set(loopbackName, "the runtime's loopback network (loopback)");
  const [listed] = await Promise.all([listConfDir(confDir), preloadValidator()]);
  const files = Array.isArray(listed) ? listed : [];
  if (!Array.isArray(listed)) {
    v.add(confDir, "", "error", "conf-dir", listed.message);
  } else if (files.length === 0) {
    const message = "no conf file (.conf, .conflist, .json): a runtime on this dir has no network";
    v.add(confDir, "", "error", "conf-dir", message);
  }
  for (const dir of Array.isArray(listed) ? await confNamedDirs(confDir) : []) {
    const message = "a directory named like a conf file: the runtime skips it";
    v.add(dir, "", "warning", "conf-dir", message);
  }
  if (files.length > 0 && binDirs.length === 0) {
    const message = "no plugin directory given: no plugin was looked for";
    v.add(confDir, "", "warning", "plugins-unchecked", message);
  }
  for (const file of files) {
    if (options.signal?.aborted) throw options.signal.reason;
    await validateFile(v, file);
  }
  return { confDir, binDirs, files, findings: ordered(v.findings) };
}
