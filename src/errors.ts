/**
 * The library's error model, in one module (undici's `lib/core/errors.js` is the model).
 *
 * - Every error a public function throws is a {@link LibcniError}: one `catch` tells the
 *   library's errors from a bug.
 * - Each class has a stable string identifier, `id` (`LIBCNI_ERR_PLUGIN_NOT_FOUND`, ...), on the
 *   class and on each instance; docs/errors.md lists them. `name` is the class name.
 * - `instanceof` answers by a registry-symbol brand, so it holds for an error made by another
 *   copy of the package in the same process (a runtime and a plugin helper bundled apart).
 * - `code` is the spec's numeric CNI error code, on {@link CNIError} and its subclasses only
 *   (Go's `types.Error.Code`); an OS errno name is `errno`, never `code`.
 * - What an error wraps is the standard `cause`, as Go's `%w`: `err.cause` is what
 *   `errors.Unwrap(err)` returns in Go.
 *
 * The classes of each area live below, grouped; the modules that throw them import them from here.
 */
import { RawJSON, toGoJSON } from "./internal/go-marshal.js";
import { goQuote, goQuoteList } from "./internal/go-quote.js";
import { quoteString } from "./internal/json-string.js";

// --- the base: LibcniError, its instanceof brand, and errors of every area -------------------

const brandKey = Symbol.for("libcni.error.ids");

interface Branded {
  readonly [brandKey]: readonly string[];
}

function idsOf(value: unknown): readonly string[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const ids = (value as Partial<Branded>)[brandKey];
  return Array.isArray(ids) ? ids : undefined;
}

/** The ids of `cls` and of every library class above it, most derived first. */
function classIds(cls: unknown): string[] {
  const ids: string[] = [];
  for (let c = cls; typeof c === "function" && c !== Error; c = Object.getPrototypeOf(c)) {
    if (Object.hasOwn(c, "id")) ids.push((c as unknown as { id: string }).id);
  }
  return ids;
}

/** Options every library error takes. */
export interface LibcniErrorOptions {
  /** The underlying error (Go's `%w` operand). */
  cause?: unknown;
}

/** The base of every error the library throws. */
export class LibcniError extends Error {
  /** The stable identifier of this class. */
  static readonly id: string = "LIBCNI_ERR";
  /** The stable identifier of the error's class (docs/errors.md lists them). */
  readonly id: string;

  constructor(message: string, options: LibcniErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const cls = new.target;
    const ids = classIds(cls);
    this.id = ids[0] ?? LibcniError.id;
    this.name = cls.name;
    Object.defineProperty(this, brandKey, { value: ids });
  }

  /**
   * True for an error of this class made by this copy of the library or another. A subclass
   * without an `id` of its own (a caller's subclass) keeps the ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class instanceof was asked about
    return isInstance(this, value);
  }
}

function isInstance(cls: unknown, value: unknown): boolean {
  if (typeof cls !== "function" || !Object.hasOwn(cls, "id")) {
    return Function.prototype[Symbol.hasInstance].call(cls, value);
  }
  const ids = idsOf(value);
  return ids !== undefined && ids.includes((cls as unknown as { id: string }).id);
}

/**
 * The message of any thrown value, as Go's `err.Error()`. Never throws: a call may reject with
 * anything a custom Exec threw (a null-prototype object does not print), and wrapping or
 * describing it must not change what the caller gets.
 */
export function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "(a value that cannot be printed)";
  }
}

/**
 * An error that wraps another with context, as Go's `fmt.Errorf("<context>: %w", err)`:
 * `<context>: <cause's message>`, with `cause` the wrapped error.
 */
export class WrappedError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_WRAPPED";
  constructor(context: string, cause: unknown) {
    super(`${context}: ${messageOf(cause)}`, { cause });
  }
}

/**
 * A value given to a public function does not have the shape or range it must have (a
 * JavaScript caller passing `ifname` where `ifName` is expected, a negative timeout, an empty
 * cache key). `argument` names the offending value's path (`rt.ifName`).
 */
export class InvalidArgumentError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_INVALID_ARGUMENT";
  /** The path of the offending value, as the caller wrote it (`rt.ifName`, `gcArgs.validAttachments[0]`). */
  readonly argument: string;
  constructor(argument: string, message: string, options: LibcniErrorOptions = {}) {
    super(message, options);
    this.argument = argument;
  }
}

// --- Go's encoding/json and standard-library errors ------------------------------------------

/** Go's `json.SyntaxError`: malformed JSON, with Go's message and byte offset. */
export class JSONSyntaxError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_JSON_SYNTAX";
  /** Byte offset of the error, as Go's `SyntaxError.Offset`. */
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

/** Go's `json.UnmarshalTypeError`: a JSON value of the wrong type for its Go field. */
export class UnmarshalTypeError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_JSON_TYPE";
  /** The JSON value's kind, as Go names it ("string", "number 1.5", ...). */
  readonly value: string;
  /** The Go type it could not be stored in. */
  readonly goType: string;
  /** The dotted field path from the root struct ("" at the top level). */
  readonly field: string;
  /**
   * @param value the JSON value's kind (`jsonKind`)
   * @param goType the Go type it was decoded into
   * @param struct the root struct's Go name (`types.PluginConf`); "" at the top level
   * @param field the dotted field path; "" at the top level
   */
  constructor(value: string, goType: string, struct = "", field = "") {
    super(
      field === ""
        ? `json: cannot unmarshal ${value} into Go value of type ${goType}`
        : // Go names the struct without its package ("PluginConf").
          `json: cannot unmarshal ${value} into Go struct field ${struct.slice(struct.lastIndexOf(".") + 1)}.${field} of type ${goType}`,
    );
    this.value = value;
    this.goType = goType;
    this.field = field;
  }
}

