package catalog

// The semantic catalog (format version 2) describes any database for the
// planner and the LLM prompt: what each table and column is called in
// business English, which numeric columns may be summed, which rows and
// values are named entities, and derived measures. `talk2tables catalog init`
// drafts one from a database's schema and data; users then edit it.
//
// JSON shape (every object is decoded strictly: an unknown key is an error):
//
//	{"version": 2, "last_updated": "2026-11-23T10:00:00Z",
//	 "source": {"database": "store.db", "dialect": "sqlite", "drafted_by": "...", "notes": ["..."]},
//	 "tables": {"InvoiceLine": {
//	     "words": ["invoice line", "invoice lines", "line"], "role": "fact",
//	     "key": "InvoiceLineId", "label": [], "date_column": "",
//	     "columns": {"UnitPrice": {"words": ["unit price", "price"], "kind": "measure",
//	                               "measure": "non_additive", "unit": "money",
//	                               "why": "a price: averaged, never summed"}}}},
//	 "measures": {"line amount": {"table": "InvoiceLine", "expression": "{UnitPrice} * {Quantity}",
//	                              "aggregate": "sum", "unit": "money", "words": ["sales"]}},
//	 "entities": [{"table": "Artist", "key": "ArtistId", "columns": ["Name"],
//	               "values": [{"name": "AC/DC", "key": 1, "aliases": ["acdc"]}]},
//	              {"table": "Customer", "columns": ["Country"], "values": [{"name": "Portugal"}]}],
//	 "vocabulary": {"synonyms": {"clients": "customers"}, "aggregation_terms": {"turnover": "SUM"}}}
//
// Table keys are table names exactly as the database spells them, without
// quotes (a PostgreSQL table outside the public schema is "schema.table").
// Column keys are column names exactly as spelled. Words are lowercase
// phrases of plain words; the planner also matches singular/plural forms and
// small typos, so words need not list every inflection.

// FormatVersion is the catalog format this package reads and writes.
const FormatVersion = 2

// Table roles.
const (
	RoleFact      = "fact"      // events/transactions with measures and a date (orders, invoice lines)
	RoleDimension = "dimension" // things that facts refer to (customers, products, stores)
	RoleBridge    = "bridge"    // many-to-many link tables (playlist_track)
	RoleView      = "view"      // a database view; the offline planner uses it only when named
)

// Column kinds.
const (
	KindIdentifier = "identifier" // keys and codes: counted, never summed or averaged
	KindMeasure    = "measure"    // numbers that aggregate (see Measure* types)
	KindAttribute  = "attribute"  // categorical values to filter and group by (country, status, genre)
	KindLabel      = "label"      // the name/title of a row (product name, customer name)
	KindDate       = "date"       // dates and timestamps, whatever their storage
	KindText       = "text"       // free text (emails, addresses, descriptions): neither grouped nor summed
	KindFlag       = "flag"       // booleans (0/1, true/false, yes/no)
)

// Measure types of KindMeasure columns and derived measures.
const (
	MeasureAdditive    = "additive"     // amounts, totals, quantities: SUM is meaningful
	MeasureNonAdditive = "non_additive" // prices, rates, durations, percentages, ages: AVG/MIN/MAX only
)

// Date formats of KindDate columns.
const (
	DateISO         = "date"         // 'YYYY-MM-DD' text or a DATE type
	DateTimeISO     = "datetime"     // 'YYYY-MM-DD HH:MM:SS' (or 'T') text, or a TIMESTAMP type
	DateUnixSeconds = "unix_seconds" // integer seconds since 1970
	DateUnixMillis  = "unix_millis"  // integer milliseconds since 1970
	DateYear        = "year"         // an integer or text year (2024)
)

// Derived-measure aggregates.
const (
	AggSum = "sum"
	AggAvg = "avg"
	AggMin = "min"
	AggMax = "max"
)

// Semantic is a version-2 catalog: the semantic model of one database.
type Semantic struct {
	Version     int               `json:"version"` // FormatVersion
	LastUpdated string            `json:"last_updated,omitempty"`
	Source      *Source           `json:"source,omitempty"`
	Tables      map[string]*Table `json:"tables"`
	// Measures are derived measures, keyed by their display name.
	Measures   map[string]*Measure `json:"measures,omitempty"`
	Entities   []*EntitySet        `json:"entities,omitempty"`
	Vocabulary *Vocabulary         `json:"vocabulary,omitempty"`
}

// Source says where a catalog came from.
type Source struct {
	Database  string   `json:"database,omitempty"` // file name, or a DSN without its password
	Dialect   string   `json:"dialect,omitempty"`  // sqlite | postgres | mysql
	DraftedBy string   `json:"drafted_by,omitempty"`
	DraftedAt string   `json:"drafted_at,omitempty"` // RFC 3339
	Notes     []string `json:"notes,omitempty"`      // what the drafter capped, skipped or guessed
}

