package sqlscan_test

import (
	"testing"

	"talk2tables/internal/hostile"
	"talk2tables/sqlerr"
	"talk2tables/sqlscan"
)

// TestHostileSetStatic runs each dialect's hostile set against that
// dialect's static check alone, without a database: every input of the
// static layer is refused with its category, every other one is left to
// the engine's layers (databasemcp's tests send the same set to the real
// engines).
func TestHostileSetStatic(t *testing.T) {
	p := hostile.NewPaths("/tmp/hostile-out")
	sets := []struct {
		d   sqlscan.Dialect
		set []hostile.Input
	}{
		{sqlscan.SQLite, hostile.SQLite(p)},
		{sqlscan.Postgres, hostile.Postgres(p, "db")},
		{sqlscan.MySQL, hostile.MySQL(p)},
	}
	for _, s := range sets {
		static := 0
		for _, in := range s.set {
			e := s.d.CheckReadOnly(in.Query)
			var got sqlerr.Category
			if e != nil {
				got = e.Category
			}
			switch in.Layer {
			case hostile.Static:
				static++
				if got != in.Want {
					t.Errorf("%s: %s: CheckReadOnly(%.80q) = %v, want %s", s.d, in.Name, in.Query, e, in.Want)
				}
			case hostile.Engine:
				if e != nil {
					t.Errorf("%s: %s: CheckReadOnly(%.80q) = %v; the engine's layers must be what refuses it (mark it Static)", s.d, in.Name, in.Query, e)
				}
			}
		}
		if static < 40 {
			t.Errorf("%s: only %d inputs for the static check", s.d, static)
		}
	}
}

// TestNoDialectRefusesEverything: SQL checked in no dialect (a dialect that
// was never set) is refused, never read with another engine's rules.
func TestNoDialectRefusesEverything(t *testing.T) {
	var none sqlscan.Dialect
	for _, q := range []string{"SELECT 1", "SELECT 'a\\'' ; DELETE FROM t; -- '"} {
		if e := none.CheckReadOnly(q); e == nil || e.Category != sqlerr.PermissionError {
			t.Errorf("Dialect(0).CheckReadOnly(%q) = %v, want a permission refusal", q, e)
		}
	}
}
