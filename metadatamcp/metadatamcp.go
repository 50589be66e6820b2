// Package metadatamcp is the MCP server over a semantic catalog (format
// version 2, package catalog; or the original design's version-1 product
// metadata) ("talk2tables-metadata"). Over a version-2 catalog it serves
// JSON resources — the semantic model (tables, columns, measures,
// vocabulary), the entities, a summary, and the original design's
// product_aliases and column_mappings derived from them; over a version-1
// file, the original design's three resources (see parse). It watches the
// catalog file: a valid change is swapped in atomically and announced to
// subscribed clients; an invalid change is logged and the last good catalog
// stays.
package metadatamcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/catalog"
	"talk2tables/telemetry"
)

// Name and Version identify the server to MCP clients.
const (
	Name    = "talk2tables-metadata"
	Version = "0.1.0"
)

// Resource URIs.
const (
	URISemanticModel   = "metadata://semantic_model"
	URIEntities        = "metadata://entities"
	URIMetadataSummary = "metadata://metadata_summary"
	// URIProductAliases and URIColumnMappings are the original design's
	// resources, in its shape: the file's own sections for a version-1
	// catalog, derived (catalog.ToV1) from a version-2 one.
	URIProductAliases = "metadata://product_aliases"
	URIColumnMappings = "metadata://column_mappings"
)

// URIs lists every resource the server offers over a version-2 catalog.
func URIs() []string {
	return []string{URISemanticModel, URIEntities, URIMetadataSummary, URIProductAliases, URIColumnMappings}
}

// v1URIs are the resources served over a version-1 file: the original
// design's.
func v1URIs() []string { return []string{URIProductAliases, URIColumnMappings, URIMetadataSummary} }

// resourceDefs name and describe every resource.
var resourceDefs = map[string]struct{ name, desc string }{
	URISemanticModel:   {"semantic_model", "The semantic model (version 2): tables with words, role, key, label, date column, default filter and columns (words, kind, measure type, unit, date format, references); derived measures; vocabulary."},
	URIEntities:        {"entities", "Named entities (version 2): rows of a table by key (\"Acme Corp\" -> suppliers.supplier_id = 7) or values of a column (\"Portugal\" -> customers.country), with aliases."},
	URIMetadataSummary: {"metadata_summary", "Overview of the metadata: counts of tables, columns, measures, entity sets, entities, products, aliases and column mappings, the product categories, the resources, when the catalog was last updated and where it came from."},
	URIProductAliases:  {"product_aliases", "Product aliases (the original design's shape): user terms mapped to canonical products, each with canonical_id, canonical_name, aliases, database_references (\"table.column\": value) and categories."},
	URIColumnMappings:  {"column_mappings", "Column mappings (the original design's shape): user_friendly_terms (phrase → \"table.column\" or an SQL expression; {date_column} stands for the table's date column), aggregation_terms, date_terms, date_columns and table_aliases."},
}

// debounce collapses the burst of events one save produces.
const debounce = 100 * time.Millisecond

// Model is the metadata://semantic_model resource: the catalog without its
// entities.
type Model struct {
	Version     int                         `json:"version"`
	LastUpdated string                      `json:"last_updated,omitempty"`
	Source      *catalog.Source             `json:"source,omitempty"`
	Tables      map[string]*catalog.Table   `json:"tables"`
	Measures    map[string]*catalog.Measure `json:"measures,omitempty"`
	Vocabulary  *catalog.Vocabulary         `json:"vocabulary,omitempty"`
}

// Entities is the metadata://entities resource.
type Entities struct {
	Version  int                  `json:"version"`
	Entities []*catalog.EntitySet `json:"entities"`
}

// Summary is the metadata://metadata_summary resource: an overview of the
// metadata (the original design's "overview of available metadata").
type Summary struct {
	Version     int             `json:"version"`
	Tables      int             `json:"tables"`
	Columns     int             `json:"columns"`
	Measures    int             `json:"measures"`
	EntitySets  int             `json:"entity_sets"`
	Entities    int             `json:"entities"`
	LastUpdated string          `json:"last_updated,omitempty"`
	Source      *catalog.Source `json:"source,omitempty"`
	// What the original design's resources hold.
	Products          int      `json:"total_products"`
	Aliases           int      `json:"total_aliases"`
	UserFriendlyTerms int      `json:"total_column_mappings"`
	Categories        []string `json:"categories"`
	Resources         []string `json:"available_resources"`
}

