/**
 * Property tests: generated conflists keep every unknown field through parsing and injection
 * (what the spec requires of a runtime), the version pick follows its model, and no input
 * makes a parser throw anything but a ConfError.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { selectCNIVersion } from "../../src/conf/cni-versions.js";
import {
  confListFromConf,
  injectConf,
  loadNetworkConf,
  networkConfFromBytes,
  networkPluginConfFromBytes,
} from "../../src/conf/index.js";
import { ConfError } from "../../src/errors/index.js";
import { bytesOf, textOf } from "./helpers.js";

const knownPluginKeys = [
  "cniversion",
  "name",
  "type",
  "capabilities",
  "ipam",
  "dns",
  "prevresult",
  "cni.dev/valid-attachments",
];

// A key Go would not decode into a PluginConf field (compared as Go folds: ASCII case, ſ, K).
const isUnknownKey = (key: string): boolean =>
  !knownPluginKeys.includes(key.toLowerCase().replaceAll("ſ", "s").replaceAll("\u212a", "k"));

// What a string becomes once it went through Go: lone surrogates are U+FFFD.
const wellFormed = (s: string): string =>
  s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");

function goNormalised(value: unknown): unknown {
  if (typeof value === "string") return wellFormed(value);
  if (Array.isArray(value)) return value.map(goNormalised);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, wellFormed(k), {
        value: goNormalised(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

const jsonValue = fc.jsonValue({ maxDepth: 3, stringUnit: "binary" });
const unknownFields = fc.dictionary(
  fc.string({ unit: "binary", maxLength: 12 }).filter(isUnknownKey),
  jsonValue,
  { maxKeys: 6 },
);
const pluginArb = fc.record({
  type: fc.string({ unit: "grapheme", minLength: 1, maxLength: 10 }),
  extra: unknownFields,
});
const versionArb = fc.constantFrom("0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0");
const listArb = fc.record({
  name: fc.string({ unit: "grapheme", maxLength: 10 }),
  cniVersion: versionArb,
  plugins: fc.array(pluginArb, { minLength: 1, maxLength: 4 }),
  extra: fc.dictionary(
    fc
      .string({ maxLength: 8 })
      .filter((k) => !/^(name|cniversions?|disable|load|plugins)/i.test(k)),
    jsonValue,
    { maxKeys: 3 },
  ),
});

function pluginObject(p: {
  type: string;
  extra: Record<string, unknown>;
}): Record<string, unknown> {
  // The generated dictionary may hold "__proto__" as an own key: copy with defineProperty.
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p.extra)) {
    Object.defineProperty(out, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  out.type = p.type;
  return out;
}

describe("properties of parsing and injection", () => {
  it("keeps every unknown field of every plugin through parsing and injection", () => {
    fc.assert(
      fc.property(listArb, (gen) => {
        const text = JSON.stringify({
          ...gen.extra,
          name: gen.name,
          cniVersion: gen.cniVersion,
          plugins: gen.plugins.map(pluginObject),
        });
        const list = networkConfFromBytes(text);
        expect(textOf(list.bytes)).toBe(text);
        expect(list.plugins).toHaveLength(gen.plugins.length);
        list.plugins.forEach((plugin, i) => {
          const injected = injectConf(plugin, { name: list.name, cniVersion: list.cniVersion });
          const sent = JSON.parse(textOf(injected.bytes)) as Record<string, unknown>;
          for (const [key, value] of Object.entries(gen.plugins[i].extra)) {
            const goKey = wellFormed(key);
            expect(Object.hasOwn(sent, goKey)).toBe(true);
            // Compared with what the generated text holds (JSON.stringify writes -0 as 0).
            expect(sent[goKey]).toEqual(goNormalised(JSON.parse(JSON.stringify(value))));
          }
          expect(sent.type).toBe(gen.plugins[i].type);
          expect(sent.name).toBe(wellFormed(gen.name));
          expect(sent.cniVersion).toBe(gen.cniVersion);
          expect(injected.network.type).toBe(gen.plugins[i].type);
          // Injection is idempotent: injecting the same values again changes no byte.
          const again = injectConf(injected, { name: list.name, cniVersion: list.cniVersion });
          expect(textOf(again.bytes)).toBe(textOf(injected.bytes));
        });
      }),
      { numRuns: 300 },
    );
  });

  it("writes each plugin's bytes as a model of Go's map encoding does", () => {
    // An independent model of json.Marshal(map[string]interface{}): keys sorted by UTF-8
    // bytes at every level, compact, HTML-safe escapes, -0 kept.
    const goString = (s: string): string =>
      JSON.stringify(wellFormed(s)).replace(
        /[<>&\u2028\u2029]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
      );
    const model = (v: unknown): string => {
      if (v === null) return "null";
      if (Array.isArray(v)) return `[${v.map(model).join(",")}]`;
      if (typeof v === "string") return goString(v);
      if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
      if (typeof v === "boolean") return String(v);
      const entries = Object.entries(v as object).sort(([a], [b]) =>
        Buffer.compare(Buffer.from(wellFormed(a)), Buffer.from(wellFormed(b))),
      );
      return `{${entries.map(([k, x]) => `${goString(k)}:${model(x)}`).join(",")}}`;
    };
    fc.assert(
      fc.property(listArb, (gen) => {
        const plugins = gen.plugins.map(pluginObject);
        const text = JSON.stringify({ name: gen.name, plugins });
        const parsed = networkConfFromBytes(text).plugins;
        parsed.forEach((plugin, i) => {
          expect(textOf(plugin.bytes)).toBe(model(JSON.parse(JSON.stringify(plugins[i]))));
        });
      }),
      { numRuns: 300 },
    );
  });

  it("picks the highest version not newer than 1.1.0, else cniVersion as written", () => {
    const v = fc.tuple(fc.nat(3), fc.nat(12), fc.nat(3)).map(([a, b, c]) => `${a}.${b}.${c}`);
    fc.assert(
      fc.property(fc.array(v, { maxLength: 6 }), fc.oneof(fc.constant(""), v), (vs, cniVersion) => {
        const num = (s: string) => s.split(".").reduce((acc, part) => acc * 1000 + Number(part), 0);
        const candidates = [...vs, ...(cniVersion === "" ? [] : [cniVersion])].filter(
          (x) => num(x) <= num("1.1.0"),
        );
        const expected =
          candidates.length === 0
            ? cniVersion
            : candidates.reduce((best, x) => (num(x) > num(best) ? x : best));
        expect(num(selectCNIVersion(vs, cniVersion) || "0.0.0")).toBe(num(expected || "0.0.0"));
      }),
    );
  });
});

describe("parsers throw nothing but ConfError", () => {
  const onlyConfErrors = (fn: () => unknown): void => {
    try {
      fn();
    } catch (error) {
      if (!(error instanceof ConfError)) throw error;
      expect(typeof (error as Error).message).toBe("string");
    }
  };

  const anyValue = fc.oneof(
    jsonValue,
    fc.constantFrom("true", "FALSE", "1.0.0", "99.0.0", "1.0.f", "", "1.2.3.4"),
  );
  const nearList = fc.record(
    {
      name: anyValue,
      cniVersion: anyValue,
      cniVersions: fc.oneof(fc.array(anyValue, { maxLength: 4 }), anyValue),
      disableCheck: anyValue,
      disableGC: anyValue,
      loadOnlyInlinedPlugins: anyValue,
      plugins: fc.oneof(
        fc.array(
          fc.oneof(
            fc.record(
              {
                type: anyValue,
                Type: anyValue,
                capabilities: fc.oneof(fc.dictionary(fc.string(), anyValue), anyValue),
                ipam: fc.oneof(fc.record({ type: anyValue }), anyValue),
                dns: fc.oneof(fc.record({ nameservers: anyValue, domain: anyValue }), anyValue),
                prevResult: anyValue,
                "cni.dev/valid-attachments": fc.oneof(
                  fc.array(fc.record({ containerID: anyValue, ifname: anyValue })),
                  anyValue,
                ),
              },
              { requiredKeys: [] },
            ),
            anyValue,
          ),
          { maxLength: 3 },
        ),
        anyValue,
      ),
    },
    { requiredKeys: [] },
  );

  const exercise = (input: string | Uint8Array): void => {
    onlyConfErrors(() => {
      const list = networkConfFromBytes(input);
      for (const plugin of list.plugins) {
        injectConf(plugin, { name: list.name, cniVersion: list.cniVersion });
        confListFromConf(plugin);
      }
    });
    onlyConfErrors(() => networkPluginConfFromBytes(input));
  };

  it("for near-valid lists with any value in any well-known place", () => {
    fc.assert(
      fc.property(nearList, (value) => exercise(JSON.stringify(value))),
      {
        numRuns: 500,
      },
    );
  });

  it("for any JSON text", () => {
    fc.assert(fc.property(fc.json({ maxDepth: 4, stringUnit: "binary" }), exercise), {
      numRuns: 300,
    });
  });

  it("for any string and any bytes", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), exercise), { numRuns: 300 });
    fc.assert(fc.property(fc.uint8Array(), exercise), { numRuns: 300 });
  });

  it("for damaged valid lists (cut or with a byte changed)", () => {
    const valid = `{"name":"n","cniVersion":"1.0.0","cniVersions":["0.4.0"],"disableCheck":"true","plugins":[{"type":"bridge","capabilities":{"portMappings":true},"ipam":{"type":"host-local"},"dns":{"nameservers":["1.1.1.1"]}}]}`;
    fc.assert(
      fc.property(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 }), (at, byte) => {
        exercise(valid.slice(0, at));
        const bytes = bytesOf(valid);
        bytes[at] = byte;
        exercise(bytes);
      }),
      { numRuns: 500 },
    );
  });

  it("for injected values of any kind", () => {
    const base = networkPluginConfFromBytes(`{"type":"t"}`);
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.oneof(anyValue, fc.constant(undefined), fc.double())),
        (values) => onlyConfErrors(() => injectConf(base, values)),
      ),
    );
  });

  it("for directories of random files, loadNetworkConf finds the named network or throws a ConfError", async () => {
    const fileName = fc.constantFrom(
      "10-a.conflist",
      "20-b.conflist",
      "30-c.conf",
      "40-d.json",
      "net/1.conf",
      "net/2.conf",
      "other/3.conf",
    );
    const content = fc.oneof(
      fc.constantFrom(
        `{"name":"net","cniVersion":"1.0.0","plugins":[{"type":"bridge"}]}`,
        `{"name":"net"}`,
        `{"name":"other","plugins":[{"type":"t"}]}`,
        `{"name":"net","type":"single"}`,
        `{"type":"dropin"}`,
        "{",
      ),
      fc.json({ maxDepth: 2 }),
      fc.uint8Array({ maxLength: 16 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fileName, content), { maxLength: 5 }),
        fc.constantFrom("net", "other", "missing"),
        async (files, name) => {
          const dir = await mkdtemp(join(tmpdir(), "libcni-conf-prop-"));
          try {
            for (const [file, data] of files) {
              await mkdir(dirname(join(dir, file)), { recursive: true });
              await writeFile(join(dir, file), data);
            }
            try {
              const list = await loadNetworkConf(dir, name);
              expect(list.name).toBe(name);
              expect(list.plugins.length).toBeGreaterThan(0);
            } catch (error) {
              if (!(error instanceof ConfError)) throw error;
            }
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
