package builtin

import (
	"context"
	"sync"
	"testing"

	"talk2tables/orchestrator/sqlgen"
)

// TestModelCacheFollowsVersions: a model is compiled once per set of
// (server id, version) pairs; a new version compiles again and answers with
// the new resources; servers without a version compile every time, so
// nothing stale is ever served.
func TestModelCacheFollowsVersions(t *testing.T) {
	e := salesEnv(t)
	g := New(nil)
	ctx := context.Background()
	ask := func(req sqlgen.Request, q string) error {
		req.Question = q
		_, err := g.Generate(ctx, req)
		return err
	}
	req := e.req
	if err := ask(req, "total revenue"); err != nil {
		t.Fatal(err)
	}
	if err := ask(req, "revenue by region"); err != nil {
		t.Fatal(err)
	}
	if n := g.Compiles(); n != 1 {
		t.Errorf("compiles for one version set = %d, want 1", n)
	}

	// a refetched catalog with a new word, under a new version
	servers := append([]sqlgen.ServerContext(nil), req.Servers...)
	res := map[string]any{}
	for k, v := range servers[0].Resources {
		res[k] = v
	}
	res["metadata://extra"] = map[string]any{"version": float64(2), "entities": []any{map[string]any{
		"table": "products", "key": "product_id", "columns": []any{"product_name"},
		"values": []any{map[string]any{"name": "Magic Wand Pro", "key": float64(123), "aliases": []any{"wizzbang"}}}}}}
	servers[0].Resources = res
	stale := req
	stale.Servers = servers
	if err := ask(stale, "revenue for wizzbang"); err == nil {
		t.Errorf("same version, new content: answered from a model that cannot know the alias")
	}
	fresh := stale
	fresh.Servers = append([]sqlgen.ServerContext(nil), servers...)
	fresh.Servers[0].Version = "2"
	if err := ask(fresh, "revenue for wizzbang"); err != nil {
		t.Errorf("new version: %v", err)
	}
	if n := g.Compiles(); n != 2 {
		t.Errorf("compiles = %d, want 2", n)
	}

	unversioned := fresh
	unversioned.Servers = append([]sqlgen.ServerContext(nil), fresh.Servers...)
	for i := range unversioned.Servers {
		unversioned.Servers[i].Version = ""
	}
	for range 2 {
		if err := ask(unversioned, "total revenue"); err != nil {
			t.Fatal(err)
		}
	}
	if n := g.Compiles(); n != 4 {
		t.Errorf("compiles = %d, want 4: requests without versions are not cached", n)
	}
}

func TestConcurrentGenerate(t *testing.T) {
	e := salesEnv(t)
	g := New(nil)
	qs := salesQuestions()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < len(qs); i += 8 {
				req := e.req
				req.Question = qs[i].q
				if _, err := g.Generate(context.Background(), req); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := g.Compiles(); n != 1 {
		t.Errorf("8 concurrent workers compiled %d models, want 1", n)
	}
}

// BenchmarkGenerate is the time to answer one question once the model is
// compiled, per question set (its questions in turn).
func BenchmarkGenerate(b *testing.B) {
	for _, set := range []struct {
		name string
		env  func(testing.TB) *env
		qs   []question
	}{
		{"sales", salesEnv, salesQuestions()},
		{"bookstore", bookstoreEnv, bookstoreQuestions()},
		{"store", storeEnv, storeQuestions()},
		{"music", musicEnv, musicQuestions()},
		{"resort-drafted", resortEnv, resortQuestions()},
	} {
		b.Run(set.name, func(b *testing.B) {
			e := set.env(b)
			g := New(nil)
			ctx := context.Background()
			req := e.req
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				req.Question = set.qs[i%len(set.qs)].q
				_, _ = g.Generate(ctx, req)
			}
		})
	}
}

// BenchmarkCompile is the time to compile the sample database's model.
func BenchmarkCompile(b *testing.B) {
	e := salesEnv(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		compile(gather(e.req.Servers))
	}
}
