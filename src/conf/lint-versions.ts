/**
 * Version findings: what `cniVersion` and `cniVersions` make of a list, judged as upstream's
 * parser selects the version (the highest not newer than this library's) and as plugins
 * accept one (spelled exactly as a version of `version.all`).
 */

import { messageOf } from "../internal/error-message.js";
import { parseVersion } from "../version/parse.js";
import { all, current } from "../version/version.js";
import { selectCNIVersion } from "./cni-versions.js";
import { pointerOf } from "./lint-pointer.js";
import type { LintFinding } from "./lint-types.js";

const known = all.supportedVersions();
const knownText = known.join(", ");

function parseError(version: string): string | undefined {
  try {
    parseVersion(version);
    return undefined;
  } catch (error) {
    return messageOf(error);
  }
}

const finding =
  (severity: LintFinding["severity"]) =>
  (tokens: (string | number)[], message: string): LintFinding => ({
    pointer: pointerOf(tokens),
    message,
    severity,
  });
const error = finding("error");
const warning = finding("warning");

/** The version findings of a decoded list (a non-object gives none: the schema says why). */
export function versionFindings(list: Record<string, unknown>): LintFinding[] {
  const findings: LintFinding[] = [];
  const cniVersion = typeof list.cniVersion === "string" ? list.cniVersion : "";
  const rawVersions = list.cniVersions;
  // Wrong types are the schema's findings; without a clean input there is no selection to judge.
  if (Object.hasOwn(list, "cniVersion") && typeof list.cniVersion !== "string") return findings;
  const entries = Array.isArray(rawVersions) ? rawVersions : undefined;
  if (Object.hasOwn(list, "cniVersions") && entries?.every((e) => typeof e === "string") !== true) {
    return findings;
  }

  let clean = true;
  entries?.forEach((entry: string, i) => {
    const bad = parseError(entry);
    if (bad !== undefined) {
      clean = false;
      findings.push(error(["cniVersions", i], `${JSON.stringify(entry)} is not a version: ${bad}`));
    } else if (!known.includes(entry)) {
      findings.push(
        warning(
          ["cniVersions", i],
          `${JSON.stringify(entry)} is not a CNI version this library knows (${knownText}): it is never selected when newer than ${current()}`,
        ),
      );
    }
  });
  if (cniVersion !== "") {
    const bad = parseError(cniVersion);
    if (bad !== undefined) {
      clean = false;
      findings.push(
        error(["cniVersion"], `${JSON.stringify(cniVersion)} is not a version: ${bad}`),
      );
    }
  }
  if (!clean) return findings;

  const selected = entries === undefined ? cniVersion : selectCNIVersion(entries, cniVersion);
  if (selected === "") {
    findings.push(
      warning(["cniVersion"], "no cniVersion: plugins read the configuration as version 0.1.0"),
    );
  } else if (!known.includes(selected)) {
    const where =
      selected === cniVersion ? ["cniVersion"] : ["cniVersions", entries!.indexOf(selected)];
    findings.push(
      error(
        where,
        `unsupported version ${JSON.stringify(selected)}: the list would run with it, and plugins accept only ${knownText}`,
      ),
    );
  } else if (cniVersion !== "" && !known.includes(cniVersion)) {
    findings.push(
      warning(
        ["cniVersion"],
        `cniVersion ${JSON.stringify(cniVersion)} is not a CNI version this library knows: the list runs as ${JSON.stringify(selected)}, from cniVersions`,
      ),
    );
  }
  return findings;
}
