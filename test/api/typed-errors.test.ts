/**
 * Property test (issue 12): whatever bytes arrive as a configuration, a result, a cache record
 * or a plugin's output, the public functions either succeed or throw one of the library's
 * typed errors, never a builtin `Error`/`TypeError`/`RangeError`/`SyntaxError` (a stack
 * overflow, a bug's TypeError, a plain `new Error`).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CNIConfig } from "../../src/api/cni-config.js";
import { decodeCacheRecord } from "../../src/cache/record.js";
import { networkConfFromBytes, networkPluginConfFromBytes } from "../../src/conf/index.js";
import { createResult, createResultForVersion } from "../../src/types/index.js";
import { fixupResultVersion } from "../../src/version/fixup-result.js";
import { confList, type Sandbox, sandbox } from "./helpers.js";

const builtinErrors = new Set<unknown>([Error, TypeError, RangeError, SyntaxError]);

/**
 * The thrown value is an error of a named class, not a builtin one. Once every class extends
 * LibcniError this becomes `expect(e).toBeInstanceOf(LibcniError)`.
 */
function expectTypedError(e: unknown): void {
  expect(e).toBeInstanceOf(Error);
  if (builtinErrors.has((e as Error).constructor)) {
    throw new Error(`untyped ${(e as Error).constructor.name}: ${(e as Error).message}`, {
      cause: e,
    });
  }
}

function typedOrOk(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    expectTypedError(e);
  }
}

async function typedOrOkAsync(fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    expectTypedError(e);
  }
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** JSON-like text: valid JSON, JSON with CNI's keys, deep nesting, cut or spliced text. */
const jsonish: fc.Arbitrary<string> = (() => {
  const version = fc.constantFrom("1.1.0", "1.0.0", "0.4.0", "0.3.1", "0.2.0", "0.1.0", "", "x");
  const cniShaped = fc
    .record(
      {
        cniVersion: fc.oneof(version, fc.jsonValue()),
        name: fc.oneof(fc.constantFrom("net", "a/b", ""), fc.jsonValue()),
        type: fc.oneof(fc.constantFrom("noop", ""), fc.jsonValue()),
        kind: fc.oneof(fc.constant("cniCacheV1"), fc.jsonValue()),
        config: fc.oneof(fc.base64String(), fc.jsonValue()),
        cniArgs: fc.jsonValue(),
        result: fc.jsonValue(),
        plugins: fc.oneof(fc.array(fc.jsonValue(), { maxLength: 3 }), fc.jsonValue()),
        ips: fc.oneof(
          fc.array(fc.record({ address: fc.constantFrom("10.0.0.1/24", "x", "::1/64") })),
          fc.jsonValue(),
        ),
        interfaces: fc.jsonValue(),
        routes: fc.jsonValue(),
        dns: fc.jsonValue(),
        prevResult: fc.jsonValue(),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o));
  const deep = fc
    .tuple(fc.integer({ min: 9_990, max: 10_010 }), fc.constantFrom("1", "1e400", '"\\ud800"', "x"))
    .map(([n, inner]) => `{"cniVersion":"1.0.0","x":${"[".repeat(n)}${inner}${"]".repeat(n)}}`);
  const base = fc.oneof(fc.json(), cniShaped, cniShaped, deep, fc.string());
  return fc.oneof(
    base,
    fc.tuple(base, fc.nat()).map(([s, n]) => s.slice(0, n % (s.length + 1))),
    fc.tuple(base, base, fc.nat()).map(([a, b, n]) => a.slice(0, n % (a.length + 1)) + b),
  );
})();

const netconf = enc('{"cniVersion":"1.0.0","name":"n","type":"t"}');

describe("only typed errors, on any input", () => {
  it("configurations: networkConfFromBytes, networkPluginConfFromBytes", () => {
    fc.assert(
      fc.property(jsonish, (text) => {
        typedOrOk(() => networkConfFromBytes(enc(text)));
        typedOrOk(() => networkPluginConfFromBytes(enc(text)));
      }),
      { numRuns: 300 },
    );
  });

  it("results: createResult, createResultForVersion, and conversion to every version", () => {
    fc.assert(
      fc.property(jsonish, fc.constantFrom("1.1.0", "1.0.0", "0.4.0", "0.2.0"), (text, v) => {
        typedOrOk(() => createResultForVersion(v, text));
        typedOrOk(() => {
          const result = createResult(text);
          for (const to of ["1.1.0", "1.0.0", "0.4.0", "0.3.0", "0.2.0", "0.1.0"]) {
            typedOrOk(() => result.getAsVersion(to));
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it("cache records: decodeCacheRecord", () => {
    fc.assert(
      fc.property(jsonish, (text) => typedOrOk(() => decodeCacheRecord(enc(text)))),
      { numRuns: 300 },
    );
  });

  it("plugin output: fixupResultVersion", () => {
    fc.assert(
      fc.property(jsonish, (text) => typedOrOk(() => fixupResultVersion(netconf, enc(text)))),
      { numRuns: 300 },
    );
  });

  describe("cache records on disk, through CNIConfig's getters", () => {
    let box: Sandbox;
    beforeAll(() => {
      box = sandbox();
      mkdirSync(join(box.cacheDir, "results"), { recursive: true });
    });
    afterAll(() => box.cleanup());

    it("getNetworkListCachedResult and getNetworkListCachedConfig", async () => {
      const cni = new CNIConfig({ path: [box.binDir], cacheDir: box.cacheDir });
      const list = confList('{"name":"fuzz","cniVersion":"1.0.0","plugins":[{"type":"noop"}]}');
      const rt = { containerID: "fuzz-cid", netNS: "", ifName: "eth0" };
      const path = join(box.cacheDir, "results", "fuzz-fuzz-cid-eth0");
      await fc.assert(
        fc.asyncProperty(jsonish, async (text) => {
          writeFileSync(path, text);
          await typedOrOkAsync(() => cni.getNetworkListCachedResult(list, rt));
          await typedOrOkAsync(() => cni.getNetworkListCachedConfig(list, rt));
        }),
        { numRuns: 150 },
      );
    });
  });
});