/** A value has no JSON form in Go (NaN, an infinity, a function, a cycle, a bad net.IP). */
export class UnsupportedValueError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_JSON_UNSUPPORTED_VALUE";
}

/** Go's `base64.CorruptInputError`: `illegal base64 data at input byte N`. */
export class CorruptInputError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_BASE64";
  /** Byte offset of the first offending input byte. */
  readonly offset: number;
  constructor(offset: number) {
    super(`illegal base64 data at input byte ${offset}`);
    this.offset = offset;
  }
}

/**
 * A failed file operation with Go's `*os.PathError` text (`mkdir /x/results: not a
 * directory`), which upstream's messages embed. `errno` is the errno name (`ENOTDIR`); the
 * Node error, when there was one, is the `cause`.
 */
export class GoPathError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_PATH";
  /** The errno name (`ENOTDIR`, `EACCES`, ...). */
  readonly errno: string | undefined;
  /** The operation (`mkdir`). */
  readonly syscall: string;
  /** The path the operation failed on. */
  readonly path: string;
  /** `syscall` on `path` failed with `errno`, as `text` (Go's `*os.PathError` message). */
  constructor(
    errno: string | undefined,
    syscall: string,
    path: string,
    text: string,
    cause?: unknown,
  ) {
    super(text, { cause });
    this.errno = errno;
    this.syscall = syscall;
    this.path = path;
  }
}

// --- types: the CNI error (the spec's error object), results, addresses, CNI_ARGS ------------

/** The spec's error object, as a plugin prints it. */
export interface CNIErrorJSON {
  /** The error code. */
  code: number;
  /** The short message. */
  msg: string;
  /** Longer details; absent when empty. */
  details?: string;
}

/**
 * A CNI error (upstream `types.Error`): `code`, `msg` and `details`, as the spec's error
 * object. Its `message` is upstream's `Error()`: msg, then "; " + details when there are details.
 */
export class CNIError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CNI";
  /** The spec's error code (`ErrUnknown` … `ErrInternal`, or a plugin's own code above 99). */
  readonly code: number;
  /** The short message (the wire's `msg`). */
  readonly msg: string;
  /** Longer details, "" when there are none (the wire's `details`, omitted when empty). */
  readonly details: string;

  constructor(code: number, msg: string, details = "", options: LibcniErrorOptions = {}) {
    super(details === "" ? msg : `${msg}; ${details}`, options);
    this.code = code;
    this.msg = msg;
    this.details = details;
  }

  /** The wire form, in Go's field order, `details` omitted when empty. */
  toJSON(): CNIErrorJSON {
    return this.details === ""
      ? { code: this.code, msg: this.msg }
      : { code: this.code, msg: this.msg, details: this.details };
  }

  /** Go's encoding of the error: the wire form, in struct field order. */
  [toGoJSON](): RawJSON {
    return new RawJSON(this.printWith("", ""));
  }

  /** The error as upstream's `Print` writes it: 4-space indented JSON, without a newline. */
  print(): string {
    return this.printWith("\n    ", "\n");
  }

  private printWith(field: string, end: string): string {
    const sep = field === "" ? ":" : ": ";
    let out = `{${field}"code"${sep}${this.code},${field}"msg"${sep}${quoteString(this.msg)}`;
    if (this.details !== "") out += `,${field}"details"${sep}${quoteString(this.details)}`;
    return `${out}${end}}`;
  }
}

/** True when `value` is a CNIError, from this copy of the library or another. */
export function isCNIError(value: unknown): value is CNIError {
  return value instanceof CNIError;
}

/** No result type handles this version (upstream `unsupported CNI result version "X"`). */
export class UnsupportedResultVersionError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_RESULT_VERSION_UNSUPPORTED";
  /** The version asked for. */
  readonly version: string;
  constructor(version: string) {
    super(`unsupported CNI result version ${goQuote(version)}`);
    this.version = version;
  }
}

/**
 * The JSON's `cniVersion` is not one the chosen result type supports (upstream
 * `result type supports [..] but unmarshalled CNIVersion is "X"`).
 */
export class ResultVersionMismatchError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_RESULT_VERSION_MISMATCH";
  /** The versions the result type supports. */
  readonly supported: readonly string[];
  /** The version found in the JSON. */
  readonly version: string;
  constructor(supported: readonly string[], version: string) {
    super(
      `result type supports [${supported.join(" ")}] but unmarshalled CNIVersion is ${goQuote(version)}`,
    );
    this.supported = supported;
    this.version = version;
  }
}

/**
 * A result cannot be converted: no converter between the versions (`no converter for CNI
 * result version X to Y`) or nothing the target can hold (`cannot convert: no valid IP addresses`).
 */
export class ConversionError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_RESULT_CONVERSION";
}

/** `DecodeVersion` failed: the JSON is malformed (the cause holds Go's decoding error). */
export class DecodeVersionError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_DECODE_VERSION";
  constructor(cause: unknown) {
    super(`decoding version from network config: ${messageOf(cause)}`, { cause });
  }
}

