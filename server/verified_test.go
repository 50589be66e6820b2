package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/config"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/verified"
	"talk2tables/state"
)

// newBook opens a fresh SQLite state database.
func newBook(tb testing.TB) *verified.Book {
	tb.Helper()
	st, err := state.Open(context.Background(), config.StateConfig{Path: filepath.Join(tb.TempDir(), "state.db")}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	b := verified.New(st, 0, nil)
	if err := b.Load(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return b
}

type taughtBody struct {
	Entry  state.Entry     `json:"entry"`
	Result json.RawMessage `json:"result"`
}

const eastSQL = "SELECT ROUND(SUM(total_amount), 2) AS revenue FROM sales WHERE region = 'East'"

// TestVerifiedAPI: verify, list, search, get, ask (the answer says it came
// from the verified question), change, delete — and every bad input is a
// 4xx naming its field.
func TestVerifiedAPI(t *testing.T) {
	st := newStack(t, stackOptions{verified: newBook(t)})
	ui := map[string]string{clientHeader: "ui"}

	resp, b := st.call(t, http.MethodPost, "/api/verified", `{"question":"revenue in the East region","sql":"`+eastSQL+`"}`, ui)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST = %d %s", resp.StatusCode, b)
	}
	var taught taughtBody
	if err := json.Unmarshal(b, &taught); err != nil {
		t.Fatal(err)
	}
	e := taught.Entry
	if e.ID == 0 || e.VerifiedBy != "ui" || !strings.Contains(string(taught.Result), `"row_count":1`) ||
		resp.Header.Get("Location") != fmt.Sprintf("/api/verified/%d", e.ID) {
		t.Fatalf("created %+v, result %s, location %q", e, taught.Result, resp.Header.Get("Location"))
	}

	t.Run("an answer from it says so", func(t *testing.T) {
		resp, b := st.call(t, http.MethodPost, "/api/query", `{"question":"Revenue in the west region?"}`, nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("query = %d %s", resp.StatusCode, b)
		}
		var res orchestrator.QueryResult
		if err := json.Unmarshal(b, &res); err != nil {
			t.Fatal(err)
		}
		if res.Verified == nil || res.Verified.ID != e.ID || res.Verified.By != "ui" || len(res.Verified.Substituted) != 1 ||
			!strings.Contains(res.SQL, "'West'") {
			t.Fatalf("verified = %+v, sql %s", res.Verified, res.SQL)
		}
		if n := len(st.llm.Requests()); n != 0 {
			t.Errorf("the LLM was asked %d times", n)
		}
	})

	t.Run("chat answers say so too", func(t *testing.T) {
		resp, b := st.call(t, http.MethodPost, "/v1/chat/completions",
			`{"model":"talk2tables","messages":[{"role":"user","content":"revenue in the east region"}]}`, nil)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "Verified question #") {
			t.Fatalf("chat = %d %s", resp.StatusCode, b)
		}
	})

	t.Run("list, search, get", func(t *testing.T) {
		for _, tt := range []struct {
			query string
			want  int
		}{{"", 1}, {"?q=EAST", 1}, {"?q=north", 0}, {"?server=database_mcp", 1}, {"?server=other", 0}, {"?status=stale", 0}} {
			resp, b := st.call(t, http.MethodGet, "/api/verified"+tt.query, "", nil)
			var l verifiedList
			if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &l) != nil || l.Total != tt.want || len(l.Entries) != tt.want {
				t.Errorf("GET /api/verified%s = %d %s; want %d entries", tt.query, resp.StatusCode, b, tt.want)
			}
		}
		resp, b := st.call(t, http.MethodGet, fmt.Sprintf("/api/verified/%d", e.ID), "", nil)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"use_count":2`) {
			t.Errorf("GET entry = %d %s; want its two uses counted", resp.StatusCode, b)
		}
	})

	t.Run("bad input names the field", func(t *testing.T) {
		long := strings.Repeat("x", 2001)
		for _, tt := range []struct {
			name, method, path, body string
			status                   int
			code, field              string
		}{
			{"write statement", "POST", "/api/verified", `{"question":"q1","sql":"DELETE FROM sales"}`, 422, "sql_execution_failed", "sql"},
			{"SQL that does not run", "POST", "/api/verified", `{"question":"q2","sql":"SELECT nope FROM sales"}`, 422, "sql_execution_failed", "sql"},
			{"question too long", "POST", "/api/verified", `{"question":"` + long + `","sql":"SELECT 1"}`, 400, "invalid_field", "question"},
			{"no SQL", "POST", "/api/verified", `{"question":"q3"}`, 400, "invalid_field", "sql"},
			{"unknown server", "POST", "/api/verified", `{"question":"q4","sql":"SELECT 1","server":"nope"}`, 400, "unknown_server", "server"},
			{"duplicate", "POST", "/api/verified", `{"question":"REVENUE in the east region!","sql":"SELECT 1"}`, 409, "duplicate_question", "question"},
			{"unknown field", "POST", "/api/verified", `{"question":"q","sql":"SELECT 1","by":"me"}`, 400, "unknown_field", "by"},
			{"bad id", "GET", "/api/verified/abc", "", 400, "invalid_field", "id"},
			{"unknown id", "DELETE", "/api/verified/999", "", 404, "not_found", "id"},
			{"bad status", "GET", "/api/verified?status=old", "", 400, "invalid_field", "status"},
			{"bad limit", "GET", "/api/verified?limit=0", "", 400, "invalid_field", "limit"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				resp, b := st.call(t, tt.method, tt.path, tt.body, nil)
				if resp.StatusCode != tt.status {
					t.Fatalf("status = %d, want %d: %s", resp.StatusCode, tt.status, b)
				}
				eb := errorOf(t, b)
				if eb.Error.Code != tt.code || eb.Error.Field != tt.field {
					t.Errorf("error %+v, want code %s field %s", eb.Error, tt.code, tt.field)
				}
				if tt.status == 409 && !strings.Contains(string(b), fmt.Sprintf(`"existing_id":%d`, e.ID)) {
					t.Errorf("409 without the existing id: %s", b)
				}
			})
		}
	})

	t.Run("change and delete", func(t *testing.T) {
		resp, b := st.call(t, http.MethodPatch, fmt.Sprintf("/api/verified/%d", e.ID),
			`{"sql":"SELECT ROUND(SUM(total_amount), 1) AS revenue FROM sales WHERE region = 'East'"}`, nil)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"verified_by":"api"`) {
			t.Fatalf("PATCH = %d %s", resp.StatusCode, b)
		}
		resp, b = st.call(t, http.MethodDelete, fmt.Sprintf("/api/verified/%d", e.ID), "", nil)
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("DELETE = %d %s", resp.StatusCode, b)
		}
		resp, _ = st.call(t, http.MethodGet, fmt.Sprintf("/api/verified/%d", e.ID), "", nil)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET after DELETE = %d, want 404", resp.StatusCode)
		}
	})
}

