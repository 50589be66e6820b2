package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/internal/testfixture"
)

// offlineEnv makes one-database mode choose the offline planner.
func offlineEnv(t testing.TB) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("ANTHROPIC_API_KEY", "")
}

func fileHash(t testing.TB, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// startServe runs serve with args until the test ends; it returns the
// base URL, stderr and a function that stops it and returns its error.
func startServe(t testing.TB, args ...string) (string, *testfixture.LogBuffer, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &testfixture.LogBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "warn"}, args...),
			stdio{strings.NewReader(""), io.Discard, stderr})
	}()
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second): // a hang guard
			return errors.New("serve did not stop")
		}
	}
	t.Cleanup(func() { stop() })
	return waitForURL(t, stderr, done), stderr, stop
}

func postBody(t testing.TB, url, body string) (int, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// TestServeOneDatabase: `serve --db FILE` answers questions about the file
// with no configuration: the catalog is drafted on the first start and
// reused after, questions are verified and answer later ones, the
// verified questions outlive a restart, and the database is not written.
func TestServeOneDatabase(t *testing.T) {
	offlineEnv(t)
	db := testfixture.SalesDB(t, 2000)
	before := fileHash(t, db)
	dir := filepath.Join(t.TempDir(), "state")

	base, stderr, stop := startServe(t, "--db", db, "--state-dir", dir)
	catalogPath := filepath.Join(dir, "catalog.json")
	for _, want := range []string{"answering questions about " + db + " (sqlite)", catalogPath + " (drafted now",
		"talk2tables catalog validate --catalog " + catalogPath + " --db " + db, filepath.Join(dir, "state.db"),
		"the offline planner"} {
		if !stderr.Contains(want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	code, b := postBody(t, base+"api/query", `{"question":"how many orders by status"}`)
	if code != 200 || !bytes.Contains(b, []byte(`"success":true`)) {
		t.Fatalf("ask = %d %.300s", code, b)
	}
	const sql = "SELECT customer_name, COUNT(*) AS orders FROM orders JOIN customers USING (customer_id) " +
		"GROUP BY customer_name ORDER BY orders DESC, customer_name LIMIT 3"
	code, b = postBody(t, base+"api/verified", `{"question":"top 3 customers by number of orders","sql":"`+sql+`"}`)
	if code != http.StatusCreated {
		t.Fatalf("verify = %d %s", code, b)
	}
	code, b = postBody(t, base+"api/query", `{"question":"Top 5 customers by number of orders?"}`)
	var ans struct {
		SQL      string `json:"sql"`
		Verified *struct {
			ID int64 `json:"id"`
		} `json:"verified"`
		Result struct {
			RowCount int `json:"row_count"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &ans); err != nil || code != 200 || ans.Verified == nil || ans.Result.RowCount != 5 ||
		!strings.HasSuffix(ans.SQL, "LIMIT 5") {
		t.Fatalf("slot variant = %d %.400s, want the verified SQL with LIMIT 5", code, b)
	}
	if err := stop(); err != nil {
		t.Fatalf("serve = %v, want nil after a graceful stop", err)
	}

	// The second start reuses the catalog and keeps the verified question.
	catalogBefore := fileHash(t, catalogPath)
	base, stderr, stop = startServe(t, "--db", db, "--state-dir", dir)
	if !stderr.Contains("kept from an earlier start") {
		t.Errorf("second start did not reuse the catalog:\n%s", stderr.String())
	}
	resp, err := http.Get(base + "api/verified")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(b, []byte(`"total":1`)) || !bytes.Contains(b, []byte("top 3 customers by number of orders")) {
		t.Errorf("verified questions after a restart = %s, want the one verified before", b)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if fileHash(t, catalogPath) != catalogBefore {
		t.Error("the second start rewrote the catalog")
	}
	if fileHash(t, db) != before {
		t.Error("the database file changed: one-database mode must not write it")
	}
}

// TestMCPOneDatabase: `mcp --db FILE` serves the gateway on stdio for the
// file — ask and verify work, and stdout carries only the protocol.
func TestMCPOneDatabase(t *testing.T) {
	offlineEnv(t)
	db := testfixture.SalesDB(t, 2000)
	args := []string{"mcp", "--db", db, "--state-dir", t.TempDir()}
	logs := serveStdio(t, args, mcp.LATEST_LEGACY_PROTOCOL_VERSION, func(c *client.Client) {
		names := askOrders(t, c)
		for _, want := range []string{"ask", "run_sql", "verify", "database_mcp__execute_query"} {
			if !slices.Contains(names, want) {
				t.Errorf("tools = %v, want %s", names, want)
			}
		}
		// verify needs the user's approval; this client cannot be asked.
		call := mcp.CallToolRequest{}
		call.Params.Name = "verify"
		call.Params.Arguments = map[string]any{"question": "number of orders", "sql": "SELECT COUNT(*) FROM orders"}
		res, err := c.CallTool(context.Background(), call)
		if err != nil || !res.IsError || !strings.Contains(mcp.GetTextFromContent(res.Content[0]), "approval") {
			t.Errorf("verify without elicitation = %+v, %v; want a refusal asking for approval", res, err)
		}
	})
	if !strings.Contains(logs, "answering questions about "+db) {
		t.Errorf("stderr lacks the one-database summary:\n%s", logs)
	}
}

// TestOneDatabaseFlagErrors: flags that cannot go together, and a missing
// file, are clear errors before anything starts.
func TestOneDatabaseFlagErrors(t *testing.T) {
	offlineEnv(t)
	cfg := filepath.Join(t.TempDir(), "mcp_config.yaml")
	missing := filepath.Join(t.TempDir(), "nope.db")
	for _, cmd := range []string{"serve", "mcp"} {
		for _, tt := range []struct {
			name string
			args []string
			want string
		}{
			{"db and dsn", []string{"--db", "x.db", "--dsn", "postgres://u@h/d"}, "not both"},
			{"config and db", []string{"--config", cfg, "--db", "x.db"}, "give --config (a configuration file) or --db/--dsn"},
			{"missing file", []string{"--db", missing}, missing + " does not exist"},
			{"password-env without dsn", []string{"--db", "x.db", "--password-env", "P"}, "--password-env applies to --dsn only"},
			{"state-dir without db", []string{"--state-dir", t.TempDir()}, "--state-dir applies to --db and --dsn only"},
		} {
			t.Run(cmd+"/"+tt.name, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				err := run(context.Background(), append([]string{cmd}, tt.args...), stdio{strings.NewReader(""), &stdout, &stderr})
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("%s %v = %v, want an error containing %q", cmd, tt.args, err, tt.want)
				}
			})
		}
	}
}
