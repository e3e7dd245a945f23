/**
 * Differential test against upstream's cnitool: goldens/upstream-cnitool.json holds what the Go
 * tool (upstream's cnitool sources with cobra 1.9.1 and pflag 1.0.6, see goldens/generate.mjs)
 * printed and returned for 238 command lines (hand-picked, environment variations, and 160
 * random sequences of commands, flags and words), in the same sandbox with the noop plugin.
 * The port must print the same bytes and return the same status, once the documented
 * differences are taken out of both (docs/deviations/cnitool.md): the lines of this port's
 * additions (commands attachments, conformance, rootless, sweep, validate, version; flags --cache-dir,
 * and gc's --valid, --dry-run and --json, which also widen the flag-name column; gc's line on
 * what it prints) and of cobra's completion command; and the
 * empty `"dns": {}` that the reference's libcni 1.1.2 prints in 1.0.0 results where upstream
 * main does not.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pluginDir } from "../fixtures/plugins/noop-debug.js";
import { runInProcess } from "./helpers.js";

interface Golden {
  argv: string[];
  env: Record<string, string>;
  code: number;
  stdout: string;
  stderr: string;
}

const goldens = JSON.parse(
  await readFile(new URL("./goldens/upstream-cnitool.json", import.meta.url), "utf8"),
) as Golden[];

/** The sandbox of goldens/generate.mjs (keep the two in step). */
async function layOut(dir: string): Promise<void> {
  await mkdir(join(dir, "net.d"));
  const result = '{"cniVersion":"1.0.0","ips":[{"address":"10.1.2.3/24"}]}';
  await writeFile(join(dir, "debug.json"), JSON.stringify({ ReportResult: result }));
  await writeFile(
    join(dir, "debugerr.json"),
    JSON.stringify({ ReportError: "boom", ReportErrorCode: 7 }),
  );
  const plugin = (debug: string) => ({ type: "noop.mjs", debugFile: join(dir, debug) });
  await writeFile(
    join(dir, "net.d", "10-test.conflist"),
    JSON.stringify({ cniVersion: "1.0.0", name: "test", plugins: [plugin("debug.json")] }),
  );
  await writeFile(
    join(dir, "net.d", "20-err.conflist"),
    JSON.stringify({ cniVersion: "1.0.0", name: "errnet", plugins: [plugin("debugerr.json")] }),
  );
  await writeFile(
    join(dir, "net.d", "30-old.conf"),
    JSON.stringify({ cniVersion: "0.3.1", name: "old", ...plugin("debug.json") }),
  );
}

const additionLine =
  /^ {2}(attachments|conformance|rootless|sweep|validate|version|completion) |--cache-dir string|--valid string|--dry-run |--json |^It prints each attachment it collected/;
const flagLine = /^( {2}-\S, --| {6}--)/;

/** Takes the documented differences out of a text. */
function comparable(text: string): string {
  const kept: string[] = [];
  for (const line of text.split("\n")) {
    if (additionLine.test(line)) continue;
    if (line === '    "dns": {}') {
      kept[kept.length - 1] = kept[kept.length - 1].replace(/,$/, "");
      continue;
    }
    kept.push(flagLine.test(line) ? line.replace(/ {3,}/, "   ") : line);
  }
  return kept.join("\n");
}

describe("cnitool against upstream's (Go, cobra 1.9.1) on the same command lines", () => {
  it.each(
    goldens.map((g) => [JSON.stringify(g.argv), JSON.stringify(g.env), g] as const),
  )("%s %s", async (_argv, _env, golden) => {
    const dir = await mkdtemp(join(tmpdir(), "libcni-cli-golden-"));
    try {
      await layOut(dir);
      const ours = await runInProcess(
        // A private cache: upstream's is the fixed /var/lib/cni. The flag and its value come
        // first, so they change nothing in how the rest is parsed.
        ["--cache-dir", join(dir, "cache"), ...golden.argv],
        {
          NETCONFPATH: join(dir, "net.d"),
          CNI_PATH: pluginDir,
          ...golden.env,
        },
        dir,
      );
      const hide = (s: string) =>
        s.replaceAll(dir, "$DIR").replaceAll(pluginDir.replace(/\/$/, ""), "$PLUGINS");
      expect({
        code: ours.code,
        stdout: comparable(hide(ours.stdout)),
        stderr: comparable(hide(ours.stderr)),
      }).toEqual({
        code: golden.code,
        stdout: comparable(golden.stdout),
        stderr: comparable(golden.stderr),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
