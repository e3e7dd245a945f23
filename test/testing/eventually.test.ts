// eventually: retries until the function stops throwing, then gives up with the last error.
import { describe, expect, it } from "vitest";
import { EventuallyError, eventually } from "../../src/testing/index.js";

describe("eventually", () => {
  it("resolves to the first value returned without a throw", async () => {
    let calls = 0;
    const value = await eventually(
      () => {
        calls += 1;
        if (calls < 3) throw new Error(`not yet ${calls}`);
        return calls;
      },
      { intervalMs: 1 },
    );
    expect(value).toBe(3);
    expect(calls).toBe(3);
  });

  it("awaits an async function and retries its rejections", async () => {
    let calls = 0;
    const value = await eventually(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error("first");
        return "ok";
      },
      { intervalMs: 1 },
    );
    expect(value).toBe("ok");
  });

  it("calls once and returns at once when the first attempt passes", async () => {
    let calls = 0;
    await eventually(() => {
      calls += 1;
    });
    expect(calls).toBe(1);
  });

  it("throws the last error, saying how long it waited and how often it tried", async () => {
    let calls = 0;
    const start = Date.now();
    const error = await eventually(
      () => {
        calls += 1;
        throw new Error(`attempt ${calls}`);
      },
      { timeoutMs: 120, intervalMs: 20 },
    ).catch((e: unknown) => e);
    expect(Date.now() - start).toBeGreaterThanOrEqual(120);
    expect(error).toBeInstanceOf(EventuallyError);
    const e = error as EventuallyError;
    expect(e.id).toBe("LIBCNI_ERR_EVENTUALLY");
    expect(e.attempts).toBe(calls);
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(e.elapsedMs).toBeGreaterThanOrEqual(120);
    expect(e.message).toMatch(
      new RegExp(
        `^eventually: still failing after \\d+ ms \\(${calls} attempts\\): attempt ${calls}$`,
      ),
    );
    expect((e.cause as Error).message).toBe(`attempt ${calls}`);
  });

  it("stops when the signal aborts, with the last error", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const error = await eventually(
      () => {
        throw new Error("never");
      },
      { timeoutMs: 60_000, intervalMs: 5, signal: controller.signal },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EventuallyError);
    expect((error as Error).message).toMatch(/^eventually: aborted after \d+ ms .*: never$/);
  });
});
