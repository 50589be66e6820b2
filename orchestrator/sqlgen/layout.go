package sqlgen

import (
	"crypto/rand"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"

	"talk2tables/schema"
)

// wholeSetValues is the most values an entity set may have and still be
// shown whole in a prompt that shows part of the database; a larger set
// lists only the values the question names.
const wholeSetValues = 25

// source is one database as the resources describe it: a schema resource,
// or a catalog that matches no schema. Tables are units of one source.
type source struct {
	byName map[string]int // table name (as keyed) → unit
}

// unit is one table of one source with everything the prompt says about
// it: its schema entry, its catalog entry, its derived measures and its
// entity sets.
type unit struct {
	source int
	name   string
	chars  int   // of its fragments, with separators, without trimmable entity values
	refs   []int // tables it references (foreign keys)
	adj    []int // tables it references or that reference it
	sets   []int // its entity sets
	cols   []string
	doc    unitDoc
	// fromSchema: a schema resource lists the table (its columns come
	// from there).
	fromSchema bool
}

// unitDoc is what the index knows of a table, as normalised words.
type unitDoc struct {
	Name    string `json:"name"`    // the table name and catalog words for it
	Columns string `json:"columns"` // column names, catalog column words, measures
	Values  string `json:"values"`  // distinct values the schema lists
	Text    string `json:"text"`    // comments and descriptions
}

// optResource is a resource of a RelevantOnly server that is neither a
// schema nor a catalog: in the prompt only when the question is about it.
type optResource struct {
	chars int
	doc   unitDoc
}

// entitySet is one entity set of a catalog.
type entitySet struct {
	unit   int
	whole  bool  // shown whole even when the database is shown in part
	keyed  bool  // its values are rows (the set has a key)
	values []int // chars of each value's fragment (sets that are not whole)
	// names holds each value's name and aliases as lowercase words.
	names [][][]string
}

// resourceKind says how a resource is shown.
type resourceKind int

const (
	resFixed    resourceKind = iota // shown as it is
	resSchema                       // a database schema: its tables are units
	resCatalog                      // a semantic model and/or entity list: its tables, measures and sets belong to units
	resOptional                     // left to relevance
)

// classify recognises a resource by shape (docs/contracts.md §1-§2).
func classify(v any, relevantOnly bool) resourceKind {
	obj, ok := v.(map[string]any)
	if ok {
		if _, isList := obj["tables"].([]any); isList {
			return resSchema
		}
		_, semantic := obj["tables"].(map[string]any)
		_, ents := obj["entities"].([]any)
		if ents || (semantic && isVersion2(obj["version"])) {
			return resCatalog
		}
		if isVersion2(obj["version"]) {
			return resFixed // e.g. the catalog's summary
		}
	}
	if relevantOnly {
		return resOptional
	}
	return resFixed
}

func isVersion2(v any) bool {
	switch n := v.(type) {
	case float64:
		return n == 2
	case int:
		return n == 2
	case int64:
		return n == 2
	}
	return false
}

// needsLayout reports whether some server leaves resources to relevance.
func needsLayout(servers []ServerContext) bool {
	for _, sc := range servers {
		if !sc.RelevantOnly {
			continue
		}
		for _, v := range sc.Resources {
			if classify(v, true) == resOptional {
				return true
			}
		}
	}
	return false
}

// countTables counts the tables of every schema resource, or of the
// catalogs when there is none.
func countTables(servers []ServerContext) int {
	schema, cat := 0, 0
	for _, sc := range servers {
		for _, v := range sc.Resources {
			obj, _ := v.(map[string]any)
			if ts, ok := obj["tables"].([]any); ok {
				schema += len(ts)
			} else if ts, ok := obj["tables"].(map[string]any); ok && isVersion2(obj["version"]) {
				cat += len(ts)
			}
		}
	}
	if schema > 0 {
		return schema
	}
	return cat
}

// layoutBuilder cuts the sorted servers' prompt text into fragments.
type layoutBuilder struct {
	l     *layout
	nonce string
	seq   int
	// catalogSource maps a catalog resource ("server\x00uri") to its source.
	catalogSource map[string]int
	// tables are the schema resources' tables, decoded.
	tables schemaTables
}

