package draft

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"talk2tables/catalog"
	"talk2tables/catalog/internal/names"
)

var (
	isoDate     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	isoDateTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$`)
	emailValue  = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
	urlValue    = regexp.MustCompile(`^(?i)(https?|ftp)://\S+$`)
	yearValue   = regexp.MustCompile(`^\d{4}$`)
)

// Cardinality thresholds of categorical text (attribute) columns.
const (
	maxAttributeValues = 50   // at most this many distinct values ...
	maxAttributeShare  = 0.05 // ... or at most 5% of the rows
	longText           = 60   // mean length above which text is free text
)

// Epoch ranges accepted for integer dates: 2000-01-01 to 2100-01-01.
var (
	epochFrom = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	epochTo   = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
)

// classifyColumns decides every column's kind (measure types come later,
// once the table roles are known).
func (d *drafter) classifyColumns() {
	for _, t := range d.tables {
		for _, c := range t.cols {
			if c.prof = t.prof.cols[c.name()]; c.prof == nil {
				c.prof = &profile{distinct: -1}
			}
			d.classifyColumn(c)
		}
	}
}

func (d *drafter) classifyColumn(c *colDraft) {
	out := c.out
	t := c.t
	switch {
	case c.src.PrimaryKey && len(t.pkCols) == 1:
		out.Kind, out.Why = catalog.KindIdentifier, "primary key"
		if c.ref != "" {
			out.References, out.Why = c.ref, "primary key, and a foreign key to "+refTable(c.ref)
		}
		return
	case c.ref != "":
		out.Kind, out.References, out.Why = catalog.KindIdentifier, c.ref, "foreign key to "+refTable(c.ref)
		return
	case c.src.PrimaryKey:
		out.Kind, out.Why = catalog.KindIdentifier, "part of the composite primary key ("+strings.Join(t.pkCols, ", ")+")"
		return
	}
	if f, why, ok := d.dateFormat(c); ok {
		out.Kind, out.DateFormat, out.Why = catalog.KindDate, f, why
		return
	}
	if why, ok := flag(c); ok {
		out.Kind, out.Why = catalog.KindFlag, why
		c.toks = d.seg.Words(c.name(), catalog.SegmentFlag) // "hasfreezer": has freezer
		return
	}
	if c.numeric() {
		d.classifyNumber(c)
		return
	}
	if c.numbersAsText() {
		// "12.50" in a TEXT column: a number the database compares as text
		d.classifyNumber(c)
		if out.Kind == catalog.KindMeasure {
			out.Why = "numbers stored as text (every sampled value is a number): compared and ordered as numbers"
		}
		return
	}
	d.classifyText(c)
}

// numbersAsText reports a text column whose every sampled value (at least
// three) is a plain number without a leading zero (codes such as "00123"
// stay text).
func (c *colDraft) numbersAsText() bool {
	if c.tc != typeText || len(c.prof.samples) < 3 || names.Phone(c.toks) {
		return false
	}
	for _, v := range c.prof.samples {
		s, ok := v.(string)
		if !ok {
			return false
		}
		s = strings.TrimSpace(s)
		if _, err := strconv.ParseFloat(s, 64); err != nil || len(s) > 1 && s[0] == '0' && s[1] != '.' || strings.ContainsAny(s, "eExX") {
			return false
		}
	}
	return true
}

func refTable(ref string) string { return ref[:strings.LastIndexByte(ref, '.')] }

// numeric reports a number column: by declared type, or (untyped) by values.
func (c *colDraft) numeric() bool {
	switch c.tc {
	case typeInteger, typeReal, typeDecimal:
		return true
	case typeUnknown:
		if len(c.prof.samples) == 0 {
			return false
		}
		for _, v := range c.prof.samples {
			if !isNumber(v) {
				return false
			}
		}
		return true
	}
	return false
}

// integral reports whether every sampled value (and MIN/MAX) is a whole number.
func (c *colDraft) integral() bool {
	if c.tc == typeInteger {
		return true
	}
	for _, v := range append([]any{c.prof.min, c.prof.max}, c.prof.samples...) {
		if f, ok := toFloat(v); ok && f != math.Trunc(f) {
			return false
		}
	}
	return len(c.prof.samples) > 0
}

