/** The whole differential corpus, in a stable order. */
import type { ConformanceCase } from "../harness/case.js";
import { conflistCases, resultCases } from "./file-cases.js";
import { generatedCases } from "./generated-cases.js";
import { scenarioCases } from "./scenario-cases.js";

/** Every case: conflist shapes, results of every version, scenarios, generated ones. */
export function allCases(): ConformanceCase[] {
  const cases = [...conflistCases(), ...resultCases(), ...scenarioCases(), ...generatedCases()];
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`duplicate case id ${c.id}`);
    ids.add(c.id);
  }
  return cases;
}
