package builtin

import (
	"slices"
	"strings"
)

// kw is a piece of built-in analyst English.
type kw int

const (
	kwNone       kw = iota
	kwCount         // how many, number of, count
	kwAgg           // total, sum, average, max, min (fn)
	kwRank          // top, bottom, best, worst, highest, most, least (dir)
	kwSuper         // superlative adjectives: most expensive, cheapest, longest (dir, unit)
	kwSell          // selling, sold: ranks by quantity
	kwSpend         // spent, paid: ranks by money
	kwGroup         // by, per, for each, across
	kwWise          // "region wise"
	kwTrend         // trend, over time
	kwGrain         // daily, monthly, quarterly, yearly (grain)
	kwGrainNoun     // day, week, month, quarter, year after by/per/each (grain)
	kwList          // list, show, display
	kwWhich         // which, what
	kwNeg           // excluding, not, except
	kwCompare       // compare, vs
	kwHowMuch       // how much
	kwWrite         // delete, update, drop
	kwWrite0        // add, remove, change: a write only as the first word
	kwWhy           // why
	kwFuture        // will, predict, forecast, next
	kwDistinct      // distinct, different, unique
	kwAnd           // and
	kwOr            // or
	kwLast          // last (recency when not a time phrase)
	kwFirst         // first
	kwCmp           // comparators (op, unit)
	kwNoneOf        // no, never, none: not answered offline
	kwDateVerb      // signed up, hired, shipped: which date a time range is on (forms)
	kwRelation      // report to, managed by: a relation between rows, not answered offline
	kwStockState    // in stock, out of stock, sold out: a quantity's state without its number
	kwAcrossAll     // across all, across every: one total over the rows named, not one per row
)

// kwInfo is one meaning of a keyword phrase.
type kwInfo struct {
	kw   kw
	fn   string // kwAgg: SUM, AVG, MIN, MAX
	dir  int    // kwRank, kwSuper: 1 highest first, -1 lowest first
	unit string // kwSuper, kwCmp: the kind of quantity the adjective speaks of
	op   string // kwCmp: >, >=, <, <=, =, between
	gr   string // kwGrain, kwGrainNoun: day, week, month, quarter, year
	// forms (kwDateVerb) are words a date column named for the event has:
	// "hired" → hire, hired, hiring.
	forms []string
}

// dateVerbs say which event a time range dates ("patrons who registered
// in 2019", "employees hired last year"): the date column whose words
// include one of the forms.
var dateVerbs = map[string][]string{
	"signed up":    {"signup", "sign", "signed", "registration", "registered", "join", "joined", "created", "creation"},
	"sign up":      {"signup", "sign", "signed", "registration", "registered", "join", "joined", "created", "creation"},
	"signed":       {"signup", "sign", "signed", "registration", "registered"},
	"registered":   {"registration", "registered", "register", "signup", "join", "joined", "created", "creation"},
	"hired":        {"hire", "hired", "hiring", "employment"},
	"shipped":      {"ship", "shipped", "shipping", "shipment", "dispatch", "dispatched"},
	"sent":         {"ship", "shipped", "shipping", "sent", "send", "dispatch", "dispatched"},
	"dispatched":   {"dispatch", "dispatched", "ship", "shipped", "shipping"},
	"delivered":    {"deliver", "delivered", "delivery"},
	"born":         {"birth", "born", "dob", "birthday"},
	"released":     {"release", "released", "publish", "published", "publication"},
	"published":    {"publish", "published", "publication", "release", "released"},
	"created":      {"create", "created", "creation"},
	"made":         {"made", "make", "manufacture", "manufactured", "production", "produced", "built", "build"},
	"manufactured": {"manufacture", "manufactured", "made", "production", "produced"},
	"opened":       {"open", "opened", "opening"},
	"closed":       {"close", "closed", "closing"},
	"placed":       {"order", "ordered", "placed", "placement"},
	"ordered":      {"order", "ordered"},
	"invoiced":     {"invoice", "invoiced", "billing", "billed"},
	"issued":       {"issue", "issued", "issuance", "invoice", "invoiced", "created", "creation"},
	"billed":       {"bill", "billed", "billing", "invoice", "invoiced"},
	"booked":       {"book", "booked", "booking", "reservation", "reserved"},
	"reserved":     {"reservation", "reserved", "booking", "booked"},
	"started":      {"start", "started", "starts", "starting", "begin", "begins"},
	"began":        {"start", "started", "starts", "starting", "begin", "begins"},
	"begun":        {"start", "started", "starts", "starting", "begin", "begins"},
	"ended":        {"end", "ended", "ends", "ending", "finish", "finishes", "finished"},
	"finished":     {"end", "ended", "ends", "ending", "finish", "finishes", "finished"},
	"joined":       {"join", "joined", "joining", "signup", "registration"},
	"checked in":   {"check in", "checkin", "arrival", "arrive", "arrived"},
	"checked out":  {"check out", "checkout", "departure", "depart", "departed"},
	"arrived":      {"arrival", "arrive", "arrived", "check in", "checkin"},
	"departed":     {"departure", "depart", "departed", "check out", "checkout"},
}

