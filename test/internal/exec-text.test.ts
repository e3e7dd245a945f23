/** Go's texts for how a plugin run ended. */
import { describe, expect, it } from "vitest";
import { errnoText } from "../../src/internal/errno.js";
import {
  abortText,
  exitStatusText,
  signalText,
  startErrorText,
} from "../../src/internal/exec-text.js";

describe("Go exec texts", () => {
  it("exit status and signals as os.ProcessState.String()", () => {
    expect(exitStatusText(1)).toBe("exit status 1");
    expect(exitStatusText(255)).toBe("exit status 255");
    expect(signalText("SIGKILL")).toBe("signal: killed");
    expect(signalText("SIGTERM")).toBe("signal: terminated");
    expect(signalText("SIGSEGV")).toBe("signal: segmentation fault");
    expect(signalText("SIGABRT")).toBe("signal: aborted");
    expect(signalText("SIGINT")).toBe("signal: interrupt");
    expect(signalText("SIGRTMIN")).toBe("signal: SIGRTMIN");
  });

  it("start errors as Go's fork/exec errors", () => {
    expect(startErrorText("/x/p", "ENOENT")).toBe("fork/exec /x/p: no such file or directory");
    expect(startErrorText("/x/p", "EACCES")).toBe("fork/exec /x/p: permission denied");
    expect(startErrorText("/x/p", "ETXTBSY")).toBe("fork/exec /x/p: text file busy");
    expect(startErrorText("/x/p", "ENOEXEC")).toBe("fork/exec /x/p: exec format error");
    expect(startErrorText("p", "ENOENT")).toBe('exec: "p": executable file not found in $PATH');
  });

  it("falls back to libuv's text for a rarer errno, then to the code", () => {
    expect(errnoText("ECONNREFUSED", -111)).toBe("connection refused");
    expect(errnoText("EWHATEVER")).toBe("EWHATEVER");
    expect(errnoText(undefined)).toBe("unknown error");
  });

  it("abort reasons as Go's context errors", () => {
    expect(abortText(AbortSignal.abort())).toBe("context canceled");
    expect(abortText(AbortSignal.abort(new Error("x")))).toBe("context canceled");
    expect(abortText(AbortSignal.abort(new DOMException("t", "TimeoutError")))).toBe(
      "context deadline exceeded",
    );
  });
});
