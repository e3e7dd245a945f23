/** Runs one case on both sides in one sandbox and compares them. */
import type { ConformanceCase, Observation } from "./case.js";
import { type CaseVerdict, compareCase } from "./compare.js";
import { goSideCase, mentions110, runGo } from "./go-runner.js";
import { makeSandbox, resetState, type Sandbox, writeScripts } from "./sandbox.js";
import { runTS } from "./ts-runner.js";

/** Both observations and the verdicts of one case. */
export interface CaseRun {
  verdict: CaseVerdict;
  /** Cross-runtime verdicts (one runtime ADDs, the other runs the rest), when the case allows. */
  cross: CaseVerdict[];
  go: Observation;
  ts: Observation;
}

/**
 * Can the case be split between runtimes? It must start with an ADD and give both the same
 * input (no Go-only rewriting: no `goConfList`, no 1.1.0 relabelling).
 */
export function crossable(c: ConformanceCase): boolean {
  return (
    (c.ops[0] === "add" || c.ops[0] === "addNet") &&
    c.ops.length > 1 &&
    c.goConfList === undefined &&
    !mentions110(c)
  );
}

/**
 * Cross-runtime: the cache one runtime's ADD wrote is what the other runtime's later verbs
 * read (a Go and a Node runtime sharing a host). "go-add": Go adds, the port runs the rest,
 * compared with the port doing everything; "ts-add": the port adds, Go runs the rest,
 * compared with Go doing everything.
 */
async function runCross(
  c: ConformanceCase,
  sb: Sandbox,
  pureGo: Observation,
  pureTS: Observation,
): Promise<CaseVerdict[]> {
  const [first, ...rest] = c.ops;
  await resetState(sb, c.cacheSeed);
  await runGo({ ...c, ops: [first] }, sb);
  const tsRest = await runTS({ ...c, ops: rest }, sb);
  const goAdd: Observation = {
    parseList: pureTS.parseList,
    parseConf: pureTS.parseConf,
    ops: [pureTS.ops[0], ...tsRest.ops],
  };

  await resetState(sb, c.cacheSeed);
  await runTS({ ...c, ops: [first] }, sb);
  const goRest = await runGo({ ...c, ops: rest }, sb);
  const tsAdd: Observation = {
    parseList: pureGo.parseList,
    parseConf: pureGo.parseConf,
    ops: [pureGo.ops[0], ...goRest.ops],
  };

  const a = compareCase(c, goAdd, pureTS, sb.cache, sb.log);
  const b = compareCase(c, pureGo, tsAdd, sb.cache, sb.log);
  return [
    { ...a, id: `cross-go-add/${c.id}` },
    { ...b, id: `cross-ts-add/${c.id}` },
  ];
}

/** Runs `c` with Go 1.1.2, then with the port, in the sandbox `<parent>/c<index>`. */
export async function runCase(
  parent: string,
  c: ConformanceCase,
  index: number,
  withCross = false,
): Promise<CaseRun> {
  const sb = await makeSandbox(parent, c, index);
  const g = goSideCase(c);
  await writeScripts(sb, g.plugins);
  await resetState(sb, g.cacheSeed);
  const go = await runGo(g, sb);
  await writeScripts(sb, c.plugins);
  await resetState(sb, c.cacheSeed);
  const ts = await runTS(c, sb);
  const verdict = compareCase(c, go, ts, sb.cache, sb.log);
  // Splitting only makes sense when both runtimes read the config alike and ADD alike.
  const sameStart =
    !go.parseList?.error &&
    !ts.parseList?.error &&
    !go.parseConf?.error &&
    !ts.parseConf?.error &&
    (go.ops[0]?.error === undefined) === (ts.ops[0]?.error === undefined);
  const cross = withCross && sameStart && crossable(c) ? await runCross(c, sb, go, ts) : [];
  return { verdict, cross, go, ts };
}
