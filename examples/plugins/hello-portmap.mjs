#!/usr/bin/env node
/**
 * hello-portmap: an example chained CNI plugin written with libcni's skel. It takes the
 * `portMappings` capability (the runtime passes it as `runtimeConfig.portMappings` when the
 * configuration declares `"capabilities": {"portMappings": true}`), "publishes" the mappings by
 * recording them with the container's address in `<dataDir>/<network>/<container>-<ifname>.json`,
 * and passes the previous plugin's result on unchanged, as a chained plugin must.
 *
 * Config: `{"type": "hello-portmap", "capabilities": {"portMappings": true}, "dataDir": "..."}`,
 * checked, with the mappings the runtime passes, against the JSON Schema below (with ajv, in
 * ./lib/conf.mjs) before anything is done.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { outputJson, pathExists, readJson, remove } from "fs-extra/esm";
import { pluginMain, printResult } from "libcni/skel";
import { CNIError, ErrInvalidNetworkConfig, ErrUnknownContainer } from "libcni/types";
import { parsePrevResult, pluginSupports } from "libcni/version";
import { configLoader, dataDirMessage, dataDirSchema, isValidAttachment } from "./lib/conf.mjs";

const port = { type: "integer", minimum: 1, maximum: 65535 };

/** hello-portmap's own keys, and the shape of the portMappings capability it takes. */
const loadConf = configLoader(
  {
    type: "object",
    required: ["dataDir"],
    properties: {
      dataDir: dataDirSchema,
      runtimeConfig: {
        type: "object",
        properties: {
          portMappings: {
            type: "array",
            items: {
              type: "object",
              required: ["hostPort", "containerPort"],
              properties: {
                hostPort: port,
                containerPort: port,
                protocol: { type: "string" },
                hostIP: { type: "string" },
              },
            },
          },
        },
      },
    },
  },
  {
    dataDir: dataDirMessage,
    runtimeConfig: () =>
      "invalid portMappings: each needs a hostPort and a containerPort (1-65535)",
  },
);

/** Where the network's records live. */
const recordDir = (raw, conf) => join(raw.dataDir, conf.name);

/** The record of one attachment. */
const recordFile = (raw, conf, args) =>
  join(recordDir(raw, conf), `${args.containerID}-${args.ifName}.json`);

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
  await outputJson(recordFile(raw, conf, args), record);
  await printResult(prev, conf.cniVersion, ctx.stdout);
}

async function check(args) {
  const { conf, raw } = loadConf(args.stdinData);
  if (!(await pathExists(recordFile(raw, conf, args)))) {
    throw new CNIError(ErrUnknownContainer, `no port mappings recorded for ${args.containerID}`);
  }
}

async function del(args) {
  const { conf, raw } = loadConf(args.stdinData);
  await remove(recordFile(raw, conf, args));
}

async function gc(args) {
  const { conf, raw } = loadConf(args.stdinData);
  const dir = recordDir(raw, conf);
  if (!(await pathExists(dir))) return; // nothing recorded, nothing to collect
  for (const name of await readdir(dir)) {
    const record = await readJson(join(dir, name));
    if (!isValidAttachment(conf, record.containerID, record.ifName)) {
      await remove(join(dir, name));
    }
  }
}

await pluginMain(
  { add, check, del, gc },
  pluginSupports("0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"),
  "CNI hello-portmap plugin (libcni example)",
);
