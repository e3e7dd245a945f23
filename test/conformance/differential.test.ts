/**
 * Differential conformance: every corpus case runs through Go libcni 1.1.2 (Debian's, built
 * here) and through the port, in the same sandbox with the same recording plugins; every
 * difference must be identical or documented (harness/known-differences.ts). Go and the
 * libcni sources are prerequisites: without them this suite fails, it never skips.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allCases } from "./corpus/index.js";
import { parentEnvCases } from "./corpus/scenario-cases.js";
import type { ConformanceCase } from "./harness/case.js";
import type { CaseVerdict } from "./harness/compare.js";
import { buildDriver } from "./harness/go-runner.js";
import { knownDifferences } from "./harness/known-differences.js";
import { runCase } from "./harness/run-case.js";
import { buildRecorder, makeTempRoot, removeDir, repoRoot } from "./harness/sandbox.js";

/** CONFORMANCE_FILTER=<regex> runs only the matching case ids (for debugging; the count check then fails). */
const filter = process.env.CONFORMANCE_FILTER;
const cases: ConformanceCase[] = allCases().filter((c) => !filter || new RegExp(filter).test(c.id));
const verdicts: CaseVerdict[] = [];
const crossVerdicts: CaseVerdict[] = [];
let parent = "";

/** Runs `f` over `items` with at most `n` in flight. */
async function pool<T>(
  items: T[],
  n: number,
  f: (item: T, i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      await f(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
}

function block(title: string, list: CaseVerdict[]): string[] {
  const count = (s: CaseVerdict["status"]): number => list.filter((v) => v.status === s).length;
  return [
    `${title}: ${list.length}`,
    `  identical:   ${count("identical")}`,
    `  documented:  ${count("documented")}`,
    `  unexplained: ${count("unexplained")}`,
  ];
}

function summary(): string {
  const all = [...verdicts, ...crossVerdicts];
  const lines = [
    ...block("differential cases", verdicts),
    ...block(
      "cross-runtime comparisons (one runtime ADDs, the other runs the rest)",
      crossVerdicts,
    ),
    "documented differences (cases and comparisons explained by each):",
  ];
  for (const k of knownDifferences) {
    const n = all.filter((v) => v.rules.includes(k.id)).length;
    lines.push(`  ${k.id.padEnd(22)} ${String(n).padStart(4)}  (${k.kind})`);
  }
  for (const v of all.filter((x) => x.status === "unexplained").slice(0, 40)) {
    lines.push(`UNEXPLAINED ${v.id}`);
    for (const d of v.unexplained) {
      lines.push(`  ${d.key}\n    go: ${JSON.stringify(d.go)}\n    ts: ${JSON.stringify(d.ts)}`);
    }
  }
  return lines.join("\n");
}

function harnessFailure(id: string, e: unknown): CaseVerdict {
  const ts = String(e instanceof Error ? e.stack : e);
  return {
    id,
    status: "unexplained",
    rules: [],
    unexplained: [{ key: "harness", go: undefined, ts }],
    artifacts: 0,
  };
}

describe("differential: Go libcni 1.1.2 vs the TypeScript port", () => {
  beforeAll(async () => {
    await Promise.all([buildDriver(), buildRecorder()]);
    parent = await makeTempRoot();
  }, 180_000);

  afterAll(async () => {
    await removeDir(parent);
    const dir = join(repoRoot, "test/conformance/.build");
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, "report.json"),
      JSON.stringify([...verdicts, ...crossVerdicts], null, 2),
    );
    console.log(summary());
  });

  it("runs at least 500 cases with no unexplained difference", async () => {
    await pool(cases, 8, async (c, i) => {
      try {
        // Cross-runtime runs for the hand-made cases (for the generated ones too, the time doubles).
        const run = await runCase(parent, c, i, !c.id.startsWith("generated/"));
        verdicts[i] = run.verdict;
        crossVerdicts.push(...run.cross);
        if (process.env.CONFORMANCE_DUMP) {
          // Both raw observations, for looking into a difference.
          const dump = join(repoRoot, "test/conformance/.build/dump");
          await mkdir(dump, { recursive: true });
          const file = join(dump, `${c.id.replace(/[^\w.@-]/g, "_")}.json`);
          await writeFile(file, JSON.stringify({ case: c, go: run.go, ts: run.ts }, null, 2));
        }
      } catch (e) {
        verdicts[i] = harnessFailure(c.id, e);
      }
    });
    const unexplained = [...verdicts, ...crossVerdicts].filter((v) => v.status === "unexplained");
    expect(
      unexplained.map((v) => v.id),
      summary(),
    ).toEqual([]);
    // The comparison must have looked at something in every case.
    expect(verdicts.every((v) => v.artifacts > 0)).toBe(true);
    expect(crossVerdicts.length).toBeGreaterThan(0);
    expect(verdicts.length).toBeGreaterThanOrEqual(500);
  }, 900_000);

  it("passes the runtime's own environment to plugins as Go does", async () => {
    const envCases = parentEnvCases().filter((c) => !filter || new RegExp(filter).test(c.id));
    expect(envCases.length).toBeGreaterThan(0);
    for (const [k, c] of envCases.entries()) {
      const saved = { ...process.env };
      Object.assign(process.env, c.parentEnv);
      try {
        const run = await runCase(parent, c, cases.length + k);
        verdicts.push(run.verdict);
        expect(run.verdict.status, summary()).not.toBe("unexplained");
        // The inherited variables did reach the plugins (so the comparison covered them).
        const envs = run.ts.ops.flatMap((o) =>
          Object.entries(o.dirs)
            .flatMap(([, files]) => Object.entries(files))
            .filter(([name]) => name.endsWith(".env"))
            .map(([, f]) => Buffer.from(f.b64 ?? "", "base64").toString("utf8")),
        );
        const standard = [
          "CNI_COMMAND",
          "CNI_CONTAINERID",
          "CNI_NETNS",
          "CNI_IFNAME",
          "CNI_ARGS",
          "CNI_PATH",
        ];
        for (const [key, value] of Object.entries(c.parentEnv ?? {})) {
          const seen = envs.some((e) => e.split("\u0000").includes(`${key}=${value}`));
          expect(seen, key).toBe(!standard.includes(key));
        }
      } finally {
        for (const key of Object.keys(c.parentEnv ?? {})) {
          if (saved[key] === undefined) delete process.env[key];
          else process.env[key] = saved[key];
        }
      }
    }
  });
});
