/**
 * Issue 30, item 3: capability args nested to Go's limit. A cache record nests at most 10,000
 * levels (Go's decoder: `exceeded max depth` beyond); it holds a capability value two levels
 * down, a setup intent four. Up to the limit, teardown and CHECK send the plugins the capability
 * args byte for byte as the ADD did, from a record or an intent (no RangeError: the walks keep
 * their own stack); past it, a typed error names the record or intent, never a silent skip
 * with success. setupPod refuses such a value before any plugin runs.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { intentsDir, writeIntent } from "../../src/cache/intent.js";
import { MAX_CAPABILITY_DEPTH } from "../../src/cache/record.js";
import {
  CapabilityArgError,
  CorruptCacheRecordError,
  DamagedIntentError,
  PodCheckError,
  PodTeardownError,
} from "../../src/errors/index.js";
import { type CNIRuntime, loadNetworks, planPod } from "../../src/runtime/index.js";
import { intentOf } from "../../src/runtime/plan.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

/** `{"a":{"a":...1...}}`, `levels` objects deep, as text. */
const deepText = (levels: number): string => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

/** The same value as an object, built without recursion. */
function deepValue(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

/** The text of the JSON value that follows `"<key>":` in `text` (brackets only, no strings). */
function valueAfter(text: string, key: string): string {
  const start = text.indexOf(`"${key}":`) + key.length + 3;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    if (depth === 0) return text.slice(start, i + 1);
  }
  throw new Error(`no value for ${key}`);
}

