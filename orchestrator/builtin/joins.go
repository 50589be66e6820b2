package builtin

import (
	"slices"
	"strings"
)

// path is a chain of many-to-one edges from one table to another.
type path []*edge

// reachInfo is every table reachable from one table.
type reachInfo struct {
	paths     map[*table]path
	ambiguous map[*table]bool
}

// paths returns, for every table reachable from t through many-to-one
// foreign keys, its shortest path; tables with two different shortest
// paths are in ambiguous (e.g. a flight's origin and destination airport).
// Views are not joined through. Computed once per table at compile.
func (m *model) paths(t *table) (map[*table]path, map[*table]bool) {
	if ri, ok := m.reachable[t]; ok {
		return ri.paths, ri.ambiguous
	}
	return m.findPaths(t)
}

// computePaths fills the reachability of every table.
func (m *model) computePaths() {
	m.reachable = make(map[*table]reachInfo, len(m.tables))
	for _, t := range m.tables {
		p, a := m.findPaths(t)
		m.reachable[t] = reachInfo{paths: p, ambiguous: a}
	}
	m.bridgedPaths()
}

// bridgedPaths marks a path of two or more hops ambiguous when a third
// table links both ends as directly, by keys of its own: a course reaches
// a teacher through its department's head, and each offering names a
// course and the teacher who taught it — which teacher is "the course's"
// is not known. A path of one hop (a key of the row itself) stays the
// row's own link.
func (m *model) bridgedPaths() {
	type pair struct{ a, b *table }
	closest := map[pair]int{}
	for _, l := range m.tables {
		if l.view {
			continue
		}
		ps := m.reachable[l].paths
		for a, pa := range ps {
			for b, pb := range ps {
				if a == b || a == l || b == l || !disjoint(pa, pb) {
					continue
				}
				k := pair{a, b}
				if h, ok := closest[k]; !ok || len(pa)+len(pb) < h {
					closest[k] = len(pa) + len(pb)
				}
			}
		}
	}
	for _, a := range m.tables {
		ri := m.reachable[a]
		for b, p := range ri.paths {
			if len(p) < 2 {
				continue
			}
			if h, ok := closest[pair{a, b}]; ok && h <= len(p) {
				ri.ambiguous[b] = true
			}
		}
	}
}

// disjoint: two paths share no edge and neither passes through the
// other's end.
func disjoint(pa, pb path) bool {
	for _, e := range pa {
		if slices.Contains(pb, e) || len(pb) > 0 && e.to == pb[len(pb)-1].to {
			return false
		}
	}
	for _, e := range pb {
		if len(pa) > 0 && e.to == pa[len(pa)-1].to {
			return false
		}
	}
	return true
}

func (m *model) findPaths(t *table) (map[*table]path, map[*table]bool) {
	best := map[*table]path{t: nil}
	ambiguous := map[*table]bool{}
	frontier := []*table{t}
	for len(frontier) > 0 {
		next := []*table{}
		level := map[*table]path{}
		for _, x := range frontier {
			for _, e := range x.out {
				if e.to == x || e.to.view {
					continue
				}
				if _, done := best[e.to]; done {
					continue
				}
				p := append(append(path{}, best[x]...), e)
				if prev, ok := level[e.to]; ok {
					if !slices.Equal(prev, p) {
						ambiguous[e.to] = true
					}
					continue
				}
				level[e.to] = p
				next = append(next, e.to)
			}
		}
		for tt, p := range level {
			best[tt] = p
		}
		for _, x := range next {
			if ambiguous[x] {
				// what lies beyond an ambiguous table is ambiguous too,
				// unless a shorter path reaches it already
				for _, e := range x.out {
					if _, done := best[e.to]; !done {
						ambiguous[e.to] = true
					}
				}
			}
		}
		frontier = next
	}
	return best, ambiguous
}

// reach reports whether to is reachable from from through many-to-one
// keys without ambiguity, and the number of hops.
func (m *model) reach(from, to *table) (int, bool) {
	if from == to {
		return 0, true
	}
	ps, amb := m.paths(from)
	p, ok := ps[to]
	if !ok || amb[to] {
		return 0, false
	}
	return len(p), true
}

