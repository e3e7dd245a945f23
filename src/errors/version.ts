/** version: version strings, plugins' supported versions, prevResult. */
import { goQuote, goQuoteList } from "../internal/go-quote.js";
import { LibcniError } from "./base.js";

/** A version string, a plugin's VERSION output or a version list is unusable (upstream's text). */
export class VersionError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_VERSION";
}

/** The configuration's version is not among the plugin's (upstream `ErrorIncompatible`). */
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
