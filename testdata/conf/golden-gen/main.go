package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	b, _ := os.ReadFile(os.Args[1])
	raw := map[string]interface{}{}
	if err := json.Unmarshal(b, &raw); err != nil {
		panic(err)
	}
	for _, p := range raw["plugins"].([]interface{}) {
		pb, _ := json.Marshal(p)
		fmt.Println(string(pb))
		m := map[string]interface{}{}
		json.Unmarshal(pb, &m)
		m["name"] = raw["name"]
		m["cniVersion"] = raw["cniVersion"]
		ib, _ := json.Marshal(m)
		fmt.Println(string(ib))
	}
}
