/**
 * The texts Go's os/exec gives for a plugin run that did not succeed, which upstream's plugin
 * error messages embed (`netplugin failed with no error message: exit status 1`).
 */
import { errnoText } from "./errno.js";
import { isTimeoutReason } from "./error-message.js";
import { goQuote } from "./go-quote.js";

// Go's syscall.Signal.String() on Linux.
const signalTexts: Record<string, string> = {
  SIGHUP: "hangup",
  SIGINT: "interrupt",
  SIGQUIT: "quit",
  SIGILL: "illegal instruction",
  SIGTRAP: "trace/breakpoint trap",
  SIGABRT: "aborted",
  SIGIOT: "aborted",
  SIGBUS: "bus error",
  SIGFPE: "floating point exception",
  SIGKILL: "killed",
  SIGUSR1: "user defined signal 1",
  SIGSEGV: "segmentation fault",
  SIGUSR2: "user defined signal 2",
  SIGPIPE: "broken pipe",
  SIGALRM: "alarm clock",
  SIGTERM: "terminated",
  SIGSTKFLT: "stack fault",
  SIGCHLD: "child exited",
  SIGCONT: "continued",
  SIGSTOP: "stopped (signal)",
  SIGTSTP: "stopped",
  SIGTTIN: "stopped (tty input)",
  SIGTTOU: "stopped (tty output)",
  SIGURG: "urgent I/O condition",
  SIGXCPU: "CPU time limit exceeded",
  SIGXFSZ: "file size limit exceeded",
  SIGVTALRM: "virtual timer expired",
  SIGPROF: "profiling timer expired",
  SIGWINCH: "window changed",
  SIGIO: "I/O possible",
  SIGPOLL: "I/O possible",
  SIGPWR: "power failure",
  SIGSYS: "bad system call",
};

/** Go's ProcessState.String() for a process that exited. */
export function exitStatusText(code: number): string {
  return `exit status ${code}`;
}

/** Go's ProcessState.String() for a process a signal ended. */
export function signalText(signal: string): string {
  return `signal: ${signalTexts[signal] ?? signal}`;
}

/** Go's error for a plugin that could not be started (a bare name: Go's $PATH lookup failed). */
export function startErrorText(
  pluginPath: string,
  code: string | undefined,
  errno?: number,
): string {
  if (!pluginPath.includes("/") && code === "ENOENT") {
    return `exec: ${goQuote(pluginPath)}: executable file not found in $PATH`;
  }
  // Node refuses a NUL before any syscall; Go's exec checks the environment first, then EINVAL.
  if (code === "ERR_INVALID_ARG_VALUE") {
    if (!pluginPath.includes("\0")) return "exec: environment variable contains NUL";
    code = "EINVAL";
  }
  return `fork/exec ${pluginPath}: ${errnoText(code, errno)}`;
}

/** Go's context error for an abort: `context deadline exceeded` on a timeout. */
export function abortText(signal: AbortSignal): string {
  return isTimeoutReason(signal.reason) ? "context deadline exceeded" : "context canceled";
}
