package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"talk2tables/internal/fixtures"
	"talk2tables/internal/llmtest"
	"talk2tables/orchestrator/executor"
)

// parcelsDB builds the parcels fixture, a database of another domain than
// the sample.
func parcelsDB(tb testing.TB) string {
	tb.Helper()
	path, err := fixtures.Build(context.Background(), fixtures.Parcels, tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestSQLEndpointServer: /api/sql runs on the executor "server" names,
// else the top-priority one; an unknown server is a 400 naming the
// configured ones; SQL over the other database's table says where to send it.
func TestSQLEndpointServer(t *testing.T) {
	st := newStack(t, stackOptions{secondDB: parcelsDB(t)})
	const shipments = `SELECT COUNT(*) AS n FROM shipments`
	resp, body := st.call(t, "POST", "/api/sql", `{"sql":"`+shipments+`","server":"second_db"}`, nil)
	if resp.StatusCode != 200 {
		t.Fatalf("second_db: status %d, body %s", resp.StatusCode, body)
	}
	var d executor.QueryData
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatal(err)
	}
	if d.Executor != "second_db" || len(d.Rows) != 1 {
		t.Errorf("data = %+v, want one row from second_db", d)
	}
	resp, body = st.call(t, "POST", "/api/sql", `{"sql":"SELECT COUNT(*) FROM sales"}`, nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"executor":"database_mcp"`) {
		t.Errorf("no server: status %d body %s, want database_mcp", resp.StatusCode, body)
	}
	resp, body = st.call(t, "POST", "/api/sql", `{"sql":"SELECT 1","server":"nope"}`, nil)
	e := errorOf(t, body)
	if resp.StatusCode != 400 || e.Error.Code != "unknown_server" || e.Error.Field != "server" ||
		!strings.Contains(e.Error.Message, `"database_mcp", "second_db"`) {
		t.Errorf("unknown server: status %d body %s", resp.StatusCode, body)
	}
	// The schemas are cached once a question was asked: SQL over the
	// second database's table, sent to the first, names the right server.
	st.call(t, "POST", "/api/query", `{"question":"revenue by region"}`, nil)
	resp, body = st.call(t, "POST", "/api/sql", `{"sql":"`+shipments+`"}`, nil)
	if e := errorOf(t, body); resp.StatusCode != 422 || !strings.Contains(e.Error.Message, `"server": "second_db"`) {
		t.Errorf("other database's table: status %d body %s", resp.StatusCode, body)
	}
}

// TestChatSaysWhichDatabase: with several executors the chat answer says
// which database answered.
func TestChatSaysWhichDatabase(t *testing.T) {
	plan := `{"server":"database_mcp","sql":"` + goodSQL + `","explanation":"Total revenue per region.","confidence":0.9}`
	st := newStack(t, stackOptions{secondDB: parcelsDB(t),
		respond: func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: plan} }})
	resp, body := st.call(t, "POST", "/v1/chat/completions", chatBody, nil)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var cc chatCompletion
	if err := json.Unmarshal(body, &cc); err != nil {
		t.Fatal(err)
	}
	md := cc.Choices[0].Message.Content
	checkAnswer(t, md)
	if !strings.Contains(md, "Answered from database `database_mcp`.") {
		t.Errorf("answer does not say which database answered:\n%s", md)
	}
}
