/**
 * A runtime passes one long-lived signal (its shutdown's) to every call, for days: no call may
 * leave anything on it. `AbortSignal.any` did: on Node 20 each composite stays listed on its
 * sources until they abort, so every timed call (and every `status()`, whose timeout is on by
 * default) grew the shutdown signal by an entry, for ever.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { validateConfDir } from "../../src/runtime/index.js";
import { abortDependants as dependants } from "../invoke/helpers.js";
import { twoNetworks } from "./helpers.js";

describe("a signal passed to every call", () => {
  const t = twoNetworks();

  it("keeps nothing of timed pod calls, status() and validateConfDir", async () => {
    const rt = await t.load();
    const { signal } = new AbortController();
    const pod = { id: "p", netns: "/run/netns/p" };
    for (let i = 0; i < 5; i++) {
      await rt.setupPod(pod, { signal, timeout: 60_000 });
      await rt.checkPod(pod, { signal, timeout: 60_000 });
      await rt.status({ signal });
      await rt.teardownPod(pod, { signal, timeout: 60_000 });
      await validateConfDir({ confDir: t.d.confDir, exec: t.fake.exec, signal, timeout: 60_000 });
    }
    expect(t.fake.seq("ADD")).toHaveLength(10);
    expect(dependants(signal)).toBe(0);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});
