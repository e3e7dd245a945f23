// A runtime process for the crash trials: loads the networks and sets one pod up with the
// built library, then says "done". The test SIGKILLs it somewhere on the way.
// Usage: node setup-child.mjs '<{"load": LoadOptions & RuntimeOptions, "pod": Pod}>'
import { loadNetworks } from "../../../dist/runtime/index.js";

const { load, pod } = JSON.parse(process.argv[2] ?? "{}");
const runtime = await loadNetworks(load);
await runtime.setupPod(pod);
process.stdout.write("done\n");
