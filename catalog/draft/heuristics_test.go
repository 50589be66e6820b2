package draft

import (
	"slices"
	"strings"
	"testing"

	"talk2tables/catalog"
	"talk2tables/schema"
)

func TestClassifyType(t *testing.T) {
	tests := []struct {
		in   string
		want typeClass
	}{
		{"INTEGER", typeInteger}, {"bigint", typeInteger}, {"SMALLINT", typeInteger}, {"serial", typeInteger},
		{"REAL", typeReal}, {"double precision", typeReal}, {"FLOAT", typeReal},
		{"NUMERIC(10,2)", typeDecimal}, {"decimal", typeDecimal}, {"money", typeDecimal},
		{"TEXT", typeText}, {"NVARCHAR(40)", typeText}, {"character varying", typeText}, {"uuid", typeText},
		{"BOOLEAN", typeBool}, {"bool", typeBool},
		{"DATE", typeDate}, {"DATETIME", typeDateTime}, {"timestamp with time zone", typeDateTime}, {"timestamptz", typeDateTime},
		{"time", typeTime}, {"BLOB", typeBinary}, {"bytea", typeBinary},
		{"jsonb", typeOther}, {"integer[]", typeOther}, {"interval", typeOther}, {"", typeUnknown},
	}
	for _, tt := range tests {
		if got := classifyType(tt.in); got != tt.want {
			t.Errorf("classifyType(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// col builds a column draft with a sampled profile, in a table of rows rows.
func col(name, typ string, rows int64, p profile, samples ...any) *colDraft {
	t := &tableDraft{key: "things", src: &schema.Table{Name: "things", RowCount: rows},
		prof: &tableProfile{ok: true, sampled: rows}, byName: map[string]*colDraft{}}
	p.samples = nil
	for _, v := range samples {
		p.add(v)
	}
	if p.nonNull == 0 {
		p.nonNull = int64(len(samples))
	}
	if p.distinct == 0 && len(samples) > 0 {
		seen := map[any]bool{}
		for _, v := range samples {
			seen[v] = true
		}
		p.distinct = int64(len(seen))
	}
	c := &colDraft{t: t, src: schema.Column{Name: name, Type: typ}, tc: classifyType(typ),
		toks: catalog.IdentifierWords(name), prof: &p, out: &catalog.Column{}}
	t.cols = []*colDraft{c}
	t.byName[name] = c
	return c
}

func TestClassifyColumn(t *testing.T) {
	repeat := func(n int, vals ...any) []any {
		var out []any
		for i := range n {
			out = append(out, vals[i%len(vals)])
		}
		return out
	}
	tests := []struct {
		name   string
		c      *colDraft
		kind   string
		format string
		why    string // substring
	}{
		{"declared date", col("ShipDate", "DATE", 10, profile{}, "2024-01-02"), catalog.KindDate, catalog.DateISO, "declared DATE"},
		{"declared datetime", col("OrderDate", "DATETIME", 10, profile{}, "2024-01-02T10:00:00Z"), catalog.KindDate, catalog.DateTimeISO, "declared DATETIME"},
		{"iso text dates", col("signup_date", "TEXT", 10, profile{}, "2024-01-02", "2024-02-03"), catalog.KindDate, catalog.DateISO, "ISO dates"},
		{"iso text datetimes", col("created", "TEXT", 10, profile{}, "2024-01-02 10:11:12", "2024-01-03"), catalog.KindDate, catalog.DateTimeISO, "ISO date-times"},
		{"untyped iso", col("day", "", 10, profile{}, "2024-01-02"), catalog.KindDate, catalog.DateISO, "ISO dates"},
		{"epoch seconds", col("created_at", "INTEGER", 10, profile{min: int64(1700000000), max: int64(1710000000)}, int64(1700000000)), catalog.KindDate, catalog.DateUnixSeconds, "2023-11-14 to 2024-03-09"},
		{"epoch millis", col("event_ts", "BIGINT", 10, profile{min: int64(1700000000000), max: int64(1710000000000)}, int64(1700000000000)), catalog.KindDate, catalog.DateUnixMillis, "milliseconds"},
		{"year", col("release_year", "INTEGER", 10, profile{min: int64(1990), max: int64(2024)}, int64(1990)), catalog.KindDate, catalog.DateYear, "a year (1990 to 2024)"},
		{"epoch-sized quantity is not a date", col("bytes", "INTEGER", 10, profile{min: int64(1700000000), max: int64(1710000000)}, int64(1700000000)), catalog.KindMeasure, "", ""},
		{"boolean", col("active", "BOOLEAN", 10, profile{}, true, false), catalog.KindFlag, "", "declared BOOLEAN"},
		{"0/1", col("Discontinued", "INTEGER", 10, profile{min: int64(0), max: int64(1)}, int64(0), int64(1)), catalog.KindFlag, "", "0/1"},
		{"all ones named like a flag", col("is_deleted", "INTEGER", 10, profile{min: int64(1), max: int64(1)}, int64(1)), catalog.KindFlag, "", "0/1"},
		{"quantity of 0 and 1 stays a measure", col("quantity", "INTEGER", 10, profile{min: int64(0), max: int64(1)}, int64(0), int64(1)), catalog.KindMeasure, "", ""},
		{"yes/no text", col("opt_in", "TEXT", 10, profile{}, "Y", "N"), catalog.KindFlag, "", "yes/no"},
		{"0/1 text", col("Discontinued", "TEXT", 10, profile{}, "0", "1", "0"), catalog.KindFlag, "", "'0'/'1' text"},
		{"one 0/1 text value is not a flag", col("grade", "TEXT", 10, profile{}, "1", "1"), catalog.KindAttribute, "", ""},
		{"numeric code", col("postal_code", "INTEGER", 10, profile{}, int64(10115)), catalog.KindIdentifier, "", "code"},
		{"invoice number", col("invoice_no", "INTEGER", 100, profile{distinct: 100, nonNull: 100, min: int64(1), max: int64(100)}, int64(1), int64(2)), catalog.KindIdentifier, "", "identifies rows"},
		{"measure", col("Quantity", "SMALLINT", 10, profile{min: int64(1), max: int64(9)}, int64(3)), catalog.KindMeasure, "", ""},
		{"untyped numbers", col("score", "", 10, profile{}, 1.5, int64(2)), catalog.KindMeasure, "", ""},
		{"email values", col("contact", "TEXT", 3, profile{}, "a@b.io", "c@d.org", "e@f.com"), catalog.KindText, "", "email addresses"},
		{"url values", col("target", "TEXT", 3, profile{}, "https://a.example/x", "http://b.example"), catalog.KindText, "", "URLs"},
		{"named text", col("Description", "TEXT", 3, profile{}, "x", "y", "z"), catalog.KindText, "", "description"},
		{"long text", col("blurb", "TEXT", 2, profile{}, strings.Repeat("word ", 20), strings.Repeat("text ", 30)), catalog.KindText, "", "long text"},
		{"few values", col("status", "TEXT", 100, profile{distinct: 3, nonNull: 100}, repeat(100, "open", "closed", "void")...), catalog.KindAttribute, "", "3 distinct values"},
		{"many values", col("alias", "TEXT", 1000, profile{distinct: 900, nonNull: 1000}, "x1", "x2"), catalog.KindText, "", "free text: 900 distinct values in 1000 rows"},
		{"low-cardinality code", col("currency_code", "TEXT", 100, profile{distinct: 4, nonNull: 100}, repeat(100, "EUR", "USD", "GBP", "JPY")...), catalog.KindAttribute, "", "a code with 4 distinct values"},
		{"high-cardinality code", col("tracking_code", "TEXT", 1000, profile{distinct: 1000, nonNull: 1000}, "A1", "B2"), catalog.KindIdentifier, "", "code"},
		{"text phone", col("Phone", "TEXT", 10, profile{distinct: 10, nonNull: 10}, "555-1234"), catalog.KindText, "", "phone"},
		{"text phone with digits only", col("Phone", "TEXT", 100, profile{distinct: 100, nonNull: 100}, "5551234"), catalog.KindText, "", "phone"},
		{"non-iso date named like one", col("shipped_on", "TEXT", 100, profile{distinct: 90, nonNull: 100}, "01/02/2024", "01/03/2024"), catalog.KindText, "", "free text"},
		{"json", col("payload", "JSONB", 10, profile{}), catalog.KindText, "", "structured"},
		{"no values", col("region", "TEXT", 0, profile{distinct: 0}), catalog.KindAttribute, "", "no values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &drafter{}
			d.classifyColumn(tt.c)
			got := tt.c.out
			if got.Kind != tt.kind || got.DateFormat != tt.format || !strings.Contains(got.Why, tt.why) {
				t.Errorf("%s: kind %q format %q why %q; want %q %q containing %q", tt.c.name(), got.Kind, got.DateFormat, got.Why, tt.kind, tt.format, tt.why)
			}
		})
	}
}

func TestNonISODateNote(t *testing.T) {
	d := &drafter{}
	d.classifyColumn(col("shipped_on", "TEXT", 100, profile{distinct: 90, nonNull: 100}, "01/02/2024"))
	if len(d.notes) != 1 || !strings.Contains(d.notes[0].text, `things.shipped_on is named like a date but holds values like "01/02/2024"`) {
		t.Errorf("notes = %+v, want one about the non-ISO dates", d.notes)
	}
}

func TestMeasureType(t *testing.T) {
	tests := []struct {
		name string
		c    *colDraft
		fact bool
		typ  string
		unit string
		why  string
	}{
		{"price", col("UnitPrice", "NUMERIC(10,2)", 10, profile{min: 1.5, max: 9.99}, 1.5), false, catalog.MeasureNonAdditive, "money", "price"},
		{"discount rate", col("Discount", "REAL", 10, profile{min: 0.0, max: 0.25}, 0.1), true, catalog.MeasureNonAdditive, "rate", "a rate between 0 and 0.25"},
		{"discount amount", col("discount", "REAL", 10, profile{min: 0.0, max: 45.5}, 12.5), true, catalog.MeasureAdditive, "money", "a discount amount (0 to 45.5)"},
		{"percent", col("tax_pct", "REAL", 10, profile{min: 0.0, max: 20.0}, 7.0), true, catalog.MeasureNonAdditive, "percent", "a percent between 0 and 20"},
		{"decimal money by values", col("Freightish", "NUMERIC(10,2)", 10, profile{min: 1.25, max: 99.99}, 1.25, 99.99), true, catalog.MeasureNonAdditive, "money", "at most 2 decimals"},
		{"decimal with more places", col("ratioish", "NUMERIC", 10, profile{min: 0.125, max: 9.3333}, 0.125), true, catalog.MeasureNonAdditive, "", "switch to additive"},
		{"cost on a fact", col("cost", "REAL", 10, profile{}, 1.0), true, catalog.MeasureAdditive, "money", "per event"},
		{"cost on a dimension", col("cost", "REAL", 10, profile{}, 1.0), false, catalog.MeasureNonAdditive, "money", "per item"},
		{"unknown", col("ReportsTo", "INTEGER", 10, profile{}, int64(1)), false, catalog.MeasureNonAdditive, "", "switch to additive if sums are meaningful"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			(&drafter{}).measureType(tt.c, tt.fact)
			o := tt.c.out
			if o.Measure != tt.typ || o.Unit != tt.unit || !strings.Contains(o.Why, tt.why) {
				t.Errorf("%s: %s %q why %q; want %s %q containing %q", tt.c.name(), o.Measure, o.Unit, o.Why, tt.typ, tt.unit, tt.why)
			}
		})
	}
}

// table builds a table draft from classified columns.
func table(name string, refIn int, fksOut int, cols ...*colDraft) *tableDraft {
	t := &tableDraft{key: name, src: &schema.Table{Name: name, RowCount: 100}, prof: &tableProfile{ok: true, sampled: 100},
		byName: map[string]*colDraft{}, refIn: refIn}
	for i := 0; i < fksOut; i++ {
		t.fksOut = append(t.fksOut, &tableDraft{key: "other" + string(rune('a'+i))})
	}
	for _, c := range cols {
		c.t = t
		t.cols = append(t.cols, c)
		t.byName[c.name()] = c
	}
	t.out = &catalog.Table{Columns: map[string]*catalog.Column{}}
	return t
}

// kinded is a column with its kind already decided.
func kinded(name, kind string, p profile) *colDraft {
	c := col(name, "TEXT", 100, p)
	c.out.Kind = kind
	if kind == catalog.KindDate {
		c.out.DateFormat = catalog.DateISO
	}
	return c
}

func TestPickLabel(t *testing.T) {
	uniq := profile{distinct: 100, nonNull: 100}
	repeats := profile{distinct: 30, nonNull: 100}
	tests := []struct {
		name  string
		table *tableDraft
		want  string
	}{
		{"named for the table", table("Products", 1, 0, kinded("ProductName", "", uniq), kinded("Name", "", uniq)), "ProductName"},
		{"plain name", table("Artist", 1, 0, kinded("Name", "", uniq)), "Name"},
		{"title", table("Album", 1, 1, kinded("Title", "", uniq)), "Title"},
		{"first and last", table("Employee", 1, 0, kinded("LastName", "", uniq), kinded("FirstName", "", uniq)), "FirstName+LastName"},
		{"company name", table("Customers", 1, 0, kinded("ContactName", "", uniq), kinded("CompanyName", "", uniq)), "CompanyName"},
		{"other unique name of a dimension", table("Stores", 1, 0, kinded("branch_name", "", uniq)), "branch_name"},
		{"own name even when names repeat", table("customers", 1, 0, kinded("customer_name", "", repeats)), "customer_name"},
		{"a repeated job title loses to the name pair", table("Employee", 1, 0, kinded("Title", "", repeats), kinded("FirstName", "", repeats), kinded("LastName", "", repeats)), "FirstName+LastName"},
		{"a unique-looking job title loses to the name pair too", table("Employee", 1, 0, kinded("Title", "", uniq), kinded("FirstName", "", uniq), kinded("LastName", "", uniq)), "FirstName+LastName"},
		{"a repeated plain name still names rows", table("people", 1, 0, kinded("Name", "", repeats)), "Name"},
		{"a column named as its table", table("country", 1, 0, kinded("country", "", uniq)), "country"},
		{"a repeating column named as its table is not its name", table("city", 1, 0, kinded("city", "", repeats)), ""},
		{"ship name of an event", table("Orders", 1, 1, kinded("ShipName", "", uniq), kinded("OrderDate", catalog.KindDate, uniq)), ""},
		{"a name called after a dated thing others refer to", table("Kiosks", 1, 1, kinded("kiosk_lbl", "", uniq), kinded("opened_dt", catalog.KindDate, uniq)), "kiosk_lbl"},
		{"a name called after a dated thing nothing refers to", table("Kiosks", 0, 1, kinded("kiosk_lbl", "", uniq), kinded("opened_dt", catalog.KindDate, uniq)), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cands []*colDraft
			for _, c := range tt.table.cols {
				if c.out.Kind == "" {
					cands = append(cands, c)
				}
			}
			var got []string
			for _, c := range pickLabel(tt.table, cands) {
				got = append(got, c.name())
			}
			if strings.Join(got, "+") != tt.want {
				t.Errorf("label = %v, want %q", got, tt.want)
			}
		})
	}
}

func TestDateColumn(t *testing.T) {
	date := func(n string) *colDraft { return kinded(n, catalog.KindDate, profile{}) }
	tests := []struct {
		name  string
		table *tableDraft
		want  string
	}{
		{"named for the table", table("Orders", 0, 1, date("RequiredDate"), date("ShippedDate"), date("OrderDate")), "OrderDate"},
		{"event date", table("payments", 0, 1, date("due_date"), date("created_at")), "created_at"},
		{"only non-secondary", table("visits", 0, 1, date("updated_at"), date("visited")), "visited"},
		{"only date even if secondary", table("shipments", 0, 1, date("ship_date")), "ship_date"},
		{"birth and hire: none", table("Employees", 1, 0, date("BirthDate"), date("HireDate")), ""},
		{"invoice", table("Invoice", 0, 1, date("InvoiceDate")), "InvoiceDate"},
		{"a ship date names a shipment", table("shipments", 0, 1, date("delivered_at"), date("ship_date")), "ship_date"},
		{"a delivery's delivered date", table("deliveries", 0, 1, date("due_on"), date("delivered_at")), "delivered_at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			(&drafter{}).dateColumn(tt.table)
			if got := tt.table.out.DateColumn; got != tt.want {
				t.Errorf("date column = %q, want %q (why %v)", got, tt.want, tt.table.why)
			}
		})
	}
}

