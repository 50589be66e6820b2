package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/answer"
	"talk2tables/catalog"
	"talk2tables/schema"
)

// Kinds of search hits.
const (
	KindTool     = "tool"
	KindResource = "resource"
	KindTable    = "table"
	KindColumn   = "column"
	KindMeasure  = "measure"
	KindEntity   = "entity"
)

// searchHit is one search result.
type searchHit struct {
	Kind        string  `json:"kind"` // tool | resource | table | column | measure | entity
	Name        string  `json:"name"` // namespaced tool, prefixed URI, table, table.column, measure or entity name
	Server      string  `json:"server"`
	Description string  `json:"description,omitempty"`
	Score       float64 `json:"score"`
	// Callable is set on tools: pass Name to execute.
	Callable bool `json:"callable,omitempty"`
}

// searchResult is the search tool's structured result.
type searchResult struct {
	Keywords []string    `json:"keywords"`
	Hits     []searchHit `json:"hits"`
}

// searchDoc is what bleve indexes of one searchable thing.
type searchDoc struct {
	Name  string `json:"name"`  // identifier words (underscores split)
	Words string `json:"words"` // synonyms and aliases
	Text  string `json:"text"`  // descriptions
}

// searchIndex is an in-memory bleve index over the downstream tools and
// resources, the database schema and the catalog. It is rebuilt when the
// tools or the gathered resources changed since the last search.
type searchIndex struct {
	g *Gateway

	mu     sync.Mutex
	dirty  bool
	sig    string // resource snapshots the index was built from
	index  bleve.Index
	hits   map[string]searchHit // doc id → hit (without score)
	builtN int
}

func newSearchIndex(g *Gateway) *searchIndex { return &searchIndex{g: g, dirty: true} }

func (s *searchIndex) markDirty() {
	s.mu.Lock()
	s.dirty = true
	s.mu.Unlock()
}

// handleSearch ranks tools, resources, tables, columns and catalog
// entities against the keywords.
func (g *Gateway) handleSearch(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if res := g.limits.check(ToolSearch, ""); res != nil {
		return res, nil
	}
	raw, _ := req.GetArguments()["keywords"].([]any)
	var keywords []string
	for _, k := range raw {
		if s, ok := k.(string); ok && strings.TrimSpace(s) != "" {
			keywords = append(keywords, strings.TrimSpace(s))
		}
	}
	if len(keywords) == 0 {
		return mcp.NewToolResultError(`"keywords" must be a non-empty array of words, e.g. ["revenue", "region"]`), nil
	}
	hits, err := g.search.query(ctx, keywords, g.cfg.Gateway.SearchResults)
	if err != nil {
		return g.fail(ctx, ToolSearch, operationID(ctx), err), nil
	}
	res := searchResult{Keywords: keywords, Hits: hits}
	var b strings.Builder
	if len(hits) == 0 {
		b.WriteString("No match. Try other words, or call health to see the servers.\n")
	}
	for i, h := range hits {
		fmt.Fprintf(&b, "%d. %s `%s` (%s)", i+1, h.Kind, h.Name, h.Server)
		if h.Description != "" {
			b.WriteString(" — " + truncate(answer.OneLine(h.Description), 160))
		}
		b.WriteString("\n")
	}
	return mcp.NewToolResultStructured(res, b.String()), nil
}

// query returns the best hits for keywords, rebuilding the index first
// when needed.
func (s *searchIndex) query(ctx context.Context, keywords []string, size int) ([]searchHit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	var disjuncts []query.Query
	for _, k := range keywords {
		for _, f := range []struct {
			field string
			boost float64
		}{{"name", 3}, {"words", 2}, {"text", 1}} {
			exact := bleve.NewMatchQuery(k)
			exact.SetField(f.field)
			exact.SetBoost(f.boost)
			fuzzy := bleve.NewMatchQuery(k)
			fuzzy.SetField(f.field)
			fuzzy.SetAutoFuzziness(true) // typo tolerance by word length
			fuzzy.SetBoost(f.boost / 3)
			disjuncts = append(disjuncts, exact, fuzzy)
		}
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(disjuncts...), size, 0, false)
	res, err := s.index.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	out := make([]searchHit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hit := s.hits[h.ID]
		hit.Score = float64(int(h.Score*1000)) / 1000
		out = append(out, hit)
	}
	return out, nil
}

// ensure (re)builds the index when the tools changed or the gathered
// resources were refetched.
func (s *searchIndex) ensure(ctx context.Context) error {
	snaps, err := s.g.orch.Resources(ctx)
	if err != nil {
		return err
	}
	var sig strings.Builder
	for _, sn := range snaps {
		sig.WriteString(sn.ServerID + "@" + sn.FetchedAt.Format(time.RFC3339Nano) + ";")
	}
	if !s.dirty && sig.String() == s.sig && s.index != nil {
		return nil
	}
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = en.AnalyzerName // stemming: "revenues" finds "revenue"
	idx, err := bleve.NewMemOnly(m)
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	hits := map[string]searchHit{}
	batch := idx.NewBatch()
	add := func(h searchHit, doc searchDoc) {
		id := strconv.Itoa(len(hits))
		hits[id] = h
		_ = batch.Index(id, doc)
	}
	s.addTools(add)
	for _, sn := range snaps {
		addResources(sn.ServerID, sn.Resources, add)
	}
	if err := idx.Batch(batch); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	if s.index != nil {
		_ = s.index.Close()
	}
	s.index, s.hits, s.sig, s.dirty = idx, hits, sig.String(), false
	s.builtN++
	return nil
}