// strings returns the sampled text values.
func (c *colDraft) strings() []string {
	var out []string
	for _, v := range c.prof.samples {
		if s, ok := v.(string); ok {
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out
}

// allMatch reports whether there are sampled texts and each satisfies ok.
func allMatch(vals []string, ok func(string) bool) bool {
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !ok(v) {
			return false
		}
	}
	return true
}

// dateFormat recognises dates: declared DATE/DATETIME/TIMESTAMP types, text
// whose sampled values are ISO dates or date-times, integer epochs named
// like times, and year columns.
func (d *drafter) dateFormat(c *colDraft) (format, why string, ok bool) {
	switch c.tc {
	case typeDate:
		return catalog.DateISO, "declared " + c.src.Type, true
	case typeDateTime:
		return catalog.DateTimeISO, "declared " + c.src.Type, true
	}
	vals := c.strings()
	if c.tc == typeText || c.tc == typeUnknown {
		switch {
		case allMatch(vals, isoDate.MatchString):
			return catalog.DateISO, "text holding ISO dates (YYYY-MM-DD)", true
		case allMatch(vals, func(s string) bool { return isoDate.MatchString(s) || isoDateTime.MatchString(s) }):
			return catalog.DateTimeISO, "text holding ISO date-times (YYYY-MM-DD HH:MM:SS)", true
		}
		if names.Year(c.toks) && allMatch(vals, yearValue.MatchString) {
			return catalog.DateYear, "a year, written as text", true
		}
		if names.DateLike(c.toks) && len(vals) > 0 {
			d.notef(c.t.key, "%s.%s is named like a date but holds values like %q, not ISO dates: drafted as text (write them as YYYY-MM-DD to use it for time windows)",
				c.t.key, c.name(), vals[0])
		}
		return "", "", false
	}
	if !c.numeric() || !c.integral() {
		return "", "", false
	}
	lo, okLo := toFloat(c.prof.min)
	hi, okHi := toFloat(c.prof.max)
	if !okLo || !okHi {
		return "", "", false
	}
	switch {
	case names.Year(c.toks) && lo >= 1800 && hi <= 2200:
		return catalog.DateYear, fmt.Sprintf("a year (%d to %d)", int(lo), int(hi)), true
	case !names.DateLike(c.toks):
		return "", "", false
	case lo >= float64(epochFrom) && hi <= float64(epochTo):
		return catalog.DateUnixSeconds, "integer seconds since 1970, named like a time (" + epochDay(lo, 1) + " to " + epochDay(hi, 1) + ")", true
	case lo >= float64(epochFrom)*1000 && hi <= float64(epochTo)*1000:
		return catalog.DateUnixMillis, "integer milliseconds since 1970, named like a time (" + epochDay(lo, 1000) + " to " + epochDay(hi, 1000) + ")", true
	}
	return "", "", false
}

func epochDay(v float64, per int64) string {
	return time.Unix(int64(v)/per, 0).UTC().Format(time.DateOnly)
}

var yesNo = map[string]bool{"yes": true, "no": true, "y": true, "n": true, "true": true, "false": true, "t": true, "f": true}

// flag recognises yes/no columns: booleans, 0/1 integers, yes/no text.
func flag(c *colDraft) (string, bool) {
	if c.tc == typeBool {
		return "declared " + c.src.Type, true
	}
	p := c.prof
	if c.numeric() && c.integral() {
		lo, okLo := toFloat(p.min)
		hi, okHi := toFloat(p.max)
		if !okLo || !okHi || lo < 0 || hi > 1 {
			return "", false
		}
		if g := names.NamedMeasure(c.toks, false); g.Known && g.Type == catalog.MeasureAdditive {
			return "", false // a quantity that happens to be 0 or 1 in the sample
		}
		if lo == 0 && hi == 1 || names.FlagLike(c.toks) {
			return "0/1 values: a yes/no flag", true
		}
		return "", false
	}
	vals := c.strings()
	if len(vals) > 0 && (p.distinct < 0 || p.distinct <= 2) && allMatch(vals, func(s string) bool { return yesNo[strings.ToLower(s)] }) {
		return "yes/no text values: a flag", true
	}
	if (p.distinct < 0 || p.distinct <= 2) && allMatch(vals, func(s string) bool { return s == "0" || s == "1" }) &&
		(slices.Contains(vals, "0") && slices.Contains(vals, "1") || names.FlagLike(c.toks)) {
		return "'0'/'1' text values: a yes/no flag", true
	}
	return "", false
}

// classifyNumber decides numeric columns: codes and numbers that identify
// rows are identifiers; everything else is a measure (typed later).
func (d *drafter) classifyNumber(c *colDraft) {
	out := c.out
	if ok, why := names.Identifier(c.toks); ok {
		out.Kind, out.Why = catalog.KindIdentifier, why
		return
	}
	p := c.prof
	if names.NumberLike(c.toks) && c.integral() && p.nonNull > 0 && float64(p.distinct) >= 0.9*float64(p.nonNull) {
		out.Kind, out.Why = catalog.KindIdentifier, fmt.Sprintf("named like a number and nearly every value differs (%d distinct in %d): it identifies rows", p.distinct, p.nonNull)
		return
	}
	out.Kind = catalog.KindMeasure
}

// classifyText decides text (and binary, structured) columns: free text,
// categorical attributes, or name candidates the table step chooses from.
func (d *drafter) classifyText(c *colDraft) {
	out := c.out
	p := c.prof
	vals := c.strings()
	switch c.tc {
	case typeBinary:
		out.Kind, out.Why = catalog.KindText, "binary data ("+c.src.Type+")"
		return
	case typeOther:
		out.Kind, out.Why = catalog.KindText, "structured data ("+c.src.Type+"): neither grouped nor summed"
		return
	case typeTime:
		out.Kind, out.Why = catalog.KindText, "a time of day ("+c.src.Type+")"
		return
	}
	if names.Phone(c.toks) {
		out.Kind, out.Why = catalog.KindText, "a phone number stored as text"
		return
	}
	if ok, why := names.Identifier(c.toks); ok && !c.lowCardinality() {
		out.Kind, out.Why = catalog.KindIdentifier, why
		return
	}
	if ok, why := names.Text(c.toks); ok {
		out.Kind, out.Why = catalog.KindText, why
		return
	}
	switch {
	case allMatch(vals, emailValue.MatchString):
		out.Kind, out.Why = catalog.KindText, "email addresses"
		return
	case allMatch(vals, urlValue.MatchString):
		out.Kind, out.Why = catalog.KindText, "URLs"
		return
	case p.avgLen() > longText:
		out.Kind, out.Why = catalog.KindText, fmt.Sprintf("long text (%d characters on average)", int(p.avgLen()))
		return
	}
	// A first or last name repeats on its own; the pair may still name rows.
	// People share names, so a column named for its table ("customer name")
	// or a plain name or title is a candidate however often names repeat.
	if c.nameLike() && (!c.lowShare() || names.GivenName(c.toks) || names.FamilyName(c.toks) || c.ownName()) || c.namesItsTable() {
		out.Kind = "" // a label candidate: decideTables chooses
		return
	}
	if ok, _ := names.Identifier(c.toks); ok {
		out.Kind, out.Why = catalog.KindAttribute, fmt.Sprintf("a code with %d distinct values%s: filter and group by it", p.distinct, c.t.sampleNote())
		return
	}
	if names.NumberLike(c.toks) && p.nonNull > 0 && float64(p.distinct) >= 0.9*float64(p.nonNull) {
		out.Kind, out.Why = catalog.KindIdentifier, "named like a number and nearly every value differs: it identifies rows"
		return
	}
	switch {
	case c.lowCardinality():
		out.Kind, out.Why = catalog.KindAttribute, c.valuesWhy()
	case p.nonNull == 0:
		out.Kind, out.Why = catalog.KindAttribute, "no values to sample: drafted as a value to filter and group by"
	default:
		out.Kind, out.Why = catalog.KindText, fmt.Sprintf("free text: %d distinct values in %d rows%s", p.distinct, p.nonNull, c.t.sampleNote())
	}
}

// valuesWhy says how many distinct values an attribute has.
func (c *colDraft) valuesWhy() string {
	if c.prof.distinct < 0 {
		return fmt.Sprintf("text with %d distinct values", len(c.src.DistinctValues))
	}
	return fmt.Sprintf("text with %d distinct values%s", c.prof.distinct, c.t.sampleNote())
}

// lowCardinality reports categorical text: at most 50 distinct values, or at
// most 5% of the rows.
func (c *colDraft) lowCardinality() bool {
	p := c.prof
	if p.distinct < 0 {
		return len(c.src.DistinctValues) > 0
	}
	return p.distinct > 0 && (p.distinct <= maxAttributeValues || float64(p.distinct) <= maxAttributeShare*float64(p.nonNull))
}

// lowShare reports a column whose values repeat a lot (under half distinct):
// a name column like that names categories, not rows.
func (c *colDraft) lowShare() bool {
	p := c.prof
	return p.nonNull > 0 && p.distinct >= 0 && float64(p.distinct) < 0.5*float64(p.nonNull)
}

// ownName reports a column named as the name of its table's rows: "name",
// "title", "full name", or "<table> name" ("customer name" in customers).
func (c *colDraft) ownName() bool {
	p := strings.Join(c.toks, " ")
	single := c.t.singular()
	return plainNames[p] || p == single+" name" || p == single+" title" || p == single+"name"
}

// namesItsTable reports a text column named as its table (a column x in a
// table x or xs) whose values nearly all differ: the name of each row.
func (c *colDraft) namesItsTable() bool {
	p := c.prof
	return strings.Join(c.toks, " ") == c.t.singular() && p.nonNull > 0 && float64(p.distinct) >= 0.9*float64(p.nonNull)
}

// plainNames name a row without saying of what.
var plainNames = map[string]bool{"name": true, "title": true, "full name": true, "fullname": true, "display name": true,
	"label": true, "caption": true, "headline": true}

// nameLike reports a column named like a name or title.
func (c *colDraft) nameLike() bool {
	return names.Label(c.toks) || names.GivenName(c.toks) || names.FamilyName(c.toks)
}

// measureTypes types every measure column from its name tokens, declared
// type and sampled values.
func (d *drafter) measureTypes() {
	for _, t := range d.tables {
		fact := t.out.Role == catalog.RoleFact
		for _, c := range t.cols {
			if c.out.Kind == catalog.KindMeasure {
				d.measureType(c, fact)
			}
		}
	}
}

func (d *drafter) measureType(c *colDraft, fact bool) {
	out := c.out
	g := names.NamedMeasure(c.toks, fact)
	out.Measure, out.Unit, out.Why = g.Type, g.Unit, g.Why
	lo, okLo := toFloat(c.prof.min)
	hi, okHi := toFloat(c.prof.max)
	rng := okLo && okHi
	switch {
	case hasToken(c.toks, "discount") && out.Unit == "rate" && rng && (lo < 0 || hi > 1):
		out.Measure, out.Unit = catalog.MeasureAdditive, "money"
		out.Why = fmt.Sprintf("a discount amount (%s to %s), not a 0..1 rate: sums are meaningful", num(lo), num(hi))
	case (out.Unit == "rate" || out.Unit == "percent") && rng:
		out.Why = fmt.Sprintf("a %s between %s and %s: averaged, never summed", out.Unit, num(lo), num(hi))
	case !g.Known && c.tc == typeDecimal && c.twoDecimals():
		out.Unit = "money"
		out.Why = fmt.Sprintf("%s with at most 2 decimals, so probably money, but not named like an amount or a total: averaged; switch to additive if sums are meaningful", c.src.Type)
	case g.Known && out.Unit != "money" && c.tc == typeDecimal && c.twoDecimals() && names.Money(c.toks):
		out.Unit = "money"
	}
}

func hasToken(toks []string, w string) bool {
	for _, t := range toks {
		if t == w {
			return true
		}
	}
	return false
}

// twoDecimals reports sampled values with at most two decimal places.
func (c *colDraft) twoDecimals() bool {
	n := 0
	for _, v := range append([]any{c.prof.min, c.prof.max}, c.prof.samples...) {
		f, ok := toFloat(v)
		if !ok {
			continue
		}
		n++
		if math.Abs(f*100-math.Round(f*100)) > 1e-6*math.Max(1, math.Abs(f*100)) {
			return false
		}
	}
	return n > 0
}

// num formats a number briefly.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