/** An IP address or CIDR could not be parsed (`invalid CIDR address: x`). */
export class ParseError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_PARSE";
  /** What was being parsed ("IP address", "CIDR address"). */
  readonly type: string;
  /** The text that failed to parse. */
  readonly text: string;
  constructor(type: string, text: string) {
    super(`invalid ${type}: ${text}`);
    this.type = type;
    this.text = text;
  }
}

/** A CNI_ARGS string could not be loaded (invalid pair, bad value, unknown arguments). */
export class ArgsError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_ARGS";
}

/** Upstream `UnmarshalableArgsError`: the spec names a type that cannot read text. */
export class UnmarshalableArgsError extends ArgsError {
  static override readonly id: string = "LIBCNI_ERR_ARGS_UNMARSHALABLE";
}

// --- version: version strings, plugins' supported versions, prevResult -----------------------

/**
 * A version string, a plugin's VERSION output or a version list could not be used, with
 * upstream's text (`invalid version "1.2.3.4": too many parts`, `decoding version info:
 * missing field cniVersion`, `strconv.Atoi: parsing "x": invalid syntax`).
 */
export class VersionError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_VERSION";
}

/**
 * The configuration's version is not among the plugin's supported versions (upstream
 * `ErrorIncompatible`): `incompatible CNI versions: config is "0.1.0", plugin supports ["1.2.3" "4.3.2"]`.
 */
export class ErrorIncompatible extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_VERSION_INCOMPATIBLE";
  /** The configuration's CNI version. */
  readonly config: string;
  /** The versions the plugin supports. */
  readonly supported: readonly string[];

  constructor(config: string, supported: readonly string[]) {
    super(`incompatible CNI versions: ${incompatibleDetails(config, supported)}`);
    this.config = config;
    this.supported = Object.freeze([...supported]);
  }

  /** Upstream's `Details()`: `config is "<v>", plugin supports [...]`. */
  details(): string {
    return incompatibleDetails(this.config, this.supported);
  }
}

function incompatibleDetails(config: string, supported: readonly string[]): string {
  return `config is ${goQuote(config)}, plugin supports ${goQuoteList(supported)}`;
}

/** A configuration's `prevResult` could not be parsed or re-encoded (upstream `ParsePrevResult`). */
export class PrevResultError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_PREV_RESULT";
}

// --- conf: reading, parsing and loading configuration files ----------------------------------

/** A configuration could not be read, parsed or built. The message is upstream's text. */
export class ConfError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CONF";
}

/**
 * Configuration files exist in `dir`, but none names the network `name`
 * (upstream `NotFoundError`): `no net configuration with name "<name>" in <dir>`.
 */
export class NotFoundError extends ConfError {
  static override readonly id: string = "LIBCNI_ERR_CONF_NOT_FOUND";
  /** The directory searched. */
  readonly dir: string;
  /** The network name looked for. */
  readonly networkName: string;

  constructor(dir: string, name: string) {
    // Go formats the name with %s between literal quotes, not %q: no escaping.
    super(`no net configuration with name "${name}" in ${dir}`);
    this.dir = dir;
    this.networkName = name;
  }
}

/**
 * The directory holds no configuration file at all, or does not exist
 * (upstream `NoConfigsFoundError`): `no net configurations found in <dir>`.
 */
export class NoConfigsFoundError extends ConfError {
  static override readonly id: string = "LIBCNI_ERR_CONF_NONE_FOUND";
  /** The directory searched. */
  readonly dir: string;

  constructor(dir: string) {
    super(`no net configurations found in ${dir}`);
    this.dir = dir;
  }
}

/**
 * A failure tied to one file found while loading a directory. Upstream returns the bare parse
 * error (`error parsing configuration list: unexpected end of JSON input`), which leaves an
 * operator guessing which of many files is broken; this names it. `cause` is the error
 * upstream would have returned, unchanged; `file` the path.
 */
export class ConfFileError extends ConfError {
  static override readonly id: string = "LIBCNI_ERR_CONF_FILE";
  /** The file being loaded. */
  readonly file: string;

  /**
   * @param file the file's path
   * @param message the full message; see {@link ConfFileError.wrap} for the usual form
   * @param cause the underlying error
   */
  constructor(file: string, message: string, cause?: unknown) {
    super(message, { cause });
    this.file = file;
  }

  /**
   * Names `file` in an error that does not already: `<message> (file <path>)`. The upstream
   * text stays the prefix, so a caller matching on it still matches. An error that is already a
   * ConfFileError (a drop-in plugin file inside a list, say) names the more precise file and
   * passes through unchanged.
   */
  static wrap(file: string, error: unknown): ConfFileError {
    if (error instanceof ConfFileError) return error;
    return new ConfFileError(file, `${messageOf(error)} (file ${file})`, error);
  }
}

// --- invoke: finding and running plugins -----------------------------------------------------

/**
 * FindInPath could not be asked: no plugin name (`no plugin name provided`), a name with a
 * `/` (`invalid plugin name: <n>`), or no directories (`no paths provided`).
 */
export class PluginLookupError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_PLUGIN_LOOKUP";
}

