/** Runs one case on both sides in one sandbox and compares them. */
import type { ConformanceCase, Observation } from "./case.js";
import { type CaseVerdict, compareCase } from "./compare.js";
import { goSideCase, runGo } from "./go-runner.js";
import { makeSandbox, resetState, writeScripts } from "./sandbox.js";
import { runTS } from "./ts-runner.js";

/** Both observations and the verdict of one case. */
export interface CaseRun {
  verdict: CaseVerdict;
  go: Observation;
  ts: Observation;
}

/** Runs `c` with Go 1.1.2, then with the port, in the sandbox `<parent>/c<index>`. */
export async function runCase(parent: string, c: ConformanceCase, index: number): Promise<CaseRun> {
  const sb = await makeSandbox(parent, c, index);
  const g = goSideCase(c);
  await writeScripts(sb, g.plugins);
  await resetState(sb, g.cacheSeed);
  const go = await runGo(g, sb);
  await writeScripts(sb, c.plugins);
  await resetState(sb, c.cacheSeed);
  const ts = await runTS(c, sb);
  return { verdict: compareCase(c, go, ts, sb.cache, sb.log), go, ts };
}
