package evaluation

import (
	"context"
	"database/sql"

	"github.com/go-sql-driver/mysql"

	"talk2tables/internal/mycopy"
)

// LoadMySQL copies the SQLite database at sqlitePath into the (empty)
// MySQL or MariaDB database cfg names, as mycopy.FromSQLite does: the same
// names, keys, rows and views (text with binary collation, as SQLite
// compares), then ANALYZE TABLE; a foreign key or view MySQL rejects is left
// out and named in skipped.
func LoadMySQL(ctx context.Context, sqlitePath string, cfg *mysql.Config) (skipped []string, err error) {
	lite, err := sql.Open("sqlite", "file:"+sqlitePath+"?mode=ro")
	if err != nil {
		return nil, err
	}
	defer lite.Close()
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	my := sql.OpenDB(conn)
	defer my.Close()
	return mycopy.FromSQLite(ctx, lite, my)
}