/** No directory of the path holds the plugin: `failed to find plugin "<n>" in path [<p1> <p2>]`. */
export class PluginNotFoundError extends PluginLookupError {
  static override readonly id: string = "LIBCNI_ERR_PLUGIN_NOT_FOUND";
  /** The plugin's name (its `type`). */
  readonly plugin: string;
  /** The directories searched, in order. */
  readonly paths: readonly string[];
  constructor(plugin: string, paths: readonly string[]) {
    super(`failed to find plugin ${goQuote(plugin)} in path [${paths.join(" ")}]`);
    this.plugin = plugin;
    this.paths = Object.freeze([...paths]);
  }
}

/** How a plugin run ended, as carried by a {@link PluginExecError}. */
export interface PluginExecDetails {
  /** The plugin executable that was run. */
  pluginPath: string;
  /** Its exit code, when it exited. */
  exitCode?: number;
  /** The signal that ended it (`SIGTERM`, `SIGKILL`, ...), when a signal did. */
  signal?: string;
  /** Everything it wrote to stdout (up to the output cap). */
  stdout: Uint8Array;
  /** Everything it wrote to stderr (up to the output cap). */
  stderr: Uint8Array;
  /** True when the run was stopped because the caller's AbortSignal fired. */
  aborted?: boolean;
  /** The underlying error: the spawn error, the abort reason, a decode error. */
  cause?: unknown;
}

/**
 * A plugin run that failed. It is a {@link CNIError}: `code`, `msg` and `details` are the
 * plugin's own when it printed an error object, else upstream's `netplugin failed ...` texts
 * with code 0. The rest of the story (path, exit code, signal, output) is on its properties.
 */
export class PluginExecError extends CNIError {
  static override readonly id: string = "LIBCNI_ERR_PLUGIN_EXEC";
  /** The plugin executable that was run. */
  readonly pluginPath: string;
  /** Its exit code, when it exited. */
  readonly exitCode: number | undefined;
  /** The signal that ended it, when a signal did. */
  readonly signal: string | undefined;
  /** What it wrote to stdout. */
  readonly stdout: Uint8Array;
  /** What it wrote to stderr. */
  readonly stderr: Uint8Array;
  /** True when the caller aborted the run. */
  readonly aborted: boolean;

  constructor(code: number, msg: string, details: string, info: PluginExecDetails) {
    super(code, msg, details, { cause: info.cause });
    this.pluginPath = info.pluginPath;
    this.exitCode = info.exitCode;
    this.signal = info.signal;
    this.stdout = info.stdout;
    this.stderr = info.stderr;
    this.aborted = info.aborted ?? false;
  }
}

/**
 * A plugin run stopped because the caller's AbortSignal fired: upstream's text
 * (`netplugin failed with no error message: signal: terminated`) followed by what happened,
 * ` (aborted: <reason>)` or ` (timed out)`. `cause` is the signal's reason.
 */
export class PluginAbortedError extends PluginExecError {
  static override readonly id: string = "LIBCNI_ERR_PLUGIN_ABORTED";
  /** True when the signal's reason is a timeout (`AbortSignal.timeout()`). */
  readonly timedOut: boolean;
  constructor(code: number, msg: string, details: string, info: PluginExecDetails) {
    super(code, msg, details, { ...info, aborted: true });
    this.timedOut = isTimeoutReason(info.cause);
  }
}

/** True for the reason `AbortSignal.timeout()` aborts with (a `TimeoutError` DOMException). */
export function isTimeoutReason(reason: unknown): boolean {
  return (
    typeof reason === "object" &&
    reason !== null &&
    (reason as { name?: unknown }).name === "TimeoutError"
  );
}

// --- invoke/spawner: the posix_spawn helper that starts plugins off the main thread ----------

/** A failure of the spawner helper itself (not of a plugin it ran). */
export class SpawnerError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_SPAWNER";
}

/**
 * The spawner helper cannot be used: its binary is missing for this platform, is not
 * executable, or did not answer its handshake. With `launcher: "auto"` the library uses the
 * direct spawn instead; with `launcher: "spawner"` a run fails with this as its cause.
 */
export class SpawnerUnavailableError extends SpawnerError {
  static override readonly id: string = "LIBCNI_ERR_SPAWNER_UNAVAILABLE";
}

/**
 * The spawner helper exited (crashed, was killed, or broke its protocol) while a run was in
 * flight: the run's plugin is killed with its process group and the run fails with this as its
 * cause. The next run starts a new helper. A run whose plugin had not started yet is started
 * again on a new helper, once, before this is reported.
 */
export class SpawnerExitedError extends SpawnerError {
  static override readonly id: string = "LIBCNI_ERR_SPAWNER_EXITED";
  /**
   * Whether the run's plugin had started when the helper went: false means nothing ran and a
   * retry is safe; true means the plugin ran (and was killed), so its effects are unknown.
   */
  readonly pluginStarted: boolean;
  constructor(message: string, options: LibcniErrorOptions & { pluginStarted?: boolean } = {}) {
    super(message, options);
    this.pluginStarted = options.pluginStarted ?? true;
  }
}

// --- api: CNIConfig's operations (CHECK, plugin chains, validation, GC) ----------------------

/**
 * The sentinel of a CHECK on a configuration older than 0.4.0 (upstream `ErrorCheckNotSupp`):
 * the thrown {@link CheckNotSupportedError} has it as its `cause`, as Go's `%w` does.
 */
export const ErrorCheckNotSupp: LibcniError = new LibcniError("does not support the CHECK command");

