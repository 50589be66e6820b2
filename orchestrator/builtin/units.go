package builtin

import (
	"talk2tables/catalog"
)

// measureUnit is a unit a column's name or a question may count in: its
// kind of quantity and its size in the kind's base unit.
type measureUnit struct {
	kind string
	size float64
}

// measureUnits are the units a comparison is converted between, by every
// way they are written ("tonnes", "t"; "mins", "minutes").
var measureUnits = map[string]measureUnit{
	"mg": {"weight", 0.000001}, "milligram": {"weight", 0.000001},
	"g": {"weight", 0.001}, "gram": {"weight", 0.001}, "gramme": {"weight", 0.001},
	"kg": {"weight", 1}, "kilo": {"weight", 1}, "kilogram": {"weight", 1}, "kilogramme": {"weight", 1},
	"tonne": {"weight", 1000}, "ton": {"weight", 1000}, "t": {"weight", 1000},
	"mm": {"length", 0.001}, "millimetre": {"length", 0.001}, "millimeter": {"length", 0.001},
	"cm": {"length", 0.01}, "centimetre": {"length", 0.01}, "centimeter": {"length", 0.01},
	"m": {"length", 1}, "metre": {"length", 1}, "meter": {"length", 1},
	"km": {"length", 1000}, "kilometre": {"length", 1000}, "kilometer": {"length", 1000},
	"ms": {"time", 0.001}, "millisecond": {"time", 0.001}, "millis": {"time", 0.001},
	"s": {"time", 1}, "sec": {"time", 1}, "secs": {"time", 1}, "second": {"time", 1},
	"min": {"time", 60}, "mins": {"time", 60}, "minute": {"time", 60},
	"h": {"time", 3600}, "hr": {"time", 3600}, "hrs": {"time", 3600}, "hour": {"time", 3600},
	"day": {"time", 86400},
	"ml":  {"volume", 0.001}, "millilitre": {"volume", 0.001}, "milliliter": {"volume", 0.001},
	"l": {"volume", 1}, "litre": {"volume", 1}, "liter": {"volume", 1},
}

// columnUnit is the unit a column's name says it holds (mass_kg,
// drop_m, span_minutes), if one, with the word that says it.
func columnUnit(c *column) (measureUnit, string, bool) {
	ws := catalog.IdentifierWords(c.name)
	for i := len(ws) - 1; i >= 0; i-- {
		if i == 0 && !wholeUnitName(ws[0]) {
			break // a column called "hour" or "min" is a time of day or a minimum
		}
		if u, ok := measureUnits[catalog.Singular(ws[i])]; ok && !(u.kind == "time" && ws[i] == "day") {
			return u, ws[i], true
		}
	}
	return measureUnit{}, "", false
}

// wholeUnitName: a column named by a unit alone counts in it ("secs",
// "km", "minutes"), unlike a singular word or one letter.
func wholeUnitName(w string) bool {
	return len(w) >= 2 && w != "min" && (w != catalog.Singular(w) || len(w) <= 3)
}

// saidUnit is the unit typed right after a number of the question whose
// value is n ("20 tonnes", "1.5 km"), if one.
func saidUnit(toks []token, n float64) (measureUnit, string, bool) {
	for i := 0; i+1 < len(toks); i++ {
		if v, ok := numberWords[toks[i].w]; !(toks[i].isNum && toks[i].num == n || ok && float64(v) == n) {
			continue
		}
		if u, ok := measureUnits[catalog.Singular(toks[i+1].w)]; ok {
			return u, toks[i+1].w, true
		}
	}
	return measureUnit{}, "", false
}

// scaleUnits converts each number compared with a column held in one unit
// when the question gives it in another of the same kind ("heavier than 3
// tonnes" against mass_kg: > 3000; "over 10 minutes" against lap_s:
// > 600), and declines a number given in a unit of another kind.
func scaleUnits(toks []token, conds []*cond) error {
	for _, c := range conds {
		if err := scaleUnits(toks, c.subs); err != nil {
			return err
		}
		if c.semi != nil {
			if err := scaleUnits(toks, c.semi.where); err != nil {
				return err
			}
			if err := scaleUnits(toks, c.semi.having); err != nil {
				return err
			}
		}
		if c.kind != cCmp || c.e.col == nil || c.e.div != 0 || !(c.e.kind == eCol || c.e.kind == eAgg && c.e.fn != "COUNT") {
			continue // a column, or a total, average or extreme of one ("whose loads weigh over 9 tonnes in all")
		}
		held, _, ok := columnUnit(c.e.col)
		if !ok {
			continue
		}
		said, word, ok := saidUnit(toks, c.a)
		if !ok && c.op == "between" {
			said, word, ok = saidUnit(toks, c.b) // "from 2 to 7 tonnes"
		}
		if !ok {
			continue
		}
		if said.kind != held.kind {
			return decline("the question counts in %s, and %s holds another kind of quantity", word, c.e.col.ref()).
				withHint("name the column the number belongs to")
		}
		f := said.size / held.size
		c.a *= f
		if c.op == "between" {
			c.b *= f
		}
	}
	return nil
}
