// Package evaluation measures the offline planner end to end: for each
// fixture it builds the database, produces its catalog (drafted, or the
// sample's hand-maintained one), serves both through the real database-mcp
// and metadata-mcp servers, asks every question through the real HTTP API
// over the orchestrator with the built-in generator, and classifies each
// answer against the question's hand-written gold SQL as correct,
// declined, wrong or error, numbers compared tightly (Compare). A report
// scores a fixture correct − 10 × wrong over all its questions.
//
// TestFixtures enforces the targets (no wrong answer anywhere, no 5xx;
// correct-rate floors per fixture), TestNo5xx asks fuzzed phrasings;
// `go run ./scripts/eval` prints the report table. See docs/evaluation.md.
package evaluation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"

	"talk2tables/databasemcp"
	"talk2tables/internal/fixtures"
	"talk2tables/orchestrator/verified"
)

// CatalogFunc produces the catalog JSON of a database: the drafter, or a
// fixed file for the sample database.
type CatalogFunc func(ctx context.Context, dbPath string) ([]byte, error)

// CatalogFile is a CatalogFunc that returns the file at path whatever the
// database.
func CatalogFile(path string) CatalogFunc {
	return func(context.Context, string) ([]byte, error) { return os.ReadFile(path) }
}

// Outcome classifies one answer.
type Outcome string

// Outcomes.
const (
	Correct  Outcome = "correct"  // answerable: same rows as gold; must-decline: declined
	Declined Outcome = "declined" // answerable, but the planner declined
	Wrong    Outcome = "wrong"    // answerable: rows differ from gold; must-decline: answered
	Error    Outcome = "error"    // failed otherwise (SQL error after the repairs, a server failure)
)

// Result is the outcome of one question.
type Result struct {
	Question fixtures.Question
	Outcome  Outcome
	SQL      string // what the planner ran
	Detail   string // why it is not correct
	// Status is the API's HTTP status (200, 422 for a decline, …) and
	// Message the error message of its body: a 5xx, or a 4xx without a
	// message, is a fault of its own (Fault).
	Status  int
	Message string
}

// Fault says what is wrong with the API's answer itself, whatever the
// question: a 5xx, or a 4xx that does not say what was wrong; "" when
// neither.
func (r Result) Fault() string {
	return apiFault(r.Status, r.Message)
}

func apiFault(status int, message string) string {
	switch {
	case status >= 500:
		return fmt.Sprintf("HTTP %d: %s", status, message)
	case status >= 400 && strings.TrimSpace(message) == "":
		return fmt.Sprintf("HTTP %d without a message saying what was wrong", status)
	}
	return ""
}

// Report is one fixture run.
type Report struct {
	Fixture string
	Edited  bool   // the catalog had the fixture's edits applied
	Engine  string // where the questions were asked: "sqlite", "postgres" (Options.Postgres) or "mysql" (Options.MySQL)
	// Skipped names what of the fixture PostgreSQL could not be given (a
	// view in SQLite-only SQL), with the reason.
	Skipped []string
	Results []Result
}

// Counts are a report's outcomes.
type Counts struct {
	Answerable, Correct, Declined, Wrong, Error int
	// MustDecline questions: DeclineOK declined them, DeclineWrong answered.
	MustDecline, DeclineOK, DeclineWrong, DeclineError int
}

// Counts tallies the report.
func (r *Report) Counts() Counts {
	var c Counts
	for _, res := range r.Results {
		if res.Question.Decline {
			c.MustDecline++
			switch res.Outcome {
			case Correct:
				c.DeclineOK++
			case Wrong:
				c.DeclineWrong++
			default:
				c.DeclineError++
			}
			continue
		}
		c.Answerable++
		switch res.Outcome {
		case Correct:
			c.Correct++
		case Declined:
			c.Declined++
		case Wrong:
			c.Wrong++
		default:
			c.Error++
		}
	}
	return c
}

// Overall are the outcomes over all questions, answerable and
// must-decline alike: a declined must-decline question is correct, an
// answered one wrong.
type Overall struct {
	Questions, Correct, Declined, Wrong, Error int
}

// Overall folds the must-decline questions into the outcomes.
func (c Counts) Overall() Overall {
	return Overall{
		Questions: c.Answerable + c.MustDecline,
		Correct:   c.Correct + c.DeclineOK,
		Declined:  c.Declined,
		Wrong:     c.Wrong + c.DeclineWrong,
		Error:     c.Error + c.DeclineError,
	}
}

// WrongPenalty is what one wrong answer costs in the score: a wrong answer
// is worth ten right ones, since a user cannot tell it from a right one.
const WrongPenalty = 10

// Score is correct − 10 × wrong over all questions.
func (o Overall) Score() int { return o.Correct - WrongPenalty*o.Wrong }

