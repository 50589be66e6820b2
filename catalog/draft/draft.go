// Package draft drafts a semantic catalog (catalog.Semantic) for any
// database from its schema and a bounded sample of its data, so a user goes
// from "I have a database" to offline answers in one command, then edits
// the draft.
//
// Everything it concludes goes into the file with a "why": the words of
// tables and columns (from their identifiers), table roles, keys, labels and
// main dates, column kinds, measure types and units, derived line amounts,
// and the named entities of dimension tables and categorical columns. The
// SQL it runs is plain enough for SQLite, PostgreSQL and MySQL (identifiers
// quoted in the schema's dialect, COUNT(DISTINCT), MIN/MAX, LIMIT), every statement is bounded
// by LIMIT and a timeout, and the output is deterministic and valid by
// construction.
package draft

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"talk2tables/catalog"
	"talk2tables/schema"
	"talk2tables/sqlscan"
)

// Source is the database side the drafter reads: database-mcp's backends
// satisfy it (and any backend that serves the same schema and query shapes,
// package schema).
type Source interface {
	Schema(ctx context.Context) (*schema.Schema, error)
	Query(ctx context.Context, sql string, maxRows int) (*schema.Result, error)
}

// Defaults of Options.
const (
	DefaultMaxEntities    = 1000
	DefaultSampleRows     = 10000
	DefaultViewSampleRows = 1000
	DefaultQueryTimeout   = 5 * time.Second
	DefaultParallel       = 4
	// DraftedBy is the source.drafted_by of a draft.
	DraftedBy = "talk2tables catalog init"
)

// Options tunes Draft. Zero values take the defaults.
type Options struct {
	// MaxEntities caps each entity set (rows of a dimension table, values
	// of a column); a capped set carries a note. Default 1000.
	MaxEntities int
	// SampleRows bounds the rows each table's statistics read. Default 10,000.
	SampleRows int
	// ViewSampleRows bounds the rows read from a view. Default 1,000.
	ViewSampleRows int
	// QueryTimeout bounds every sampling statement. Default 5s.
	QueryTimeout time.Duration
	// Parallel is how many tables are sampled at once. Default 4.
	Parallel int
	// Database names the source in source.database; default the schema's
	// database name.
	Database string
	// Now stamps source.drafted_at; default time.Now. Tests pin it.
	Now func() time.Time
}

func (o Options) withDefaults() (Options, error) {
	if o.MaxEntities < 0 || o.SampleRows < 0 || o.ViewSampleRows < 0 || o.QueryTimeout < 0 || o.Parallel < 0 {
		return o, errors.New("draft options must not be negative")
	}
	if o.MaxEntities == 0 {
		o.MaxEntities = DefaultMaxEntities
	}
	if o.SampleRows == 0 {
		o.SampleRows = DefaultSampleRows
	}
	if o.ViewSampleRows == 0 {
		o.ViewSampleRows = DefaultViewSampleRows
	}
	if o.QueryTimeout == 0 {
		o.QueryTimeout = DefaultQueryTimeout
	}
	if o.Parallel == 0 {
		o.Parallel = DefaultParallel
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o, nil
}

// starterAggregationTerms are the everyday English aggregation words every
// draft's vocabulary starts with (ranking words like "top" are left to the
// planner: they order rows, they do not aggregate).
var starterAggregationTerms = map[string]string{
	"total": "SUM", "sum": "SUM", "how many": "COUNT", "count": "COUNT", "number of": "COUNT",
	"average": "AVG", "mean": "AVG", "avg": "AVG", "maximum": "MAX", "max": "MAX", "highest": "MAX",
	"minimum": "MIN", "min": "MIN", "lowest": "MIN",
}

// drafter holds one drafting run.
type drafter struct {
	src    Source
	opts   Options
	schema *schema.Schema
	q      quoter                 // the schema's dialect's identifier quotes
	tables []*tableDraft          // in catalog key order
	byKey  map[string]*tableDraft // catalog key -> table
	seg    *catalog.Segmenter     // run-together names split into the schema's words

	mu    sync.Mutex
	notes []note
}

// note is one line of source.notes, ordered by table then text.
type note struct{ table, text string }

func (d *drafter) notef(table, format string, args ...any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.notes = append(d.notes, note{table, fmt.Sprintf(format, args...)})
}

// query runs one sampling statement under the statement timeout.
func (d *drafter) query(ctx context.Context, sql string, maxRows int) (*schema.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, d.opts.QueryTimeout)
	defer cancel()
	return d.src.Query(ctx, sql, maxRows)
}

