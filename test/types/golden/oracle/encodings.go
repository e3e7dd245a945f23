package main

import (
	"encoding/json"
	"fmt"
	"net"

	"github.com/containernetworking/cni/pkg/types"
	types020 "github.com/containernetworking/cni/pkg/types/020"
	types040 "github.com/containernetworking/cni/pkg/types/040"
	current "github.com/containernetworking/cni/pkg/types/100"
)

func cidr(s string) net.IPNet { n, _ := types.ParseCIDR(s); return *n }
func netc(s string) (net.IP, net.IPNet) { ip, n, _ := net.ParseCIDR(s); return ip, *n }

func main() {
	dns := types.DNS{Nameservers: []string{"1.2.3.4", "1::cafe"}, Domain: "acompany.com", Search: []string{"somedomain.com", "otherdomain.net"}, Options: []string{"foo", "bar"}}
	gw4, r4 := netc("15.5.6.8/24")
	gw6, r6 := netc("1111:dddd::aaaa/80")
	r100 := &current.Result{CNIVersion: "1.1.0",
		Interfaces: []*current.Interface{{Name: "eth0", Mac: "00:11:22:33:44:55", Mtu: 1500, Sandbox: "/proc/3553/ns/net", PciID: "8086:9a01", SocketPath: "/path/to/vhost/fd"}},
		IPs: []*current.IPConfig{{Interface: current.Int(0), Address: cidr("1.2.3.30/24"), Gateway: net.ParseIP("1.2.3.1")}, {Interface: current.Int(0), Address: cidr("abcd:1234:ffff::cdde/64"), Gateway: net.ParseIP("abcd:1234:ffff::1")}},
		Routes: []*types.Route{{Dst: r4, GW: gw4}, {Dst: r6, GW: gw6}}, DNS: dns}
	r040 := &types040.Result{CNIVersion: "0.3.1",
		Interfaces: []*types040.Interface{{Name: "eth0", Mac: "00:11:22:33:44:55", Sandbox: "/proc/3553/ns/net"}},
		IPs: []*types040.IPConfig{{Version: "4", Interface: types040.Int(0), Address: cidr("1.2.3.30/24"), Gateway: net.ParseIP("1.2.3.1")}, {Version: "6", Interface: types040.Int(0), Address: cidr("abcd:1234:ffff::cdde/64"), Gateway: net.ParseIP("abcd:1234:ffff::1")}},
		Routes: []*types.Route{{Dst: r4, GW: gw4}, {Dst: r6, GW: gw6}}, DNS: dns}
	r020 := &types020.Result{CNIVersion: "0.2.0",
		IP4: &types020.IPConfig{IP: cidr("1.2.3.30/24"), Gateway: net.ParseIP("1.2.3.1"), Routes: []types.Route{{Dst: r4, GW: gw4}}},
		IP6: &types020.IPConfig{IP: cidr("abcd:1234:ffff::cdde/64"), Gateway: net.ParseIP("abcd:1234:ffff::1"), Routes: []types.Route{{Dst: r6, GW: gw6}}}, DNS: dns}
	out := map[string]string{}
	put := func(k string, v interface{}) { b, err := json.MarshalIndent(v, "", "    "); if err != nil { panic(err) }; out[k] = string(b) }
	put("100", r100)
	put("040", r040)
	put("020", r020)
	put("100-empty", &current.Result{CNIVersion: "1.0.0"})
	put("040-empty", &types040.Result{CNIVersion: "0.4.0"})
	put("020-empty", &types020.Result{CNIVersion: "0.1.0"})
	put("100-ipconfig", r100.IPs[0])
	put("100-interface", r100.Interfaces[0])
	put("040-ipconfig", r040.IPs[0])
	put("020-ipconfig", r020.IP4)
	t, s := 50, 253
	rt := types.Route{Dst: r4, GW: gw4, MTU: 1500, AdvMSS: 1340, Priority: 100, Table: &t, Scope: &s}
	put("route", rt)
	out["route-string"] = rt.String()
	e := types.NewError(7, "bad <config>", "details & more")
	put("error", e)
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
}
