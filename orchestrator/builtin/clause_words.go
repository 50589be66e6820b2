package builtin

import "strings"

// The clause reader's English: the words that say what to show, how to
// filter, group and order. Every word of a question must be one of these,
// a word of the schema or catalog, a value, a number, a date — or the
// question is declined naming the word.

// cword is what a clause word does.
type cword int

const (
	cwNone       cword = iota
	cwFiller           // carries no meaning here (articles, "please", "show me")
	cwCount            // how many, number of, count
	cwAgg              // average, maximum, total (fn)
	cwDistinct         // distinct, different, unique
	cwCmp              // more than, below, at least, between (op, unit)
	cwOrMore           // "or more", "or less" after a number (op)
	cwSuper            // youngest, largest, most, fewest, top (dir, unit)
	cwOrderBy          // ordered by, sorted by, in order of
	cwDir              // descending, ascending, alphabetically, from oldest to youngest (dir, unit)
	cwGroup            // for each, per, in each, grouped by
	cwEach             // each, every: a group after an aggregate, else all rows
	cwBy               // by: a group, an order, or the author of a row
	cwNeg              // not, no, without, except, other than
	cwAnd              // and, as well as, along with
	cwOr               // or
	cwWh               // what, which, who
	cwLead             // show, list, give, find, return
	cwHave             // have, has, with, having
	cwNamed            // named, called, titled
	cwLike             // containing, starting with, ending with (op: contains, prefix, suffix)
	cwEverything       // all information, everything, all details
	cwLink             // a verb of place or belonging before a value or a table (located, lives, held)
	cwWrite            // delete, update, insert: never done
	cwWhy              // why
	cwFuture           // will, predict, forecast
	cwCommon           // most common, most frequent, most popular (dir)
	cwThan             // than (after an adjective the reader knows)
	cwRelation         // report to, managed by: how rows relate to one another
	cwBoth             // both: of two columns shown, a filler; of two values, a set intersection
	cwWhen             // when: the date of the rows (or of the event a verb names) is asked
	cwOrdinal          // second, third: before a superlative, the rows it skips (n)
	cwPercent          // percentage of, share of, as a percentage: rows meeting the condition per 100
)

// cinfo is one meaning of a clause phrase.
type cinfo struct {
	cw   cword
	op   string // cwCmp, cwOrMore, cwLike
	fn   string // cwAgg
	dir  int    // cwSuper, cwDir: 1 highest first, -1 lowest first
	unit string // cwSuper, cwCmp, cwDir: the kind of quantity the adjective speaks of
	n    int    // cwOrdinal: its place (2 for second)
}

// clauseWords maps a lower-case phrase (words or singular stems) to its meaning.
var clauseWords = map[string]cinfo{}

func cw(k cword, phrases ...string) { cwWith(cinfo{cw: k}, phrases...) }

// cwWith adds phrases with one meaning; a phrase given two meanings is a
// mistake in these lists and panics at start (every test catches it).
func cwWith(info cinfo, phrases ...string) {
	for _, p := range phrases {
		if old, ok := clauseWords[p]; ok && old != info {
			clauseDups = append(clauseDups, p)
		}
		clauseWords[p] = info
		maxClauseWords = max(maxClauseWords, strings.Count(p, " ")+1)
	}
}