// Draft reads src's schema and samples its data, and returns a catalog that
// validates with the strict loader. A sampling statement that fails or
// times out costs only what it would have told (the table is drafted from
// its names and types, and a note says so); a failure to read the schema,
// or ctx ending, is an error.
func Draft(ctx context.Context, src Source, opts Options) (*catalog.Semantic, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	sch, err := src.Schema(ctx)
	if err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	if len(sch.Tables) == 0 {
		return nil, errors.New("the database has no tables or views to describe")
	}
	d := &drafter{src: src, opts: opts, schema: sch, q: quoterFor(sch.Dialect)}
	d.collect()
	if err := d.forEachTable(ctx, func(ctx context.Context, t *tableDraft) {
		t.prof = d.profileTable(ctx, t.src)
		if t.prof.err != "" {
			d.notef(t.key, "%s could not be sampled (%s): drafted from its names and types only; check its kinds", t.key, t.prof.err)
		}
	}); err != nil {
		return nil, err
	}
	d.classifyColumns()
	d.decideTables()
	d.measureTypes()
	d.words()
	d.derivedMeasures(ctx)
	sets, err := d.entities(ctx)
	if err != nil {
		return nil, err
	}
	s := d.assemble(sets)
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("the draft does not validate (a drafter bug; please report it): %w", err)
	}
	return s, nil
}

// forEachTable runs fn on every table, Parallel at a time, and returns ctx's
// error if it ended meanwhile.
func (d *drafter) forEachTable(ctx context.Context, fn func(context.Context, *tableDraft)) error {
	work := make(chan *tableDraft)
	var wg sync.WaitGroup
	for range min(d.opts.Parallel, len(d.tables)) {
		wg.Go(func() {
			for t := range work {
				fn(ctx, t)
			}
		})
	}
	for _, t := range d.tables {
		if ctx.Err() != nil {
			break
		}
		work <- t
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("drafting stopped: %w", err)
	}
	return nil
}

// assemble builds the catalog from the decisions.
func (d *drafter) assemble(sets []*catalog.EntitySet) *catalog.Semantic {
	s := &catalog.Semantic{
		Version: catalog.FormatVersion,
		Source: &catalog.Source{
			Database:  d.opts.Database,
			Dialect:   d.schema.Dialect,
			DraftedBy: DraftedBy,
			DraftedAt: d.opts.Now().UTC().Format(time.RFC3339),
		},
		Tables:   map[string]*catalog.Table{},
		Measures: map[string]*catalog.Measure{},
		Entities: sets,
	}
	if s.Source.Database == "" {
		s.Source.Database = d.schema.Database
	}
	if d, err := sqlscan.ParseDialect(s.Source.Dialect); err != nil {
		s.Source.Dialect = ""
	} else {
		s.Source.Dialect = d.String()
	}
	for _, t := range d.tables {
		s.Tables[t.key] = t.out
		for name, m := range t.measures {
			s.Measures[name] = m
		}
	}
	if len(s.Measures) == 0 {
		s.Measures = nil
	}
	s.Vocabulary = &catalog.Vocabulary{AggregationTerms: maps.Clone(starterAggregationTerms)}
	d.notef("", "vocabulary.aggregation_terms starts with the usual English aggregation words; add your own (e.g. \"turnover\": \"SUM\") and synonyms (\"clients\": \"customers\")")
	slices.SortStableFunc(d.notes, func(a, b note) int {
		if c := strings.Compare(a.table, b.table); c != 0 {
			return c
		}
		return strings.Compare(a.text, b.text)
	})
	for _, n := range d.notes {
		s.Source.Notes = append(s.Source.Notes, n.text)
	}
	return s
}
