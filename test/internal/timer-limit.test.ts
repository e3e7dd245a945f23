/**
 * Time limits a caller gives: refused where they enter when longer than a Node timer holds
 * (2^31-1 ms), each with its entry's own typed error naming the option and the maximum, never a
 * timer that fires after 1 ms (Node's clamp) and turns the limit into an instant timeout.
 * execInNetns needs root: timer-limit.system.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PluginStarter } from "../../src/engines/start/launcher.js";
import { assertDuration, InvalidArgumentError } from "../../src/errors/index.js";
import { durationProblem, MAX_TIMER_MS } from "../../src/internal/timer-limit.js";
import { callPlugin } from "../../src/invoke/plugin-call.js";
import { RawExec } from "../../src/invoke/raw-exec.js";
import { loadNetworks, validateConfDir } from "../../src/runtime/index.js";
import { checkPlugin } from "../../src/testing/conformance/index.js";
import { eventually, ping } from "../../src/testing/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "../runtime/helpers.js";

const tooLong = 2 ** 31;

/** The InvalidArgumentError `fn` throws or rejects with. */
async function refusal(fn: () => unknown): Promise<InvalidArgumentError> {
  let thrown: unknown;
  try {
    await fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(InvalidArgumentError);
  return thrown as InvalidArgumentError;
}

describe("the rule", () => {
  it("takes 0 to 2^31-1 ms; refuses longer, naming the maximum, and what is no count", () => {
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1);
    for (const ok of [0, 1, MAX_TIMER_MS]) expect(durationProblem(ok)).toBeUndefined();
    expect(durationProblem(tooLong)).toBe(
      "must be at most 2147483647 ms (about 24.8 days, the longest a Node timer waits), got 2147483648",
    );
    expect(durationProblem(-1)).toBe("must be a non-negative integer, got -1");
    // What the message shows never throws itself (a bigint, a cyclic object).
    expect(durationProblem(10n)).toBe("must be a non-negative integer, got 10");
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect(durationProblem(cyclic)).toBe("must be a non-negative integer, got object");
    expect(durationProblem(1.5)).toBe("must be a non-negative integer, got 1.5");
    expect(durationProblem("5")).toBe('must be a non-negative integer, got "5"');
    expect(durationProblem(0, 1)).toBe("must be a positive integer, got 0");
    expect(() => assertDuration("timeout", undefined)).not.toThrow();
  });
});

describe("RawExec (CNIConfig's exec)", () => {
  it("refuses a graceMs or textBusyDelayMs past the maximum; takes the maximum", async () => {
    for (const name of ["graceMs", "textBusyDelayMs"] as const) {
      const error = await refusal(() => new RawExec({ [name]: tooLong }));
      expect(error.argument).toBe(name);
      expect(error.message).toBe(
        `RawExec option ${name} must be at most 2147483647 ms (about 24.8 days, the longest a Node timer waits), got 2147483648`,
      );
      expect(new RawExec({ [name]: MAX_TIMER_MS })[name]).toBe(MAX_TIMER_MS);
    }
  });
});

describe("callPlugin (execInNetns's and the checker's bounded run)", () => {
  it("refuses a timeoutMs or graceMs past the maximum before anything starts", async () => {
    let starts = 0;
    const launcher: PluginStarter = {
      start() {
        starts++;
        throw new Error("must not start");
      },
    };
    for (const name of ["timeoutMs", "graceMs"] as const) {
      const error = await refusal(() =>
        callPlugin("/bin/true", { env: {}, launcher, [name]: tooLong }),
      );
      expect(error.argument).toBe(name);
      expect(error.message).toMatch(/^\w+ must be at most 2147483647 ms/);
    }
    expect(starts).toBe(0);
  });
});

describe("checkPlugin", () => {
  it("refuses a callTimeoutMs past the maximum, or of 0, before it looks at the plugin", async () => {
    for (const value of [tooLong, 0]) {
      const error = await refusal(() =>
        checkPlugin("/nonexistent/plugin", { callTimeoutMs: value }),
      );
      expect(error.argument).toBe("callTimeoutMs");
    }
    const error = await refusal(() =>
      checkPlugin("/nonexistent/plugin", { callTimeoutMs: tooLong }),
    );
    expect(error.message).toBe(
      "callTimeoutMs must be at most 2147483647 ms (about 24.8 days, the longest a Node timer waits), got 2147483648",
    );
  });
});

describe("libcni/runtime", () => {
  let d: Dirs;
  let fake: FakePlugins;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge"]);
  });
  afterEach(() => d.cleanup());
  const load = (timeout?: number) =>
    loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec, timeout });

  it("loadNetworks refuses a timeout past the maximum; at the maximum an ADD is not timed out", async () => {
    const error = await refusal(() => load(tooLong));
    expect(error.argument).toBe("timeout");
    expect(error.message).toBe(
      "timeout must be at most 2147483647 ms (about 24.8 days, the longest a Node timer waits), got 2147483648",
    );
    const rt = await load(MAX_TIMER_MS);
    const setup = await rt.setupPod({ id: "p1", netns: "/run/netns/p1" });
    expect(setup.attachments).toEqual([{ network: "pods", ifName: "eth0" }]);
  });

  it("every pod call refuses its own timeout past the maximum, before any plugin runs", async () => {
    const rt = await load();
    const options = { timeout: tooLong };
    const calls = [
      () => rt.setupPod({ id: "p1", netns: "/run/netns/p1" }, options),
      () => rt.teardownPod("p1", options),
      () => rt.checkPod("p1", options),
      () => rt.podStatus("p1", options),
      () => rt.status(options),
      () => rt.gc([], options),
    ];
    for (const call of calls) expect((await refusal(call)).argument).toBe("timeout");
    expect(fake.calls).toEqual([]);
  });

  it("validateConfDir refuses a timeout past the maximum (every VERSION would be late)", async () => {
    const error = await refusal(() =>
      validateConfDir({ confDir: d.confDir, exec: fake.exec, timeout: tooLong }),
    );
    expect(error.argument).toBe("timeout");
    expect(fake.calls).toEqual([]);
  });

  it("watch refuses a debounce or poll past the maximum (a poll every millisecond)", async () => {
    const rt = await load();
    for (const name of ["debounce", "poll"] as const) {
      const error = await refusal(() => rt.watch({ [name]: tooLong, persistent: false }));
      expect(error.argument).toBe(name);
    }
  });
});

describe("libcni/testing", () => {
  it("eventually refuses a timeoutMs or intervalMs past the maximum, before any attempt", async () => {
    let attempts = 0;
    for (const name of ["timeoutMs", "intervalMs"] as const) {
      const error = await refusal(() =>
        eventually(
          () => {
            attempts++;
          },
          { [name]: tooLong },
        ),
      );
      expect(error.argument).toBe(name);
    }
    expect(attempts).toBe(0);
  });

  it("ping refuses a timeoutMs past the maximum, and a count whose waits add up past it", async () => {
    expect(
      (await refusal(() => ping("/nonexistent", "10.0.0.1", { timeoutMs: tooLong }))).argument,
    ).toBe("timeoutMs");
    const error = await refusal(() =>
      ping("/nonexistent", "10.0.0.1", { count: 1_000_000, timeoutMs: 3_000 }),
    );
    expect(error.argument).toBe("count");
  });
});
