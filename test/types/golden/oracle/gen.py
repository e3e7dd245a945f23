import json,os,subprocess
def run(cases):
    return json.loads(subprocess.run([os.environ.get("ORACLE", "./oracle")],input=json.dumps(cases).encode(),capture_output=True,check=True).stdout)
dns={"nameservers":["1.2.3.4","1::cafe"],"domain":"acompany.com","search":["somedomain.com","otherdomain.net"],"options":["foo","bar"]}
r020=lambda v:{"cniVersion":v,"ip4":{"ip":"1.2.3.30/24","gateway":"1.2.3.1","routes":[{"dst":"15.5.6.0/24","gw":"15.5.6.8"}]},"ip6":{"ip":"abcd:1234:ffff::cdde/64","gateway":"abcd:1234:ffff::1","routes":[{"dst":"1111:dddd::/80","gw":"1111:dddd::aaaa"}]},"dns":dns}
r040=lambda v:{"cniVersion":v,"interfaces":[{"name":"eth0","mac":"00:11:22:33:44:55","sandbox":"/proc/3553/ns/net"}],"ips":[{"version":"4","interface":0,"address":"1.2.3.30/24","gateway":"1.2.3.1"},{"version":"6","interface":0,"address":"abcd:1234:ffff::cdde/64","gateway":"abcd:1234:ffff::1"}],"routes":[{"dst":"15.5.6.0/24","gw":"15.5.6.8"},{"dst":"1111:dddd::/80","gw":"1111:dddd::aaaa"}],"dns":dns}
r100=lambda v:{"cniVersion":v,"interfaces":[{"name":"eth0","mac":"00:11:22:33:44:55","mtu":1500,"sandbox":"/proc/3553/ns/net","pciID":"8086:9a01","socketPath":"/path/to/vhost/fd"}],"ips":[{"interface":0,"address":"1.2.3.30/24","gateway":"1.2.3.1"},{"interface":0,"address":"abcd:1234:ffff::cdde/64","gateway":"abcd:1234:ffff::1"}],"routes":[{"dst":"15.5.6.0/24","gw":"15.5.6.8"},{"dst":"1111:dddd::/80","gw":"1111:dddd::aaaa"}],"dns":dns}
V=["0.1.0","0.2.0","0.3.0","0.3.1","0.4.0","1.0.0","1.1.0"]
inputs=[]
for v in V[:2]: inputs.append(("upstream 0.2.0 test result as "+v, r020(v)))
for v in V[2:5]: inputs.append(("upstream 0.4.0 test result as "+v, r040(v)))
for v in V[5:]: inputs.append(("upstream 1.1.0 test result as "+v, r100(v)))
extra=[
 ("1.1.0 without IPs", {"cniVersion":"1.1.0","interfaces":[{"name":"eth0"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{"domain":"x"}}),
 ("0.4.0 without IPs", {"cniVersion":"0.4.0","interfaces":[{"name":"eth0"}]}),
 ("1.0.0 IPv6 only with an IPv4 route", {"cniVersion":"1.0.0","ips":[{"address":"2001:db8::5/64"}],"routes":[{"dst":"0.0.0.0/0","gw":"10.0.0.1"},{"dst":"::/0","gw":"2001:db8::1","mtu":1400,"advmss":1300,"priority":5,"table":0,"scope":0}]}),
 ("1.1.0 several IPs per family, mapped address", {"cniVersion":"1.1.0","interfaces":[{"name":"a"},{"name":"b","mtu":9000}],"ips":[{"address":"::ffff:10.1.2.3/120","interface":1},{"address":"10.0.0.2/8","gateway":"10.0.0.1"},{"address":"fe80::1/64"},{"address":"fe80::2/64","interface":0}],"routes":[{"dst":"10.0.0.0/8","table":100,"scope":253,"priority":7}]}),
 ("0.3.1 ips with odd versions", {"cniVersion":"0.3.1","ips":[{"version":"","address":"10.0.0.2/8"},{"version":"6","address":"10.0.0.3/8"},{"version":"4","address":"2001::1/64"}],"routes":[{"dst":"1.0.0.0/8"},{"dst":"2001::/16","gw":"2001::1"}]}),
 ("0.2.0 IPv4 only, no dns", {"cniVersion":"0.2.0","ip4":{"ip":"10.1.2.3/16","routes":[{"dst":"0.0.0.0/0","gw":"10.1.0.1","mtu":1000,"table":3}]}}),
 ("0.1.0 IPv6 only", {"cniVersion":"0.1.0","ip6":{"ip":"2001:DB8:0:0:1::1/64","gateway":"2001:db8::1:0:0:2"},"dns":{"nameservers":["8.8.8.8"]}}),
 ("1.1.0 zero values", {"cniVersion":"1.1.0","ips":[{"interface":0}],"routes":[{}],"interfaces":[{}]}),
 ("1.0.0 html and unicode", {"cniVersion":"1.0.0","interfaces":[{"name":"<eth>&\u2028","mac":"é"}],"ips":[{"address":"1.2.3.4/32"}],"dns":{"search":["a<b"]}}),
]
inputs+=extra
cases=[]; meta=[]
for name,inp in inputs:
    text=json.dumps(inp)
    cases.append({"op":"create","input":text}); meta.append((name,text,None))
    for t in V+["","9.9.9"]:
        cases.append({"op":"convert","to":t,"input":text}); meta.append((name,text,t))
outs=run(cases)
res=[]
for (name,text,to),o in zip(meta,outs):
    e={"name":name,"input":text}
    if to is not None: e["to"]=to
    for k in ("compact","indent","err","ver"):
        if k in o: e[k]=o[k]
    res.append(e)
json.dump(res,open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "conversions.json"),"w"),indent=1,ensure_ascii=False)
print(len(res))
