package draft

import (
	"context"
	"strings"
	"testing"

	"talk2tables/catalog"
)

func TestCheck(t *testing.T) {
	path := tradingDB(t)
	src := openSource(t, path)
	s := draftOf(t, path, Options{})
	problems, err := Check(context.Background(), s, src)
	if err != nil || len(problems) != 0 {
		t.Fatalf("Check(its own draft) = %v, %v; want no problems", problems, err)
	}
	s.Tables["Ghost"] = &catalog.Table{Role: catalog.RoleDimension, Columns: map[string]*catalog.Column{"x": {Kind: catalog.KindText}}}
	s.Tables["Orders"].Columns["Nope"] = &catalog.Column{Kind: catalog.KindText}
	s.Tables["Order Subtotals"].Role = catalog.RoleFact
	s.Measures["broken"] = &catalog.Measure{Table: "Order Details", Expression: "{UnitPrice} * no_such_function({Quantity})", Aggregate: catalog.AggSum}
	problems, err = Check(context.Background(), s, src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Path+": "+p.Message)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`tables.Ghost: the database has no table or view "Ghost"; rename the entry to one of its tables or remove it`,
		`tables.Orders.columns.Nope: table "Orders" has no column "Nope"`,
		`tables["Order Subtotals"].role: "Order Subtotals" is a view in the database; set role to view`,
		`measures.broken: does not run on the database (SYNTAX_ERROR: no such function: no_such_function); fix its SQL`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	if len(problems) != 4 {
		t.Errorf("%d problems, want 4:\n%s", len(problems), all)
	}
}
