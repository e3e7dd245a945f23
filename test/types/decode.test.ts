/**
 * Decoding results and versions from JSON: successes (exact bytes) and failures (exact error
 * texts) against upstream's Go code (golden/decode.json, produced by running upstream's
 * create.Create, create.CreateFromBytes and create.DecodeVersion).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { marshal } from "../../src/encoding/json.js";
import { createResult, createResultForVersion, decodeVersion } from "../../src/types/index.js";

interface Golden {
  op: "create" | "createv" | "decodeVersion";
  version?: string;
  input: string;
  compact?: string;
  indent?: string;
  err?: string;
  ver?: string;
}

const goldens: Golden[] = JSON.parse(
  readFileSync(new URL("./golden/decode.json", import.meta.url), "utf8"),
);

function run(g: Golden): { compact?: string; indent?: string; ver?: string } {
  if (g.op === "decodeVersion") return { ver: decodeVersion(g.input) };
  const r =
    g.op === "create" ? createResult(g.input) : createResultForVersion(g.version ?? "", g.input);
  return { compact: marshal(r), indent: r.print(), ver: r.version() };
}

describe("decoding goldens (upstream texts and bytes)", () => {
  for (const g of goldens) {
    const label = `${g.op}${g.version === undefined ? "" : `(${JSON.stringify(g.version)})`} ${g.input}`;
    it(label, () => {
      if (g.err !== undefined) {
        let caught: unknown;
        try {
          run(g);
        } catch (error) {
          caught = error;
        }
        expect(caught).toBeInstanceOf(Error);
        expect((caught as Error).message).toBe(g.err);
        return;
      }
      const out = run(g);
      expect(out.ver).toBe(g.ver);
      if (g.op !== "decodeVersion") {
        expect(out.compact).toBe(g.compact);
        expect(out.indent).toBe(g.indent);
      }
    });
  }
});
