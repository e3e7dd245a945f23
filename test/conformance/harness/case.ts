/**
 * A differential case: one configuration, the scripted replies of the recording plugins, a
 * runtime configuration and the verbs to run. Go libcni 1.1.2 and the TypeScript port run it
 * in the same sandbox, one after the other.
 */

/** What one recorder plugin does for one CNI_COMMAND. */
export interface ScriptedReply {
  /** stdout, as text. */
  out?: string;
  /** stdout, as base64 (for bytes that are not UTF-8). */
  outB64?: string;
  /** stderr, as text. */
  err?: string;
  /** Exit code (default 0). */
  code?: number;
}

/** The runtime configuration (upstream `RuntimeConf`) as JSON. */
export interface CaseRuntimeConf {
  containerID: string;
  netNS: string;
  ifName: string;
  args?: [string, string][] | null;
  capabilityArgs?: Record<string, unknown> | null;
}

/** The verbs a case can run; `versionInfo:<type>` asks one plugin for its versions. */
export type CaseOp =
  | "add"
  | "check"
  | "del"
  | "getCachedResult"
  | "getCachedConfig"
  | "validate"
  | "addNet"
  | "checkNet"
  | "delNet"
  | "getNetCachedResult"
  | "getNetCachedConfig"
  | "validateNet"
  | "confListFromConf"
  | "getCachedAttachments"
  | "getCachedAttachments:all"
  | `versionInfo:${string}`;

/** One differential case. */
export interface ConformanceCase {
  /** Unique, stable id (used in reports). */
  id: string;
  /** What the case exercises (reference section and shape). */
  description?: string;
  /** The conflist, as text or base64. */
  confList?: string;
  confListB64?: string;
  /** A single-plugin config for the `*Net` verbs and `confListFromConf`, as text or base64. */
  conf?: string;
  confB64?: string;
  /**
   * Syntax only v1.3.0 understands (cniVersions, string booleans, ...): Go 1.1.2 is given
   * this equivalent conflist instead, and `goRule` names the documented difference.
   */
  goConfList?: string;
  goRule?: string;
  /** Recorder plugins to install, by name, with their reply per CNI_COMMAND. */
  plugins: Record<string, Record<string, ScriptedReply>>;
  /** Plugin directories relative to the sandbox (default `["bin"]`, where plugins go). */
  pluginPaths?: string[];
  runtimeConf: CaseRuntimeConf;
  /** Cache files to create before the run: path relative to the cache dir → text. */
  cacheSeed?: Record<string, string>;
  ops: CaseOp[];
  /**
   * Variables in the runtime's own environment (plugins inherit it: Go's AsEnv appends the
   * CNI_* values and keeps the last of duplicates). Such cases run one at a time.
   */
  parentEnv?: Record<string, string>;
  /** Give the cache dir through the deprecated `RuntimeConf.cacheDir` instead of the config. */
  cacheViaRuntimeConf?: boolean;
}

/** The JSON a case's run produces, on either side (the Go driver's output format). */
export interface Observation {
  parseList?: ParseObservation;
  parseConf?: ParseObservation;
  ops: OpObservation[];
}

/** The outcome of parsing a config. */
export interface ParseObservation {
  list?: { name: string; cniVersion: string; disableCheck: boolean; pluginsB64: string[] };
  confB64?: string;
  error?: ErrorObservation;
}

/** An error: the CNI code when a typed CNI error is in the chain (else null), and the message. */
export interface ErrorObservation {
  code: number | null;
  msg: string;
}

/** A file or directory under a watched directory. */
export interface FileObservation {
  /** Octal permission bits, with 40000 added for a directory. */
  mode: string;
  /** The file's bytes (null for a directory or an unreadable file). */
  b64: string | null;
}

/** What one verb produced. */
export interface OpObservation {
  op: string;
  /** The result in Go's compact JSON (json.Marshal of the Result). */
  result?: string;
  /** The result as `Print` writes it. */
  printed?: string;
  error?: ErrorObservation;
  cachedConfig?: { bytesB64: string | null; rt: CaseRuntimeConf | null };
  caps?: string[];
  versions?: string[];
  bytesB64?: string;
  /** getCachedAttachments (the rt's container, or `:all`). */
  attachments?: AttachmentObservation[];
  /** Every watched directory after the verb: absolute dir → relative path → file. */
  dirs: Record<string, Record<string, FileObservation>>;
}

/** One cached attachment (upstream `NetworkAttachment`). */
export interface AttachmentObservation {
  containerID: string;
  network: string;
  ifName: string;
  configB64: string | null;
  netNS: string;
  cniArgs: [string, string][] | null;
  capabilityArgs: Record<string, unknown> | null;
}

/** The bytes of a text-or-base64 pair, or undefined when neither is set. */
export function pickBytes(text?: string, b64?: string): Uint8Array | undefined {
  if (text !== undefined) return new Uint8Array(Buffer.from(text, "utf8"));
  if (b64 !== undefined) return new Uint8Array(Buffer.from(b64, "base64"));
  return undefined;
}
