/**
 * Every conversion pair of the seven result versions, on upstream's test results and on
 * edge cases, against the exact bytes (compact and `Print`) that upstream's Go code writes.
 * The goldens in golden/conversions.json were produced by running upstream pkg/types
 * (create.CreateFromBytes, GetAsVersion, json.Marshal, Print's MarshalIndent).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { marshal } from "../../src/encoding/json.js";
import { createResult } from "../../src/types/index.js";

interface Golden {
  name: string;
  input: string;
  to?: string;
  compact?: string;
  indent?: string;
  err?: string;
  ver?: string;
}

const load = (name: string): Golden[] =>
  JSON.parse(readFileSync(new URL(`./golden/${name}`, import.meta.url), "utf8"));

// conversions.json: hand-picked inputs; random-conversions.json: 60 seeded random results
// (odd IP versions, zero addresses, routes without dst, IPv4-mapped addresses, HTML in names).
const goldens: Golden[] = [...load("conversions.json"), ...load("random-conversions.json")];

describe("conversion goldens (upstream bytes)", () => {
  it("covers all seven versions as source and target", () => {
    const from = new Set(goldens.map((g) => JSON.parse(g.input).cniVersion));
    const to = new Set(goldens.map((g) => g.to).filter((t) => t !== undefined));
    for (const v of ["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"]) {
      expect(from.has(v)).toBe(true);
      expect(to.has(v)).toBe(true);
    }
  });

  for (const g of goldens) {
    const what = g.to === undefined ? "created" : `converted to ${JSON.stringify(g.to)}`;
    it(`${g.name}: ${what}`, () => {
      const run = () => {
        const created = createResult(g.input);
        return g.to === undefined ? created : created.getAsVersion(g.to);
      };
      if (g.err !== undefined) {
        expect(run).toThrow(g.err);
        return;
      }
      const result = run();
      expect(result.version()).toBe(g.ver);
      expect(marshal(result)).toBe(g.compact);
      expect(result.print()).toBe(g.indent);
    });
  }
});