// buildLayout cuts the rendering of sorted (fullText, which starts with
// header) into the fragments a question's prompt is assembled from.
func buildLayout(sorted []ServerContext, tables schemaTables, header, fullText string, budget int) *layout {
	var nb [6]byte
	_, _ = rand.Read(nb[:])
	b := &layoutBuilder{l: &layout{budget: budget, header: header, fullText: fullText},
		nonce: hex.EncodeToString(nb[:]), catalogSource: map[string]int{}, tables: tables}
	b.registerSchemas(sorted)
	b.matchCatalogs(sorted)
	for i, sc := range sorted {
		b.l.servers = append(b.l.servers, b.server(i, sc))
	}
	b.linkForeignKeys(sorted)
	for _, u := range b.l.units {
		u.adj = uniqueInts(u.adj)
		u.refs = uniqueInts(u.refs)
	}
	b.l.fixedChars = len(fullText)
	for _, r := range b.l.resources {
		b.l.fixedChars -= r.chars
	}
	// What every prompt holds whatever it shows: the header, the servers'
	// JSON around their tables and resources, the examples.
	none := &choice{units: make([]bool, len(b.l.units)), res: make([]bool, len(b.l.resources)),
		trimmed: make([]bool, len(b.l.sets))}
	for i := range none.trimmed {
		none.trimmed[i] = true
	}
	var frame strings.Builder
	frame.WriteString(header)
	for _, p := range b.l.servers {
		p.write(&frame, none)
	}
	if i := strings.LastIndex(fullText, "\n\nExamples from"); i >= 0 {
		b.l.frameChars = frame.Len() + len(fullText) - i - 1
	} else {
		b.l.frameChars = frame.Len()
	}
	return b.l
}

// registerSchemas makes a source of every schema resource and a unit of
// each of its tables, in prompt order.
func (b *layoutBuilder) registerSchemas(sorted []ServerContext) {
	for _, sc := range sorted {
		for _, uri := range sortedKeys(sc.Resources) {
			tables, ok := b.tables[sc.ID+"\x00"+uri]
			if !ok {
				continue
			}
			src := b.newSource()
			for _, t := range tables {
				if t != nil {
					b.l.units[b.unitFor(src, t.QualifiedName())].fromSchema = true
				}
			}
			b.catalogSource[sc.ID+"\x00"+uri] = src
		}
	}
}

// matchCatalogs assigns each catalog resource to the schema source sharing
// the most table names with it, or to a source of its own.
func (b *layoutBuilder) matchCatalogs(sorted []ServerContext) {
	for _, sc := range sorted {
		for _, uri := range sortedKeys(sc.Resources) {
			if classify(promptValue(sc.Resources[uri]), false) != resCatalog {
				continue
			}
			names := catalogTables(sc.Resources[uri].(map[string]any))
			best, bestN := -1, 0
			for si, s := range b.l.sources {
				n := 0
				for _, name := range names {
					if _, ok := s.byName[name]; ok {
						n++
					}
				}
				if n > bestN {
					best, bestN = si, n
				}
			}
			if best < 0 {
				best = b.newSource()
			}
			b.catalogSource[sc.ID+"\x00"+uri] = best
		}
	}
}

