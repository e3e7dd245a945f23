/**
 * Cases built from the data files: every conflist shape through a full life cycle, and every
 * result (each spec version and shape, plus malformed ones) under every config version.
 */
import type { CaseOp, ConformanceCase, ScriptedReply } from "../harness/case.js";
import {
  conflists,
  defaultRuntimeConf,
  result,
  results,
  specVersions,
  versionReply,
} from "./data.js";

const lifeCycle: CaseOp[] = [
  "add",
  "getCachedResult",
  "getCachedConfig",
  "getCachedAttachments",
  "check",
  "validate",
  "versionInfo:rec-b",
  "del",
  "getCachedResult",
  "getCachedConfig",
  "getCachedAttachments:all",
];

function listVersion(text: string | undefined): string | undefined {
  try {
    const v = (JSON.parse(text ?? "") as { cniVersion?: unknown }).cniVersion;
    return typeof v === "string" ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The recorder plugins of a life-cycle case: each ADD answers in the list's version. */
function lifeCyclePlugins(
  version: string | undefined,
): Record<string, Record<string, ScriptedReply>> {
  const v = version !== undefined && specVersions.includes(version) ? version : "1.0.0";
  const known = ["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0"];
  return {
    // With 1.1.0 relabelled as 1.0.0 on the Go side, a list naming 1.0.0 must name 1.1.0 too.
    "rec-a": {
      ADD: { out: result(`${v}-full`) },
      VERSION: versionReply(v === "1.1.0" ? [...known, "1.1.0"] : known),
    },
    "rec-b": {
      ADD: { out: result(`${v}-v4`) },
      VERSION: versionReply(v === "1.1.0" ? [...known, "1.1.0"] : known.slice(2)),
    },
    "rec-c": {
      ADD: { out: result(`${v}-full`) },
      VERSION: versionReply(["0.1.0", "0.2.0"], "0.2.0"),
    },
  };
}

/** One case per conflist file (reference sections B, D, E, F, G). */
export function conflistCases(): ConformanceCase[] {
  return conflists().map((f) => {
    const text = f.bytes.toString("utf8");
    const exact = Buffer.from(text, "utf8").equals(f.bytes);
    const c: ConformanceCase = {
      id: `conflist/${f.name}`,
      description: `conflist shape ${f.name}: parse, ADD, cache, CHECK, VALIDATE, VERSION, DEL`,
      plugins: lifeCyclePlugins(listVersion(f.goText ?? text)),
      runtimeConf: defaultRuntimeConf(),
      ops: lifeCycle,
    };
    if (exact) c.confList = text;
    else c.confListB64 = f.bytes.toString("base64");
    if (f.goText !== undefined) {
      c.goConfList = f.goText;
      c.goRule = "parse-v130-syntax";
    }
    return c;
  });
}

const configVersions = ["", ...specVersions];

/**
 * Every result file as both plugins' ADD reply, under every config version: exercises the
 * result decoders, fixupResultVersion, the encoders (prevResult, cache, Print) and every
 * conversion of the cached result to the config version (GetCachedResult, CHECK, DEL).
 */
export function resultCases(): ConformanceCase[] {
  const cases: ConformanceCase[] = [];
  for (const [name, text] of results()) {
    const regular = /^\d\.\d\.\d-(full|v4|v6|noips|newfields)$/.test(name);
    for (const cv of regular ? configVersions : ["0.2.0", "0.4.0", "1.0.0"]) {
      const list: Record<string, unknown> = {
        name: "results",
        plugins: [{ type: "rec-a" }, { type: "rec-b" }],
      };
      if (cv !== "") list.cniVersion = cv;
      cases.push({
        id: `result/${name}@${cv || "none"}`,
        description: `result ${name} from both plugins, config version ${cv || "(none)"}`,
        confList: JSON.stringify(list),
        plugins: { "rec-a": { ADD: { out: text } }, "rec-b": { ADD: { out: text } } },
        runtimeConf: defaultRuntimeConf(),
        ops: ["add", "getCachedResult", "check", "getCachedConfig", "del", "getCachedResult"],
      });
    }
  }
  return cases;
}
