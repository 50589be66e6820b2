package evaluation

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5"

	"talk2tables/catalog"
	"talk2tables/catalog/draft"
	"talk2tables/internal/pgcopy"
)

// LoadPostgres copies the SQLite database at sqlitePath into the (empty)
// PostgreSQL database conn is connected to, as pgcopy.FromSQLite does: the
// same names, keys, rows and views, then ANALYZE; a view PostgreSQL rejects
// is left out and named in skipped.
func LoadPostgres(ctx context.Context, sqlitePath string, conn *pgx.Conn) (skipped []string, err error) {
	lite, err := sql.Open("sqlite", "file:"+sqlitePath+"?mode=ro")
	if err != nil {
		return nil, err
	}
	defer lite.Close()
	return pgcopy.FromSQLite(ctx, lite, conn)
}

// DraftedFrom drafts a catalog from any database database-mcp serves (the
// PostgreSQL copy of a fixture), as `talk2tables catalog init --dsn` does.
func DraftedFrom(ctx context.Context, src draft.Source, database string) ([]byte, error) {
	s, err := draft.Draft(ctx, src, draft.Options{Database: database, QueryTimeout: draftTimeout})
	if err != nil {
		return nil, err
	}
	return catalog.Marshal(s)
}
