package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
	"talk2tables/state"
)

// Verifier is what the verified-question endpoints need from the
// orchestrator; the real one is *orchestrator.Orchestrator.
type Verifier interface {
	Verify(ctx context.Context, t orchestrator.Teach) (*orchestrator.Taught, error)
	Reverify(ctx context.Context, id int64, c orchestrator.Change) (*orchestrator.Taught, error)
	ListVerified(ctx context.Context, f state.Filter) ([]state.Entry, int, error)
	GetVerified(ctx context.Context, id int64) (state.Entry, error)
	DeleteVerified(ctx context.Context, id int64) error
}

var _ Verifier = (*orchestrator.Orchestrator)(nil)

// WithVerified serves the verified questions at /api/verified: analysts
// list them, and editors (http.editor_keys_env, or anyone when no API key
// is configured) verify, change and delete them.
func WithVerified(v Verifier) Option { return func(o *options) { o.verified = v } }

// clientHeader lets the web UI say it is the one teaching: entries it
// verifies without API keys are "by ui".
const clientHeader = "X-Talk2tables-Client"

// Context key of the editor key's name (set by auth).
const editorKey = "talk2tables.editor"

// mountVerified registers the verified-question routes.
func (a *api) mountVerified(g *gin.RouterGroup, v Verifier) {
	h := &verifiedAPI{api: a, v: v}
	g.GET("/verified", h.handleList)
	g.GET("/verified/:id", h.handleGet)
	g.POST("/verified", a.requireEditor, h.handleCreate)
	g.PATCH("/verified/:id", a.requireEditor, h.handlePatch)
	g.DELETE("/verified/:id", a.requireEditor, h.handleDelete)
}

type verifiedAPI struct {
	*api
	v Verifier
}

// verifiedRequest is the body of POST /api/verified.
type verifiedRequest struct {
	Question string `json:"question"`
	SQL      string `json:"sql"`
	Server   string `json:"server"`
	MaxRows  *int   `json:"max_rows"`
}

// verifiedPatch is the body of PATCH /api/verified/{id}.
type verifiedPatch struct {
	Question *string `json:"question"`
	SQL      *string `json:"sql"`
	MaxRows  *int    `json:"max_rows"`
}

// verifiedList is the body of GET /api/verified.
type verifiedList struct {
	Entries []state.Entry `json:"entries"`
	Total   int           `json:"total"`
}

// requireEditor lets a request teach only with an editor key, when API
// keys are configured.
func (a *api) requireEditor(c *gin.Context) {
	if len(a.keys) == 0 || c.GetString(editorKey) != "" {
		c.Next()
		return
	}
	msg := "this API key may ask questions but not verify them"
	if a.cfg.EditorKeysEnv != "" {
		msg += "; verifying needs an editor key, one of those in $" + a.cfg.EditorKeysEnv + " (http.editor_keys_env)"
	} else {
		msg += "; set http.editor_keys_env to a variable holding the editors' keys"
	}
	a.fail(c, badRequest(http.StatusForbidden, "forbidden", msg, ""), nil)
}

// teacher names who verifies: the editor key's name, else "ui" for the web
// UI and "api" for other clients.
func teacher(c *gin.Context) string {
	if n := c.GetString(editorKey); n != "" {
		return n
	}
	if strings.EqualFold(c.GetHeader(clientHeader), "ui") {
		return "ui"
	}
	return "api"
}

func (h *verifiedAPI) handleCreate(c *gin.Context) {
	var req verifiedRequest
	if err := decodeJSON(c, &req, true); err != nil {
		h.fail(c, err, nil)
		return
	}
	maxRows, err := h.checkMaxRows(req.MaxRows)
	if err != nil {
		h.fail(c, err, nil)
		return
	}
	taught, err := h.v.Verify(c.Request.Context(), orchestrator.Teach{Question: req.Question, SQL: req.SQL,
		Server: strings.TrimSpace(req.Server), By: teacher(c), MaxRows: maxRows, OperationID: requestIDOf(c)})
	if err != nil {
		h.failVerified(c, err)
		return
	}
	c.Header("Location", "/api/verified/"+strconv.FormatInt(taught.Entry.ID, 10))
	c.PureJSON(http.StatusCreated, taught)
}

func (h *verifiedAPI) handleList(c *gin.Context) {
	f := state.Filter{Database: strings.TrimSpace(c.Query("server")), Text: c.Query("q"), Status: c.Query("status"), Limit: 100}
	switch f.Status {
	case "", state.StatusVerified, state.StatusStale:
	default:
		h.fail(c, badRequest(http.StatusBadRequest, "invalid_field", `"status" must be verified or stale`, "status"), nil)
		return
	}
	for _, p := range []struct {
		name string
		to   *int
		max  int
	}{{"limit", &f.Limit, 1000}, {"offset", &f.Offset, 1 << 30}} {
		if v := c.Query(p.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > p.max || (p.name == "limit" && n == 0) {
				h.fail(c, badRequest(http.StatusBadRequest, "invalid_field",
					`"`+p.name+`" must be a whole number from `+map[bool]string{true: "1", false: "0"}[p.name == "limit"]+" to "+strconv.Itoa(p.max), p.name), nil)
				return
			}
			*p.to = n
		}
	}
	entries, total, err := h.v.ListVerified(c.Request.Context(), f)
	if err != nil {
		h.failVerified(c, err)
		return
	}
	c.PureJSON(http.StatusOK, verifiedList{Entries: entries, Total: total})
}

