package builtin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"talk2tables/orchestrator/sqlgen"
)

// salesDeclines must be declined on the sample database: writes, open or
// predictive questions, unknown words, and questions whose reading is not
// certain (a non-additive measure summed, a value several tables hold, an
// average per entity).
func salesDeclines() []string {
	return []string{
		"",
		"   ?!  ",
		"delete all orders",
		"DROP TABLE sales",
		"update the price of abracadabra to 10",
		"insert a new customer",
		"why did sales drop last month?",
		"what will revenue be next month",
		"predict revenue for 2027",
		"tell me something interesting",
		"sales for zorblax",
		"revenue in Atlantis",
		"revenue by weather",
		"asdf qwerty",
		"how many",
		"show me",
		"abracadabra",
		"sum of regions",
		"average customer",
		"revenue by discount",
		"compare this month and last month",
		"compare revenue",
		"average revenue per customer",
		"average revenue per order",
		"average sale amount per order",
		"avg quantity by order",
		"which is better",
		"revenue for abracadabra in the north and email",
		"sales 42",
		"top 5",
		"best",
		"revenue by",
		"profit margin by region",
		"what is the meaning of life",
		"total revenue and number of orders",
		"list orders and customers",
		"revenue last 2 fortnights",
		"sales by customer per qwerty",
		"number of orders for widgets in electronics",
		"revenue for smart hob",
		"total discount for corporate",
		"total unit price",
		"unit price by category",
		"price of abracadabra last month",
		"how many orders in the north",
		"orders over 500",
		"top products by discount",
		"revenue for north and abracadabra",
		"how many customers will buy next year",
		"total average order value",
		"how many products were sold",
		"list the 5 oldest customers", // by age? no birth date
		"biggest customer",            // by what?
		"which customer has the most", // the most what?
		"top region by revenue in each month",
		"average revenue per month",
		"average monthly revenue",
	}
}

func TestGenerateDeclines(t *testing.T) {
	e := salesEnv(t)
	g := New(nil)
	for _, q := range salesDeclines() {
		t.Run(q, func(t *testing.T) {
			ge := e.declines(t, g, q)
			if ge.Hint == "" && strings.TrimSpace(strings.Trim(q, "?! ")) != "" {
				t.Errorf("decline of %q has no rephrasing hint: %s", q, ge.Message)
			}
		})
	}
}

// TestDeclineReasons: the message names what was wrong; the hint says how
// to ask instead.
func TestDeclineReasons(t *testing.T) {
	e := salesEnv(t)
	g := New(nil)
	tests := []struct {
		name, q       string
		message, hint []string
		notInMessage  []string
	}{
		{name: "unknown word", q: "revenue for abracadabra by weather",
			message: []string{`"weather"`, "abracadabra", "sales.total_amount"}},
		{name: "why", q: "why did sales drop last month?", message: []string{"cannot explain why"}},
		{name: "why fall", q: "Why did revenue fall?", message: []string{"cannot explain why"}},
		{name: "drop table stays a write", q: "drop table sales", message: []string{"never changes data"}},
		{name: "delete stays a write", q: "delete all orders", message: []string{"never changes data"}},
		{name: "sum of a price", q: "total unit price", message: []string{"sales.unit_price", "adding it up"}, hint: []string{"average unit price"}},
		{name: "sum of a rate", q: "total discount for corporate", message: []string{"discount"}, hint: []string{"average discount"}},
		{name: "price needs an aggregate", q: "unit price by category", message: []string{"averaged"}, hint: []string{"average unit price"}},
		{name: "value in two tables", q: "how many orders in the north", message: []string{"customers.region", "sales.region"}, hint: []string{"say which"}},
		{name: "average per entity", q: "average revenue per customer", message: []string{"ambiguous"}, hint: []string{"revenue by customer"}},
		{name: "future", q: "what will revenue be next month", message: []string{"cannot predict"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ge := e.declines(t, g, tc.q)
			for _, w := range tc.message {
				if !strings.Contains(ge.Message, w) {
					t.Errorf("message %q lacks %q", ge.Message, w)
				}
			}
			for _, w := range tc.hint {
				if !strings.Contains(ge.Hint, w) {
					t.Errorf("hint %q lacks %q", ge.Hint, w)
				}
			}
		})
	}
}

// TestNoCatalogDeclinesNameTheMissingCatalog: with the metadata server down
// (fail_fast: false) only the schema reaches the generator; a business word
// is declined saying the catalog is missing.
func TestNoCatalogDeclinesNameTheMissingCatalog(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	req.Servers = req.Servers[1:] // database server only
	req.Question = "total revenue by region"
	_, err := New(nil).Generate(context.Background(), req)
	var ge *sqlgen.SQLGenerationError
	if !errors.As(err, &ge) || ge.Reason != sqlgen.ReasonDeclined {
		t.Fatalf("err = %v, want a declined SQLGenerationError", err)
	}
	for _, want := range []string{declinePrefix, "metadata MCP server", `"revenue"`} {
		if !strings.Contains(ge.Message, want) {
			t.Errorf("message %q lacks %q", ge.Message, want)
		}
	}
	if ge.Hint == "" {
		t.Errorf("no hint")
	}
}

func TestNoSchemaDeclines(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	req.Servers = req.Servers[:1]
	req.Question = "total revenue"
	_, err := New(nil).Generate(context.Background(), req)
	var ge *sqlgen.SQLGenerationError
	if !errors.As(err, &ge) || ge.Reason != sqlgen.ReasonDeclined {
		t.Fatalf("err = %v, want declined", err)
	}
}

func TestRepairDeclines(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	req.Question = "total revenue"
	req.Repair = &sqlgen.Repair{Attempt: 1, FailedSQL: "SELECT 1", Error: "boom"}
	_, err := New(nil).Generate(context.Background(), req)
	var ge *sqlgen.SQLGenerationError
	if !errors.As(err, &ge) || ge.Reason != sqlgen.ReasonDeclined {
		t.Fatalf("err = %v, want declined", err)
	}
}

func TestCanceledContext(t *testing.T) {
	e := salesEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := e.req
	req.Question = "total revenue"
	if _, err := New(nil).Generate(ctx, req); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestUnknownDialectDeclines(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	req.Question = "total revenue"
	req.Dialect = "oracle"
	ge := func() *sqlgen.SQLGenerationError {
		_, err := New(nil).Generate(context.Background(), req)
		var ge *sqlgen.SQLGenerationError
		if !errors.As(err, &ge) {
			t.Fatalf("err = %v, want declined", err)
		}
		return ge
	}()
	if !strings.Contains(ge.Message, "oracle") {
		t.Errorf("message %q does not name the dialect", ge.Message)
	}
}

func TestQuoteListBounded(t *testing.T) {
	long := strings.Repeat("x", 2000)
	tests := []struct {
		name  string
		words []string
		want  string
	}{
		{"short", []string{"meaning", "life"}, `"meaning", "life"`},
		{"long word cut", []string{long}, `"` + strings.Repeat("x", 40) + `…"`},
		{"many words", []string{"a", "b", "c", "d", "e", "f", "g", "h"}, `"a", "b", "c", "d", "e", "f", and 2 more`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := quoteList(tt.words); got != tt.want {
				t.Errorf("quoteList = %q, want %q", got, tt.want)
			}
		})
	}
}
