/**
 * What an ADD result must look like for its version (SPEC Section 5, "ADD Success", and the
 * result types of the versions before 1.0.0): decodable by the version's decoder, in the
 * config's version, interface indices in range, addresses and gateways well-formed, and a
 * sandbox that is the attachment's namespace.
 */
import { messageOf } from "../../errors.js";
import { createResultForVersion, parseCIDR, parseIP } from "../../types/index.js";
import { greaterThanOrEqualTo } from "../../version/index.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function cidrProblem(where: string, value: unknown): string | undefined {
  if (typeof value !== "string") return `${where} is not a string`;
  try {
    parseCIDR(value);
    return undefined;
  } catch {
    return `${where} ${JSON.stringify(value)} is not an address with a prefix length`;
  }
}

function ipProblem(where: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || parseIP(value) === undefined) {
    return `${where} ${JSON.stringify(value)} is not an IP address`;
  }
  return undefined;
}

function routesProblems(where: string, routes: unknown): string[] {
  if (routes === undefined) return [];
  if (!Array.isArray(routes)) return [`${where} is not a list`];
  return routes.flatMap((r, i) =>
    isObject(r)
      ? [cidrProblem(`${where}[${i}].dst`, r.dst), ipProblem(`${where}[${i}].gw`, r.gw)].filter(
          (p): p is string => p !== undefined,
        )
      : [`${where}[${i}] is not an object`],
  );
}

/** The 0.1.0 / 0.2.0 shape: `ip4` and `ip6`. */
function legacyProblems(result: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const key of ["ip4", "ip6"]) {
    const ip = result[key];
    if (ip === undefined) continue;
    if (!isObject(ip)) {
      problems.push(`${key} is not an object`);
      continue;
    }
    const p = [cidrProblem(`${key}.ip`, ip.ip), ipProblem(`${key}.gateway`, ip.gateway)];
    problems.push(...p.filter((x): x is string => x !== undefined));
    problems.push(...routesProblems(`${key}.routes`, ip.routes));
  }
  return problems;
}

/** The 0.3.0-and-later shape: `interfaces`, `ips`, `routes`. */
function listProblems(result: Record<string, unknown>, version: string, netns: string): string[] {
  const problems: string[] = [];
  const interfaces = result.interfaces ?? [];
  if (!Array.isArray(interfaces)) return ["interfaces is not a list"];
  interfaces.forEach((iface, i) => {
    if (!isObject(iface) || typeof iface.name !== "string" || iface.name === "") {
      problems.push(`interfaces[${i}] has no name`);
      return;
    }
    if (iface.sandbox !== undefined && iface.sandbox !== "" && iface.sandbox !== netns) {
      problems.push(
        `interfaces[${i}] (${iface.name}) has sandbox ${JSON.stringify(iface.sandbox)}, not the attachment's CNI_NETNS ${netns}`,
      );
    }
  });
  const ips = result.ips ?? [];
  if (!Array.isArray(ips)) return [...problems, "ips is not a list"];
  ips.forEach((ip, i) => {
    if (!isObject(ip)) {
      problems.push(`ips[${i}] is not an object`);
      return;
    }
    const p = [
      cidrProblem(`ips[${i}].address`, ip.address),
      ipProblem(`ips[${i}].gateway`, ip.gateway),
    ];
    problems.push(...p.filter((x): x is string => x !== undefined));
    if (ip.interface !== undefined) {
      const n = ip.interface;
      if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n >= interfaces.length) {
        problems.push(
          `ips[${i}].interface ${JSON.stringify(n)} is not an index of interfaces (${interfaces.length})`,
        );
      }
    }
    if (!greaterThanOrEqualTo(version, "1.0.0") && ip.version !== "4" && ip.version !== "6") {
      problems.push(
        `ips[${i}].version ${JSON.stringify(ip.version)} is not "4" or "6" (required before 1.0.0)`,
      );
    }
  });
  problems.push(...routesProblems("routes", result.routes));
  return problems;
}

/**
 * The problems of an ADD's output for a config of `version` and an attachment in `netns`;
 * empty when it is a well-formed result.
 */
export function resultProblems(
  stdout: string,
  json: unknown,
  version: string,
  netns: string,
): string[] {
  if (!isObject(json))
    return [`the output is not a JSON object: ${JSON.stringify(stdout.slice(0, 200))}`];
  const problems: string[] = [];
  if (json.cniVersion !== version) {
    problems.push(
      `cniVersion ${JSON.stringify(json.cniVersion)}, not the config's ${JSON.stringify(version)}`,
    );
  }
  try {
    createResultForVersion(version, stdout);
  } catch (error) {
    problems.push(`the ${version} result decoder refuses it: ${messageOf(error)}`);
  }
  const shape = greaterThanOrEqualTo(version, "0.3.0")
    ? listProblems(json, version, netns)
    : legacyProblems(json);
  return [...problems, ...shape];
}