// summarize counts what a catalog and its version-1 view hold; version is
// 1 when only the version-1 resources are served.
func summarize(c *catalog.Semantic, v1 *catalog.V1, uris []string) Summary {
	s := Summary{Version: c.Version, Tables: len(c.Tables), Measures: len(c.Measures), EntitySets: len(c.Entities),
		LastUpdated: c.LastUpdated, Source: c.Source, Products: len(v1.ProductAliases),
		UserFriendlyTerms: len(v1.ColumnMappings.UserFriendlyTerms), Categories: []string{}, Resources: uris}
	if !slices.Contains(uris, URISemanticModel) {
		s.Version = 1
	}
	for _, t := range c.Tables {
		s.Columns += len(t.Columns)
	}
	for _, set := range c.Entities {
		s.Entities += len(set.Values)
	}
	for _, p := range v1.ProductAliases {
		s.Aliases += len(p.Aliases)
		for _, cat := range p.Categories {
			if !slices.Contains(s.Categories, cat) {
				s.Categories = append(s.Categories, cat)
			}
		}
	}
	slices.Sort(s.Categories)
	return s
}

// snapshot is one loaded catalog with its resources rendered once.
type snapshot struct {
	catalog *catalog.Semantic
	summary Summary
	raw     []byte            // file bytes, to ignore saves that change nothing
	uris    []string          // the resources served
	content map[string]string // URI -> JSON text
}

// Server serves one catalog file over MCP.
type Server struct {
	path   string
	logger *slog.Logger
	mcp    *server.MCPServer
	cur    atomic.Pointer[snapshot]
	subs   subscriptions

	watching chan struct{} // closed once Watch is watching (tests wait on it)
	once     sync.Once
}

// New loads and validates the catalog at path and builds the MCP server. A
// bad catalog is an error naming the file, the JSON path and the problem.
func New(path string, logger *slog.Logger) (*Server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{path: path, logger: logger, watching: make(chan struct{})}
	snap, err := load(path)
	if err != nil {
		return nil, err
	}
	s.cur.Store(snap)
	s.subs.sessions = map[server.ClientSession]map[string]bool{}

	hooks := &server.Hooks{}
	s.subs.register(hooks)
	s.mcp = server.NewMCPServer(Name, Version, append([]server.ServerOption{
		server.WithResourceCapabilities(true, true),
		server.WithHooks(hooks),
		server.WithRecovery(),
		// logging/setLevel is answered (MCP clients and the conformance suite expect it).
		server.WithLogging(),
		server.WithInstructions("Semantic catalog for talk2tables (format version 2): what each table and column is called in " +
			"business English, table roles, keys, labels and main dates, column kinds and measure types (additive: SUM is " +
			"meaningful; non_additive: AVG/MIN/MAX only), derived measures over {Column} placeholders, named entities " +
			"(rows by key, or column values, with aliases) and vocabulary."),
	}, telemetry.MCPServerOptions()...)...)
	s.serve(snap.uris)
	return s, nil
}

// serve lists exactly the resources uris.
func (s *Server) serve(uris []string) {
	list := make([]server.ServerResource, 0, len(uris))
	for _, uri := range uris {
		def := resourceDefs[uri]
		list = append(list, server.ServerResource{
			Resource: mcp.NewResource(uri, def.name, mcp.WithResourceDescription(def.desc), mcp.WithMIMEType("application/json")),
			Handler: func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				text, ok := s.cur.Load().content[uri]
				if !ok { // the catalog changed version meanwhile
					return nil, fmt.Errorf("%s is not served for this catalog: %w", uri, mcp.ErrResourceNotFound)
				}
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: text}}, nil
			},
		})
	}
	s.mcp.SetResources(list...)
}

// MCPServer returns the mcp-go server to serve over any transport.
func (s *Server) MCPServer() *server.MCPServer { return s.mcp }

// Catalog returns the catalog currently served.
func (s *Server) Catalog() *catalog.Semantic { return s.cur.Load().catalog }