// catalogTables lists the table names a catalog mentions.
func catalogTables(obj map[string]any) []string {
	var out []string
	if ts, ok := obj["tables"].(map[string]any); ok {
		for name := range ts {
			out = append(out, name)
		}
	}
	if sets, ok := obj["entities"].([]any); ok {
		for _, s := range sets {
			sm, _ := s.(map[string]any)
			if t, _ := sm["table"].(string); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

func (b *layoutBuilder) newSource() int {
	b.l.sources = append(b.l.sources, &source{byName: map[string]int{}})
	return len(b.l.sources) - 1
}

// unitFor returns the unit of table name in source src, creating it.
func (b *layoutBuilder) unitFor(src int, name string) int {
	s := b.l.sources[src]
	if u, ok := s.byName[name]; ok {
		return u
	}
	b.l.units = append(b.l.units, &unit{source: src, name: name})
	u := len(b.l.units) - 1
	s.byName[name] = u
	return u
}

// server renders one server as pieces: "Server N: {...}" with its
// resources as a slot.
func (b *layoutBuilder) server(i int, sc ServerContext) piece {
	res := promptResources(sc.Resources)
	shell := sc
	shell.Resources = nil
	head := compactJSON(shell)
	head = strings.TrimSuffix(head, "null}")
	p := piece{{lit: "Server " + strconv.Itoa(i+1) + ": " + head}}
	if res == nil {
		return append(p, part{lit: "null}\n"})
	}
	sl := &slot{open: "{", close: "}"}
	for _, uri := range sortedKeys(res) {
		it := item{unit: -1, res: -1, set: -1}
		key := compactJSON(uri) + ":"
		switch classify(res[uri], sc.RelevantOnly) {
		case resSchema:
			it.body = append(piece{{lit: key}}, b.schemaBody(res[uri], b.catalogSource[sc.ID+"\x00"+uri], b.tables[sc.ID+"\x00"+uri])...)
		case resCatalog:
			it.body = append(piece{{lit: key}}, b.catalogBody(res[uri], b.catalogSource[sc.ID+"\x00"+uri])...)
		case resOptional:
			it.body = piece{{lit: key + compactJSON(res[uri])}}
			it.res = len(b.l.resources)
			b.l.resources = append(b.l.resources, &optResource{chars: len(it.body[0].lit) + 1,
				doc: unitDoc{Name: normWords(uri + " " + strings.Join(sc.Domains, " ")), Text: resourceText(res[uri])}})
		default:
			it.body = piece{{lit: key + compactJSON(res[uri])}}
		}
		it.chars = it.body.chars()
		sl.items = append(sl.items, it)
	}
	return append(p, part{slot: sl}, part{lit: "}\n"})
}

// maxIndexedText bounds how much of a resource's text is indexed.
const maxIndexedText = 64 << 10

// resourceText is the start of a resource's text, for the index.
func resourceText(v any) string {
	s, ok := v.(string)
	if !ok {
		s = compactJSON(v)
	}
	if len(s) > maxIndexedText {
		s = s[:maxIndexedText]
	}
	return normWords(s)
}

// sentinel returns a string that stands for slot k in a rendering; split
// finds it in the JSON.
func (b *layoutBuilder) sentinel() string {
	b.seq++
	return "\x00" + b.nonce + ":" + strconv.Itoa(b.seq) + "\x00"
}

// split renders obj, whose members named in slots hold sentinels, into a
// piece with those slots.
func split(obj map[string]any, slots map[string]*slot) piece {
	text := compactJSON(obj)
	type at struct {
		pos int
		enc string
		sl  *slot
	}
	var found []at
	for k, sl := range slots {
		enc := compactJSON(obj[k])
		if i := strings.Index(text, enc); i >= 0 {
			found = append(found, at{i, enc, sl})
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].pos < found[j].pos })
	var p piece
	prev := 0
	for _, f := range found {
		p = append(p, part{lit: text[prev:f.pos]}, part{slot: f.sl})
		prev = f.pos + len(f.enc)
	}
	return append(p, part{lit: text[prev:]})
}

// schemaBody renders a schema resource with its tables as units; typed are
// its tables decoded, in the same order.
func (b *layoutBuilder) schemaBody(v any, src int, typed []*schema.Table) piece {
	obj := v.(map[string]any)
	tables, _ := obj["tables"].([]any)
	sl := &slot{open: "[", close: "]"}
	for i, t := range tables {
		it := item{unit: -1, res: -1, set: -1, body: piece{{lit: compactJSON(t)}}}
		if i < len(typed) && typed[i] != nil {
			it.unit = b.unitFor(src, typed[i].QualifiedName())
			b.describeSchemaTable(b.l.units[it.unit], typed[i])
		}
		it.chars = len(it.body[0].lit)
		b.charge(it.unit, it.chars)
		sl.items = append(sl.items, it)
	}
	obj["tables"] = b.sentinel()
	return split(obj, map[string]*slot{"tables": sl})
}

// charge adds an item's size (and its separator) to its unit.
func (b *layoutBuilder) charge(u, chars int) {
	if u >= 0 {
		b.l.units[u].chars += chars + 1
	}
}

// catalogBody renders a catalog resource with its tables, measures and
// entity sets belonging to units.
func (b *layoutBuilder) catalogBody(v any, src int) piece {
	obj, ok := v.(map[string]any)
	if !ok {
		return piece{{lit: compactJSON(v)}}
	}
	slots := map[string]*slot{}
	if ts, ok := obj["tables"].(map[string]any); ok {
		sl := &slot{open: "{", close: "}"}
		for _, name := range sortedKeys(ts) {
			u := b.unitFor(src, name)
			b.describeCatalogTable(b.l.units[u], ts[name])
			it := item{unit: u, res: -1, set: -1, body: piece{{lit: compactJSON(name) + ":" + compactJSON(withoutWhy(ts[name]))}},
				whole: compactJSON(name) + ":" + compactJSON(ts[name])}
			it.chars = len(it.body[0].lit)
			b.charge(u, it.chars)
			sl.items = append(sl.items, it)
		}
		slots["tables"] = sl
		obj["tables"] = b.sentinel()
	}
	if ms, ok := obj["measures"].(map[string]any); ok {
		sl := &slot{open: "{", close: "}"}
		for _, name := range sortedKeys(ms) {
			it := item{unit: -1, res: -1, set: -1, body: piece{{lit: compactJSON(name) + ":" + compactJSON(ms[name])}}}
			if m, _ := ms[name].(map[string]any); m != nil {
				if t, _ := m["table"].(string); t != "" {
					it.unit = b.unitFor(src, t)
					u := b.l.units[it.unit]
					u.doc.Columns += " " + normWords(name) + " " + normWords(strings.Join(stringsOf(m["words"]), " "))
				}
			}
			it.chars = len(it.body[0].lit)
			b.charge(it.unit, it.chars)
			sl.items = append(sl.items, it)
		}
		slots["measures"] = sl
		obj["measures"] = b.sentinel()
	}
	if sets, ok := obj["entities"].([]any); ok {
		sl := &slot{open: "[", close: "]"}
		for _, s := range sets {
			sl.items = append(sl.items, b.entitySetItem(s, src))
		}
		slots["entities"] = sl
		obj["entities"] = b.sentinel()
	}
	return split(obj, slots)
}

// withoutWhy returns a catalog table without the "why" notes of the table
// and its columns: a drafter's reasons, written for the person reviewing
// the catalog, they take a fifth of a drafted catalog and tell a query
// writer nothing the other members do not. A prompt built per question
// leaves them out to show more tables.
func withoutWhy(t any) any {
	tm, ok := t.(map[string]any)
	if !ok {
		return t
	}
	out := make(map[string]any, len(tm))
	for k, v := range tm {
		if k != "why" {
			out[k] = v
		}
	}
	cols, ok := tm["columns"].(map[string]any)
	if !ok {
		return out
	}
	cc := make(map[string]any, len(cols))
	for name, c := range cols {
		cm, ok := c.(map[string]any)
		if !ok {
			cc[name] = c
			continue
		}
		m := make(map[string]any, len(cm))
		for k, v := range cm {
			if k != "why" {
				m[k] = v
			}
		}
		cc[name] = m
	}
	out["columns"] = cc
	return out
}

// entitySetItem renders one entity set; a large one with its values as a
// slot, so a prompt may list only the values the question names.
func (b *layoutBuilder) entitySetItem(s any, src int) item {
	it := item{unit: -1, res: -1, set: -1}
	sm, ok := s.(map[string]any)
	table, _ := sm["table"].(string)
	if !ok || table == "" {
		it.body = piece{{lit: compactJSON(s)}}
		it.chars = len(it.body[0].lit)
		return it
	}
	it.unit = b.unitFor(src, table)
	vals, _ := sm["values"].([]any)
	key, _ := sm["key"].(string)
	es := &entitySet{unit: it.unit, whole: len(vals) <= wholeSetValues, keyed: key != ""}
	for _, v := range vals {
		vm, _ := v.(map[string]any)
		var names [][]string
		if n, _ := vm["name"].(string); n != "" {
			names = append(names, lowerWords(n))
		}
		for _, a := range stringsOf(vm["aliases"]) {
			names = append(names, lowerWords(a))
		}
		es.names = append(es.names, names)
	}
	si := len(b.l.sets)
	b.l.sets = append(b.l.sets, es)
	u := b.l.units[it.unit]
	u.sets = append(u.sets, si)
	if es.whole {
		it.body = piece{{lit: compactJSON(s)}}
		it.chars = len(it.body[0].lit)
		b.charge(it.unit, it.chars)
		return it
	}
	vs := &slot{open: "[", close: "]"}
	for j, v := range vals {
		vi := item{unit: -1, res: -1, set: si, value: j, body: piece{{lit: compactJSON(v)}}}
		vi.chars = len(vi.body[0].lit)
		es.values = append(es.values, vi.chars)
		vs.items = append(vs.items, vi)
	}
	cp := make(map[string]any, len(sm))
	for k, v := range sm {
		cp[k] = v
	}
	cp["values"] = b.sentinel()
	it.body = split(cp, map[string]*slot{"values": vs})
	it.chars = it.body.chars()
	// The set's frame is the unit's; its values are paid per question.
	frame := it.chars - vs.chars() + len(vs.open) + len(vs.close)
	b.charge(it.unit, frame)
	return it
}

// describeSchemaTable adds a schema table's words to its unit's document.
func (b *layoutBuilder) describeSchemaTable(u *unit, t *schema.Table) {
	u.doc.Name += " " + normWords(t.Name)
	if t.Comment != "" {
		u.doc.Text += " " + normWords(t.Comment)
	}
	for _, c := range t.Columns {
		if c.Name == "" {
			continue
		}
		u.cols = append(u.cols, c.Name)
		u.doc.Columns += " " + normWords(c.Name)
		for _, v := range c.DistinctValues {
			u.doc.Values += " " + normWords(v)
		}
		if c.Comment != "" {
			u.doc.Text += " " + normWords(c.Comment)
		}
	}
}

// describeCatalogTable adds a catalog table's words to its unit's document.
func (b *layoutBuilder) describeCatalogTable(u *unit, t any) {
	tm, _ := t.(map[string]any)
	u.doc.Name += " " + normWords(u.name) + " " + normWords(strings.Join(stringsOf(tm["words"]), " "))
	if d, _ := tm["description"].(string); d != "" {
		u.doc.Text += " " + normWords(d)
	}
	cols, _ := tm["columns"].(map[string]any)
	for _, cn := range sortedKeys(cols) {
		cm, _ := cols[cn].(map[string]any)
		u.doc.Columns += " " + normWords(strings.Join(stringsOf(cm["words"]), " "))
		if !u.fromSchema {
			u.cols = append(u.cols, cn)
			u.doc.Columns += " " + normWords(cn)
		}
	}
}

// linkForeignKeys records the joins between units: schema foreign keys and
// catalog column references.
func (b *layoutBuilder) linkForeignKeys(sorted []ServerContext) {
	link := func(from, to int) {
		if from == to {
			return
		}
		fu, tu := b.l.units[from], b.l.units[to]
		fu.refs = append(fu.refs, to)
		fu.adj = append(fu.adj, to)
		tu.adj = append(tu.adj, from)
	}
	for _, sc := range sorted {
		for _, uri := range sortedKeys(sc.Resources) {
			obj, _ := sc.Resources[uri].(map[string]any)
			src, ok := b.catalogSource[sc.ID+"\x00"+uri]
			if !ok {
				continue
			}
			s := b.l.sources[src]
			for _, t := range b.tables[sc.ID+"\x00"+uri] {
				if t == nil {
					continue
				}
				from, ok := s.byName[t.QualifiedName()]
				if !ok {
					continue
				}
				for _, fk := range t.ForeignKeys {
					ref := fk.ReferencesTable
					if to, ok := s.byName[ref]; ok {
						link(from, to)
					} else if to, ok := s.byName[t.Schema+"."+ref]; ok && t.Schema != "" {
						link(from, to)
					}
				}
			}
			if tables, ok := obj["tables"].(map[string]any); ok {
				for name, t := range tables {
					from := s.byName[name]
					tm, _ := t.(map[string]any)
					cols, _ := tm["columns"].(map[string]any)
					for _, c := range cols {
						cm, _ := c.(map[string]any)
						ref, _ := cm["references"].(string)
						if i := strings.LastIndexByte(ref, '.'); i > 0 {
							if to, ok := s.byName[ref[:i]]; ok {
								link(from, to)
							}
						}
					}
				}
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func uniqueInts(in []int) []int {
	if len(in) < 2 {
		return in
	}
	sort.Ints(in)
	out := in[:1]
	for _, v := range in[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}