/** CHECK on a configuration older than 0.4.0: `configuration version "<v>" does not support the CHECK command`. */
export class CheckNotSupportedError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CHECK_NOT_SUPPORTED";
  /** The configuration's CNI version. */
  readonly cniVersion: string;
  constructor(cniVersion: string) {
    super(`configuration version ${goQuote(cniVersion)} ${ErrorCheckNotSupp.message}`, {
      cause: ErrorCheckNotSupp,
    });
    this.cniVersion = cniVersion;
  }
}

/** The verb a {@link PluginChainError} names, as upstream writes it. */
export type ChainVerb = "add" | "delete";

/**
 * A plugin of a list failed on ADD or DEL:
 * `plugin type="<t>" name="<n>" failed (add): <the plugin's error>`. `cause` is the plugin's
 * error (a CNIError with its code when the plugin reported one).
 */
export class PluginChainError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_PLUGIN_CHAIN";
  /** "add" or "delete". */
  readonly verb: ChainVerb;
  /** The failing plugin's `type`. */
  readonly pluginType: string | undefined;
  /** The failing plugin's position in the list (0 for the first), when known. */
  readonly index: number | undefined;
  /** @param description upstream's `pluginDescription` of the plugin (`type="t" name="n"`) */
  constructor(
    verb: ChainVerb,
    description: string,
    pluginType: string | undefined,
    cause: unknown,
    index?: number,
  ) {
    super(`plugin ${description} failed (${verb}): ${messageOf(cause)}`, { cause });
    this.verb = verb;
    this.pluginType = pluginType;
    this.index = index;
  }
}

/** ValidateNetwork(List): `plugin <type> does not support config version "<v>"`. */
export class PluginVersionError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_PLUGIN_VERSION";
  /** The plugin's `type`. */
  readonly pluginType: string;
  /** The configuration version it does not support. */
  readonly cniVersion: string;
  constructor(pluginType: string, cniVersion: string) {
    super(`plugin ${pluginType} does not support config version ${goQuote(cniVersion)}`);
    this.pluginType = pluginType;
    this.cniVersion = cniVersion;
  }
}

/**
 * Several errors reported together, as Go's `errors.Join` (GC: one per line) or `%v` of an
 * error slice (validation: `[e1 e2]`). `errors` holds them in order.
 */
export class MultiError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_MULTIPLE";
  /** The errors, in order. */
  readonly errors: readonly unknown[];
  constructor(errors: readonly unknown[], format: "lines" | "list") {
    const messages = errors.map(messageOf);
    super(format === "lines" ? messages.join("\n") : `[${messages.join(" ")}]`);
    this.errors = Object.freeze([...errors]);
  }
}

// --- api/cache: the result cache (writing, reading and removing records) ---------------------

/** The attachment a cache operation was about. */
export interface AttachmentKey {
  /** The network's name. */
  network: string;
  /** The container ID. */
  containerID: string;
  /** The interface name. */
  ifName: string;
}

/**
 * ADD succeeded in every plugin but the result could not be cached: upstream's
 * `failed to set network "<n>" cached result: <err>`, then what it means: the attachment is up
 * and uncached, so a DEL with the same config and runtime config is needed to remove it.
 * `result` is the chain's result, `attachment` names it.
 */
export class CacheWriteError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHE_WRITE";
  /** The attachment that is configured but not recorded. */
  readonly attachment: AttachmentKey;
  /** The result the plugins returned (a `Result`), which nothing recorded. */
  readonly result: unknown;
  constructor(attachment: AttachmentKey, result: unknown, cause: unknown) {
    super(
      `failed to set network ${goQuote(attachment.network)} cached result: ${messageOf(cause)} (the plugins succeeded: the attachment is up but uncached; DEL it with the same configuration)`,
      { cause },
    );
    this.attachment = attachment;
    this.result = result;
  }
}

/**
 * The cache-write thread ended (crashed, or was terminated) while a record write was in flight
 * on it: that record is the old one or the new one, as after any failed write. The next write
 * starts a new thread.
 */
export class CacheWriteThreadExitedError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHE_WRITE_THREAD_EXITED";
  constructor(cause: unknown) {
    super("cache-write thread exited with the write in flight", { cause });
  }
}

/**
 * A cache record that cannot be one: not a regular file (a symlink, a FIFO, a device, a
 * socket, a directory) or larger than the cap. DEL and CHECK treat it as a corrupt record (no
 * cache; DEL removes the entry, never what a link points at); the getters throw this.
 */
export class CorruptCacheRecordError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHE_RECORD_CORRUPT";
  /** The record's path. */
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`cache record ${path} ${reason}`);
    this.path = path;
  }
}

/**
 * A cache record could not be removed after its attachment's DEL succeeded (a read-only or
 * failing cache dir): the attachment is down but still listed. `libcni/runtime` reports it
 * rather than the attachment as removed, and the next teardown or GC tries again. (`CNIConfig`
 * keeps upstream's semantics and ignores the failed removal.)
 */
export class CacheRecordRemoveError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHE_RECORD_REMOVE";
  /** The record's path. */
  readonly path: string;
  constructor(path: string, cause: unknown) {
    super(`cache record ${path} could not be removed: ${messageOf(cause)}`, { cause });
    this.path = path;
  }
}

/** `read cached network "<n>" config has wrong kind: <kind>` (upstream's text). */
export class CachedConfigKindError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHED_CONFIG_WRONG_KIND";
  /** The record's `kind`. */
  readonly kind: string;
  constructor(quotedNetName: string, kind: string) {
    super(`read cached network ${quotedNetName} config has wrong kind: ${kind}`);
    this.kind = kind;
  }
}