func load(path string) (*snapshot, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	return parse(path, data)
}

func parse(path string, data []byte) (*snapshot, error) {
	c, err := catalog.Parse(path, data)
	if err != nil {
		return nil, err
	}
	snap := &snapshot{catalog: c, raw: data, uris: URIs(), content: map[string]string{}}
	v1 := catalog.ToV1(c)
	if catalog.IsVersion1(data) {
		// The original design's file is served as the design serves it: its
		// own sections, as written (Parse validated them), and the summary.
		// Its conversion to version 2 is not served: without the database
		// it can only guess kinds, roles and date columns from names, and a
		// client taking those guesses for the catalog's word answers worse
		// than one that completes the file with the database's schema (as
		// the offline planner does with these resources). `talk2tables
		// catalog migrate --db` makes a real version-2 catalog of it.
		if v1, err = catalog.ParseV1(path, data); err != nil {
			return nil, err
		}
		snap.uris = v1URIs()
	}
	if v1.ProductAliases == nil {
		v1.ProductAliases = map[string]catalog.V1Product{}
	}
	snap.summary = summarize(c, v1, snap.uris)
	entities := c.Entities
	if entities == nil {
		entities = []*catalog.EntitySet{}
	}
	all := map[string]any{
		URISemanticModel: Model{Version: c.Version, LastUpdated: c.LastUpdated, Source: c.Source, Tables: c.Tables,
			Measures: c.Measures, Vocabulary: c.Vocabulary},
		URIEntities:        Entities{Version: c.Version, Entities: entities},
		URIMetadataSummary: snap.summary,
		URIProductAliases:  v1.ProductAliases,
		URIColumnMappings:  v1.ColumnMappings,
	}
	for _, uri := range snap.uris {
		v := all[uri]
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return nil, fmt.Errorf("render %s: %w", uri, err)
		}
		snap.content[uri] = strings.TrimSuffix(buf.String(), "\n")
	}
	return snap, nil
}

// Watch reloads the catalog whenever its file changes, until ctx is done. It
// watches the directory, so editors that save by writing a new file and
// renaming it over the old one are seen too.
func (s *Server) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch catalog: %w", err)
	}
	defer w.Close()
	abs, err := filepath.Abs(s.path)
	if err != nil {
		return fmt.Errorf("watch catalog: %w", err)
	}
	if err := w.Add(filepath.Dir(abs)); err != nil {
		return fmt.Errorf("watch catalog directory %s: %w", filepath.Dir(abs), err)
	}
	s.once.Do(func() { close(s.watching) })
	s.logger.Info("watching catalog", "event", "catalog_watch_started", "path", s.path)

	timer := time.NewTimer(debounce)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if filepath.Clean(ev.Name) != abs || ev.Op == fsnotify.Chmod {
				continue
			}
			timer.Reset(debounce)
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			s.logger.Warn("catalog watch error", "event", "catalog_watch_error", "error", err.Error())
		case <-timer.C:
			s.reload(ctx)
		}
	}
}

// reload swaps in the file's catalog if it is valid and different, and tells
// clients; otherwise it keeps the last good one and logs why.
func (s *Server) reload(ctx context.Context) {
	data, err := os.ReadFile(s.path)
	if err != nil {
		s.logger.Warn("catalog reload failed", "event", "catalog_reload_failed", "path", s.path, "error", err.Error())
		return
	}
	if bytes.Equal(data, s.cur.Load().raw) {
		return
	}
	snap, err := parse(s.path, data)
	if err != nil {
		s.logger.Warn("catalog reload failed; serving the last good catalog", "event", "catalog_reload_failed",
			"path", s.path, "error", err.Error())
		return
	}
	old := s.cur.Swap(snap)
	if !slices.Equal(old.uris, snap.uris) {
		s.serve(snap.uris)
	}
	s.logger.Info("catalog reloaded", "event", "catalog_reloaded", "path", s.path,
		"tables", snap.summary.Tables, "entities", snap.summary.Entities)
	for _, uri := range snap.uris {
		s.subs.notifyUpdated(s.logger, uri)
	}
	s.mcp.SendNotificationToAllClients(mcp.MethodNotificationResourcesListChanged, nil)
}