// addTools indexes the re-exposed tools and resources.
func (s *searchIndex) addTools(add func(searchHit, searchDoc)) {
	s.g.mu.Lock()
	defer s.g.mu.Unlock()
	for _, n := range slices.Sorted(maps.Keys(s.g.routes)) {
		r := s.g.routes[n]
		params := slices.Sorted(maps.Keys(r.def.InputSchema.Properties))
		add(searchHit{Kind: KindTool, Name: n, Server: r.server, Description: r.def.Description, Callable: true},
			searchDoc{Name: words(r.tool), Words: words(r.server) + " " + r.def.Title + " " + words(strings.Join(params, " ")),
				Text: r.def.Description})
	}
	for _, u := range slices.Sorted(maps.Keys(s.g.resRoutes)) {
		r := s.g.resRoutes[u]
		add(searchHit{Kind: KindResource, Name: u, Server: r.server},
			searchDoc{Name: words(r.uri), Words: words(r.server)})
	}
}

// addResources indexes the tables, columns, measures and entities found in
// one server's resources, recognised by shape (docs/contracts.md): the
// schema resource ({"dialect", "tables": [...]}), a semantic model
// ({"version": 2, "tables": {...}}) and an entity list ({"entities": [...]}).
func addResources(serverID string, resources map[string]any, add func(searchHit, searchDoc)) {
	for _, u := range slices.Sorted(maps.Keys(resources)) {
		obj, ok := resources[u].(map[string]any)
		if !ok {
			continue
		}
		if _, isSchema := obj["dialect"]; isSchema {
			addSchema(serverID, obj, add)
			continue
		}
		var sem catalog.Semantic
		if b, err := json.Marshal(obj); err == nil && json.Unmarshal(b, &sem) == nil {
			if sem.Version == catalog.FormatVersion && len(sem.Tables) > 0 {
				addSemantic(serverID, &sem, add)
			}
			if len(sem.Entities) > 0 {
				addEntities(serverID, sem.Entities, add)
			}
		}
	}
}

func addSchema(serverID string, obj map[string]any, add func(searchHit, searchDoc)) {
	st, err := schema.FromValue(obj)
	if err != nil {
		return
	}
	for _, t := range st.Tables {
		name := t.QualifiedName()
		var cols []string
		for _, c := range t.Columns {
			cols = append(cols, c.Name)
			add(searchHit{Kind: KindColumn, Name: name + "." + c.Name, Server: serverID,
				Description: strings.TrimSpace(c.Type + " " + c.Comment)},
				searchDoc{Name: words(c.Name), Words: words(t.Name) + " " + strings.Join(c.DistinctValues, " "), Text: c.Comment})
		}
		add(searchHit{Kind: KindTable, Name: name, Server: serverID, Description: t.Comment},
			searchDoc{Name: words(t.Name), Words: words(strings.Join(cols, " ")), Text: t.Comment})
	}
}

func addSemantic(serverID string, sem *catalog.Semantic, add func(searchHit, searchDoc)) {
	for _, tn := range slices.Sorted(maps.Keys(sem.Tables)) {
		t := sem.Tables[tn]
		if t == nil {
			continue
		}
		add(searchHit{Kind: KindTable, Name: tn, Server: serverID, Description: t.Description},
			searchDoc{Name: words(tn), Words: strings.Join(t.Words, " "), Text: t.Description + " " + t.Why})
		for _, cn := range slices.Sorted(maps.Keys(t.Columns)) {
			c := t.Columns[cn]
			if c == nil {
				continue
			}
			add(searchHit{Kind: KindColumn, Name: tn + "." + cn, Server: serverID, Description: strings.TrimSpace(c.Kind + " " + c.Why)},
				searchDoc{Name: words(cn), Words: strings.Join(c.Words, " ") + " " + words(tn), Text: c.Why})
		}
	}
	for _, mn := range slices.Sorted(maps.Keys(sem.Measures)) {
		m := sem.Measures[mn]
		if m == nil {
			continue
		}
		add(searchHit{Kind: KindMeasure, Name: mn, Server: serverID, Description: m.Why},
			searchDoc{Name: words(mn), Words: strings.Join(m.Words, " ") + " " + words(m.Table), Text: m.Why})
	}
}

func addEntities(serverID string, sets []*catalog.EntitySet, add func(searchHit, searchDoc)) {
	for _, set := range sets {
		if set == nil {
			continue
		}
		for _, e := range set.Values {
			if e == nil {
				continue
			}
			desc := set.Table
			if e.Key != nil {
				desc = fmt.Sprintf("%s %s = %v", set.Table, set.Key, e.Key)
			}
			add(searchHit{Kind: KindEntity, Name: e.Name, Server: serverID, Description: desc},
				searchDoc{Name: e.Name, Words: strings.Join(e.Aliases, " ") + " " + strings.Join(e.Tags, " "), Text: words(set.Table)})
		}
	}
}

// words splits an identifier into words: "execute_query" → "execute query".
func words(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == '_' || r == '-' || r == '.' || r == '/' || r == ':' || r == ' '
	}), " ")
}