// entryID reads the {id} of the path.
func (h *verifiedAPI) entryID(c *gin.Context) (int64, bool) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		h.fail(c, badRequest(http.StatusBadRequest, "invalid_field",
			"the entry id in the path must be a positive whole number, as GET /api/verified lists them", "id"), nil)
		return 0, false
	}
	return id, true
}

func (h *verifiedAPI) handleGet(c *gin.Context) {
	id, ok := h.entryID(c)
	if !ok {
		return
	}
	e, err := h.v.GetVerified(c.Request.Context(), id)
	if err != nil {
		h.failVerified(c, err)
		return
	}
	c.PureJSON(http.StatusOK, e)
}

func (h *verifiedAPI) handlePatch(c *gin.Context) {
	id, ok := h.entryID(c)
	if !ok {
		return
	}
	var req verifiedPatch
	if err := decodeJSON(c, &req, true); err != nil {
		h.fail(c, err, nil)
		return
	}
	maxRows, err := h.checkMaxRows(req.MaxRows)
	if err != nil {
		h.fail(c, err, nil)
		return
	}
	taught, err := h.v.Reverify(c.Request.Context(), id, orchestrator.Change{Question: req.Question, SQL: req.SQL,
		By: teacher(c), MaxRows: maxRows, OperationID: requestIDOf(c)})
	if err != nil {
		h.failVerified(c, err)
		return
	}
	c.PureJSON(http.StatusOK, taught)
}

func (h *verifiedAPI) handleDelete(c *gin.Context) {
	id, ok := h.entryID(c)
	if !ok {
		return
	}
	if err := h.v.DeleteVerified(c.Request.Context(), id); err != nil {
		h.failVerified(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// duplicateBody is the 409 body: the error and the entry that already
// verifies the question.
type duplicateBody struct {
	Error struct {
		errorDetail
		ExistingID int64 `json:"existing_id"`
	} `json:"error"`
}

// failVerified says in the API's words what is wrong with a verified
// question, naming the field, through the error funnel.
func (h *verifiedAPI) failVerified(c *gin.Context, err error) {
	var (
		in  *orchestrator.InputError
		dup *state.DuplicateError
		qe  *executor.QueryExecutionError
	)
	switch {
	case errors.As(err, &in):
		err = badRequest(http.StatusBadRequest, "invalid_field", in.Message, in.Field)
	case errors.Is(err, state.ErrNotFound):
		err = badRequest(http.StatusNotFound, "not_found", "no verified question with that id; GET /api/verified lists them", "id")
	case errors.Is(err, orchestrator.ErrNoState):
		err = badRequest(http.StatusServiceUnavailable, "verified_off", err.Error(), "")
	case errors.As(err, &dup):
		out := h.report(c, badRequest(http.StatusConflict, "duplicate_question",
			dup.Error()+" (PATCH /api/verified/"+strconv.FormatInt(dup.ExistingID, 10)+")", "question"))
		var body duplicateBody
		body.Error.errorDetail, body.Error.ExistingID = out.detail, dup.ExistingID
		c.Abort()
		c.PureJSON(out.status, body)
		return
	}
	out := h.report(c, err)
	if errors.As(err, &qe) && qe.Reason == executor.ReasonSQLExecution && out.status < 500 {
		out.detail.Field = "sql" // a write statement, or SQL that does not run
	}
	if out.retryAfter > 0 {
		c.Header("Retry-After", strconv.Itoa(out.retryAfter))
	}
	c.Abort()
	c.PureJSON(out.status, errorBody{Error: out.detail})
}

// parseEditorKeys splits http.editor_keys_env's comma-separated list:
// each entry "name:key" (name: letters, digits, '.', '_' or '-', up to 40,
// starting with a letter) or a bare key, named editor-N (its place, from
// 1). Names are what verified_by records; keys are never logged.
func parseEditorKeys(v, envName string) (names []string, keys [][]byte) {
	if envName == "" {
		return nil, nil
	}
	n := 0
	for _, entry := range strings.Split(v, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		n++
		name, key, ok := strings.Cut(entry, ":")
		if !ok || !validKeyName(name) || strings.TrimSpace(key) == "" {
			name, key = "editor-"+strconv.Itoa(n), entry
		}
		names = append(names, name)
		keys = append(keys, []byte(strings.TrimSpace(key)))
	}
	return names, keys
}

func validKeyName(s string) bool {
	if s == "" || len(s) > 40 || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '.' || ch == '_' || ch == '-') {
			return false
		}
	}
	return true
}