describe("capability args nested to Go's limit", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let rt: CNIRuntime;
  const record = () => join(d.cacheDir, "results", "a-pod1-eth0");
  const pod = { id: "pod1", netns: "/run/netns/pod1" };
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", [
      { type: "bridge", capabilities: { deep: true } },
    ]);
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
  });
  afterEach(() => d.cleanup());

  /** Sets the pod up with a marker, then puts a value `levels` deep in its record. */
  async function deepRecord(levels: number): Promise<void> {
    await rt.setupPod({ ...pod, capabilities: { extra: { deep: "MARK" } } });
    const text = await readFile(record(), "utf8");
    expect(text).toContain('"capabilityArgs":{"deep":"MARK"}');
    await writeFile(record(), text.replace('"MARK"', deepText(levels)));
    fake.calls.length = 0;
  }

  it("a record at the limit (10,000 levels): CHECK and teardown send the capability args as ADDed", async () => {
    expect(MAX_CAPABILITY_DEPTH).toBe(9998);
    await rt.setupPod({ ...pod, capabilities: { extra: { deep: deepValue(9998) } } });
    const add = fake.calls.find((c) => c.command === "ADD")?.stdin ?? "";
    const sent = valueAfter(add, "runtimeConfig");
    expect(sent).toBe(`{"deep":${deepText(9998)}}`);
    // The record nests exactly as deep as Go reads: record, capabilityArgs, then the value.
    expect(await readFile(record(), "utf8")).toContain(
      `"capabilityArgs":{"deep":${deepText(9998)}}`,
    );
    fake.calls.length = 0;
    expect(await rt.checkPod("pod1")).toEqual([{ network: "a", ifName: "eth0" }]);
    expect(await rt.teardownPod("pod1")).toEqual([{ network: "a", ifName: "eth0" }]);
    expect(fake.seq()).toEqual(["CHECK a:eth0", "DEL a:eth0"]);
    for (const c of fake.calls) expect(valueAfter(c.stdin, "runtimeConfig")).toBe(sent);
    expect(await rt.teardownPod("pod1")).toEqual([]);
  });

  it.each([
    3000, 6000, 9998,
  ])("a record %i levels deep, many times: never a RangeError", async (levels) => {
    for (let trial = 0; trial < 3; trial++) {
      await deepRecord(levels);
      expect(await rt.teardownPod("pod1")).toEqual([{ network: "a", ifName: "eth0" }]);
      expect(valueAfter(fake.calls[0]?.stdin ?? "", "runtimeConfig")).toBe(
        `{"deep":${deepText(levels)}}`,
      );
    }
  });

  it("a record past the limit: teardown fails naming it, and keeps failing while it stays", async () => {
    await deepRecord(9999);
    for (let i = 0; i < 2; i++) {
      const error = await rt.teardownPod("pod1").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PodTeardownError);
      const [failure] = (error as PodTeardownError).failures;
      expect(failure?.network).toBe("a");
      expect(failure?.ifName).toBe("eth0");
      expect(failure?.error).toBeInstanceOf(CorruptCacheRecordError);
      expect((failure?.error as CorruptCacheRecordError).path).toBe(record());
      expect(String(error)).toContain("exceeded max depth");
    }
    expect(fake.calls).toEqual([]);
    // CHECK and status say so too.
    await expect(rt.checkPod("pod1")).rejects.toBeInstanceOf(PodCheckError);
    const status = await rt.podStatus("pod1");
    expect(status.problems.map((p) => p.error)).toEqual([expect.any(CorruptCacheRecordError)]);
  });

  it("an intent at the limit: recovery DELs with the capability args the setup started with", async () => {
    const plan = planPod(
      rt.networkSet,
      { ...pod, capabilities: { extra: { deep: deepValue(9998) } } },
      undefined,
    );
    await writeIntent(d.cacheDir, "pod1", intentOf(plan), true);
    // The intent holds the value four levels down: 10,002 levels, more than a record's.
    expect(await readFile(join(intentsDir(d.cacheDir), "pod1"), "utf8")).toContain(
      `"capabilityArgs":{"deep":${deepText(9998)}}`,
    );
    for (let trial = 0; trial < 3; trial++) {
      if (trial > 0) await writeIntent(d.cacheDir, "pod1", intentOf(plan), true);
      fake.calls.length = 0;
      expect(await rt.teardownPod("pod1")).toEqual([{ network: "a", ifName: "eth0" }]);
      expect(fake.seq()).toEqual(["DEL a:eth0"]);
      expect(valueAfter(fake.calls[0]?.stdin ?? "", "runtimeConfig")).toBe(
        `{"deep":${deepText(9998)}}`,
      );
    }
  });

  it("an intent past the limit: reported (typed, naming it) and set aside; the records still DELed", async () => {
    await rt.setupPod(pod);
    const plan = planPod(
      rt.networkSet,
      { ...pod, capabilities: { extra: { deep: "MARK" } } },
      undefined,
    );
    await writeIntent(d.cacheDir, "pod1", intentOf(plan), true);
    const path = join(intentsDir(d.cacheDir), "pod1");
    await writeFile(path, (await readFile(path, "utf8")).replace('"MARK"', deepText(20_000)));
    fake.calls.length = 0;
    const error = await rt.teardownPod("pod1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodTeardownError);
    const damaged = (error as PodTeardownError).failures.map((f) => f.error);
    expect(damaged).toEqual([expect.any(DamagedIntentError)]);
    expect((damaged[0] as DamagedIntentError).path).toBe(path);
    expect(String(error)).toContain("exceeded max depth");
    expect(fake.seq()).toEqual(["DEL a:eth0"]);
    expect(await rt.teardownPod("pod1")).toEqual([]);
  });

  it("setupPod refuses a capability value past the limit before any plugin runs", async () => {
    const error = await rt
      .setupPod({ ...pod, capabilities: { extra: { deep: deepValue(9999) } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapabilityArgError);
    expect((error as CapabilityArgError).argument).toBe('pod.capabilities.extra["deep"]');
    expect(String(error)).toContain("exceeded max depth");
    expect(fake.calls).toEqual([]);
    // A cyclic value is refused the same way, without looping.
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(
      rt.setupPod({ ...pod, capabilities: { extra: { deep: cyclic } } }),
    ).rejects.toBeInstanceOf(CapabilityArgError);
  });
});
