package orchestrator

import (
	"context"
	"strings"
	"testing"

	"talk2tables/config"
	"talk2tables/orchestrator/builtin"
)

// TestAuxiliaryServerNotRequired: an auxiliary resource server that is down
// does not stop serve from starting nor questions from being answered; it
// is listed in missing_servers, and /health stays healthy.
func TestAuxiliaryServerNotRequired(t *testing.T) {
	f := newFixture(t)
	cfg := inprocConfig()
	cfg.MCPServers["aux"] = config.ServerConfig{Name: "Aux", Transport: config.TransportStreamableHTTP, URL: "http://127.0.0.1:1/mcp",
		Priority: 50, Capabilities: []string{config.CapListResources}}
	o := newOrch(t, cfg, WithGenerator(builtin.New(nil)),
		WithInProcessServer("database_mcp", f.dbServer(t)), WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
	res, err := o.Process(context.Background(), Query{Question: "total revenue by region"})
	if err != nil {
		t.Fatalf("Process with aux down: %v", err)
	}
	if strings.Join(res.Metadata.MissingServers, ",") != "aux" {
		t.Errorf("missing_servers = %v, want [aux]", res.Metadata.MissingServers)
	}
	if h := o.Health(); h.Status != "healthy" {
		t.Errorf("health = %+v, want healthy (aux is not required)", h)
	}
}
