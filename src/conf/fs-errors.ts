/**
 * Go's text for an OS error (`*os.PathError`: `<op> <path>: <errno text>`), built from a Node
 * fs error. Upstream's messages embed it (`error reading x: open x: no such file or directory`)
 * and Node's own text differs (`ENOENT: no such file or directory, open 'x'`).
 */

// Go's syscall error strings (zerrors_linux) where libuv's wording differs or is missing.
const goErrnoText: Record<string, string> = {
  EACCES: "permission denied",
  EAGAIN: "resource temporarily unavailable",
  EBADF: "bad file descriptor",
  EBUSY: "device or resource busy",
  EFAULT: "bad address",
  EINTR: "interrupted system call",
  EINVAL: "invalid argument",
  EIO: "input/output error",
  EISDIR: "is a directory",
  ELOOP: "too many levels of symbolic links",
  EMFILE: "too many open files",
  ENAMETOOLONG: "file name too long",
  ENFILE: "too many open files in system",
  ENODEV: "no such device",
  ENOENT: "no such file or directory",
  ENOMEM: "cannot allocate memory",
  ENOTDIR: "not a directory",
  ENXIO: "no such device or address",
  EOVERFLOW: "value too large for defined data type",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ESTALE: "stale file handle",
  ETXTBSY: "text file busy",
};

interface NodeFsError {
  code?: unknown;
  syscall?: unknown;
  message?: unknown;
}

/** The errno code of a Node fs error (`ENOENT`, ...), or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as NodeFsError).code;
  return typeof code === "string" ? code : undefined;
}

function errnoText(error: unknown): string {
  const code = errnoCode(error);
  if (code !== undefined && goErrnoText[code] !== undefined) return goErrnoText[code];
  const message = error instanceof Error ? error.message : String(error);
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
  const syscall = (error as NodeFsError | null)?.syscall;
  if (syscall === "scandir" || syscall === "opendir") {
    return errnoCode(error) === "ENOTDIR" ? "readdirent" : "open";
  }
  return typeof syscall === "string" ? syscall : "open";
}

/** Formats a Node fs error as Go's `*os.PathError` for `path`. */
export function goPathErrorText(error: unknown, path: string): string {
  return `${goOp(error)} ${path}: ${errnoText(error)}`;
}
