#!/usr/bin/env node
/**
 * hello-portmap: an example chained CNI plugin written with libcni's skel. It takes the
 * `portMappings` capability (the runtime passes it as `runtimeConfig.portMappings` when the
 * configuration declares `"capabilities": {"portMappings": true}`), "publishes" the mappings by
 * recording them with the container's address in `<dataDir>/<network>/<container>-<ifname>.json`,
 * and passes the previous plugin's result on unchanged, as a chained plugin must.
 *
 * Config: `{"type": "hello-portmap", "capabilities": {"portMappings": true}, "dataDir": "..."}`.
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pluginMain, printResult } from "libcni/skel";
import { CNIError, ErrInvalidNetworkConfig, ErrUnknownContainer } from "libcni/types";
import { parsePrevResult, pluginSupports } from "libcni/version";
import { dataDir, isValidAttachment, loadConf } from "./lib/conf.mjs";

async function recordDir(raw, conf) {
  const dir = join(dataDir(raw), conf.name);
  await mkdir(dir, { recursive: true });
  return dir;
}

const recordName = (args) => `${args.containerID}-${args.ifName}.json`;

async function add(args, ctx) {
  const { conf, raw } = loadConf(args.stdinData);
  const prev = parsePrevResult(conf);
  if (!prev) {
    throw new CNIError(
      ErrInvalidNetworkConfig,
      "hello-portmap must be chained after a plugin that returns an address",
    );
  }
  const mappings = raw.runtimeConfig?.portMappings ?? [];
  const address = JSON.parse(prev.getAsVersion("1.1.0").print()).ips?.[0]?.address ?? "";
  const record = { containerID: args.containerID, ifName: args.ifName, address, mappings };
  await writeFile(
    join(await recordDir(raw, conf), recordName(args)),
    `${JSON.stringify(record)}\n`,
  );
  await printResult(prev, conf.cniVersion, ctx.stdout);
}

async function check(args) {
  const { conf, raw } = loadConf(args.stdinData);
  try {
    await readFile(join(await recordDir(raw, conf), recordName(args)));
  } catch {
    throw new CNIError(ErrUnknownContainer, `no port mappings recorded for ${args.containerID}`);
  }
}

async function del(args) {
  const { conf, raw } = loadConf(args.stdinData);
  await rm(join(await recordDir(raw, conf), recordName(args)), { force: true });
}

async function gc(args) {
  const { conf, raw } = loadConf(args.stdinData);
  const dir = await recordDir(raw, conf);
  for (const name of await readdir(dir)) {
    const record = JSON.parse(await readFile(join(dir, name), "utf8"));
    if (!isValidAttachment(conf, record.containerID, record.ifName)) {
      await rm(join(dir, name), { force: true });
    }
  }
}

await pluginMain(
  { add, check, del, gc },
  pluginSupports("0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"),
  "CNI hello-portmap plugin (libcni example)",
);
