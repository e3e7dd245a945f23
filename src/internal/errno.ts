/**
 * Go's texts for OS errors (`syscall.Errno`, `*os.PathError`), which upstream's messages embed,
 * built from Node's errors: libuv words some errnos differently and Node formats its own.
 */
import { constants } from "node:os";
import { getSystemErrorMap } from "node:util";
import { messageOf } from "./error-message.js";

// Go's syscall error strings (zerrors_linux) where libuv's wording differs or is missing.
const goErrnoTexts: Record<string, string> = {
  E2BIG: "argument list too long",
  EACCES: "permission denied",
  EAGAIN: "resource temporarily unavailable",
  EBADF: "bad file descriptor",
  EBUSY: "device or resource busy",
  EFAULT: "bad address",
  EINTR: "interrupted system call",
  EINVAL: "invalid argument",
  EIO: "input/output error",
  EISDIR: "is a directory",
  ELIBBAD: "accessing a corrupted shared library",
  ELOOP: "too many levels of symbolic links",
  EMFILE: "too many open files",
  ENAMETOOLONG: "file name too long",
  ENFILE: "too many open files in system",
  ENODEV: "no such device",
  ENOENT: "no such file or directory",
  ENOEXEC: "exec format error",
  ENOMEM: "cannot allocate memory",
  ENOTDIR: "not a directory",
  ENXIO: "no such device or address",
  EOVERFLOW: "value too large for defined data type",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ESTALE: "stale file handle",
  ETXTBSY: "text file busy",
};

interface NodeSystemError {
  code?: unknown;
  errno?: unknown;
  syscall?: unknown;
}

const errnoNames = new Map<number, string>(
  Object.entries(constants.errno).map(([name, n]) => [n, name]),
);

/** An errno number's name (the spawner helper answers a bare number); `E<n>` when unnamed. */
export function errnoName(errno: number): string {
  return errnoNames.get(errno) ?? `E${errno}`;
}

/** The errno name of a Node system error (`ENOENT`, ...), or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as NodeSystemError).code;
  return typeof code === "string" ? code : undefined;
}

/** A `.catch` handler: a missing file (ENOENT) gives undefined, any other error is rethrown. */
export function undefinedIfMissing(error: unknown): undefined {
  if (errnoCode(error) === "ENOENT") return undefined;
  throw error;
}

/** Go's text for an errno: Go's own wording, else the system's description, else the name. */
export function errnoText(code: string | undefined, errno?: number): string {
  if (code !== undefined && goErrnoTexts[code] !== undefined) return goErrnoTexts[code];
  if (errno !== undefined) {
    const entry = getSystemErrorMap().get(errno);
    if (entry !== undefined) return entry[1];
  }
  return code ?? "unknown error";
}

/** Go's errno text for a Node error; a non-system error gives its own message. */
function errorErrnoText(error: unknown): string {
  const code = errnoCode(error);
  // Node's fs refuses a NUL in a path itself; Go's syscall layer says EINVAL.
  if (code === "ERR_INVALID_ARG_VALUE" && /null bytes/.test(messageOf(error)))
    return "invalid argument";
  const errno = (error as NodeSystemError | null)?.errno;
  if (code !== undefined && (goErrnoTexts[code] !== undefined || typeof errno === "number")) {
    return errnoText(code, typeof errno === "number" ? errno : undefined);
  }
  const message = messageOf(error);
  // Node writes "ENOXYZ: description, syscall 'path'": keep the description.
  const match = /^[A-Z0-9_]+: (.*?), \w+/.exec(message);
  return match ? match[1] : message;
}

/**
 * Go's operation name: Node reads a file with open+read, as Go does; it lists a directory
 * with scandir, where Go opens it and then calls getdents ("readdirent"), which is where a
 * non-directory fails.
 */
function goOp(error: unknown): string {
  const syscall = (error as NodeSystemError | null)?.syscall;
  if (syscall === "scandir" || syscall === "opendir") {
    return errnoCode(error) === "ENOTDIR" ? "readdirent" : "open";
  }
  return typeof syscall === "string" ? syscall : "open";
}

/** Formats a Node fs error (or `{ code, syscall }`) as Go's `*os.PathError` for `path`. */
export function goPathErrorText(error: unknown, path: string, op = goOp(error)): string {
  return `${op} ${path}: ${errorErrnoText(error)}`;
}
