package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestResultCacheFields: /api/sql and /api/query results say whether they
// came from the result cache ("result_cache": "miss", then "hit" with
// "age_s"), and /metrics counts it.
func TestResultCacheFields(t *testing.T) {
	st := newStack(t, stackOptions{})
	type data struct {
		ResultCache string   `json:"result_cache"`
		AgeS        *float64 `json:"age_s"`
		RowCount    int      `json:"row_count"`
		DataVersion string   `json:"data_version"`
	}
	body := `{"sql":"` + goodSQL + `"}`
	for i, want := range []string{"miss", "hit"} {
		resp, b := st.call(t, "POST", "/api/sql", body, nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("POST /api/sql = %d %s", resp.StatusCode, b)
		}
		var d data
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		if d.ResultCache != want || (want == "hit") != (d.AgeS != nil) || d.RowCount != 4 || d.DataVersion == "" {
			t.Errorf("POST /api/sql #%d = %s; want result_cache %q (age_s only on a hit), 4 rows, a data_version", i+1, b, want)
		}
	}
	// The question's SQL is the same statement: its result is a hit too.
	resp, b := st.call(t, "POST", "/api/query", `{"question":"revenue by region"}`, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /api/query = %d %s", resp.StatusCode, b)
	}
	var qr struct {
		Result data `json:"result"`
	}
	if err := json.Unmarshal(b, &qr); err != nil {
		t.Fatal(err)
	}
	if qr.Result.ResultCache != "hit" || qr.Result.AgeS == nil {
		t.Errorf("POST /api/query result = %+v, want a hit with age_s", qr.Result)
	}
	_, m := st.call(t, "GET", "/metrics", "", nil)
	for _, line := range []string{`talk2tables_result_cache_total{event="hit"} 2`, `talk2tables_result_cache_total{event="miss"} 1`,
		"talk2tables_result_cache_bytes "} {
		if !strings.Contains(string(m), line) {
			t.Errorf("/metrics lacks %q", line)
		}
	}
}