// Table is one table (or view) of the database.
type Table struct {
	Words       []string `json:"words"` // phrases naming the table: "invoice line", "invoice lines"
	Description string   `json:"description,omitempty"`
	Role        string   `json:"role"`          // RoleFact | RoleDimension | RoleBridge | RoleView
	Key         string   `json:"key,omitempty"` // single-column primary key, "" when none or composite
	// Label names one row in words: one column ("Name", "Title") or several
	// joined with a space ("Forename", "Surname"); empty when none.
	Label []string `json:"label,omitempty"`
	// DateColumn is the table's main date (an order's date, not its ship date).
	DateColumn string `json:"date_column,omitempty"`
	// DefaultFilter is applied whenever the question counts or aggregates
	// rows of this table or of a table that reaches it through many-to-one
	// foreign keys (the lines of a cancelled order are not sold either), by
	// joining it when needed; unless the question names values of that
	// column itself (e.g. count only completed orders unless asked
	// otherwise). Answers state the filter in their assumptions.
	DefaultFilter *Filter            `json:"default_filter,omitempty"`
	Columns       map[string]*Column `json:"columns"`
	Why           string             `json:"why,omitempty"` // reasoning for role, label and date column
}

// Filter is a condition on one column of its table: exactly one of Include
// and Exclude is set.
type Filter struct {
	Column  string   `json:"column"`
	Include []string `json:"include,omitempty"`
	Exclude []string `json:"exclude,omitempty"`
	Why     string   `json:"why,omitempty"`
}

// Column is one column of a table.
type Column struct {
	Words      []string `json:"words,omitempty"`       // "billing country", "country"
	Kind       string   `json:"kind"`                  // Kind*
	Measure    string   `json:"measure,omitempty"`     // Measure*; required when Kind is measure
	Unit       string   `json:"unit,omitempty"`        // money | quantity | percent | rate | duration | age | count | size | ... (free, informational)
	DateFormat string   `json:"date_format,omitempty"` // Date*; required when Kind is date
	References string   `json:"references,omitempty"`  // "table.column" a foreign key points to
	Why        string   `json:"why,omitempty"`         // the drafter's (or editor's) reasoning
}

// Measure is a derived measure computed over the rows of one table.
//
// Exactly one of Expression and Formula is set. Expression is a per-row SQL
// expression over that table's columns written as {Column} placeholders
// ("{UnitPrice} * {Quantity}"), combined over rows by Aggregate. Formula is
// a whole aggregate expression ("SUM({Total}) * 1.0 / COUNT(DISTINCT
// {InvoiceId})"), used as is: it is non-additive and cannot be re-aggregated.
// Placeholders must name columns of Table; the planner qualifies them.
type Measure struct {
	Table      string   `json:"table"`
	Expression string   `json:"expression,omitempty"`
	Aggregate  string   `json:"aggregate,omitempty"` // Agg*; required with Expression
	Formula    string   `json:"formula,omitempty"`
	Words      []string `json:"words,omitempty"`
	Unit       string   `json:"unit,omitempty"`
	Why        string   `json:"why,omitempty"`
}

// EntitySet lists the named rows or values of one table. With Key set, each
// value is a row: its name is the Columns joined with a space and a filter on
// it uses the key ("Acme Corp" → suppliers.supplier_id = 7). Without Key,
// each value is a value of the single column in Columns ("Portugal" →
// customers.country = 'Portugal').
type EntitySet struct {
	Table   string    `json:"table"`
	Key     string    `json:"key,omitempty"`
	Columns []string  `json:"columns"`
	Values  []*Entity `json:"values"`
	Note    string    `json:"note,omitempty"` // e.g. "capped at 1000 of 3503 rows"
	// Shared lists the names two or more rows of a keyed set share, each
	// with those rows' keys. They are left out of Values, where a name
	// names one row: a shared name means all of its rows together.
	Shared []*SharedName `json:"shared,omitempty"`
}

// Entity is one named row or value.
type Entity struct {
	Name string `json:"name"` // exactly as stored (label columns joined with a space)
	// Key is the row's key value (number or string) when the set has a Key.
	// Loaded from JSON it is an int64 (an integer), a float64 or a string.
	Key     any      `json:"key,omitempty"`
	Aliases []string `json:"aliases,omitempty"` // other names users say ("abracadabra")
	// Attributes carry extra facts about the row (e.g. a list price); the
	// planner ignores them.
	Attributes map[string]any `json:"attributes,omitempty"`
	Tags       []string       `json:"tags,omitempty"`
}

// SharedName is a name several rows of a keyed entity set share.
type SharedName struct {
	Name string `json:"name"`
	// Keys are the rows' key values, loaded like Entity.Key.
	Keys []any `json:"keys"`
}

// Vocabulary holds extra business words.
type Vocabulary struct {
	// Synonyms map a word or phrase to another phrase the catalog or the
	// planner knows ("clients" → "customers", "revenue" → "sales").
	Synonyms map[string]string `json:"synonyms,omitempty"`
	// AggregationTerms map a phrase to SUM, COUNT, AVG, MIN or MAX, on top of
	// the planner's built-in English.
	AggregationTerms map[string]string `json:"aggregation_terms,omitempty"`
}
