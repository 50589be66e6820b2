package main

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/catalog"
	"talk2tables/internal/mariadbtest"
)

// TestMySQLCommands: gen-data --dsn mysql://... loads the sample into
// MariaDB, catalog init --dsn drafts its catalog, and database-mcp --dsn
// serves it over stdio, through the least-privilege user, with the
// password from --password-env: the logs name the target, never the
// password, and a wrong password is one line that says what to fix.
func TestMySQLCommands(t *testing.T) {
	db := mariadbtest.NewDB(t)
	out, _, err := runCmd(t, "gen-data", "--dsn", db.DSN(), "--rows", "400", "--as-of", "2026-06-30")
	if err != nil || !strings.Contains(out, "400 sales") {
		t.Fatalf("gen-data = %q, %v", out, err)
	}
	if _, _, err := runCmd(t, "gen-data", "--dsn", db.DSN(), "--rows", "400"); err == nil || !strings.Contains(err.Error(), "use --replace") {
		t.Errorf("gen-data again = %v, want a refusal naming --replace", err)
	}
	u := db.ReadOnlyUser(t)
	bare := strings.Replace(u.DSN(), ":"+u.Password+"@", "@", 1)
	t.Setenv("T2T_TEST_DB_PASSWORD", u.Password)
	t.Setenv("MYSQL_PWD", "")

	catPath := filepath.Join(t.TempDir(), "catalog.json")
	if _, _, err := runCmd(t, "catalog", "init", "--dsn", bare, "--password-env", "T2T_TEST_DB_PASSWORD", "--out", catPath); err != nil {
		t.Fatalf("catalog init: %v", err)
	}
	cat, err := catalog.Load(catPath)
	if err != nil {
		t.Fatal(err)
	}
	if cat.Source.Dialect != "mysql" || cat.Source.Database != db.Name || cat.Tables["sales"] == nil || len(cat.Entities) == 0 {
		t.Errorf("drafted catalog: source %+v, %d tables, %d entity sets", cat.Source, len(cat.Tables), len(cat.Entities))
	}

	logs := serveStdio(t, []string{"database-mcp", "--dsn", bare, "--password-env", "T2T_TEST_DB_PASSWORD"}, mcp.LATEST_PROTOCOL_VERSION, func(c *client.Client) {
		call := mcp.CallToolRequest{}
		call.Params.Name = "execute_query"
		call.Params.Arguments = map[string]any{"query": "SELECT status, COUNT(*) AS n FROM `orders` GROUP BY status ORDER BY status", "max_rows": 2}
		res, err := c.CallTool(context.Background(), call)
		if err != nil {
			t.Fatal(err)
		}
		text := mcp.GetTextFromContent(res.Content[0])
		if res.IsError || !strings.Contains(text, `"rows":[["cancelled",`) || !strings.Contains(text, `"truncated":true`) {
			t.Errorf("execute_query = %s", text)
		}
		call.Params.Arguments = map[string]any{"query": `SELECT 'a\'' ; DELETE FROM sales; -- '`}
		res, err = c.CallTool(context.Background(), call)
		if err != nil {
			t.Fatal(err)
		}
		if text := mcp.GetTextFromContent(res.Content[0]); !res.IsError || !strings.Contains(text, "PERMISSION_ERROR") {
			t.Errorf("a DELETE hidden by a backslash escape = %s, want PERMISSION_ERROR", text)
		}
	})
	if strings.Contains(logs, u.Password) {
		t.Errorf("the password is in the logs:\n%s", logs)
	}
	for _, want := range []string{`"dialect":"mysql"`, `"host":"127.0.0.1"`, `"database":"` + db.Name + `"`,
		`"user":"` + u.Name + `"`, `"event":"database_opened"`, `"server_version":"10.`} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %s:\n%s", want, logs)
		}
	}

	t.Setenv("T2T_TEST_DB_PASSWORD", "wrong-"+u.Password)
	_, _, err = runCmd(t, "database-mcp", "--dsn", bare, "--password-env", "T2T_TEST_DB_PASSWORD")
	want := `database-mcp: mysql 127.0.0.1:` + strconv.Itoa(db.Server.Port) + ` database "` + db.Name + `" user "` + u.Name +
		`": access denied: check the user and password (MYSQL_PWD, --password-env or the DSN) and that the user may connect from this host`
	if err == nil || err.Error() != want || errors.Is(err, errUsage) {
		t.Errorf("error = %v\nwant %s", err, want)
	}
}