// --- runtime (libcni/runtime): loading networks; pod setup, check, teardown; GC --------------

/** One network's failure inside a pod-level operation. */
export interface NetworkFailure {
  /** The network's name ("" when the failure is the pod's, not one network's: its setup intent). */
  network: string;
  /** The pod's interface on that network ("" for a network's own GC, or none known). */
  ifName: string;
  /** What the network's plugins (or the layer) threw. */
  error: unknown;
  /** The pod the failure is about, in a GC (which works on many pods); absent elsewhere. */
  podID?: string;
}

/** `[pod <id>: ][<network> (<ifName>): ]<message>`, an empty part left out. */
function failureLine(f: NetworkFailure): string {
  const pod = f.podID ? `pod ${f.podID}: ` : "";
  const where = f.network
    ? f.ifName
      ? `${f.network} (${f.ifName}): `
      : `${f.network}: `
    : f.ifName
      ? `${f.ifName}: `
      : "";
  return `${pod}${where}${failureText(f)}`;
}

/**
 * The failure's error as its line goes on after naming the network: a NetworkTimeoutError of
 * that network leaves its own `network <name>: ` out, so the line names it once.
 */
function failureText(f: NetworkFailure): string {
  const e = f.error;
  return e instanceof NetworkTimeoutError && f.network !== "" && e.network === f.network
    ? timeoutText(e.verb, e.timeout)
    : messageOf(e);
}

function failureLines(failures: readonly NetworkFailure[]): string {
  return failures.map(failureLine).join("; ");
}

/**
 * The runtime has no usable network yet: the conf dir is missing, empty, or every file in it is
 * broken, or the default network is not among them. A state, not a failure of the load: the
 * runtime reports it from `status()` and throws it from `setupPod` until a reload (or the
 * watcher) brings a network in. `reason` says which of these it is.
 */
export class NoNetworksError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_NO_NETWORKS";
  /** The conf dir. */
  readonly confDir: string;
  /** Each file that could not be used, with its error. */
  readonly problems: readonly { file: string; error: unknown }[];
  /** Why: the dir is missing or unreadable, holds no usable network, or lacks the default one. */
  readonly reason: string;
  constructor(
    confDir: string,
    problems: readonly { file: string; error: unknown }[],
    reason = `no valid networks found in ${confDir}`,
    options: LibcniErrorOptions = {},
  ) {
    const detail =
      problems.length === 0
        ? ""
        : `: ${problems.map((p) => `${p.file}: ${messageOf(p.error)}`).join("; ")}`;
    super(`${reason}${detail}`, options);
    this.confDir = confDir;
    this.problems = problems;
    this.reason = reason;
  }
}

/**
 * The runtime's named default network (`defaultNetwork`) is not among the conf dir's usable
 * networks: its file is missing, broken or names another network. A NoNetworksError: the
 * runtime is not ready, and a pod that names no networks is refused, while a pod that names its
 * networks may still be set up on those (ocicni's rule). `problems` lists the files skipped.
 */
export class DefaultNetworkNotFoundError extends NoNetworksError {
  static override readonly id: string = "LIBCNI_ERR_DEFAULT_NETWORK_NOT_FOUND";
  /** The default network's name. */
  readonly network: string;
  constructor(
    confDir: string,
    network: string,
    problems: readonly { file: string; error: unknown }[] = [],
  ) {
    super(confDir, problems, `default network ${JSON.stringify(network)} not found in ${confDir}`);
    this.network = network;
  }
}

/** A conf file's network has the name of an earlier file's: the later one is skipped. */
export class DuplicateNetworkError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_DUPLICATE_NETWORK";
  /** The repeated name. */
  readonly network: string;
  constructor(network: string) {
    super(`network ${JSON.stringify(network)} is already defined by an earlier file`);
    this.network = network;
  }
}

/** A pod asked for a network that is not loaded. */
export class NetworkNotFoundError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_NETWORK_NOT_FOUND";
  /** The name asked for. */
  readonly network: string;
  constructor(network: string) {
    super(`network ${JSON.stringify(network)} not found`);
    this.network = network;
  }
}

/**
 * A pod's interface names collide or are not valid (found when the pod's plan is made, before
 * any lock is taken or plugin runs). `argument` names the request (`pod.networks[1].ifName`);
 * `cause` is upstream's validation error (a CNIError with its code) when there is one.
 */
export class InterfaceNameError extends InvalidArgumentError {
  static override readonly id: string = "LIBCNI_ERR_INTERFACE_NAME";
}

/**
 * A capability argument of a pod does not have the form the CNI conventions give it (an `ips`
 * entry that is neither an address nor a CIDR, a `mac` Go's `net.ParseMAC` refuses, a port out
 * of range): found before any lock is taken or plugin runs. `argument` names the field
 * (`pod.capabilities.ips[0]`, `pod.networks[0].capabilities.mac`).
 */
export class CapabilityArgError extends InvalidArgumentError {
  static override readonly id: string = "LIBCNI_ERR_CAPABILITY_ARG";
}

/** Which of the API server's rules a NetworkDeviceData breaks (Kubernetes' field error types). */
export type NetworkDeviceDataFailure = "too-long" | "too-many" | "invalid" | "duplicate";

