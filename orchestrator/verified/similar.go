package verified

import (
	"context"
	"runtime"
	"strconv"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"talk2tables/state"
)

// Example is a verified question and its SQL, shown to an LLM as a worked
// example.
type Example struct {
	Database string
	Question string
	SQL      string
	Score    float64
}

// similar is a bleve index of the verified questions of one revision
// (standard analyzer: lower case, English stop words; scored by TF-IDF),
// built on first use.
type similar struct {
	once  sync.Once
	index bleve.Index // nil when it could not be built
}

// ensure builds ix's similarity index once.
func (ix *index) similarIndex() bleve.Index {
	ix.sim.once.Do(func() {
		m := bleve.NewIndexMapping()
		m.DefaultAnalyzer = standard.Name
		idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
		if err != nil {
			return
		}
		batch := idx.NewBatch()
		for i, e := range ix.entries {
			if e.Status != state.StatusVerified || e.ValidOn != "" {
				continue // stale, or its dates hold on one day only
			}
			if err := batch.Index(strconv.Itoa(i), map[string]any{"question": e.Question}); err != nil {
				_ = idx.Close()
				return
			}
		}
		if err := idx.Batch(batch); err != nil {
			_ = idx.Close()
			return
		}
		ix.sim.index = idx
		// The index runs goroutines until closed: close it when this
		// revision's index is dropped.
		runtime.AddCleanup(ix, func(i bleve.Index) { _ = i.Close() }, idx)
	})
	return ix.sim.index
}

// Examples returns up to n verified questions of the given databases most
// like question (bleve's score), best first; none when nothing is alike.
func (b *Book) Examples(ctx context.Context, question string, databases []string, n int) []Example {
	if n <= 0 {
		return nil
	}
	ix := b.sync(ctx)
	if len(ix.entries) == 0 {
		return nil
	}
	idx := ix.similarIndex()
	if idx == nil {
		return nil
	}
	allowed := map[string]bool{}
	for _, db := range databases {
		allowed[db] = true
	}
	q := bleve.NewMatchQuery(question)
	q.SetField("question")
	res, err := idx.SearchInContext(ctx, bleve.NewSearchRequestOptions(q, 8*n, 0, false))
	if err != nil {
		return nil
	}
	var out []Example
	for _, h := range res.Hits {
		i, err := strconv.Atoi(h.ID)
		if err != nil || i < 0 || i >= len(ix.entries) {
			continue
		}
		e := ix.entries[i]
		if !allowed[e.Database] {
			continue
		}
		out = append(out, Example{Database: e.Database, Question: e.Question, SQL: e.SQL, Score: h.Score})
		if len(out) == n {
			break
		}
	}
	return out
}