// bridge finds a table from which every one of the tables is reachable
// through many-to-one keys (a fact table joining them), the closest one
// (fewest hops in total); nil when none, two equally close, or a table as
// close that joins them by one of two keys (a visit's inspector or its
// second inspector: a review's reviewer is not the one meant).
func (m *model) bridge(ts []*table) *table {
	var best *table
	bestHops, tie, ambHops := 1<<30, false, 1<<30
	for _, r := range m.tables {
		if r.view {
			continue
		}
		ps, amb := m.paths(r)
		hops, ok, twoWays := 0, true, false
		for _, t := range ts {
			p, in := ps[t]
			if !in {
				ok = false
				break
			}
			twoWays = twoWays || amb[t]
			hops += len(p)
		}
		if !ok {
			continue
		}
		if twoWays {
			// this table joins them too, by one of two keys: a farther
			// table is not the one meant
			ambHops = min(ambHops, hops)
			continue
		}
		switch {
		case hops < bestHops:
			best, bestHops, tie = r, hops, false
		case hops == bestHops:
			tie = true
		}
	}
	if tie || ambHops <= bestHops {
		return nil
	}
	return best
}

// otherBridge is a table other than best that reaches every one of ts
// (by any of its paths) without passing through best: a second relation
// between them ("drills" and "sign-ups" both link cadets and
// instructors), nil when there is none.
func (m *model) otherBridge(best *table, ts []*table) *table {
	for _, r := range m.tables {
		if r == best || r.view || slices.Contains(ts, r) {
			continue
		}
		ps, _ := m.paths(r)
		ok := true
		for _, t := range ts {
			p, in := ps[t]
			if !in || slices.ContainsFunc(p, func(e *edge) bool { return e.to == best }) {
				ok = false
				break
			}
		}
		if ok {
			return r
		}
	}
	return nil
}

// joinSet is the joins a query needs from its root, in order.
type joinSet struct {
	root  *table
	edges []*edge
	in    map[*table]bool
}

func newJoinSet(root *table) *joinSet {
	return &joinSet{root: root, in: map[*table]bool{root: true}}
}

// need adds the path to t; false when t is not reachable many-to-one or
// would be reached a second, different way.
func (j *joinSet) need(m *model, t *table) bool {
	if j.in[t] {
		return true
	}
	ps, amb := m.paths(j.root)
	p, ok := ps[t]
	if !ok || amb[t] {
		return false
	}
	for _, e := range p {
		if j.in[e.to] {
			if !j.has(e) {
				return false
			}
			continue
		}
		j.edges = append(j.edges, e)
		j.in[e.to] = true
	}
	return true
}

// otherLink is a table linking a and b besides a's own key to b: one with
// a key to a that reaches b in at most two hops without passing through a
// (a pupil's membership of a club a teacher runs, beside the pupil's tutor
// key).
func (m *model) otherLink(a, b *table) *table {
	for _, x := range m.tables {
		if x == a || x == b || x.view || !slices.ContainsFunc(x.out, func(o *edge) bool { return o.to == a }) {
			continue
		}
		for _, e1 := range x.out {
			if e1.to == a || e1.to == x {
				continue
			}
			if e1.to == b || slices.ContainsFunc(e1.to.out, func(e2 *edge) bool { return e2.to == b }) {
				return x
			}
		}
	}
	return nil
}

// needVia adds the path to t from via, a table already joined: the link
// the question names ("a club run by X": the club's organiser).
func (j *joinSet) needVia(m *model, via, t *table) bool {
	if !j.in[via] {
		return false
	}
	ps, amb := m.paths(via)
	p, ok := ps[t]
	if !ok || amb[t] {
		return false
	}
	for _, e := range p {
		if j.in[e.to] {
			if !j.has(e) {
				return false
			}
			continue
		}
		j.edges = append(j.edges, e)
		j.in[e.to] = true
	}
	return true
}

func (j *joinSet) has(e *edge) bool {
	for _, x := range j.edges {
		if x == e {
			return true
		}
	}
	return false
}

func tableNames(ts []*table) string {
	var names []string
	for _, t := range ts {
		names = append(names, t.name)
	}
	return strings.Join(names, " and ")
}

// reachesWithin: one of the tables from reaches one of the tables to
// through many-to-one keys, in one to most hops, without ambiguity
// ("kiosk crates": each crate has its kiosk).
func (m *model) reachesWithin(from, to []*table, most int) bool {
	for _, f := range from {
		for _, t := range to {
			if n, ok := m.reach(f, t); ok && n >= 1 && n <= most {
				return true
			}
		}
	}
	return false
}
