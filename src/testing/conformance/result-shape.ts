/**
 * What an ADD result must look like for its version (SPEC Section 5, "ADD Success"), in two
 * rules' parts: add-result's form ({@link resultProblems}) and result-sane's findings
 * ({@link sanityFindings}): what upstream's open bugs show runtimes trip over, such as `[null]`
 * entries, which Go decodes and its converters then crash on (containernetworking/cni#1191,
 * #1192). A result the decoder refuses for a reason result-sane names is result-sane's only.
 */
import { pointerOf } from "../../conf/lint-pointer.js";
import { attempt, messageOf } from "../../internal/error-message.js";
import { isJSONObject } from "../../internal/json-kind.js";
import { createResultForVersion, parseCIDR, parseIP } from "../../types/index.js";
import { greaterThanOrEqualTo } from "../../version/index.js";

const shown = (value: unknown) => JSON.stringify(value) ?? String(value);

function cidrProblem(where: string, value: unknown): string | undefined {
  if (typeof value !== "string") return `${where} is not a string`;
  if (attempt(() => parseCIDR(value)) !== undefined) return undefined;
  return `${where} ${JSON.stringify(value)} is not an address with a prefix length`;
}

const defined = (p: string | undefined): p is string => p !== undefined;

/** The entries of a list that are objects, with their index (result-sane names the others). */
function objectsOf(list: unknown): [Record<string, unknown>, number][] {
  return Array.isArray(list)
    ? list.flatMap((v, i) => (isJSONObject(v) ? [[v, i] as [Record<string, unknown>, number]] : []))
    : [];
}

function routeDstProblems(where: string, routes: unknown): string[] {
  return objectsOf(routes)
    .map(([r, i]) => cidrProblem(`${where}[${i}].dst`, r.dst))
    .filter(defined);
}

/** add-result's part of the 0.1.0 / 0.2.0 shape: `ip4` and `ip6`. */
function legacyProblems(result: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const key of ["ip4", "ip6"]) {
    const ip = result[key];
    if (!isJSONObject(ip)) continue;
    problems.push(...[cidrProblem(`${key}.ip`, ip.ip)].filter(defined));
    problems.push(...routeDstProblems(`${key}.routes`, ip.routes));
  }
  return problems;
}

/** add-result's part of the 0.3.0-and-later shape: `interfaces`, `ips`, `routes`. */
function listProblems(result: Record<string, unknown>, version: string, netns: string): string[] {
  const problems: string[] = [];
  for (const [iface, i] of objectsOf(result.interfaces)) {
    if (typeof iface.name !== "string" || iface.name === "") {
      problems.push(`interfaces[${i}] has no name`);
      continue;
    }
    if (iface.sandbox !== undefined && iface.sandbox !== "" && iface.sandbox !== netns) {
      problems.push(
        `interfaces[${i}] (${iface.name}) has sandbox ${JSON.stringify(iface.sandbox)}, not the attachment's CNI_NETNS ${netns}`,
      );
    }
  }
  for (const [ip, i] of objectsOf(result.ips)) {
    problems.push(...[cidrProblem(`ips[${i}].address`, ip.address)].filter(defined));
    if (!greaterThanOrEqualTo(version, "1.0.0") && ip.version !== "4" && ip.version !== "6") {
      problems.push(
        `ips[${i}].version ${JSON.stringify(ip.version)} is not "4" or "6" (required before 1.0.0)`,
      );
    }
  }
  problems.push(...routeDstProblems("routes", result.routes));
  return problems;
}

/** add-result: the problems of an ADD's output for a config of `version`, in `netns`. */
export function resultProblems(
  stdout: string,
  json: unknown,
  version: string,
  netns: string,
): string[] {
  if (!isJSONObject(json))
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
    if (sanityFindings(json, version).length === 0)
      problems.push(`the ${version} result decoder refuses it: ${messageOf(error)}`);
  }
  const shape = greaterThanOrEqualTo(version, "0.3.0")
    ? listProblems(json, version, netns)
    : legacyProblems(json);
  return [...problems, ...shape];
}

/** A list of the result: a finding when it is no list, or for each entry that is no object. */
function listFindings(path: (string | number)[], list: unknown, what: string): string[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) return [`${pointerOf(path)}: ${shown(list)} is not a list`];
  return list.flatMap((v, i) =>
    v === null
      ? [`${pointerOf([...path, i])}: a null entry in ${what}`]
      : isJSONObject(v)
        ? []
        : [`${pointerOf([...path, i])}: ${shown(v)} is not an object`],
  );
}

