package catalog_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"talk2tables/catalog"
)

func loadV1(tb testing.TB, data []byte) *catalog.V1 {
	tb.Helper()
	old, err := catalog.ParseV1("old.json", data)
	if err != nil {
		tb.Fatalf("ParseV1: %v", err)
	}
	return old
}

// TestMigrateWithoutDatabase converts the version-1 sample catalog from its
// names alone and checks the result round-trips through the strict loader.
func TestMigrateWithoutDatabase(t *testing.T) {
	data, err := os.ReadFile(v1Fixture)
	if err != nil {
		t.Fatal(err)
	}
	s, err := catalog.Migrate(loadV1(t, data), nil)
	if err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	out, err := catalog.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	again, err := catalog.Parse("migrated.json", out)
	if err != nil {
		t.Fatalf("the migrated catalog does not load: %v", err)
	}
	if out2, _ := catalog.Marshal(again); string(out2) != string(out) {
		t.Errorf("migrated catalog changed across Marshal → Parse → Marshal")
	}
	checks := []struct {
		name string
		got  any
		want any
	}{
		{"sales role", s.Tables["sales"].Role, catalog.RoleFact},
		{"sales date", s.Tables["sales"].DateColumn, "sale_date"},
		{"products key", s.Tables["products"].Key, "product_id"},
		{"products label", strings.Join(s.Tables["products"].Label, ","), "product_name"},
		{"total_amount measure", s.Tables["sales"].Columns["total_amount"].Measure, catalog.MeasureAdditive},
		{"unit_price measure", s.Tables["sales"].Columns["unit_price"].Measure, catalog.MeasureNonAdditive},
		{"discount unit", s.Tables["sales"].Columns["discount"].Unit, "rate"},
		{"email kind", s.Tables["customers"].Columns["email"].Kind, catalog.KindText},
		{"signup date format", s.Tables["customers"].Columns["signup_date"].DateFormat, catalog.DateISO},
		{"aggregation term", s.Vocabulary.AggregationTerms["how many"], "COUNT"},
		// "region" is a v1 term of sales.region: customers.region keeps only its own term.
		{"customers.region words", strings.Join(s.Tables["customers"].Columns["region"].Words, ","), "customer region"},
		// "revenue" was a sales table alias and a column term: the column term wins.
		{"sales words lack revenue", slices.Contains(s.Tables["sales"].Words, "revenue"), false},
		{"revenue names total_amount", slices.Contains(s.Tables["sales"].Columns["total_amount"].Words, "revenue"), true},
		// date_terms become synonyms of the phrases they mean
		{"ytd", s.Vocabulary.Synonyms["ytd"], "year to date"},
		{"no synonym of itself", s.Vocabulary.Synonyms["this month"], ""},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	notes := strings.Join(s.Source.Notes, " | ")
	for _, want := range []string{"42 products became entities", "read from the names only",
		`the offline planner does not read (the LLM reads them in column_mappings): "last quarter", "last week", "this quarter", "this week"`} {
		if !strings.Contains(notes, want) {
			t.Errorf("source notes %q lack %q", notes, want)
		}
	}
}

// anyTableV1 keeps its "products" in a books table: references of any table
// name the row.
const anyTableV1 = `{
  "product_aliases": {
    "dune": {"canonical_id": "1", "canonical_name": "Dune", "aliases": ["dune", "arrakis"],
             "database_references": {"books.book_id": 1, "books.title": "Dune", "books.list_price": 9.5},
             "categories": ["Science Fiction", "Classics"]},
    "hobbit": {"canonical_id": "3", "canonical_name": "The Hobbit", "aliases": ["hobbit"],
               "database_references": {"books.book_id": 3, "books.title": "The Hobbit"},
               "categories": ["Fantasy"]}
  },
  "column_mappings": {
    "user_friendly_terms": {"revenue": "purchases.amount", "genre": "books.genre"},
    "aggregation_terms": {"total": "SUM"},
    "date_terms": {},
    "date_columns": {"purchases": "purchased_on"},
    "table_aliases": {"books": ["titles"], "purchases": ["orders"]}
  }
}`

func TestMigrateAnyTable(t *testing.T) {
	s, err := catalog.Migrate(loadV1(t, []byte(anyTableV1)), nil)
	if err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	if len(s.Entities) != 1 {
		t.Fatalf("entity sets = %d, want 1", len(s.Entities))
	}
	set := s.Entities[0]
	if set.Table != "books" || set.Key != "book_id" || !slices.Equal(set.Columns, []string{"title"}) || len(set.Values) != 2 {
		t.Fatalf("entity set = %+v, want books.book_id named by title with 2 values", set)
	}
	dune := set.Values[0]
	if dune.Key != int64(1) || dune.Attributes["list_price"] != 9.5 || dune.Attributes["category"] != "Science Fiction" ||
		!slices.Equal(dune.Tags, []string{"Classics"}) {
		t.Errorf("dune = %+v", dune)
	}
	if got := s.Tables["purchases"]; got.DateColumn != "purchased_on" || got.Role != catalog.RoleFact {
		t.Errorf("purchases = %+v, want a fact table dated by purchased_on", got)
	}
	if !slices.Contains(s.Tables["books"].Words, "titles") || !slices.Contains(s.Tables["purchases"].Words, "orders") {
		t.Errorf("table aliases lost: books %v purchases %v", s.Tables["books"].Words, s.Tables["purchases"].Words)
	}
}

// TestMigrateOntoBase applies a version-1 catalog on top of a catalog
// drafted from the database.
func TestMigrateOntoBase(t *testing.T) {
	base := &catalog.Semantic{Version: 2, Source: &catalog.Source{Database: "books.db", Notes: []string{"drafted"}},
		Tables: map[string]*catalog.Table{
			"books": {Words: []string{"books", "book"}, Role: catalog.RoleDimension, Key: "book_id", Label: []string{"title"},
				Columns: map[string]*catalog.Column{
					"book_id":    {Kind: catalog.KindIdentifier, Why: "primary key"},
					"title":      {Words: []string{"title"}, Kind: catalog.KindLabel},
					"genre":      {Words: []string{"genre"}, Kind: catalog.KindAttribute},
					"list_price": {Words: []string{"list price", "price"}, Kind: catalog.KindMeasure, Measure: catalog.MeasureNonAdditive, Unit: "money"},
				}},
			"purchases": {Words: []string{"purchases", "purchase"}, Role: catalog.RoleFact, DateColumn: "created",
				Columns: map[string]*catalog.Column{
					"purchase_id":  {Kind: catalog.KindIdentifier},
					"amount":       {Words: []string{"amount"}, Kind: catalog.KindMeasure, Measure: catalog.MeasureAdditive, Unit: "money"},
					"purchased_on": {Words: []string{"purchased on"}, Kind: catalog.KindDate, DateFormat: catalog.DateTimeISO},
					"created":      {Kind: catalog.KindDate, DateFormat: catalog.DateISO},
				}},
		},
		Entities: []*catalog.EntitySet{{Table: "books", Key: "book_id", Columns: []string{"title"}, Values: []*catalog.Entity{
			{Name: "Dune (1965)", Key: int64(1)},
			{Name: "Emma", Key: int64(2)},
		}}},
	}
	old := strings.Replace(anyTableV1, `"genre": "books.genre"`, `"genre": "books.genre", "isbn": "books.isbn"`, 1)
	s, err := catalog.Migrate(loadV1(t, []byte(old)), base)
	if err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	if base.Entities[0].Values[0].Aliases != nil {
		t.Errorf("Migrate changed its base")
	}
	set := s.Entities[0]
	if len(set.Values) != 3 {
		t.Fatalf("values = %d, want the 2 drafted rows plus The Hobbit", len(set.Values))
	}
	dune := set.Values[0]
	if dune.Name != "Dune (1965)" || !slices.Contains(dune.Aliases, "dune") || !slices.Contains(dune.Aliases, "arrakis") {
		t.Errorf("dune = %+v, want the database name with the v1 name and aliases as aliases", dune)
	}
	if set.Values[1].Name != "Emma" || set.Values[2].Name != "The Hobbit" {
		t.Errorf("values = %v %v, want Emma (drafted) then The Hobbit (v1), by key", set.Values[1].Name, set.Values[2].Name)
	}
	p := s.Tables["purchases"]
	if p.DateColumn != "purchased_on" || p.Columns["purchased_on"].DateFormat != catalog.DateTimeISO {
		t.Errorf("purchases date = %q (%s), want the v1 date column with the drafted format", p.DateColumn, p.Columns["purchased_on"].DateFormat)
	}
	if !slices.Contains(p.Columns["amount"].Words, "revenue") {
		t.Errorf("amount words = %v, want the v1 term revenue", p.Columns["amount"].Words)
	}
	notes := strings.Join(s.Source.Notes, " | ")
	for _, want := range []string{"drafted", "skipped version-1 references the database does not have: books.isbn",
		"1 products of books are named differently in the database"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	if strings.Contains(notes, "names only") {
		t.Errorf("notes %q claim a names-only migration", notes)
	}
}

func TestMigrateNil(t *testing.T) {
	if _, err := catalog.Migrate(nil, nil); err == nil {
		t.Error("Migrate(nil) = nil error, want one")
	}
}