/**
 * A KEP-4817 NetworkDeviceData (a ResourceClaim's `status.devices[].networkData`) breaks a rule
 * the API server enforces: `interfaceName` over 256 bytes, `hardwareAddress` over 128, more
 * than 16 `ips`, an entry of `ips` that is not an interface address in canonical CIDR form, or
 * one given twice. `argument` is the field's path as the API server names it
 * (`networkData.ips[2]`), `reason` the rule, `network` the network whose interface it is (from
 * `networkDeviceData`; undefined from `validateNetworkDeviceData`).
 */
export class NetworkDeviceDataError extends InvalidArgumentError {
  static override readonly id: string = "LIBCNI_ERR_NETWORK_DEVICE_DATA";
  /** The rule broken. */
  readonly reason: NetworkDeviceDataFailure;
  /** The network that reported the interface, when known. */
  readonly network: string | undefined;
  constructor(
    argument: string,
    reason: NetworkDeviceDataFailure,
    message: string,
    network?: string,
  ) {
    super(argument, message);
    this.reason = reason;
    this.network = network;
  }
}

function timeoutText(verb: string, timeout: number): string {
  return `${verb} timed out after ${timeout} ms`;
}

/**
 * One network of a pod took longer than the per-network timeout: `network <name>: <verb> timed
 * out after <n> ms`. Inside a pod-level error, whose line names the network already, the
 * line reads `<name> (<ifName>): <verb> timed out after <n> ms`.
 */
export class NetworkTimeoutError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_NETWORK_TIMEOUT";
  /** The timeout, in milliseconds. */
  readonly timeout: number;
  /** The network's name. */
  readonly network: string;
  /** The verb that took too long (`ADD`, `CHECK`, `DEL`, `GC`). */
  readonly verb: string;
  constructor(network: string, verb: string, timeout: number, cause?: unknown) {
    super(`network ${network}: ${timeoutText(verb, timeout)}`, { cause });
    this.timeout = timeout;
    this.network = network;
    this.verb = verb;
  }
}

/** One attachment of a pod: its network and interface. */
export interface PodAttachmentRef {
  network: string;
  ifName: string;
}

/**
 * Setting a pod up failed: `failure` is the network that failed (`cause` is its error); the
 * networks whose plugins had started were rolled back (`rolledBack`, in DEL order), and
 * `rollbackFailures` lists the DELs that ran and failed (empty when the rollback was clean). A
 * network none of whose plugins started (a plugin not installed, a time limit hit before the
 * first plugin ran) had nothing to undo and is in neither list.
 */
export class PodSetupError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_POD_SETUP";
  /** The pod's ID. */
  readonly podID: string;
  /** The network whose ADD failed (the first one, in attach order). */
  readonly failure: NetworkFailure;
  /** Every other network whose ADD failed (parallel setup only). */
  readonly otherFailures: readonly NetworkFailure[];
  /** The rollback DELs that failed: what may be left behind. */
  readonly rollbackFailures: readonly NetworkFailure[];
  /** The attachments the rollback DELeted, in DEL order. */
  readonly rolledBack: readonly PodAttachmentRef[];
  constructor(
    podID: string,
    failure: NetworkFailure,
    otherFailures: readonly NetworkFailure[],
    rollbackFailures: readonly NetworkFailure[],
    rolledBack: readonly PodAttachmentRef[] = [],
  ) {
    const rb =
      rollbackFailures.length > 0
        ? `rollback failed: ${failureLines(rollbackFailures)}`
        : rolledBack.length > 0
          ? "rolled back"
          : "nothing to undo";
    super(
      `set up pod ${podID}: network ${failure.network} (${failure.ifName}): ${failureText(failure)} (${rb})`,
      { cause: failure.error },
    );
    this.podID = podID;
    this.failure = failure;
    this.otherFailures = otherFailures;
    this.rollbackFailures = rollbackFailures;
    this.rolledBack = rolledBack;
  }
}

/** Tearing a pod down left attachments behind: each failed DEL, after trying every one. */
export class PodTeardownError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_POD_TEARDOWN";
  /** The pod's ID. */
  readonly podID: string;
  /** Each attachment whose DEL failed. */
  readonly failures: readonly NetworkFailure[];
  constructor(podID: string, failures: readonly NetworkFailure[]) {
    super(`tear down pod ${podID}: ${failureLines(failures)}`, { cause: failures[0]?.error });
    this.podID = podID;
    this.failures = failures;
  }
}

/** CHECK of a pod failed on one or more of its attachments. */
export class PodCheckError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_POD_CHECK";
  /** The pod's ID. */
  readonly podID: string;
  /** Each attachment whose CHECK failed. */
  readonly failures: readonly NetworkFailure[];
  constructor(podID: string, failures: readonly NetworkFailure[]) {
    super(`check pod ${podID}: ${failureLines(failures)}`, { cause: failures[0]?.error });
    this.podID = podID;
    this.failures = failures;
  }
}

/** A pod has no attachment in the result cache (CHECK of a pod never set up, or torn down). */
export class PodNotFoundError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_POD_NOT_FOUND";
  /** The pod's ID. */
  readonly podID: string;
  constructor(podID: string) {
    super(`pod ${podID} has no cached attachments`);
    this.podID = podID;
  }
}

/** Garbage collection across networks: every failure, after trying everything. */
export class RuntimeGCError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_RUNTIME_GC";
  /** Stale attachments whose DEL failed, and networks whose GC failed (`ifName` ""). */
  readonly failures: readonly NetworkFailure[];
  constructor(failures: readonly NetworkFailure[]) {
    super(`gc: ${failureLines(failures)}`, { cause: failures[0]?.error });
    this.failures = failures;
  }
}

