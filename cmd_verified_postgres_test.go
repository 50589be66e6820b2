package main

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"talk2tables/internal/pgtest"
)

// TestVerifiedReplicasSharePostgresState: two serve replicas whose state
// is one PostgreSQL database see each other's verified questions — one
// verifies, the other lists it and answers from it; a delete on one is
// seen by the other.
func TestVerifiedReplicasSharePostgresState(t *testing.T) {
	data := pgtest.NewDB(t)
	pgtest.LoadSample(t, data, 1000)
	bare, pw := withoutPassword(t, data.ReadOnlyRole(t).DSN())
	t.Setenv("T2T_REPLICA_PASSWORD", pw)
	stateDSN, statePW := withoutPassword(t, pgtest.NewDB(t).DSN())
	t.Setenv("T2T_STATE_PASSWORD", statePW)
	cfg := "mcp_servers:\n" + postgresServers(t, bare) + serveTail(nil) +
		"state:\n  dsn: \"" + stateDSN + "\"\n  password_env: T2T_STATE_PASSWORD\n  refresh: 0s\n"
	a := startServeYAML(t, "a", cfg)
	b := startServeYAML(t, "b", cfg)

	code, res := post(t, a+"api/verified", `{"question":"revenue in the East region",`+
		`"sql":"SELECT round(sum(total_amount), 2) AS revenue FROM sales WHERE region = 'East'"}`)
	if code != http.StatusCreated {
		t.Fatalf("verify on a = %d %v", code, res)
	}
	id := res["entry"].(map[string]any)["id"].(float64)

	resp, err := http.Get(b + "api/verified")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Total int `json:"total"`
	}
	decodeBody(t, resp, &list)
	if list.Total != 1 {
		t.Errorf("replica b lists %d verified questions, want the one a verified", list.Total)
	}
	code, res = post(t, b+"api/query", `{"question":"Revenue in the West region?"}`)
	v, _ := res["verified"].(map[string]any)
	if code != 200 || v == nil || v["id"] != id || !strings.Contains(res["sql"].(string), "'West'") {
		t.Fatalf("ask on b = %d %v, want the answer of a's verified question with West", code, res)
	}

	req, _ := http.NewRequest(http.MethodDelete, b+"api/verified/"+formatID(id), nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete on b = %d", resp.StatusCode)
	}
	_, res = post(t, a+"api/query", `{"question":"revenue in the East region"}`)
	if res["verified"] != nil {
		t.Errorf("a still answers from the question b deleted: %v", res["verified"])
	}
}

func decodeBody(t testing.TB, resp *http.Response, v any) {
	t.Helper()
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("decode %s: %v", resp.Request.URL, err)
	}
}

func formatID(id float64) string { return strconv.FormatInt(int64(id), 10) }

// TestServeOneDatabasePostgres: `serve --dsn URL` answers questions about
// a PostgreSQL database with no configuration file; the password comes
// from --password-env and is never printed.
func TestServeOneDatabasePostgres(t *testing.T) {
	offlineEnv(t)
	data := pgtest.NewDB(t)
	pgtest.LoadSample(t, data, 1000)
	bare, pw := withoutPassword(t, data.ReadOnlyRole(t).DSN())
	t.Setenv("T2T_ONE_PASSWORD", pw)
	base, stderr, stop := startServe(t, "--dsn", bare, "--password-env", "T2T_ONE_PASSWORD", "--state-dir", t.TempDir())
	code, b := postBody(t, base+"api/query", `{"question":"how many orders by status"}`)
	if code != 200 || !strings.Contains(string(b), `"success":true`) {
		t.Fatalf("ask = %d %.300s", code, b)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !stderr.Contains("(postgres)") || !stderr.Contains("--password-env T2T_ONE_PASSWORD") || stderr.Contains(pw) {
		t.Errorf("stderr = %s, want the postgres summary without the password", stderr.String())
	}
}
