/** Go's encoding/json and standard-library errors, with Go's messages byte for byte. */
import { errnoCode, goPathErrorText } from "../internal/errno.js";
import { LibcniError } from "./base.js";

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
  /** @param struct the root struct's Go name (`types.PluginConf`); "" at the top level */
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

/** A failed file operation with Go's `*os.PathError` text, which upstream's messages embed. */
export class GoPathError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_PATH";
  /** `syscall` on `path` failed with `errno`, as `text` (Go's `*os.PathError` message). */
  constructor(
    /** The errno name (`ENOTDIR`, `EACCES`, ...). */
    readonly errno: string | undefined,
    /** The operation (`mkdir`). */
    readonly syscall: string,
    /** The path the operation failed on. */
    readonly path: string,
    text: string,
    cause?: unknown,
  ) {
    super(text, { cause });
  }
}

/**
 * A {@link GoPathError} from the Node error `cause` (its text covers errnos Go's table lacks),
 * else from `errno`.
 */
export function goPathError(
  syscall: string,
  path: string,
  cause: unknown,
  errno: string | undefined = errnoCode(cause),
): GoPathError {
  const source = cause === undefined ? { code: errno, syscall } : cause;
  return new GoPathError(errno, syscall, path, goPathErrorText(source, path), cause);
}
