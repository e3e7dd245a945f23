#!/usr/bin/env node
/**
 * A tiny container runtime's network side, with libcni/runtime: load the networks of a conf
 * dir, watch it, set a pod up on two networks (with a port mapping), CHECK it, ask STATUS,
 * collect a leaked pod, tear the pod down from the cache after its network was edited.
 *
 *   npm run build && node examples/runtime/runtime.mjs
 *
 * It runs the example plugins (examples/plugins/, written with libcni/skel) that touch no
 * kernel state, so any machine will do, no root. Everything lives in a temporary directory
 * that is removed at the end.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadNetworks } from "libcni/runtime";

const plugins = fileURLToPath(new URL("../plugins/", import.meta.url));
const root = await mkdtemp(join(tmpdir(), "libcni-runtime-example-"));
const confDir = join(root, "net.d");
const binDir = join(root, "bin");
const state = join(root, "state");
const say = (...lines) => console.log(lines.join("\n"));

const network = (name, subnet, extra = []) => ({
  cniVersion: "1.1.0",
  name,
  plugins: [{ type: "hello-net", subnet, dataDir: state }, ...extra],
});
const writeNetwork = (file, list) => writeFile(join(confDir, file), JSON.stringify(list, null, 2));

try {
  await mkdir(confDir);
  await mkdir(binDir);
  for (const p of ["hello-net", "hello-portmap"])
    await symlink(join(plugins, `${p}.mjs`), join(binDir, p));
  await writeNetwork(
    "10-pods.conflist",
    network("pods", "10.30.0.0/24", [
      {
        type: "hello-portmap",
        capabilities: { portMappings: true },
        dataDir: join(state, "ports"),
      },
    ]),
  );
  await writeNetwork("20-storage.conflist", network("storage", "10.31.0.0/24"));
  await writeFile(join(confDir, "30-broken.conflist"), "{ this is not json");

  // hello-portmap reads the conventions' lowercase keys; Go plugins take go-cni's either way.
  const runtime = await loadNetworks({
    confDir,
    binDirs: [binDir],
    cacheDir: join(root, "cache"),
    capabilityStyle: "ocicni",
    timeout: 10_000,
    // The example plugins never enter the pods' namespaces, which this example does not make.
    checkNetns: false,
  });
  say(
    `networks: ${runtime.networks.map((n) => n.name).join(", ")} (default ${runtime.defaultNetwork?.name})`,
  );
  for (const p of runtime.problems) say(`skipped ${p.file.slice(root.length + 1)}: ${p.kind}`);

  const watcher = runtime.watch({ debounce: 50 });
  watcher.on("change", (c) =>
    say(`conf dir changed: added [${c.added}] removed [${c.removed}] changed [${c.changed}]`),
  );

  const pod = {
    id: "web-1",
    netns: "/var/run/netns/web-1", // the example plugins never enter it
    capabilities: { portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }] },
  };
  const result = await runtime.setupPod(pod);
  for (const i of result.interfaces)
    say(`${pod.id} ${i.network} ${i.name} ${i.ips.map((ip) => ip.address).join(" ")}`);
  say(`dns: ${JSON.stringify(result.dns)}`);

  await runtime.checkPod(pod.id);
  say("check: ok");
  const status = await runtime.status();
  say(
    `status: ready=${status.ready} (${status.networks.map((n) => `${n.network}:${n.ready}`).join(" ")})`,
  );

  await runtime.setupPod({
    id: "leaked-1",
    netns: "/var/run/netns/leaked-1",
    networks: ["storage"],
  });
  const gc = await runtime.gc([pod.id]);
  say(`gc removed: ${gc.removed.map((r) => `${r.podID}/${r.network}/${r.ifName}`).join(" ")}`);

  // Edit the pods network: teardown still uses the configuration the pod was set up with.
  const changed = new Promise((resolve) => watcher.once("change", resolve));
  await writeNetwork("10-pods.conflist", network("pods", "10.40.0.0/24"));
  await changed;
  const removed = await runtime.teardownPod(pod.id);
  say(`teardown: ${removed.map((r) => `${r.network}/${r.ifName}`).join(" ")}`);
  say(`teardown again: ${(await runtime.teardownPod(pod.id)).length} left`);
  await watcher.close();
  say("done; temporary files removed");
} finally {
  await rm(root, { recursive: true, force: true });
}
