// Writes unknown-fields.golden (see ../README.md): for each plugin of the list given as the
// argument, the bytes upstream's NetworkConfFromBytes gives it (json.Marshal of the decoded
// entry), then the bytes after InjectConf sets the list's name and cniVersion.
// Only Go's encoding/json is involved, as in upstream.
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
