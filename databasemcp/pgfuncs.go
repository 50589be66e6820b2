package databasemcp

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"talk2tables/sqlerr"
	"talk2tables/sqlscan"
)

// allowedVolatile are volatile functions a read-only query may call: they
// change nothing, they only return something new each time.
var allowedVolatile = map[string]bool{
	"random": true, "random_normal": true, "clock_timestamp": true, "timeofday": true,
	"gen_random_uuid": true, "uuid_generate_v4": true,
}

// notFunctions are SQL keywords and type names that sqlscan.FunctionCalls
// reports because '(' follows them; they are not looked up in pg_proc.
var notFunctions = map[string]bool{
	"in": true, "exists": true, "any": true, "all": true, "some": true, "array": true, "row": true,
	"values": true, "as": true, "over": true, "filter": true, "using": true, "on": true, "lateral": true,
	"and": true, "or": true, "not": true, "select": true, "from": true, "where": true, "when": true,
	"then": true, "else": true, "by": true, "union": true, "intersect": true, "except": true, "join": true,
	"coalesce": true, "nullif": true, "greatest": true, "least": true, "cast": true, "extract": true,
	"grouping": true, "rollup": true, "cube": true, "sets": true, "within": true, "distinct": true,
	"interval": true, "varchar": true, "char": true, "character": true, "decimal": true, "float": true,
	"time": true, "timestamp": true, "is": true, "like": true, "ilike": true, "similar": true,
}

// funcGuard knows the volatility of every function in pg_proc (the most
// volatile overload of each name, in any schema) and refuses calls of
// volatile ones: PostgreSQL marks everything that changes state, waits or
// depends on more than its arguments and a snapshot as volatile
// (pg_proc.provolatile), so an allow-list of immutable and stable functions
// covers the functions nobody has listed yet, including users' own.
// sqlscan.SideEffectFunction adds the stable ones that still have effects.
type funcGuard struct {
	mu  sync.RWMutex
	vol map[string]byte // name → 'i', 's' or 'v'
}

func newFuncGuard() *funcGuard { return &funcGuard{vol: map[string]byte{}} }

// volatilityQuery gives each function name its most volatile overload
// ('v' > 's' > 'i').
const volatilityQuery = `SELECT proname::text, max(provolatile::text) FROM pg_proc GROUP BY proname`

// load reads the volatility of every function.
func (g *funcGuard) load(ctx context.Context, c *pgx.Conn) error {
	rows, err := c.Query(ctx, volatilityQuery)
	if err != nil {
		return err
	}
	vol := map[string]byte{}
	var name, v string
	_, err = pgx.ForEachRow(rows, []any{&name, &v}, func() error {
		if v != "" {
			vol[name] = v[0]
		}
		return nil
	})
	if err != nil {
		return err
	}
	g.mu.Lock()
	g.vol = vol
	g.mu.Unlock()
	return nil
}

// known reports whether a function of that name exists.
func (g *funcGuard) known(name string) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	_, ok := g.vol[name]
	return ok
}

// check refuses the calls of volatile functions. Names the cached catalog
// does not know (a function created since, or an alias with a column list)
// are looked up in pg_proc again before deciding.
// A lookup that fails is reported by lookupFailed.
func (g *funcGuard) check(ctx context.Context, pool *pgxpool.Pool, calls []sqlscan.FuncCall,
	lookupFailed func(error) *sqlerr.Error) *sqlerr.Error {
	var unknown []string
	g.mu.RLock()
	for _, f := range calls {
		if notFunctions[f.Name] && f.Schema == "" && !f.Quoted {
			continue
		}
		v, ok := g.vol[f.Name]
		if !ok {
			unknown = append(unknown, f.Name)
			continue
		}
		if e := refuseVolatile(f.Name, v); e != nil {
			g.mu.RUnlock()
			return e
		}
	}
	g.mu.RUnlock()
	if len(unknown) == 0 {
		return nil
	}
	found, err := lookupVolatility(ctx, pool, unknown)
	if err != nil {
		return lookupFailed(err)
	}
	names := make([]string, 0, len(found))
	for n := range found {
		names = append(names, n)
	}
	sort.Strings(names)
	g.mu.Lock()
	for _, n := range names {
		g.vol[n] = found[n]
	}
	g.mu.Unlock()
	for _, n := range names {
		if e := refuseVolatile(n, found[n]); e != nil {
			return e
		}
	}
	return nil
}

func lookupVolatility(ctx context.Context, pool *pgxpool.Pool, names []string) (map[string]byte, error) {
	rows, err := pool.Query(ctx, `SELECT proname::text, max(provolatile::text) FROM pg_proc WHERE proname = ANY($1) GROUP BY proname`, names)
	if err != nil {
		return nil, err
	}
	out := map[string]byte{}
	var name, v string
	_, err = pgx.ForEachRow(rows, []any{&name, &v}, func() error {
		if v != "" {
			out[name] = v[0]
		}
		return nil
	})
	return out, err
}

func refuseVolatile(name string, v byte) *sqlerr.Error {
	if v != 'v' || allowedVolatile[name] {
		return nil
	}
	return sqlerr.New(sqlerr.PermissionError, fmt.Sprintf(
		"function %s is volatile (it can change state, wait, or read more than the data) and is not allowed; "+
			"immutable and stable functions are, and %s: %s", name, allowedList(), readOnlyMessage))
}

func allowedList() string {
	names := make([]string, 0, len(allowedVolatile))
	for n := range allowedVolatile {
		names = append(names, n+"()")
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
