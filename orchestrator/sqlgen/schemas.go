package sqlgen

import (
	"encoding/json"

	"talk2tables/schema"
)

// schemaTables are the tables of every resource the prompt shows as a
// schema (a "tables" array, see classify), decoded once per rendering and
// keyed by "server\x00uri". Each slice is aligned with the resource's
// array; an entry that is not a table of the contract (docs/contracts.md
// §2) is nil, and its text is shown all the same. Tables are decoded one by
// one, so one odd table does not hide the others.
type schemaTables map[string][]*schema.Table

// decodeSchemas decodes the schema resources of servers.
func decodeSchemas(servers []ServerContext) schemaTables {
	out := schemaTables{}
	for _, sc := range servers {
		for uri, v := range sc.Resources {
			obj, _ := v.(map[string]any)
			list, ok := obj["tables"].([]any)
			if !ok {
				continue
			}
			tables := make([]*schema.Table, len(list))
			for i, t := range list {
				if _, isObj := t.(map[string]any); !isObj {
					continue
				}
				data, err := json.Marshal(t)
				var st schema.Table
				if err == nil && json.Unmarshal(data, &st) == nil && st.Name != "" {
					tables[i] = &st
				}
			}
			out[sc.ID+"\x00"+uri] = tables
		}
	}
	return out
}
