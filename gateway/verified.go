package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
	"talk2tables/state"
)

// Teacher is what the verify tool and the verified-questions resource need
// from the orchestrator; the real one is *orchestrator.Orchestrator.
type Teacher interface {
	Verify(ctx context.Context, t orchestrator.Teach) (*orchestrator.Taught, error)
	ListVerified(ctx context.Context, f state.Filter) ([]state.Entry, int, error)
}

var _ Teacher = (*orchestrator.Orchestrator)(nil)

// WithVerified adds the verify tool and the verified-questions resource.
func WithVerified(t Teacher) Option { return func(gw *Gateway) { gw.teacher = t } }

// VerifiedURI is the resource listing the verified questions.
const VerifiedURI = "talk2tables://verified"

// verifyTool is the verify tool: a write to talk2tables' own state (never
// to the user's database), approved by the user (elicitation) by default.
func (g *Gateway) verifyTool() server.ServerTool {
	h := g.cfg.HTTP
	return server.ServerTool{Tool: mcp.NewTool(config.ToolVerify,
		mcp.WithTitleAnnotation("Verify a question's SQL"),
		mcp.WithDescription("Save SQL that correctly answers a business question, after the user checked its result: "+
			"later questions with the same words (or differing only in a value, a year or a number) are answered with it, "+
			"and say so. The SQL must be read-only and runs now; its result is returned. Writes to talk2tables' own "+
			"list of verified questions, never to the database. Needs the user's approval."),
		mcp.WithString("question", mcp.Required(), mcp.Description("the question, as an analyst asks it"),
			mcp.MinLength(1), mcp.MaxLength(h.MaxQuestionLength)),
		mcp.WithString("sql", mcp.Required(), mcp.Description("one read-only SQL statement that answers it"), mcp.MinLength(1)),
		mcp.WithString("server", mcp.Description("the id of the database server (an executor in the health tool); default the top-priority one")),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(false),
	), Handler: g.handleVerify}
}

// handleVerify saves a verified question once approved.
func (g *Gateway) handleVerify(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	opID := operationID(ctx)
	if res := g.limits.check(config.ToolVerify, ""); res != nil {
		return res, nil
	}
	if roleFrom(ctx) == config.RoleViewer {
		return mcp.NewToolResultError("this API key may ask questions but not verify them; verifying needs an editor key " +
			"(http.editor_keys_env)"), nil
	}
	question, bad := stringArg(req, "question", g.cfg.HTTP.MaxQuestionLength)
	if bad != nil {
		return bad, nil
	}
	sql, bad := stringArg(req, "sql", orchestrator.MaxVerifiedSQL)
	if bad != nil {
		return bad, nil
	}
	var srv string
	if raw, ok := req.GetArguments()["server"]; ok && raw != nil {
		if srv, bad = stringArg(req, "server", 200); bad != nil {
			return bad, nil
		}
	}
	args := map[string]any{"question": question, "sql": sql}
	if srv != "" {
		args["server"] = srv
	}
	var a approval
	switch g.cfg.Gateway.VerifyApproval() {
	case config.ApprovalElicit:
		a = g.approveByElicitation(ctx, req, config.ToolVerify, args)
	case config.ApprovalWebhook:
		a = g.approveByWebhook(ctx, config.ToolVerify, "", args)
	default:
		a = approval{granted: true}
	}
	if a.pending != nil {
		return a.pending, nil
	}
	if !a.granted {
		g.log.Info("tool call refused", "event", "tool_call_refused", "tool", config.ToolVerify, "operation_id", opID, "reason", "not_approved")
		return mcp.NewToolResultError(a.refusal), nil
	}
	by := "mcp"
	if name := editorFrom(ctx); name != "" {
		by = name
	}
	start := time.Now()
	taught, err := g.teacher.Verify(ctx, orchestrator.Teach{Question: question, SQL: sql, Server: srv, By: by, OperationID: opID})
	if err != nil {
		return g.failVerify(ctx, opID, err), nil
	}
	g.log.Info("tool call completed", "event", "tool_call_completed", "tool", config.ToolVerify, "operation_id", opID,
		"duration_ms", msSince(start), "id", taught.Entry.ID)
	var b strings.Builder
	fmt.Fprintf(&b, "Verified question #%d saved: %q now answers with this SQL (%d slot(s) a later question may fill).\n\n",
		taught.Entry.ID, taught.Entry.Question, len(taught.Entry.Slots))
	if taught.Result != nil {
		writeTable(&b, taught.Result)
	}
	return mcp.NewToolResultStructured(taught, b.String()), nil
}

// failVerify says what is wrong with a question to verify.
func (g *Gateway) failVerify(ctx context.Context, opID string, err error) *mcp.CallToolResult {
	var (
		in  *orchestrator.InputError
		dup *state.DuplicateError
		qe  *executor.QueryExecutionError
	)
	switch {
	case errors.As(err, &in):
		return mcp.NewToolResultError(fmt.Sprintf("%q: %s", in.Field, in.Message))
	case errors.As(err, &dup):
		return mcp.NewToolResultError(dup.Error())
	case errors.Is(err, orchestrator.ErrNoState):
		return mcp.NewToolResultError(err.Error())
	case errors.As(err, &qe) && qe.Reason == executor.ReasonSQLExecution:
		// A write statement, or SQL that does not run: the sql argument.
		return mcp.NewToolResultError(fmt.Sprintf("%q: %s", "sql", err.Error()))
	}
	return g.fail(ctx, config.ToolVerify, opID, err)
}

// verifiedResource lists the verified questions as JSON.
func (g *Gateway) verifiedResource() server.ServerResource {
	return server.ServerResource{
		Resource: mcp.NewResource(VerifiedURI, "verified questions",
			mcp.WithResourceDescription("Questions analysts verified, with their SQL, who verified them and when, and their status "+
				"(stale ones no longer validate against the schema)"),
			mcp.WithMIMEType("application/json")),
		Handler: g.handleVerifiedResource,
	}
}

func (g *Gateway) handleVerifiedResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	entries, total, err := g.teacher.ListVerified(ctx, state.Filter{Limit: 1000})
	if err != nil {
		return nil, fmt.Errorf("%s", classifyVerified(err))
	}
	data, err := json.Marshal(map[string]any{"entries": entries, "total": total})
	if err != nil {
		return nil, err
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "application/json", Text: string(data)}}, nil
}

func classifyVerified(err error) string {
	if errors.Is(err, orchestrator.ErrNoState) {
		return err.Error()
	}
	return classify(err).message
}

type callerKey int

const (
	roleKey callerKey = iota
	editorNameKey
)

// roleFrom is the caller's role over HTTP ("" over stdio: the local user).
func roleFrom(ctx context.Context) string {
	r, _ := ctx.Value(roleKey).(string)
	return r
}

// editorFrom is an editor key's name, or "".
func editorFrom(ctx context.Context) string {
	n, _ := ctx.Value(editorNameKey).(string)
	return n
}
