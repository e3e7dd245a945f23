/** api: CNIConfig's operations (CHECK, plugin chains, validation, GC). */
import { messageOf } from "../internal/error-message.js";
import { goQuote } from "../internal/go-quote.js";
import { LibcniError } from "./base.js";

/** Upstream's `ErrorCheckNotSupp`: a {@link CheckNotSupportedError}'s `cause`, as Go's `%w`. */
export const ErrorCheckNotSupp: LibcniError = new LibcniError("does not support the CHECK command");

/** CHECK on a configuration older than 0.4.0. */
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

/** A plugin of a list failed on ADD or DEL; `cause` is its error (a CNIError if it printed one). */
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

/** ValidateNetwork(List): a plugin does not support the configuration's version. */
export class PluginVersionError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_PLUGIN_VERSION";
  constructor(
    /** The plugin's `type`. */
    readonly pluginType: string,
    /** The configuration version it does not support. */
    readonly cniVersion: string,
  ) {
    super(`plugin ${pluginType} does not support config version ${goQuote(cniVersion)}`);
  }
}

/** Several errors together, as Go's `errors.Join` (GC) or `%v` of an error slice (validation). */
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