// TestVerifiedEditors: with API keys, a viewer key asks and lists but may
// not teach (403); an editor key teaches, and its name is recorded.
func TestVerifiedEditors(t *testing.T) {
	st := newStack(t, stackOptions{verified: newBook(t), apiKeys: "viewer-key-1", editorKeys: "ana:editor-key-1,bare-editor-key"})
	body := `{"question":"revenue in the East region","sql":"` + eastSQL + `"}`
	resp, b := st.call(t, http.MethodPost, "/api/verified", body, map[string]string{"Authorization": "Bearer viewer-key-1"})
	if resp.StatusCode != http.StatusForbidden || errorOf(t, b).Error.Code != "forbidden" || !strings.Contains(string(b), editorKeysEnv) {
		t.Fatalf("viewer POST = %d %s; want 403 naming the editor keys", resp.StatusCode, b)
	}
	resp, b = st.call(t, http.MethodPost, "/api/verified", body, map[string]string{"Authorization": "Bearer editor-key-1"})
	if resp.StatusCode != http.StatusCreated || !strings.Contains(string(b), `"verified_by":"ana"`) {
		t.Fatalf("editor POST = %d %s", resp.StatusCode, b)
	}
	resp, b = st.call(t, http.MethodGet, "/api/verified", "", map[string]string{"Authorization": "Bearer viewer-key-1"})
	if resp.StatusCode != http.StatusOK {
		t.Errorf("viewer GET = %d %s", resp.StatusCode, b)
	}
	resp, b = st.call(t, http.MethodPost, "/api/query", `{"question":"revenue in the east region"}`,
		map[string]string{"Authorization": "Bearer bare-editor-key"})
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"by":"ana"`) {
		t.Errorf("editor asks = %d %s", resp.StatusCode, b)
	}
	resp, _ = st.call(t, http.MethodDelete, "/api/verified/1", "", map[string]string{"Authorization": "Bearer bare-editor-key"})
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("bare editor key DELETE = %d", resp.StatusCode)
	}
	if strings.Contains(st.logs.String(), "editor-key-1") {
		t.Errorf("an editor key reached the logs")
	}
}

func TestParseEditorKeys(t *testing.T) {
	names, keys := parseEditorKeys(" ana:k1, k2 ,bob.smith:k:3,1bad:k4,", "X")
	want := []string{"ana", "editor-2", "bob.smith", "editor-4"}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("names = %v, want %v", names, want)
	}
	if string(keys[0]) != "k1" || string(keys[1]) != "k2" || string(keys[2]) != "k:3" || string(keys[3]) != "1bad:k4" {
		t.Errorf("keys = %q", keys)
	}
}
