package resources

import (
	"context"

	"talk2tables/catalog"
	"talk2tables/orchestrator/mcpclient"
)

// feedsPrompt reports whether a resource's parsed value is one the SQL
// generators read, by shape: a schema ("tables" array of objects with
// "columns"), a semantic model ("version" 2 and a "tables" object), an entity
// list ("entities" array) or a version-1 product catalog.
func feedsPrompt(v any) bool {
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	if catalog.IsSchemaResource(obj) || catalog.IsSemanticResource(obj) || catalog.IsEntityListResource(obj) ||
		catalog.IsV1Mappings(obj) || catalog.IsV1Products(obj) {
		return true
	}
	// the other version-1 top-level keys
	_, mappings := obj["column_mappings"]
	_, aliases := obj["product_aliases"]
	return mappings || aliases
}

// subscribeRead subscribes (when the server offers subscriptions) to the
// resources just read that feed the prompt and are not yet subscribed to in
// this session. A refusal is logged and not retried.
func subscribeRead(ctx context.Context, c *mcpclient.Conn, values map[string]any) {
	var uris []string
	for uri, v := range values {
		if feedsPrompt(v) {
			uris = append(uris, uri)
		}
	}
	c.Subscribe(ctx, uris)
}