// CorrectRate is the share of answerable questions answered correctly.
func (c Counts) CorrectRate() float64 {
	if c.Answerable == 0 {
		return 0
	}
	return float64(c.Correct) / float64(c.Answerable)
}

// Options configures Run.
type Options struct {
	Dir       string      // where the database and catalog are written
	Catalog   CatalogFunc // produces the catalog from the built database
	Edited    bool        // apply the fixture's edits.json to the catalog
	Transport string      // InProcess (default) or StreamableHTTP
	Logger    *slog.Logger
	// Postgres, when set, connects to an empty PostgreSQL database the role
	// may create tables in (pgconfig.Parse): the fixture's rows are loaded into it
	// (LoadPostgres) and the questions are asked of database-mcp over it,
	// while the gold SQL still runs on the SQLite fixture — so an answer is
	// correct only when PostgreSQL gives what SQLite gives.
	Postgres *pgx.ConnConfig
	// DraftFromPostgres drafts the catalog from the PostgreSQL copy (as
	// `catalog init --dsn` would) instead of calling Catalog.
	DraftFromPostgres bool
	// MySQL, when set, is Postgres's counterpart for an empty MySQL or
	// MariaDB database the user may create tables in (mysqlconfig.Parse).
	MySQL *mysql.Config
	// DraftFromMySQL drafts the catalog from the MySQL copy.
	DraftFromMySQL bool
	// Verified, when set, are verified questions the orchestrator recalls
	// before its generator (RunVerified).
	Verified *verified.Book
}

// Run evaluates one fixture: build, catalog, servers, every question.
// Questions that rely on edits are asked only when opts.Edited.
func Run(ctx context.Context, name string, opts Options) (*Report, error) {
	if opts.Catalog == nil {
		return nil, fmt.Errorf("fixture %s: no catalog function", name)
	}
	qs, err := fixtures.Questions(name)
	if err != nil {
		return nil, err
	}
	dbPath, err := fixtures.Build(ctx, name, opts.Dir)
	if err != nil {
		return nil, err
	}
	gold, ask, engine, skipped, err := startEnvs(ctx, name, dbPath, opts)
	if err != nil {
		return nil, fmt.Errorf("fixture %s: %w", name, err)
	}
	defer gold.Close()
	if ask != gold {
		defer ask.Close()
	}
	rep := &Report{Fixture: name, Edited: opts.Edited, Engine: engine, Skipped: skipped}
	for _, q := range qs {
		if len(q.Edits) > 0 && !opts.Edited {
			continue
		}
		res, err := judge(ctx, gold, ask, q, opts.Edited)
		if err != nil {
			return nil, fmt.Errorf("fixture %s, question %s: %w", name, q.ID, err)
		}
		rep.Results = append(rep.Results, res)
	}
	return rep, nil
}

// startEnvs starts the env the gold SQL runs on (the SQLite fixture) and
// the one the questions are asked of: the same one, or with
// opts.Postgres a PostgreSQL copy of the fixture with its own catalog.
func startEnvs(ctx context.Context, name, dbPath string, opts Options) (gold, ask *Env, engine string, skipped []string, err error) {
	pgCfg := opts.Postgres
	var cat []byte
	if pgCfg != nil {
		engine = "postgres"
		if cat, skipped, err = loadPostgres(ctx, name, dbPath, pgCfg, opts); err != nil {
			return nil, nil, "", nil, err
		}
	} else if opts.MySQL != nil {
		engine = "mysql"
		if cat, skipped, err = loadMySQL(ctx, name, dbPath, opts); err != nil {
			return nil, nil, "", nil, err
		}
	} else {
		engine = "sqlite"
		if cat, err = opts.Catalog(ctx, dbPath); err != nil {
			return nil, nil, "", nil, fmt.Errorf("catalog: %w", err)
		}
	}
	if opts.Edited {
		if cat, err = ApplyEdits(name, cat); err != nil {
			return nil, nil, "", nil, err
		}
	}
	catPath := filepath.Join(opts.Dir, name+"-catalog.json")
	if err := os.WriteFile(catPath, cat, 0o644); err != nil {
		return nil, nil, "", nil, err
	}
	envOpts := EnvOptions{DBPath: dbPath, CatalogPath: catPath, Today: fixtures.AsOf(name),
		Transport: opts.Transport, Logger: opts.Logger, Postgres: pgCfg, MySQL: opts.MySQL, Verified: opts.Verified}
	if ask, err = Start(ctx, envOpts); err != nil {
		return nil, nil, "", nil, err
	}
	if pgCfg == nil && opts.MySQL == nil {
		return ask, ask, engine, nil, nil
	}
	gold, err = Start(ctx, EnvOptions{DBPath: dbPath, Today: fixtures.AsOf(name), Logger: opts.Logger})
	if err != nil {
		ask.Close()
		return nil, nil, "", nil, err
	}
	return gold, ask, engine, skipped, nil
}