func TestRole(t *testing.T) {
	id := func(n string) *colDraft { return kinded(n, catalog.KindIdentifier, profile{}) }
	m := func(n string) *colDraft { return kinded(n, catalog.KindMeasure, profile{}) }
	view := table("v", 0, 0, m("x"))
	view.src.Kind = schema.KindView
	tests := []struct {
		name  string
		table *tableDraft
		label []string
		date  string
		want  string
	}{
		{"view", view, nil, "", catalog.RoleView},
		{"bridge", table("PlaylistTrack", 0, 2, id("PlaylistId"), id("TrackId")), nil, "", catalog.RoleBridge},
		{"fact with measures", table("InvoiceLine", 0, 2, id("InvoiceId"), id("TrackId"), m("Quantity")), nil, "", catalog.RoleFact},
		{"fact with a date", table("Orders", 1, 1, id("CustomerId"), kinded("OrderDate", catalog.KindDate, profile{})), nil, "OrderDate", catalog.RoleFact},
		{"referenced named", table("Track", 1, 2, id("AlbumId"), m("Milliseconds")), []string{"Name"}, "", catalog.RoleDimension},
		{"lookup", table("Genre", 1, 0, id("GenreId")), nil, "", catalog.RoleDimension},
		{"dated measures without keys", table("readings", 0, 0, m("temperature"), kinded("taken_at", catalog.KindDate, profile{})), nil, "taken_at", catalog.RoleFact},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.table.out.Label, tt.table.out.DateColumn = tt.label, tt.date
			(&drafter{}).role(tt.table)
			if got := tt.table.out.Role; got != tt.want {
				t.Errorf("role = %q, want %q (why %v)", got, tt.want, tt.table.why)
			}
		})
	}
}

