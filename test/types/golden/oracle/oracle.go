package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"

	"github.com/containernetworking/cni/pkg/types"
	"github.com/containernetworking/cni/pkg/types/create"
)

type Case struct {
	Op      string `json:"op"`
	Version string `json:"version"`
	To      string `json:"to"`
	Input   string `json:"input"`
	Bytes   []byte `json:"bytes"`
}

type Out struct {
	Compact string `json:"compact,omitempty"`
	Indent  string `json:"indent,omitempty"`
	Ver     string `json:"ver,omitempty"`
	Err     string `json:"err,omitempty"`
}

func in(c Case) []byte {
	if c.Bytes != nil {
		return c.Bytes
	}
	return []byte(c.Input)
}

func res(r types.Result, err error) Out {
	if err != nil {
		return Out{Err: err.Error()}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return Out{Err: "MARSHAL: " + err.Error()}
	}
	ib, _ := json.MarshalIndent(r, "", "    ")
	return Out{Compact: string(b), Indent: string(ib), Ver: r.Version()}
}

func main() {
	var cases []Case
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	outs := []Out{}
	for _, c := range cases {
		var o Out
		switch c.Op {
		case "create":
			o = res(create.CreateFromBytes(in(c)))
		case "createv":
			o = res(create.Create(c.Version, in(c)))
		case "decodeVersion":
			v, err := create.DecodeVersion(in(c))
			if err != nil {
				o = Out{Err: err.Error()}
			} else {
				o = Out{Ver: v}
			}
		case "convert":
			r, err := create.CreateFromBytes(in(c))
			if err != nil {
				o = Out{Err: "CREATE: " + err.Error()}
			} else {
				o = res(r.GetAsVersion(c.To))
			}
		case "cidr":
			n, err := types.ParseCIDR(c.Input)
			if err != nil {
				o = Out{Err: err.Error()}
			} else {
				b, _ := json.Marshal(types.IPNet(*n))
				o = Out{Compact: string(b), Ver: n.IP.String()}
			}
		case "ip":
			ip := net.ParseIP(c.Input)
			if ip == nil {
				o = Out{Err: "nil"}
			} else {
				o = Out{Compact: ip.String()}
			}
		case "route":
			var r types.Route
			err := json.Unmarshal(in(c), &r)
			if err != nil {
				o = Out{Err: err.Error()}
			} else {
				b, _ := json.Marshal(r)
				o = Out{Compact: string(b), Ver: r.String()}
			}
		case "args":
			o = argsCase(c)
		default:
			o = Out{Err: fmt.Sprintf("bad op %s", c.Op)}
		}
		outs = append(outs, o)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	enc.Encode(outs)
}

type argsT struct {
	types.CommonArgs
	IP       net.IP
	Name     types.UnmarshallableString
	Flag     types.UnmarshallableBool
	PStr     *types.UnmarshallableString
	Plain    string
}

func argsCase(c Case) Out {
	var a argsT
	err := types.LoadArgs(c.Input, &a)
	if err != nil {
		return Out{Err: err.Error()}
	}
	b, _ := json.Marshal(a)
	return Out{Compact: string(b)}
}
