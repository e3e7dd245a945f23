#!/usr/bin/env node
/**
 * The CPU path of a small ADD, two builds side by side (the large-result path must not cost
 * small results): plugin output parsed (fixupResultVersion), the result created,
 * the next plugin's stdin built with it as prevResult, the cache record encoded. Interleaved
 * rounds in one process; the figure is the median per-round ratio.
 *
 *   npm run build && node bench/small-add-cpu.mjs "$PWD/dist" <other dist dir>
 */
const dists = process.argv.slice(2);
const mods = [];
for (const d of dists) {
  mods.push({
    d,
    fixup: (await import(`${d}/invoke/fixup.js`)).fixupResultVersion,
    findCreator: (await import(`${d}/types/convert.js`)).findCreator,
    enc: (await import(`${d}/api/cache-record.js`)).encodeCacheRecord,
    build: (await import(`${d}/api/build-config.js`)).buildOneConfig,
    conf: (await import(`${d}/conf/index.js`)).networkPluginConfFromBytes,
  });
}
const out = Buffer.from(
  '{"cniVersion":"1.0.0","interfaces":[{"name":"eth0","mac":"00:11:22:33:44:55","sandbox":"/var/run/netns/x"}],"ips":[{"interface":0,"address":"10.1.2.3/24","gateway":"10.1.2.1"},{"interface":0,"address":"2001:db8::3/64"}],"routes":[{"dst":"0.0.0.0/0","gw":"10.1.2.1"},{"dst":"::/0"}],"dns":{"nameservers":["10.1.2.1"]}}',
);
const netconf = Buffer.from(
  '{"cniVersion":"1.0.0","name":"n","type":"bridge","bridge":"cni0","ipam":{"type":"host-local","subnet":"10.1.2.0/24"}}',
);
function run(m, n) {
  const pc = m.conf(netconf);
  const s = performance.now();
  for (let i = 0; i < n; i++) {
    const f = m.fixup(netconf, out);
    const r = m.findCreator(f.version)(f.value);
    m.build("n", "1.0.0", pc, r, { containerID: "c", netNS: "/x", ifName: "eth0" });
    m.enc({
      containerId: "c",
      config: netconf,
      ifName: "eth0",
      networkName: "n",
      netns: "/x",
      result: r,
    });
  }
  return (performance.now() - s) / n;
}
for (const m of mods) run(m, 2000);
const ratios = [];
const per = mods.map(() => []);
for (let round = 0; round < 15; round++) {
  const t = mods.map((m) => run(m, 1000));
  for (const [i, x] of t.entries()) per[i].push(x);
  ratios.push(t[0] / t[1]);
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const [i, m] of mods.entries()) {
  console.log(m.d, (med(per[i]) * 1000).toFixed(1), "µs per small ADD (CPU path)");
}
console.log("ratio first/second (median of rounds):", med(ratios).toFixed(3));