/**
 * A pod's setup intent (`<cacheDir>/libcni/setup-intents/<podID>`) that cannot be used: not a
 * regular file (a directory, a FIFO, a symlink, a device), over the intents' size cap, or not an
 * intent (not JSON, another kind or pod, a malformed attachment, capability args nested past
 * what a cache record can hold). What its setup had started cannot be known from it: teardown
 * and GC DEL what the records hold, set the file aside under a name no later call lists
 * (`setAsideAs`), and report it once, in their error; CHECK and `podStatus` report it and leave
 * it. The message never quotes the file's content.
 */
export class DamagedIntentError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_SETUP_INTENT_DAMAGED";
  /** The pod's ID. */
  readonly podID: string;
  /** The intent's path. */
  readonly path: string;
  /** What is wrong with it (`is a directory, not a regular file`, `cannot be read: ...`). */
  readonly reason: string;
  /** Where teardown or GC moved it; undefined while it is still at `path`. */
  readonly setAsideAs: string | undefined;
  constructor(
    podID: string,
    path: string,
    reason: string,
    options: { setAsideAs?: string | undefined; setAsideFailure?: unknown } = {},
  ) {
    const { setAsideAs, setAsideFailure } = options;
    const aside =
      setAsideAs !== undefined
        ? `; set aside as ${setAsideAs}`
        : setAsideFailure !== undefined
          ? `; it could not be set aside: ${messageOf(setAsideFailure)}`
          : "";
    super(`setup intent ${path} of pod ${podID} ${reason}${aside}`, {
      cause: setAsideFailure,
    });
    this.podID = podID;
    this.path = path;
    this.reason = reason;
    this.setAsideAs = setAsideAs;
  }
}

/**
 * What is wrong with the content of a setup intent (not JSON, another kind or pod, a malformed
 * owner or attachment, capability args nested too deep). Internal: reading the intent turns it
 * into a {@link DamagedIntentError}, whose `reason` is `cannot be read: <this message>`; the
 * message never quotes the file's content.
 */
export class MalformedIntentError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_SETUP_INTENT_MALFORMED";
}

// --- netns (libcni/netns): pinned network namespaces, and programs run inside them ------------

/** Why a network namespace operation failed, as the OS said it (or the check that refused it). */
export type NetnsFailure =
  | "permission"
  | "exists"
  | "missing"
  | "busy"
  | "not-a-netns"
  | "invalid-name"
  | "failed";

/**
 * A network namespace could not be created, removed or entered, or a program could not be run
 * in one. `reason` says why in one word (`permission`: a namespace operation was refused, the
 * process lacks CAP_SYS_ADMIN; `exists`, `missing`, `busy`: the path, or `missing` the program
 * to run; `not-a-netns`: the path is something else; `invalid-name`; `failed`: anything else,
 * a program that cannot be executed included), `path` which namespace, `errno` the OS's code.
 * Every error the netns functions throw is one; what failed under it (the spawner helper's
 * error when the helper died, a command's failure) is its `cause`.
 */
export class NetnsError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_NETNS";
  /** What failed, in one word. */
  readonly reason: NetnsFailure;
  /** The namespace's path (or name, for an invalid one). */
  readonly path: string;
  /** The OS's errno name, when the OS refused (EPERM, EEXIST, ENOENT, EBUSY...). */
  readonly errno: string | undefined;
  constructor(
    message: string,
    reason: NetnsFailure,
    path: string,
    options: LibcniErrorOptions & { errno?: string } = {},
  ) {
    super(message, options);
    this.reason = reason;
    this.path = path;
    this.errno = options.errno;
  }
}

// --- testing (libcni/testing): helpers of integration tests -----------------------------------

/** How a program run in a namespace ended (libcni/netns's `ExecInNetnsResult`). */
export interface CommandResult {
  exitCode: number | undefined;
  signal: string | undefined;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** `eventually` gave up: `cause` is the last attempt's error. */
export class EventuallyError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_EVENTUALLY";
  /** Milliseconds from the first attempt to giving up. */
  readonly elapsedMs: number;
  /** How many times the function was called. */
  readonly attempts: number;
  constructor(message: string, elapsedMs: number, attempts: number, cause: unknown) {
    super(message, { cause });
    this.elapsedMs = elapsedMs;
    this.attempts = attempts;
  }
}

/** A program run in a namespace by `runInNetns` exited non-zero, was killed or timed out. */
export class CommandFailedError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_COMMAND_FAILED";
  /** The program and its arguments. */
  readonly argv: readonly string[];
  /** The namespace it ran in. */
  readonly netns: string;
  /** How it ended, with its output. */
  readonly result: CommandResult;
  constructor(message: string, argv: readonly string[], netns: string, result: CommandResult) {
    super(message);
    this.argv = argv;
    this.netns = netns;
    this.result = result;
  }
}

/** Plugins a test needs are not installed in any plugin dir (`requirePlugins`). */
export class MissingPluginsError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_MISSING_PLUGINS";
  /** The plugins not found. */
  readonly plugins: readonly string[];
  /** The dirs searched. */
  readonly dirs: readonly string[];
  constructor(message: string, plugins: readonly string[], dirs: readonly string[]) {
    super(message);
    this.plugins = plugins;
    this.dirs = dirs;
  }
}