// loadPostgres copies the fixture into PostgreSQL and returns its catalog:
// drafted from PostgreSQL, or opts.Catalog's.
func loadPostgres(ctx context.Context, name, dbPath string, pgCfg *pgx.ConnConfig, opts Options) (cat []byte, skipped []string, err error) {
	conn, err := pgx.ConnectConfig(ctx, pgCfg)
	if err != nil {
		return nil, nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	skipped, err = LoadPostgres(ctx, dbPath, conn)
	conn.Close(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("load the fixture into PostgreSQL: %w", err)
	}
	if !opts.DraftFromPostgres {
		if cat, err = opts.Catalog(ctx, dbPath); err != nil {
			return nil, nil, fmt.Errorf("catalog: %w", err)
		}
		return cat, skipped, nil
	}
	pg, err := databasemcp.OpenPostgres(ctx, databasemcp.PostgresConfig{Conn: pgCfg}, databasemcp.Options{})
	if err != nil {
		return nil, nil, err
	}
	defer pg.Close()
	if cat, err = DraftedFrom(ctx, pg, name+".db"); err != nil {
		return nil, nil, fmt.Errorf("draft the catalog from PostgreSQL: %w", err)
	}
	return cat, skipped, nil
}

// loadMySQL copies the fixture into MySQL and returns its catalog: drafted
// from MySQL, or opts.Catalog's.
func loadMySQL(ctx context.Context, name, dbPath string, opts Options) (cat []byte, skipped []string, err error) {
	if skipped, err = LoadMySQL(ctx, dbPath, opts.MySQL); err != nil {
		return nil, nil, fmt.Errorf("load the fixture into MySQL: %w", err)
	}
	if !opts.DraftFromMySQL {
		if cat, err = opts.Catalog(ctx, dbPath); err != nil {
			return nil, nil, fmt.Errorf("catalog: %w", err)
		}
		return cat, skipped, nil
	}
	my, err := databasemcp.OpenMySQL(ctx, databasemcp.MySQLConfig{Conn: opts.MySQL}, databasemcp.Options{})
	if err != nil {
		return nil, nil, err
	}
	defer my.Close()
	if cat, err = DraftedFrom(ctx, my, name+".db"); err != nil {
		return nil, nil, fmt.Errorf("draft the catalog from MySQL: %w", err)
	}
	return cat, skipped, nil
}

// ApplyEdits applies the fixture's edits.json (a JSON merge patch, RFC 7386)
// to a catalog.
func ApplyEdits(name string, catalog []byte) ([]byte, error) {
	path := fixtures.EditsPath(name)
	if path == "" {
		return nil, fmt.Errorf("fixture %s has no edits", name)
	}
	patch, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out, err := jsonpatch.MergePatch(catalog, patch)
	if err != nil {
		return nil, fmt.Errorf("apply %s: %w", path, err)
	}
	return out, nil
}

// judge asks one question and classifies the answer. An error means the
// gold SQL itself failed: the fixture is broken, not the planner.
func judge(ctx context.Context, gold, ask *Env, q fixtures.Question, edited bool) (Result, error) {
	res := Result{Question: q}
	var want *Table
	if !q.Decline {
		var err error
		if want, err = gold.Gold(ctx, q.GoldFor(edited)); err != nil {
			return res, fmt.Errorf("gold SQL: %w", err)
		}
		if want.Empty() {
			return res, errors.New("gold result is empty or all NULL: the question has gone stale")
		}
		want.Decimals = GoldDecimals(q.GoldFor(edited))
	}
	ans, err := ask.Ask(ctx, q.Text)
	if ans != nil {
		res.SQL = ans.SQL
	}
	res.Status = http.StatusOK
	var he *HTTPError
	if errors.As(err, &he) {
		res.Status, res.Message = he.Status, he.Message
	}
	switch {
	case err != nil && isDecline(err):
		res.Outcome = Declined
		if q.Decline {
			res.Outcome = Correct
		}
		res.Detail = err.Error()
	case err != nil:
		res.Outcome, res.Detail = Error, err.Error()
	case q.Decline:
		res.Outcome, res.Detail = Wrong, "answered a question that must be declined"
	default:
		got := &Table{}
		if ans.Result != nil {
			got = &Table{Columns: ans.Result.Columns, Rows: ans.Result.Rows}
		}
		if cerr := Compare(got, want, q.Ordered); cerr != nil {
			res.Outcome, res.Detail = Wrong, cerr.Error()
		} else {
			res.Outcome = Correct
		}
	}
	return res, nil
}

func isDecline(err error) bool {
	var he *HTTPError
	return errors.As(err, &he) && he.Declined()
}
