package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"talk2tables/orchestrator"
	"talk2tables/sqlerr"
)

func TestValidRequestID(t *testing.T) {
	tests := []struct {
		name string
		id   string
		want bool
	}{
		{"uuid-like", "3f2a-11ee.b_9", true},
		{"empty", "", false},
		{"128 chars", strings.Repeat("a", 128), true},
		{"129 chars", strings.Repeat("a", 129), false},
		{"space", "a b", false},
		{"newline injection", "a\nX-Evil: 1", false},
		{"non-ascii", "é", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := validRequestID(tt.id); got != tt.want {
				t.Errorf("validRequestID(%q) = %v, want %v", tt.id, got, tt.want)
			}
		})
	}
}

func TestClientLimiter(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	l := newClientLimiter(1, 2)
	for i := range 2 {
		if _, ok := l.allow("a", now); !ok {
			t.Fatalf("request %d within burst refused", i+1)
		}
	}
	wait, ok := l.allow("a", now)
	if ok {
		t.Fatal("third request at the same instant allowed, want refused")
	}
	if wait <= 0 || wait > time.Second {
		t.Errorf("wait = %v, want in (0, 1s]", wait)
	}
	if _, ok := l.allow("b", now); !ok {
		t.Error("another client refused: buckets are not per client")
	}
	if _, ok := l.allow("a", now.Add(time.Second)); !ok {
		t.Error("request after refill refused")
	}
	// Idle clients are swept.
	if _, ok := l.allow("c", now.Add(clientIdleTTL+2*sweepEvery)); !ok {
		t.Fatal("fresh client refused")
	}
	if got := l.size(); got != 1 {
		t.Errorf("clients after sweep = %d, want 1", got)
	}
}

func TestClientLimiterBounded(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	l := newClientLimiter(1, 1)
	for i := range maxClients + 50 {
		l.allow(fmt.Sprintf("10.0.%d.%d", i/256, i%256), now.Add(time.Duration(i)*time.Millisecond))
	}
	if got := l.size(); got > maxClients {
		t.Errorf("clients = %d, want <= %d", got, maxClients)
	}
}

func TestAnswerMarkdown(t *testing.T) {
	rows := make([][]any, 25)
	for i := range rows {
		rows[i] = []any{fmt.Sprintf("p|%d", i), float64(i) + 0.25, nil}
	}
	tests := []struct {
		name   string
		res    *orchestrator.QueryResult
		want   []string
		absent []string
	}{
		{
			name: "truncated table with recovery",
			res: &orchestrator.QueryResult{
				Success: true, SQL: "SELECT name, total, note FROM t", Explanation: "Totals per product.",
				Result: &orchestrator.QueryData{Columns: []string{"name", "total", "note"}, Rows: rows, RowCount: 25},
				Attempts: []orchestrator.Attempt{
					{SQL: "SELECT * FROM sale", Error: "no such table: sale", Category: sqlerr.MissingTable},
					{SQL: "SELECT name, total, note FROM t"},
				},
			},
			want: []string{
				"Totals per product.\n\n```sql\nSELECT name, total, note FROM t\n```\n",
				"| name | total | note |\n| --- | --- | --- |\n",
				`| p\|0 | 0.25 | NULL |`,
				"| p\\|19 | 19.25 | NULL |",
				"_Showing 20 of 25 rows._",
				"Answered after 2 attempts",
				"1. MISSING_TABLE: no such table: sale",
			},
			absent: []string{"p\\|20"},
		},
		{
			name: "no rows",
			res: &orchestrator.QueryResult{Success: true, SQL: "SELECT 1 WHERE 0",
				Result: &orchestrator.QueryData{Columns: []string{"x"}, Rows: [][]any{}}},
			want:   []string{"_No rows matched._"},
			absent: []string{"Answered after"},
		},
		{
			name: "integers stay integers",
			res: &orchestrator.QueryResult{Success: true, SQL: "SELECT 3",
				Result: &orchestrator.QueryData{Columns: []string{"n"}, Rows: [][]any{{float64(1234567)}}, RowCount: 1}},
			want: []string{"| 1234567 |"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := answerMarkdown(tt.res)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("markdown lacks %q; got:\n%s", w, got)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(got, a) {
					t.Errorf("markdown holds %q; got:\n%s", a, got)
				}
			}
		})
	}
}