func init() {
	cw(cwFiller, "a", "an", "the", "of", "for", "in", "on", "at", "to", "from", "into", "within", "among",
		"about", "as", "is", "are", "was", "were", "be", "been", "being", "do", "does", "did", "i", "we", "you",
		"me", "us", "my", "our", "your", "it", "its", "they", "them", "their", "theirs", "his", "her", "he", "she",
		"him", "there", "here", "this", "these", "those", "please", "kindly", "can", "could", "would", "will you",
		"all", "any", "also", "just", "currently", "still", "exist", "exists", "existing", "listed", "recorded",
		"stored", "registered", "known", "defined", "on file", "got", "get", "gets",
		"what", "which", "who", "whom", "whose", "that", "where", "whats", "hi", "hey", "ok", "okay",
		"ones", "record", "records", "entry", "entries", "row", "rows", "in total", "in all",
		"altogether", "overall", "respectively", "respective", "corresponding",
		"each of", "every one of", "so far", "to date", "them all", "would like",
		"want", "wanted", "need", "know", "see", "tell", "let", "lets", "i want to know", "along",
		"together", "such", "some", "ever", "across", "across all", "in the database", "in the table", "either", "data", "value", "values")
	cw(cwLead, "show", "list", "give", "find", "return", "display", "retrieve", "provide", "select",
		"identify", "fetch", "enumerate", "output", "print", "compute", "calculate", "determine",
		"look up", "show me", "give me", "tell me", "list out", "get me", "showing", "displaying", "listing", "giving",
		"returning")
	cw(cwCount, "how many", "number of", "count", "count of", "the number of", "total number of",
		"no of", "num of", "the count of", "the total number of", "how many times")
	cwWith(cinfo{cw: cwAgg, fn: "AVG"}, "average", "avg", "mean", "average of", "the average of")
	cwWith(cinfo{cw: cwAgg, fn: "MAX"}, "maximum", "max", "maximum of", "largest value of")
	cwWith(cinfo{cw: cwAgg, fn: "MIN"}, "minimum", "min", "minimum of", "smallest value of")
	cwWith(cinfo{cw: cwAgg, fn: "SUM"}, "total", "sum", "sum of", "total of", "combined", "the total of", "the sum of")
	cw(cwDistinct, "distinct", "different", "unique", "distinctive")
	cmp := func(op string, phrases ...string) { cwWith(cinfo{cw: cwCmp, op: op}, phrases...) }
	unitCmp := func(op, unit string, phrases ...string) { cwWith(cinfo{cw: cwCmp, op: op, unit: unit}, phrases...) }
	unitCmp(">", unitSize, "larger than", "bigger than", "wider than")
	unitCmp("<", unitSize, "smaller than", "narrower than")
	cmp(">", "more than", "greater than", "higher than", "over", "above",
		"exceeding", "exceeds", "exceed", "in excess of", "greater", ">", "after", "later than", "newer than")
	cmp(">=", "at least", "no less than", "not less than", "greater than or equal to", "more than or equal to",
		"equal to or greater than", "equal or greater than", ">=", "no fewer than", "not fewer than")
	cmp("<", "less than", "fewer than", "lower than", "under", "below", "<", "before",
		"earlier than", "prior to")
	cmp("<=", "at most", "no more than", "not more than", "up to", "less than or equal to",
		"equal to or less than", "<=", "not exceeding")
	cmp("between", "between", "in the range", "ranging from", "in the range of")
	cmp("=", "equal to", "equals", "exactly", "=", "equal")
	cmp("<>", "different from", "different than", "not equal to", "other than", "unequal to", "!=", "<>")
	unitCmp(">", unitAge, "older than", "aged over", "aged above", "aged more than", "over the age of", "above the age of")
	unitCmp("<", unitAge, "aged under", "aged below", "aged less than", "under the age of", "below the age of")
	unitCmp("between", unitAge, "aged between")
	unitCmp(">=", unitAge, "aged at least")
	unitCmp("<=", unitAge, "aged at most")
	unitCmp("=", unitAge, "aged")
	unitCmp("<", unitAge, "younger than")
	unitCmp(">", unitWeight, "heavier than")
	unitCmp("<", unitWeight, "lighter than")
	unitCmp(">", unitMoney, "more expensive than", "pricier than", "costlier than", "costing more than", "priced above", "priced over")
	unitCmp("<", unitMoney, "cheaper than", "less expensive than", "costing less than", "priced below", "priced under")
	unitCmp(">", unitDuration, "longer than")
	unitCmp("<", unitDuration, "shorter than")
	unitCmp(">", unitHeight, "taller than")
	orMore := func(op string, phrases ...string) { cwWith(cinfo{cw: cwOrMore, op: op}, phrases...) }
	orMore(">=", "or more", "or above", "or greater", "or higher", "or over", "or later", "or after", "and above", "and over", "and more", "or newer")
	orMore("<=", "or less", "or fewer", "or below", "or under", "or lower", "or earlier", "or before", "and below", "and under", "or younger")
	super := func(dir int, unit string, phrases ...string) {
		cwWith(cinfo{cw: cwSuper, dir: dir, unit: unit}, phrases...)
	}
	super(1, "", "most", "the most", "highest", "the highest", "largest", "the largest", "biggest", "greatest",
		"top", "the greatest", "the biggest")
	super(-1, "", "least", "the least", "fewest", "the fewest", "lowest", "the lowest", "smallest", "the smallest",
		"bottom")
	super(1, unitAge, "oldest", "the oldest", "eldest")
	super(-1, unitAge, "youngest", "the youngest")
	super(1, unitMoney, "most expensive", "priciest", "costliest")
	super(-1, unitMoney, "cheapest", "least expensive")
	super(1, unitDuration, "longest")
	super(-1, unitDuration, "shortest")
	super(1, unitWeight, "heaviest")
	super(-1, unitWeight, "lightest")
	super(1, unitHeight, "tallest")
	super(1, unitDate, "latest", "newest", "most recent", "most recently")
	super(-1, unitDate, "earliest", "first")
	super(1, unitDate, "last")
	cwWith(cinfo{cw: cwCommon, dir: 1}, "most common", "most frequent", "most popular", "most frequently", "most often", "commonest",
		"the most common", "the most frequent", "the most popular", "the commonest")
	cwWith(cinfo{cw: cwCommon, dir: -1}, "least common", "least frequent", "least popular", "rarest", "the least common",
		"the least frequent", "the least popular", "the rarest")
	cw(cwPercent, "percentage of", "the percentage of", "percent of", "per cent of", "the proportion of",
		"proportion of", "share of", "the share of", "as a percentage", "as a percent", "in percent", "as a percentage of",
		"as a share of", "as a proportion of")
	for n, w := range []string{"second", "third", "fourth", "fifth"} {
		cwWith(cinfo{cw: cwOrdinal, n: n + 2}, w)
	}
	cw(cwWhen, "when", "on what date", "on which date", "what date", "which date")
	cwWith(cinfo{cw: cwWhen, unit: "year"}, "what year", "which year", "in what year", "in which year")
	cw(cwOrderBy, "ordered by", "order by", "sorted by", "sort by", "sort", "sorted", "order", "ordered",
		"arranged by", "ranked by", "rank by", "in order of", "order of", "sorted on", "ordered on", "arrange by",
		"arranged", "ranked", "sorted according to", "ordered according to", "in the order of", "listed by",
		"organized by", "organised by", "ordering by", "sort them by", "order them by", "sorting by")
	dirw := func(dir int, unit string, phrases ...string) {
		cwWith(cinfo{cw: cwDir, dir: dir, unit: unit}, phrases...)
	}
	dirw(1, "", "descending", "desc", "decreasing", "in descending order", "in decreasing order",
		"descending order", "from highest to lowest", "from high to low", "from largest to smallest",
		"from most to least", "from the highest to the lowest", "from the largest to the smallest",
		"from the most to the least", "from biggest to smallest", "highest first", "largest first",
		"in reverse order", "from greatest to least", "from max to min", "high to low", "largest to smallest",
		"highest to lowest", "most to least", "in descending", "by descending order", "in a descending order")
	dirw(-1, "", "ascending", "asc", "increasing", "in ascending order", "in increasing order",
		"ascending order", "from lowest to highest", "from low to high", "from smallest to largest",
		"from least to most", "from the lowest to the highest", "from the smallest to the largest",
		"from the least to the most", "lowest first", "smallest first", "low to high", "smallest to largest",
		"lowest to highest", "least to most", "in ascending", "by ascending order", "in an ascending order")
	dirw(1, unitAge, "from oldest to youngest", "from the oldest to the youngest", "oldest first", "oldest to youngest")
	dirw(-1, unitAge, "from youngest to oldest", "from the youngest to the oldest", "youngest first", "youngest to oldest")
	dirw(1, unitDate, "from newest to oldest", "from latest to earliest", "from most recent to least recent", "newest first",
		"latest first", "most recent first", "from the newest to the oldest", "from the latest to the earliest")
	dirw(-1, unitDate, "from earliest to latest", "from oldest to newest", "earliest first", "chronologically",
		"in chronological order", "from the earliest to the latest")
	dirw(-1, unitAlpha, "alphabetically", "in alphabetical order", "alphabetical order", "alphabetical",
		"in alphabetic order", "from a to z", "a to z", "in lexicographic order", "lexicographically")
	dirw(1, unitAlpha, "in reverse alphabetical order", "reverse alphabetical order", "reverse alphabetically",
		"from z to a", "z to a", "in reverse alphabetic order", "in descending alphabetical order")
	cw(cwGroup, "for each", "in each", "of each", "per", "for every", "grouped by", "group by", "broken down by",
		"by each", "across each", "for all the", "within each", "at each", "on each", "from each", "to each",
		"with each", "under each", "breakdown by", "split by", "of every", "in every")
	cw(cwEach, "each", "every", "individual")
	cw(cwFiller, "a single", "any single", "one single", "the single", "single")
	cw(cwBy, "by")
	cw(cwNeg, "not", "no", "without", "except", "excluding", "exclude", "except for", "besides", "never", "outside", "outside of",
		"dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "havent", "hasnt", "hadnt", "non",
		"neither", "nor", "none", "cannot", "cant", "wont", "apart from", "aside from", "do not", "does not",
		"did not", "is not", "are not", "was not", "were not", "have not", "has not", "had not", "not any",
		"have no", "has no", "had no", "with no", "that have no", "lack", "lacks", "lacking",
		"not yet", "have not yet", "has not yet", "had not yet", "havent yet", "hasnt yet", "are not yet", "is not yet",
		"were not yet", "was not yet", "isnt yet", "arent yet")
	cw(cwAnd, "and", "as well as", "along with", "together with", "plus", "alongside", "and also", "with their",
		"with its", "and their", "and its", "and the", "along with their", "along with its")
	cw(cwOr, "or", "and or", "or else")
	cw(cwHave, "with", "have", "has", "had", "having", "that have", "that has", "who have", "who has", "which have",
		"which has", "possessing", "holding", "include", "includes", "including")
	cw(cwNamed, "named", "called", "titled", "entitled", "with the name", "whose name is", "by the name of",
		"known as", "labelled", "labeled")
	cwWith(cinfo{cw: cwLike, op: "contains"}, "containing the word", "containing the string", "contain the word",
		"that contain", "which contain", "whose name contains", "that contains", "which contains", "includes the word",
		"with the word", "contains the word", "contains the string", "containing the substring", "contains the substring",
		"containing the letter", "contains the letter", "like", "including the word", "has the word", "have the word",
		"contain", "contains", "containing")
	cwWith(cinfo{cw: cwLike, op: "prefix"}, "starting with", "starts with", "start with", "beginning with",
		"begins with", "begin with", "that start with", "that starts with", "which start with",
		"whose name starts with", "whose name begins with", "starting with the letter", "start with the letter",
		"starts with the letter", "beginning with the letter", "begins with the letter", "prefixed with")
	cwWith(cinfo{cw: cwLike, op: "suffix"}, "ending with", "ends with", "end with", "ending in", "ends in",
		"end in", "that end with", "which end with", "whose name ends with", "ending with the letter",
		"ends with the letter", "end with the letter", "suffixed with")
	cw(cwEverything, "all information", "all the information", "all info", "everything", "all details",
		"all the details", "all attributes", "all columns", "all fields", "all the columns", "all the fields",
		"full details", "all data", "the full record", "full information", "complete information",
		"all the info", "all the attributes", "all the data", "the details", "details", "information", "info")
	cw(cwLink, "located", "based", "situated", "live", "lives", "living", "lived", "reside", "resides",
		"residing", "held", "hosted", "take place", "took place", "takes place", "come", "comes", "came",
		"originate", "originates", "belong", "belongs", "belonging", "belonged", "associated",
		"associated with", "related", "related to", "linked", "linked to", "involved", "involved in",
		"participate", "participates", "participated", "participating", "work", "works", "worked", "working",
		"attend", "attends", "attended", "attending", "take", "takes", "took", "taken", "taking", "enrolled",
		"enroll", "enrolls", "own", "owns", "owned", "play", "plays", "played", "playing", "perform",
		"performs", "performed", "performing", "visit", "visits", "visited", "make", "makes", "made",
		"assigned", "assigned to", "employed", "employed by", "appear", "appeared", "appearing", "served",
		"serve", "serves", "serving", "use", "uses", "used", "using", "go", "goes", "went", "going",
		"stay", "stays", "stayed", "staying", "happen", "happened", "happens", "occur", "occurred",
		"occurs", "place", "placed", "receive", "received", "receives",
		"hold", "holds", "host", "hosts", "join", "joined", "joins", "sign",
		"signed", "register", "registers", "teach", "teaches", "taught", "lead", "leads", "led", "manage",
		"run", "runs", "ran", "write", "writes", "wrote", "written", "cover", "covers",
		"covered", "cost", "costs", "earn", "earns", "earned", "offer", "offers", "offered",
		"sell", "sells", "sold", "buy", "buys", "bought", "purchase", "purchased",
		"stock", "stocked", "carry", "carries", "carried", "produce", "produces", "produced", "win", "wins",
		"won", "lose", "loses", "lost", "compete", "competes", "competed", "belongs to", "belong to",
		"born", "founded", "established", "built", "opened", "started", "released", "published", "created",
		"broadcast", "broadcasts", "speak", "speaks", "spoken", "sing", "sings", "sang", "sung", "direct", "directs",
		"star", "stars", "starred", "starring", "feature", "features", "featured", "featuring", "graduate", "graduated",
		"study", "studies", "studied", "studying", "major", "majors", "majored", "drive", "drives", "drove", "driven",
		"fly", "flies", "flew", "flown", "ship", "ships", "deliver", "delivers", "treat", "treats", "treated",
		"prescribe", "prescribed", "diagnose", "diagnosed", "printed", "supply", "supplies", "supplied",
		"provides", "provided", "sponsor", "sponsors", "sponsored", "fund", "funds", "funded", "donate",
		"donated", "pay", "pays", "score", "scores", "scored", "review", "reviews", "reviewed", "rent", "rents",
		"rented", "lease", "leased", "borrow", "borrows", "borrowed", "lend", "lent", "hire", "hires", "employ",
		"employs", "coach", "coaches", "coached", "train", "trains", "trained", "captain", "captains", "captained",
		"represent", "represents", "represented", "race", "races", "raced", "swim", "swam", "climb", "climbed",
		"paint", "painted", "design", "designed", "develop", "develops", "developed", "invent", "invented",
		"discover", "discovered", "compose", "composed", "book", "books", "reserve", "reserves", "reserved",
		"check", "checks", "checked", "serve in", "travel", "travels", "traveled", "travelled", "visit in",
		"located at", "located in", "based in", "held in", "held at", "belonging to", "go to", "goes to",
		"went to", "come from", "comes from", "came from", "lasts", "lasted", "lasting", "run for", "runs for",
		"grow", "grows", "grew", "grown", "growing", "plant", "plants", "planted", "planting", "sow", "sowed", "sown",
		"weigh", "weighs", "weighed", "weighing", "done", "carried out", "carry out", "dated", "logged", "noted",
		"command", "commands", "commanded", "conduct", "conducts", "conducted", "carry", "carried", "reach", "reaches",
		"reached", "stop at", "stops at", "stopped at", "call at", "calls at", "called at", "operate", "operates",
		"operated", "inspect", "inspects", "inspected", "apply", "applies", "applied", "submit", "submits", "submitted",
		"issue", "issues", "issued", "approve", "approves", "approved", "reject", "rejects", "rejected",
		"attended by", "played by", "held by", "owned by", "run by", "led by", "made by", "written by", "sung by",
		"included", "paid")
	cw(cwWrite, "delete", "remove", "update", "insert", "drop", "truncate", "alter", "create", "add",
		"modify", "change", "set", "rename", "replace", "erase", "wipe", "grant", "revoke", "edit")
	cw(cwWhy, "why", "how come", "what caused", "reason")
	cw(cwRelation, "report to", "reports to", "reporting to", "report into", "managed by", "supervised by",
		"works for", "work for", "working for", "manages", "supervises", "reporting line", "reports")
	cw(cwFuture, "will", "predict", "forecast", "next", "projected", "projection", "expected", "estimate",
		"going to", "tomorrow", "future", "would be")
	cw(cwThan, "than")
	cw(cwBoth, "both")
	if len(clauseDups) > 0 {
		panic("clause words with two meanings: " + strings.Join(clauseDups, ", "))
	}
}

// unitHeight is a length people stand at (tallest); unitAlpha orders text.
const (
	unitHeight = "height"
	unitAlpha  = "alpha"
)

// maxClauseWords is the longest clause phrase in words.
var maxClauseWords int

// clauseDups are phrases given two meanings: a mistake in the lists above,
// refused at start (every test fails on it).
var clauseDups []string
