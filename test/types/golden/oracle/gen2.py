import json,os,subprocess
def run(cases):
    return json.loads(subprocess.run([os.environ.get("ORACLE", "./oracle")],input=json.dumps(cases).encode(),capture_output=True,check=True).stdout)
C=lambda v,s: {"op":"createv","version":v,"input":s}
cases=[
C("0.2.0",'[]'), C("0.2.0",'null'), C("0.4.0",'null'), C("0.2.0",'"x"'), C("1.0.0",'5'), C("1.1.0",'true'),
C("0.2.0",'{"cniVersion":5}'), C("0.2.0",'{"ip4":5}'), C("0.2.0",'{"ip4":[]}'), C("0.2.0",'{"ip4":{"routes":5}}'), C("0.2.0",'{"ip4":{"routes":[5]}}'),
C("0.2.0",'{"ip4":{"routes":[{"dst":5}]}}'),C("0.2.0",'{"ip4":{"routes":[{"gw":5}]}}'),C("0.2.0",'{"ip4":{"ip":"1.2.3.4/24","routes":[{"table":"x"}]}}'),
C("0.2.0",'{"ip4":{"ip":"1.2.3.4/24","routes":[null]}}'),C("0.2.0",'{"ip4":{}}'),C("0.2.0",'{"ip4":{"ip":null}}'),C("0.2.0",'{"ip4":{"ip":"1.2.3.4"}}'),
C("0.2.0",'{"ip4":{"ip":"1.2.3.4/24","gateway":"x"}}'),C("0.2.0",'{"ip4":{"ip":"1.2.3.4/24","gateway":""}}'),C("0.2.0",'{"ip4":{"ip":"1.2.3.4/24","gateway":null}}'),
C("0.2.0",'{"dns":5}'),C("0.2.0",'{"dns":{"nameservers":"x"}}'),C("0.2.0",'{"dns":{"nameservers":[5]}}'),C("0.2.0",'{"dns":{"domain":[]}}'),C("0.2.0",'{"dns":null}'),
C("0.4.0",'{"cniVersion":"0.4.0","interfaces":5}'),C("0.4.0",'{"cniVersion":"0.4.0","interfaces":[5]}'),C("0.4.0",'{"cniVersion":"0.4.0","interfaces":[{"name":5}]}'),
C("0.4.0",'{"cniVersion":"0.4.0","ips":5}'),C("0.4.0",'{"cniVersion":"0.4.0","ips":[5]}'),C("0.4.0",'{"cniVersion":"0.4.0","ips":[{"version":4}]}'),C("0.4.0",'{"cniVersion":"0.4.0","ips":[{"interface":"0"}]}'),
C("0.4.0",'{"cniVersion":"0.4.0","ips":[{"interface":1.5}]}'),C("0.4.0",'{"cniVersion":"0.4.0","ips":[{"address":5}]}'),C("0.4.0",'{"cniVersion":"0.4.0","ips":[{"address":"x"}]}'),
C("0.4.0",'{"cniVersion":"0.4.0","routes":5}'),C("0.4.0",'{"cniVersion":"0.4.0","routes":[{"dst":"1.2.3.0/24","mtu":"x"}]}'),C("0.4.0",'{"cniVersion":"0.4.0","routes":[{"dst":"1.2.3.0/24","gw":"1.2.3.x"}]}'),
C("0.4.0",'{"cniVersion":"0.4.1"}'),C("0.4.0",'{}'),C("0.4.0",'{"cniVersion":"1.0.0"}'),
C("1.0.0",'{"cniVersion":"1.0.0","interfaces":[{"name":"a","mtu":"x"}]}'),C("1.0.0",'{"cniVersion":"1.0.0","interfaces":[{"name":"a","mtu":-5}]}'),
C("1.0.0",'{"cniVersion":"1.0.0","interfaces":[{"name":"a","pciID":true}]}'),C("1.0.0",'{"cniVersion":"1.0.0","interfaces":{}}'),
C("1.0.0",'{"cniVersion":"1.0.0","routes":[{"dst":"1.2.3.0/24","gw":""}]}'),C("1.0.0",'{"cniVersion":"1.0.0","routes":[{"dst":"1.2.3.0/24","gw":null,"table":null,"scope":0}]}'),
C("1.0.0",'{"cniVersion":"1.0.0","routes":[{"dst":"1.2.3.0/24","table":"1"}]}'),
C("0.2.0",'{"ip4":null,"ip6":{"ip":"::1/128"}}'),C("1.0.0",'{"CNIVERSION":"1.0.0","IPS":[{"ADDRESS":"10.0.0.1/8","Interface":2}]}'),
C("1.0.0",'{"cniVersion":"1.0.0","cniversion":"1.1.0"}'),C("1.1.0",'{"cniVersion":"1.1.0","unknown":{"deep":[1,2,3]},"Dns":{"Domain":"x"}}'),
C("1.0.0",'{"cniVersion":"1.0.0","dns":{"domain":"x"},"routes":[]}'),C("1.0.0",'{"cniVersion":"1.0.0","dns":{},"routes":[],"ips":[],"interfaces":[]}'),
C("0.4.0",'{"cniVersion":"0.4.0","dns":{},"routes":[],"ips":[],"interfaces":[]}'),
C("1.0.0",'{"cniVersion":"1.0.0","ips":[{"address":"10.0.0.1/8","gateway":"10.0.0.256"}]}'),
C("1.0.0",'{"cniVersion":"1.0.0",'), C("1.0.0",'{"cniVersion":"1.0.0"} x'), C("1.0.0",''), C("1.0.0",'{"a" 1}'),
C("1.0.0",'{"cniVersion":"1.0.0","ips":[{"address":"1.2.3.4/24","interface":-1}]}'),
C("2.0.0",'{"cniVersion":"2.0.0"}'), C("1.1.0",'{"cniVersion":"1.1.0","ips":[{"address":"1.2.3.4/8","interface":-0}],"routes":[{"dst":"1.0.0.0/8","table":-0,"scope":-0}]}'), C("0.4.0",'{"cniVersion":"0.4.0","ips":[{"version":"4","address":"1.2.3.4/8","interface":-0}],"routes":[{"dst":"1.0.0.0/8","table":-0}]}'), C("",'{}'), C("",'{"cniVersion":"0.2.0"}'), C("", '{"cniVersion":"0.1.0","ip4":{"ip":"1.2.3.4/8"}}'),
{"op":"create","input":''},{"op":"create","input":'{"cniVersion":5}'},{"op":"create","input":'[]'},{"op":"create","input":'"1.0.0"'},{"op":"create","input":'{"cniVersion":"9.9.9"}'},{"op":"create","input":'{}'},{"op":"create","input":'null'},
{"op":"create","input":'{"cniVersion":""}'},{"op":"create","input":'{"cniVersion":null,"ip4":{"ip":"1.2.3.4/8"}}'},
{"op":"decodeVersion","input":'x'},{"op":"decodeVersion","input":'{"cniVersion":null}'},{"op":"decodeVersion","input":'{"CniVersion":"0.4.0"}'},
{"op":"decodeVersion","input":'{"cniVersion":"1.0.0","plugins":[]}'},{"op":"decodeVersion","input":'{"cniVersion":["1"]}'},{"op":"decodeVersion","input":'{'},
]
outs=run(cases)
res=[]
for c,o in zip(cases,outs):
    e=dict(c); e.update(o); res.append(e)
json.dump(res,open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "decode.json"),"w"),indent=1,ensure_ascii=False)
print(len(res))
