import json,os,subprocess,random
random.seed(42)
def run(cases):
    return json.loads(subprocess.run([os.environ.get("ORACLE", "./oracle")],input=json.dumps(cases).encode(),capture_output=True,check=True).stdout)
def v4(): return ".".join(str(random.randrange(256)) for _ in range(4))
def v6():
    g=[random.choice([0,0,1,0xffff,random.randrange(65536)]) for _ in range(8)]
    return ":".join("%x"%x for x in g)
def addr(): 
    r=random.random()
    if r<0.45: return v4()
    if r<0.9: return v6()
    return "::ffff:"+v4()
def cidr():
    a=addr(); return "%s/%d"%(a, random.randrange(33 if "." in a and ":" not in a else 129))
def maybe(p,f): return f() if random.random()<p else None
def route():
    r={}
    if random.random()<0.9: r["dst"]=cidr()
    for k,f in [("gw",addr),("mtu",lambda:random.randrange(0,9000)),("advmss",lambda:random.randrange(0,3)),("priority",lambda:random.randrange(0,3)),("table",lambda:random.randrange(0,3)),("scope",lambda:random.randrange(0,3))]:
        if random.random()<0.4: r[k]=f()
    return r
def dns():
    d={}
    for k in ["nameservers","search","options"]:
        if random.random()<0.3: d[k]=[random.choice(["a","b<c","x&y","1.2.3.4"]) for _ in range(random.randrange(0,3))]
    if random.random()<0.3: d["domain"]=random.choice(["","d.com","é"])
    return d
def strip(d): return {k:v for k,v in d.items() if v is not None}
def r020(v):
    ipc=lambda: strip({"ip":cidr(),"gateway":maybe(0.5,addr),"routes":maybe(0.6,lambda:[route() for _ in range(random.randrange(0,3))])})
    return strip({"cniVersion":v,"ip4":maybe(0.7,ipc),"ip6":maybe(0.6,ipc),"dns":maybe(0.6,dns)})
def r040(v):
    return strip({"cniVersion":v,"interfaces":[strip({"name":random.choice(["","eth0"]),"mac":maybe(0.5,lambda:"aa:bb"),"sandbox":maybe(0.5,lambda:"/ns")}) for _ in range(random.randrange(0,3))],
      "ips":[strip({"version":random.choice(["4","6","","4","6"]),"interface":maybe(0.5,lambda:random.randrange(0,3)),"address":maybe(0.95,cidr),"gateway":maybe(0.5,addr)}) for _ in range(random.randrange(0,4))],
      "routes":[route() for _ in range(random.randrange(0,4))],"dns":maybe(0.6,dns)})
def r100(v):
    return strip({"cniVersion":v,"interfaces":[strip({"name":random.choice(["","eth0"]),"mac":maybe(0.5,lambda:"aa:bb"),"mtu":maybe(0.5,lambda:random.randrange(0,3)),"sandbox":maybe(0.5,lambda:"/ns"),"socketPath":maybe(0.3,lambda:"/s"),"pciID":maybe(0.3,lambda:"0000:01")}) for _ in range(random.randrange(0,3))],
      "ips":[strip({"interface":maybe(0.5,lambda:random.randrange(0,3)),"address":maybe(0.95,cidr),"gateway":maybe(0.5,addr)}) for _ in range(random.randrange(0,4))],
      "routes":[route() for _ in range(random.randrange(0,4))],"dns":maybe(0.6,dns)})
V=["0.1.0","0.2.0","0.3.0","0.3.1","0.4.0","1.0.0","1.1.0"]
cases=[];meta=[]
for i in range(60):
    v=random.choice(V)
    inp=(r020 if v<"0.3" else r040 if v<"1" else r100)(v)
    text=json.dumps(inp)
    for t in V:
        cases.append({"op":"convert","to":t,"input":text}); meta.append(("random %d"%i,text,t))
outs=run(cases)
res=[]
for (name,text,to),o in zip(meta,outs):
    e={"name":name,"input":text,"to":to}
    for k in ("compact","indent","err","ver"):
        if k in o: e[k]=o[k]
    res.append(e)
json.dump(res,open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "random-conversions.json"),"w"),indent=1,ensure_ascii=False)
print(len(res), sum(1 for r in res if "err" in r))
import collections; print(collections.Counter(r.get("err","")[:40] for r in res))