// Units that superlatives and comparisons speak of.
const (
	unitMoney    = "money"
	unitDuration = "duration"
	unitQuantity = "quantity"
	unitSize     = "size"
	unitWeight   = "weight"
	unitDate     = "date" // oldest, newest, most recent: the table's date
	unitAge      = "age"
)

// keywords maps a phrase of lower-case words to its meaning. Phrases are
// matched on words as typed, then on singular stems.
var keywords = map[string]kwInfo{
	"how many": {kw: kwCount}, "number of": {kw: kwCount}, "count": {kw: kwCount}, "count of": {kw: kwCount},
	"total number of": {kw: kwCount}, "no of": {kw: kwCount}, "num of": {kw: kwCount}, "counts of": {kw: kwCount},
	"the number of": {kw: kwCount},

	"total": {kw: kwAgg, fn: "SUM"}, "sum": {kw: kwAgg, fn: "SUM"}, "sum of": {kw: kwAgg, fn: "SUM"},
	"total of": {kw: kwAgg, fn: "SUM"},
	"average":  {kw: kwAgg, fn: "AVG"}, "avg": {kw: kwAgg, fn: "AVG"}, "mean": {kw: kwAgg, fn: "AVG"},
	"average of": {kw: kwAgg, fn: "AVG"}, "typical": {kw: kwAgg, fn: "AVG"},
	"maximum": {kw: kwAgg, fn: "MAX"}, "max": {kw: kwAgg, fn: "MAX"},
	"minimum": {kw: kwAgg, fn: "MIN"}, "min": {kw: kwAgg, fn: "MIN"},

	"top": {kw: kwRank, dir: 1}, "best": {kw: kwRank, dir: 1}, "highest": {kw: kwRank, dir: 1},
	"most": {kw: kwRank, dir: 1}, "the most": {kw: kwRank, dir: 1}, "largest": {kw: kwRank, dir: 1},
	"biggest": {kw: kwRank, dir: 1}, "greatest": {kw: kwRank, dir: 1}, "leading": {kw: kwRank, dir: 1},
	"bottom": {kw: kwRank, dir: -1}, "worst": {kw: kwRank, dir: -1}, "lowest": {kw: kwRank, dir: -1},
	"least": {kw: kwRank, dir: -1}, "the least": {kw: kwRank, dir: -1}, "smallest": {kw: kwRank, dir: -1},
	"fewest": {kw: kwRank, dir: -1}, "the fewest": {kw: kwRank, dir: -1},

	"most expensive": {kw: kwSuper, dir: 1, unit: unitMoney}, "priciest": {kw: kwSuper, dir: 1, unit: unitMoney},
	"least expensive": {kw: kwSuper, dir: -1, unit: unitMoney}, "cheapest": {kw: kwSuper, dir: -1, unit: unitMoney},
	"longest": {kw: kwSuper, dir: 1, unit: unitDuration}, "shortest": {kw: kwSuper, dir: -1, unit: unitDuration},
	"heaviest": {kw: kwSuper, dir: 1, unit: unitWeight}, "lightest": {kw: kwSuper, dir: -1, unit: unitWeight},
	"oldest": {kw: kwSuper, dir: -1, unit: unitAge}, "youngest": {kw: kwSuper, dir: 1, unit: unitAge},
	"newest": {kw: kwSuper, dir: 1, unit: unitDate}, "latest": {kw: kwSuper, dir: 1, unit: unitDate},
	"most recent": {kw: kwSuper, dir: 1, unit: unitDate}, "earliest": {kw: kwSuper, dir: -1, unit: unitDate},
	"recent": {kw: kwSuper, dir: 1, unit: unitDate},

	"selling": {kw: kwSell}, "sold": {kw: kwSell}, "sell": {kw: kwSell}, "sells": {kw: kwSell},
	"seller": {kw: kwSell}, "sellers": {kw: kwSell}, "popular": {kw: kwSell},
	"units": {kw: kwSell}, "units sold": {kw: kwSell}, "items sold": {kw: kwSell}, "pieces sold": {kw: kwSell},
	"spent": {kw: kwSpend}, "spend": {kw: kwSpend}, "spending": {kw: kwSpend}, "spends": {kw: kwSpend},
	"paid": {kw: kwSpend}, "spender": {kw: kwSpend}, "spenders": {kw: kwSpend},

	"by": {kw: kwGroup}, "per": {kw: kwGroup}, "for each": {kw: kwGroup}, "for every": {kw: kwGroup},
	"each": {kw: kwGroup}, "every": {kw: kwGroup}, "across": {kw: kwGroup}, "broken down by": {kw: kwGroup},
	"grouped by": {kw: kwGroup}, "split by": {kw: kwGroup}, "breakdown by": {kw: kwGroup},
	"group by": {kw: kwGroup}, "broken out by": {kw: kwGroup}, "in each": {kw: kwGroup},
	"wise": {kw: kwWise},

	"trend": {kw: kwTrend}, "trends": {kw: kwTrend}, "over time": {kw: kwTrend}, "evolution": {kw: kwTrend},
	"timeline": {kw: kwTrend},
	"daily":    {kw: kwGrain, gr: "day"}, "weekly": {kw: kwGrain, gr: "week"}, "monthly": {kw: kwGrain, gr: "month"},
	"quarterly": {kw: kwGrain, gr: "quarter"}, "yearly": {kw: kwGrain, gr: "year"}, "annual": {kw: kwGrain, gr: "year"},
	"annually": {kw: kwGrain, gr: "year"},
	"day":      {kw: kwGrainNoun, gr: "day"}, "week": {kw: kwGrainNoun, gr: "week"}, "month": {kw: kwGrainNoun, gr: "month"},
	"quarter": {kw: kwGrainNoun, gr: "quarter"}, "year": {kw: kwGrainNoun, gr: "year"},

	"list": {kw: kwList}, "show": {kw: kwList}, "display": {kw: kwList}, "give": {kw: kwList}, "get": {kw: kwList},
	"find": {kw: kwList}, "fetch": {kw: kwList}, "enumerate": {kw: kwList},
	"show me": {kw: kwList}, "give me": {kw: kwList}, "list all": {kw: kwList}, "show all": {kw: kwList},
	"which": {kw: kwWhich}, "what": {kw: kwWhich}, "whats": {kw: kwWhich}, "who": {kw: kwWhich},
	"what are": {kw: kwWhich}, "what is": {kw: kwWhich}, "which are": {kw: kwWhich}, "who are": {kw: kwWhich},
	"who is": {kw: kwWhich}, "which is": {kw: kwWhich},

	"excluding": {kw: kwNeg}, "exclude": {kw: kwNeg}, "excluded": {kw: kwNeg}, "except": {kw: kwNeg},
	"except for": {kw: kwNeg}, "without": {kw: kwNeg}, "not": {kw: kwNeg}, "non": {kw: kwNeg},
	"excl": {kw: kwNeg}, "other than": {kw: kwNeg}, "but not": {kw: kwNeg}, "apart from": {kw: kwNeg},
	"isnt": {kw: kwNeg}, "arent": {kw: kwNeg}, "wasnt": {kw: kwNeg}, "werent": {kw: kwNeg},
	"not in": {kw: kwNeg}, "outside": {kw: kwNeg}, "outside of": {kw: kwNeg},

	"compare": {kw: kwCompare}, "comparison": {kw: kwCompare}, "compared": {kw: kwCompare},
	"comparing": {kw: kwCompare}, "versus": {kw: kwCompare}, "vs": {kw: kwCompare}, "against": {kw: kwCompare},
	"how much": {kw: kwHowMuch},

	"delete": {kw: kwWrite}, "drop": {kw: kwWrite0}, "update": {kw: kwWrite}, "insert": {kw: kwWrite},
	"truncate": {kw: kwWrite}, "alter": {kw: kwWrite}, "grant": {kw: kwWrite}, "revoke": {kw: kwWrite},
	"create": {kw: kwWrite0}, "remove": {kw: kwWrite0}, "modify": {kw: kwWrite0}, "replace": {kw: kwWrite0},
	"attach": {kw: kwWrite0}, "erase": {kw: kwWrite0}, "wipe": {kw: kwWrite0}, "add": {kw: kwWrite0},
	"change": {kw: kwWrite0}, "set": {kw: kwWrite0}, "rename": {kw: kwWrite0}, "edit": {kw: kwWrite0},
	"why":  {kw: kwWhy},
	"will": {kw: kwFuture}, "predict": {kw: kwFuture}, "forecast": {kw: kwFuture}, "next": {kw: kwFuture},
	"projected": {kw: kwFuture}, "projection": {kw: kwFuture}, "expected": {kw: kwFuture}, "estimate": {kw: kwFuture},
	"going to": {kw: kwFuture}, "tomorrow": {kw: kwFuture},
	"distinct": {kw: kwDistinct}, "different": {kw: kwDistinct}, "unique": {kw: kwDistinct},
	"and": {kw: kwAnd}, "plus": {kw: kwAnd}, "as well as": {kw: kwAnd}, "or": {kw: kwOr},
	"last": {kw: kwLast}, "first": {kw: kwFirst},
	"across all": {kw: kwAcrossAll}, "across every": {kw: kwAcrossAll}, "across all the": {kw: kwAcrossAll},
	"report to": {kw: kwRelation}, "reports to": {kw: kwRelation}, "reporting to": {kw: kwRelation},
	"report into": {kw: kwRelation}, "managed by": {kw: kwRelation}, "supervised by": {kw: kwRelation},
	"works for": {kw: kwRelation}, "work for": {kw: kwRelation}, "working for": {kw: kwRelation},
	"manages": {kw: kwRelation}, "supervises": {kw: kwRelation}, "reporting line": {kw: kwRelation},
	"no": {kw: kwNoneOf}, "never": {kw: kwNoneOf}, "none": {kw: kwNoneOf}, "zero": {kw: kwNoneOf},
	"in stock": {kw: kwStockState}, "out of stock": {kw: kwStockState}, "sold out": {kw: kwStockState},
	"on hand": {kw: kwStockState}, "available in stock": {kw: kwStockState},

	"more than": {kw: kwCmp, op: ">"}, "greater than": {kw: kwCmp, op: ">"}, "larger than": {kw: kwCmp, op: ">"},
	"bigger than": {kw: kwCmp, op: ">"}, "higher than": {kw: kwCmp, op: ">"}, "over": {kw: kwCmp, op: ">"},
	"above": {kw: kwCmp, op: ">"}, "exceeding": {kw: kwCmp, op: ">"}, "exceeds": {kw: kwCmp, op: ">"},
	"exceed": {kw: kwCmp, op: ">"}, "in excess of": {kw: kwCmp, op: ">"},
	"at least": {kw: kwCmp, op: ">="}, "no less than": {kw: kwCmp, op: ">="}, "not less than": {kw: kwCmp, op: ">="},
	"or more": {kw: kwCmp, op: ">=+"}, "or less": {kw: kwCmp, op: "<=+"}, "or fewer": {kw: kwCmp, op: "<=+"},
	"less than": {kw: kwCmp, op: "<"}, "fewer than": {kw: kwCmp, op: "<"}, "lower than": {kw: kwCmp, op: "<"},
	"smaller than": {kw: kwCmp, op: "<"}, "under": {kw: kwCmp, op: "<"}, "below": {kw: kwCmp, op: "<"},
	"at most": {kw: kwCmp, op: "<="}, "no more than": {kw: kwCmp, op: "<="}, "not more than": {kw: kwCmp, op: "<="},
	"up to":    {kw: kwCmp, op: "<="},
	"between":  {kw: kwCmp, op: "between"},
	"equal to": {kw: kwCmp, op: "="}, "equals": {kw: kwCmp, op: "="}, "exactly": {kw: kwCmp, op: "="},
	"more expensive than": {kw: kwCmp, op: ">", unit: unitMoney}, "pricier than": {kw: kwCmp, op: ">", unit: unitMoney},
	"cheaper than": {kw: kwCmp, op: "<", unit: unitMoney}, "less expensive than": {kw: kwCmp, op: "<", unit: unitMoney},
	"longer than": {kw: kwCmp, op: ">", unit: unitDuration}, "shorter than": {kw: kwCmp, op: "<", unit: unitDuration},
	"heavier than": {kw: kwCmp, op: ">", unit: unitWeight}, "lighter than": {kw: kwCmp, op: "<", unit: unitWeight},
	"costing more than": {kw: kwCmp, op: ">", unit: unitMoney}, "costing less than": {kw: kwCmp, op: "<", unit: unitMoney},
	"priced over": {kw: kwCmp, op: ">", unit: unitMoney}, "priced above": {kw: kwCmp, op: ">", unit: unitMoney},
	"priced under": {kw: kwCmp, op: "<", unit: unitMoney}, "priced below": {kw: kwCmp, op: "<", unit: unitMoney},
	"priced at": {kw: kwCmp, op: "=", unit: unitMoney}, "priced between": {kw: kwCmp, op: "between", unit: unitMoney},
	"worth more than": {kw: kwCmp, op: ">", unit: unitMoney}, "worth over": {kw: kwCmp, op: ">", unit: unitMoney},
	"worth less than": {kw: kwCmp, op: "<", unit: unitMoney},
}

