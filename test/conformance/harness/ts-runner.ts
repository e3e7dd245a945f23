/**
 * The TypeScript side: runs a case through the port's CNIConfig exactly as the Go driver
 * runs it through libcni, and reports the same observation format.
 */
import { CNIConfig, type RuntimeConf } from "../../../src/api/index.js";
import type { NetworkConfigList, PluginConfig } from "../../../src/conf/index.js";
import {
  confListFromConf,
  networkConfFromBytes,
  networkPluginConfFromBytes,
} from "../../../src/conf/index.js";
import { marshal } from "../../../src/encoding/json.js";
import { CNIError } from "../../../src/errors/index.js";
import type { Result } from "../../../src/types/index.js";
import {
  type CaseRuntimeConf,
  type ConformanceCase,
  type ErrorObservation,
  type Observation,
  type OpObservation,
  pickBytes,
} from "./case.js";
import { type Sandbox, snapshotDir } from "./sandbox.js";

const b64 = (b: Uint8Array): string => Buffer.from(b).toString("base64");

/** The error as the driver reports it: the code of a CNIError in the cause chain, and the message. */
export function errorObservation(e: unknown): ErrorObservation {
  let code: number | null = null;
  for (let cur: unknown = e, depth = 0; cur && depth < 20; depth++) {
    if (cur instanceof CNIError) {
      code = cur.code;
      break;
    }
    cur = (cur as { cause?: unknown }).cause;
  }
  return { code, msg: e instanceof Error ? e.message : String(e) };
}

function resultInto(o: OpObservation, r: Result | undefined): void {
  if (r === undefined) return;
  o.result = marshal(r);
  o.printed = r.print();
}

/** Runs a case through the port in its sandbox. */
export async function runTS(c: ConformanceCase, sb: Sandbox): Promise<Observation> {
  const out: Observation = { ops: [] };
  let list: NetworkConfigList | undefined;
  let conf: PluginConfig | undefined;

  const listBytes = pickBytes(c.confList, c.confListB64);
  if (listBytes) {
    try {
      list = networkConfFromBytes(listBytes);
      out.parseList = {
        list: {
          name: list.name,
          cniVersion: list.cniVersion,
          disableCheck: list.disableCheck,
          pluginsB64: list.plugins.map((p) => b64(p.bytes)),
        },
      };
    } catch (e) {
      out.parseList = { error: errorObservation(e) };
    }
  }
  const confBytes = pickBytes(c.conf, c.confB64);
  if (confBytes) {
    try {
      conf = networkPluginConfFromBytes(confBytes);
      out.parseConf = { confB64: b64(conf.bytes) };
    } catch (e) {
      out.parseConf = { error: errorObservation(e) };
    }
  }

  const cni = c.cacheViaRuntimeConf
    ? new CNIConfig({ path: sb.pluginPaths })
    : new CNIConfig({ path: sb.pluginPaths, cacheDir: sb.cache });
  const rtIn: CaseRuntimeConf = c.runtimeConf;
  const rt: RuntimeConf = {
    containerID: rtIn.containerID,
    netNS: rtIn.netNS,
    ifName: rtIn.ifName,
    args: rtIn.args ?? undefined,
    capabilityArgs: rtIn.capabilityArgs ?? undefined,
    cacheDir: c.cacheViaRuntimeConf ? sb.cache : undefined,
  };

  for (const op of c.ops) {
    const o: OpObservation = { op, dirs: {} };
    const free = op.startsWith("versionInfo:") || op.startsWith("getCachedAttachments");
    const needList = !op.endsWith("Net") && op !== "confListFromConf" && !free;
    if ((needList && !list) || (!needList && !free && !conf)) {
      o.error = { code: null, msg: `driver: no parsed config for ${op}` };
    } else {
      try {
        await runOp(cni, op, list!, conf!, rt, o);
      } catch (e) {
        o.error = errorObservation(e);
      }
    }
    o.dirs = { [sb.cache]: await snapshotDir(sb.cache), [sb.log]: await snapshotDir(sb.log) };
    out.ops.push(o);
  }
  return out;
}

async function runOp(
  cni: CNIConfig,
  op: string,
  list: NetworkConfigList,
  conf: PluginConfig,
  rt: RuntimeConf,
  o: OpObservation,
): Promise<void> {
  const signal = AbortSignal.timeout(20_000);
  switch (op) {
    case "add":
      resultInto(o, await cni.addNetworkList(list, rt, { signal }));
      return;
    case "check":
      await cni.checkNetworkList(list, rt, { signal });
      return;
    case "del":
      await cni.delNetworkList(list, rt, { signal });
      return;
    case "getCachedResult":
      resultInto(o, await cni.getNetworkListCachedResult(list, rt));
      return;
    case "getCachedConfig":
      cachedInto(o, await cni.getNetworkListCachedConfig(list, rt));
      return;
    case "validate":
      o.caps = [...(await cni.validateNetworkList(list, { signal }))].sort();
      return;
    case "addNet":
      resultInto(o, await cni.addNetwork(conf, rt, { signal }));
      return;
    case "checkNet":
      await cni.checkNetwork(conf, rt, { signal });
      return;
    case "delNet":
      await cni.delNetwork(conf, rt, { signal });
      return;
    case "getNetCachedResult":
      resultInto(o, await cni.getNetworkCachedResult(conf, rt));
      return;
    case "getNetCachedConfig":
      cachedInto(o, await cni.getNetworkCachedConfig(conf, rt));
      return;
    case "validateNet":
      o.caps = [...(await cni.validateNetwork(conf, { signal }))].sort();
      return;
    case "getCachedAttachments":
    case "getCachedAttachments:all": {
      const atts = await cni.getCachedAttachments(
        op === "getCachedAttachments" ? rt.containerID : "",
      );
      o.attachments = atts.map((a) => ({
        containerID: a.containerID,
        network: a.network,
        ifName: a.ifName,
        configB64: a.config ? b64(a.config) : null,
        netNS: a.netNS,
        cniArgs: a.cniArgs ?? null,
        capabilityArgs: a.capabilityArgs ?? null,
      }));
      return;
    }
    case "confListFromConf":
      o.bytesB64 = b64(confListFromConf(conf).bytes);
      return;
    default:
      if (op.startsWith("versionInfo:")) {
        const info = await cni.getVersionInfo(op.slice("versionInfo:".length), { signal });
        o.versions = [...info.supportedVersions()];
        return;
      }
      throw new Error(`driver: unknown op ${op}`);
  }
}

function cachedInto(
  o: OpObservation,
  cached: Awaited<ReturnType<CNIConfig["getNetworkListCachedConfig"]>>,
): void {
  if (!cached) {
    o.cachedConfig = { bytesB64: null, rt: null };
    return;
  }
  o.cachedConfig = {
    bytesB64: cached.config ? b64(cached.config) : null,
    rt: {
      containerID: cached.rt.containerID,
      netNS: cached.rt.netNS,
      ifName: cached.rt.ifName,
      args: cached.rt.args ?? null,
      capabilityArgs: cached.rt.capabilityArgs ?? null,
    },
  };
}