function ipFinding(path: (string | number)[], value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && parseIP(value) !== undefined) return undefined;
  return `${pointerOf(path)}: ${what} ${shown(value)} is not an IP address`;
}

function routesFindings(path: (string | number)[], routes: unknown): string[] {
  return [
    ...listFindings(path, routes, "routes"),
    ...objectsOf(routes)
      .map(([r, i]) => ipFinding([...path, i, "gw"], r.gw, "the gateway"))
      .filter(defined),
  ];
}

/** `dns`: an object of `nameservers` (IP addresses), `domain`, `search` and `options`. */
function dnsFindings(dns: unknown): string[] {
  if (dns === undefined || dns === null) return [];
  if (!isJSONObject(dns)) return [`${pointerOf(["dns"])}: ${shown(dns)} is not an object`];
  const findings: string[] = [];
  if (dns.domain !== undefined && dns.domain !== null && typeof dns.domain !== "string")
    findings.push(`${pointerOf(["dns", "domain"])}: ${shown(dns.domain)} is not a string`);
  for (const key of ["nameservers", "search", "options"]) {
    const list = dns[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) {
      findings.push(`${pointerOf(["dns", key])}: ${shown(list)} is not a list of strings`);
      continue;
    }
    list.forEach((v, i) => {
      if (typeof v !== "string")
        findings.push(`${pointerOf(["dns", key, i])}: ${shown(v)} is not a string`);
      else if (key === "nameservers" && parseIP(v) === undefined)
        findings.push(`${pointerOf(["dns", key, i])}: nameserver ${shown(v)} is not an IP address`);
    });
  }
  return findings;
}

/** result-sane: what is wrong with an ADD result beyond its form, each with its JSON pointer. */
export function sanityFindings(json: unknown, version: string): string[] {
  if (!isJSONObject(json)) return [];
  if (!greaterThanOrEqualTo(version, "0.3.0")) {
    const findings: string[] = [];
    for (const key of ["ip4", "ip6"]) {
      const ip = json[key];
      if (ip === undefined || ip === null) continue;
      if (!isJSONObject(ip)) {
        findings.push(`${pointerOf([key])}: ${shown(ip)} is not an object`);
        continue;
      }
      findings.push(...[ipFinding([key, "gateway"], ip.gateway, "the gateway")].filter(defined));
      findings.push(...routesFindings([key, "routes"], ip.routes));
    }
    return [...findings, ...dnsFindings(json.dns)];
  }
  const findings = [
    ...listFindings(["interfaces"], json.interfaces, "interfaces"),
    ...listFindings(["ips"], json.ips, "ips"),
  ];
  const interfaces = Array.isArray(json.interfaces) ? json.interfaces : [];
  // Two interfaces of one name in one sandbox ("" or none: the host) cannot both exist.
  const seen = new Map<string, number>();
  for (const [iface, i] of objectsOf(interfaces)) {
    if (typeof iface.name !== "string" || iface.name === "") continue;
    const key = `${typeof iface.sandbox === "string" ? iface.sandbox : ""}\0${iface.name}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else
      findings.push(
        `${pointerOf(["interfaces", i, "name"])}: a second interface ${shown(iface.name)} in the same sandbox (as ${pointerOf(["interfaces", first])})`,
      );
  }
  for (const [ip, i] of objectsOf(json.ips)) {
    findings.push(...[ipFinding(["ips", i, "gateway"], ip.gateway, "the gateway")].filter(defined));
    const n = ip.interface;
    if (n === undefined) continue;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n >= interfaces.length) {
      findings.push(
        `${pointerOf(["ips", i, "interface"])}: ${shown(n)} is not an index of interfaces (${interfaces.length} ${interfaces.length === 1 ? "entry" : "entries"})`,
      );
    } else if (!isJSONObject(interfaces[n])) {
      findings.push(
        `${pointerOf(["ips", i, "interface"])}: ${n} is the index of ${pointerOf(["interfaces", n])}, which is no interface`,
      );
    }
  }
  return [...findings, ...routesFindings(["routes"], json.routes), ...dnsFindings(json.dns)];
}
