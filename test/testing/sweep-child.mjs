// A test process for the sweep's system tests, on the built library.
// `node sweep-child.mjs make <plugin>`: makes what the sweep is about (a tempNetns, a testHost
// with a pod, and a conformance check of <plugin>, which hangs), prints their paths as a JSON
// line, and waits: the test SIGKILLs it, or writes "exit" on its stdin to have it clean up.
// `node sweep-child.mjs first <tempNetns|testHost|checkPlugin>`: makes one of them (its first
// of the process, so it sweeps), removes it and exits.
import { createInterface } from "node:readline";
import { checkPlugin, tempNetns, testHost } from "../../dist/testing/index.js";

const [mode, arg] = process.argv.slice(2);

if (mode === "make") {
  const ns = await tempNetns({ label: "kill" });
  const host = await testHost({ pluginDirs: [], ipForward: false });
  const pod = await host.pod();
  const controller = new AbortController();
  const check = checkPlugin(arg, { callTimeoutMs: 600_000, signal: controller.signal }).catch(
    () => undefined,
  );
  process.stdout.write(
    `${JSON.stringify({ netns: [ns.path, host.netns.path, pod.path], root: host.root })}\n`,
  );
  for await (const line of createInterface({ input: process.stdin })) {
    if (line !== "exit") continue;
    controller.abort();
    await check;
    await host.remove();
    await ns.remove();
    process.exit(0);
  }
} else if (mode === "first") {
  if (arg === "tempNetns") {
    const ns = await tempNetns();
    await ns.remove();
  } else if (arg === "testHost") {
    const host = await testHost({ pluginDirs: [], ipForward: false });
    await host.remove();
  } else if (arg === "checkPlugin") {
    // `true` claims no version: the check stops after its session (and the sweep) began.
    await checkPlugin("/bin/true").catch(() => undefined);
  } else {
    throw new Error(`unknown helper ${arg}`);
  }
  process.stdout.write("done\n");
} else {
  throw new Error(`usage: sweep-child.mjs make <plugin> | first <helper>`);
}