func TestTableAndColumnWords(t *testing.T) {
	for in, want := range map[string][]string{
		"InvoiceLine":     {"invoice lines", "invoice line"},
		"order_details":   {"order details", "order detail"},
		"[Order Details]": {"order details", "order detail"},
		"categories":      {"categories", "category"},
		"staff":           {"staff"},
		"sales.orders":    {"orders", "order"},
	} {
		if got := tableWords(in); !slices.Equal(got, want) {
			t.Errorf("tableWords(%q) = %v, want %v", in, got, want)
		}
	}
	tb := table("Customer", 1, 1,
		kinded("Id", catalog.KindIdentifier, profile{}),
		kinded("SupportRepId", catalog.KindIdentifier, profile{}),
		kinded("BillingCountry", catalog.KindAttribute, profile{}),
		kinded("ShipCountry", catalog.KindAttribute, profile{}),
		kinded("BillingCity", catalog.KindAttribute, profile{}),
		kinded("Name", catalog.KindLabel, profile{}),
		kinded("QuantityPerUnit", catalog.KindText, profile{}))
	tb.cols[1].out.References = "Employee.Id"
	tb.out.Label = []string{"Name"}
	d := &drafter{tables: []*tableDraft{tb}}
	d.words()
	want := map[string][]string{
		"Id":              {"customer id"},
		"SupportRepId":    {},
		"BillingCountry":  {"billing country"}, // "country" would name two columns
		"ShipCountry":     {"ship country"},
		"BillingCity":     {"billing city", "city"},
		"Name":            {"name", "customer name"},
		"QuantityPerUnit": {"quantity per unit"},
	}
	for _, c := range tb.cols {
		if !slices.Equal(c.out.Words, want[c.name()]) {
			t.Errorf("%s words = %q, want %q", c.name(), c.out.Words, want[c.name()])
		}
	}
}

// TestSoldOneEach: a table of sales of one thing each is named by the thing
// ("tickets" for kiosk_ticket_sale), unless a quantity says how many each row sold.
func TestSoldOneEach(t *testing.T) {
	single := table("ticket_sale", 0, 0, kinded("amount", catalog.KindMeasure, profile{}))
	single.cols[0].out.Unit = "money"
	several := table("token_sales", 0, 0, kinded("qty", catalog.KindMeasure, profile{}))
	several.cols[0].out.Unit = "quantity"
	d := &drafter{tables: []*tableDraft{single, several}}
	d.words()
	if !slices.Contains(single.out.Words, "tickets") {
		t.Errorf("ticket_sale words %q: want tickets", single.out.Words)
	}
	if slices.Contains(several.out.Words, "tokens") {
		t.Errorf("token_sales words %q: a quantity per row, so not tokens", several.out.Words)
	}
}