func init() {
	for verb, forms := range dateVerbs {
		if _, taken := keywords[verb]; !taken {
			keywords[verb] = kwInfo{kw: kwDateVerb, forms: forms}
		}
	}
	// "products that cost less than 50", "items priced over 100": the verb
	// says the comparison is on a money column.
	for phrase, info := range keywords {
		if info.kw != kwCmp || info.unit != "" || strings.HasPrefix(phrase, "or ") {
			continue
		}
		for _, verb := range []string{"cost", "costs", "costing", "priced", "worth", "selling for", "sold for", "sells for"} {
			if _, taken := keywords[verb+" "+phrase]; !taken {
				keywords[verb+" "+phrase] = kwInfo{kw: kwCmp, op: info.op, unit: unitMoney}
			}
		}
	}
	for k := range keywords {
		maxKeywordLen = max(maxKeywordLen, strings.Count(k, " ")+1)
	}
}

// maxKeywordLen is the longest keyword phrase in words.
var maxKeywordLen int

// recordedWords say a value is recorded or missing: "no <quantity>
// recorded" asks for an empty column even when the column is a number.
var recordedWords = setOf("recorded", "entered", "filled", "given", "known", "missing", "blank", "empty", "stored")

// stopwords carry no meaning for the planner: they are skipped, never
// reported as unknown.
var stopwords = setOf(
	"a", "an", "the", "of", "for", "in", "on", "at", "to", "from", "with", "is", "are", "was", "were",
	"be", "been", "being", "do", "does", "did", "done", "i", "we", "our", "ours", "us", "me", "my",
	"you", "your", "it", "its", "they", "them", "their", "there", "here", "this", "that", "these",
	"those", "please", "can", "could", "would", "should", "all", "any", "during", "within", "as",
	"just", "only", "also", "tell", "see", "want", "need", "know", "like", "made", "make", "makes",
	"generated", "generate", "had", "have", "has", "having", "got", "placed", "place", "places",
	"bought", "buy", "buys", "purchased", "ordered", "happened", "whole", "entire", "so", "far", "up",
	"down", "broken", "split", "grouped", "breakdown", "figures", "figure", "numbers", "data",
	"where", "whose", "recorded", "currently", "ever", "into", "out", "some", "respectively", "both",
	"come", "came", "brought", "altogether", "report", "summary", "belong", "belongs", "belonging",
	"listed", "available", "about", "much", "many", "give", "kindly", "hey", "hi", "okay", "ok",
	"whats", "than", "then", "by", "now", "right", "currently", "existing", "exist", "exists",
	"contain", "contains", "containing", "include", "includes", "including", "included", "involving",
	"which", "what", "who", "thing", "things", "value", "values", "amounts", "sort", "sorted",
	"order by", "ordered by", "rank", "ranked", "ranking", "along", "together", "respective", "via",
	"through", "if", "let", "lets", "into", "onto", "upon", "such", "being", "get", "gets", "got",
	"earned", "earn", "earns", "generate", "generates", "bring", "brings", "registered", "recorded",
	"how", "time", "times", "wise", "per", "level", "group", "overall", "breakdown", "view",
	"info", "information", "details", "detail", "stats", "statistics", "number", "go", "went",
	"happen", "done", "performed", "perform", "performing", "performance", "result", "results",
	"them", "him", "her", "his", "hers", "she", "he", "yet", "still", "already", "just",
	"whole", "every", "full", "complete", "currently", "right", "now", "ago", "since",
	"over", "under", "above", "below", "single", "ones", "one's",
	"live", "lives", "living", "located", "based", "situated", "take", "took", "taken", "takes",
	"handle", "handled", "handles", "handling", "process", "processed", "serve", "served", "serves",
	"receive", "received", "receives", "recorded", "record", "records", "entered", "stored",
)

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// matchKeyword returns the longest keyword phrase at toks[i].
func matchKeyword(toks []token, i int) (int, kwInfo) {
	for n := min(maxKeywordLen, len(toks)-i); n >= 1; n-- {
		var b, s strings.Builder
		for k := i; k < i+n; k++ {
			if toks[k].isNum && !isNumberWord(toks[k].w) || toks[k].sym != "" {
				goto next
			}
			if k > i {
				b.WriteByte(' ')
				s.WriteByte(' ')
			}
			b.WriteString(toks[k].w)
			s.WriteString(toks[k].s)
		}
		if info, ok := keywords[b.String()]; ok {
			return n, info
		}
		if info, ok := keywords[s.String()]; ok && !(info.kw == kwCount && slices.ContainsFunc(toks[i:i+n], func(t token) bool { return t.w == "numbers" })) {
			return n, info // "the numbers of the kiosks" are not how many
		}
	next:
	}
	return 0, kwInfo{}
}

func isNumberWord(w string) bool { _, ok := numberWords[w]; return ok }

// commandWords start a question as a command and are never a name.
var commandWords = setOf("list", "show", "display", "give", "get", "find", "fetch", "tell", "compare", "name")
