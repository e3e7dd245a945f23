/**
 * execInNetns's time limit, which needs root (a namespace to enter): past the longest a Node
 * timer waits it is refused, with its NetnsError naming the maximum, before the program runs;
 * it used to come back `timedOut` at once. At the maximum the program runs to its end. The
 * other entry points are timer-limit.test.ts.
 */
import { describe, expect, it } from "vitest";
import { MAX_TIMER_MS } from "../../src/internal/timer-limit.js";
import { execInNetns, NetnsError } from "../../src/netns/index.js";

const here = "/proc/self/ns/net";

describe("execInNetns", () => {
  it("refuses a timeoutMs past the maximum; runs to its end at the maximum", async () => {
    let thrown: unknown;
    try {
      await execInNetns(here, ["sh", "-c", "echo ran"], { timeoutMs: 2 ** 31 });
    } catch (error) {
      thrown = error;
    }
    // execInNetns throws NetnsError only (its contract), the argument's reason "failed".
    expect(thrown).toBeInstanceOf(NetnsError);
    expect((thrown as NetnsError).reason).toBe("failed");
    expect((thrown as Error).message).toMatch(/timeoutMs .*2147483647/);
    const run = await execInNetns(here, ["sh", "-c", "sleep 0.2; echo ran"], {
      timeoutMs: MAX_TIMER_MS,
    });
    expect([run.exitCode, run.timedOut, run.stdout]).toEqual([0, false, "ran\n"]);
  });
});
