package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/typereg"
)

// GetWaitStatsArgs are the parameters of get_wait_stats.
type GetWaitStatsArgs struct {
	HoursBack int      `json:"hours_back" validate:"min=1,max=168" jsonschema_description:"How many hours back to look, from 1 to 168."`
	Limit     int32    `json:"limit,omitempty" validate:"omitempty,min=1,max=100" jsonschema_description:"At most this many wait types; 10 when left out."`
	Database  *string  `json:"database,omitempty" jsonschema_description:"Only this database; every database when left out."`
	Waits     []string `json:"waits,omitempty" jsonschema_description:"Only these wait types."`
}

// SessionState is the state of a session: running, sleeping or blocked.
type SessionState string

// UnmarshalText accepts exactly running, sleeping and blocked.
func (s *SessionState) UnmarshalText(b []byte) error {
	switch v := SessionState(b); v {
	case "running", "sleeping", "blocked":
		*s = v
		return nil
	}
	return errors.New("not a session state")
}

// JSONSchema advertises the states.
func (SessionState) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: []any{"running", "sleeping", "blocked"}}
}

// ListSessionsArgs are the parameters of list_sessions.
type ListSessionsArgs struct {
	State    SessionState `json:"state" jsonschema_description:"Only sessions in this state."`
	Database *string      `json:"database,omitempty" jsonschema_description:"Only this database; every database when left out."`
	Limit    int32        `json:"limit,omitempty" validate:"omitempty,min=1,max=100" jsonschema_description:"At most this many sessions; 10 when left out."`
}

// Session is one session, as list_sessions reports it.
type Session struct {
	ID       int64        `json:"id"`
	State    SessionState `json:"state"`
	Database string       `json:"database"`
	WaitType string       `json:"wait_type,omitempty"`
}

// SessionList is list_sessions' output.
type SessionList struct {
	Sessions []Session `json:"sessions"`
}

// GetQueryPlanArgs are the parameters of get_query_plan.
type GetQueryPlanArgs struct {
	QueryID int64 `json:"query_id" jsonschema_description:"The query's id, as list_sessions and the query store report it."`
}

// The server's data: fixed, so that every answer is the same.
var (
	databases = []string{"inventory", "sales"}
	waitStats = []struct {
		wait     string
		database string
		msPerDay int64
	}{
		{"CXPACKET", "sales", 120000},
		{"PAGEIOLATCH_SH", "inventory", 80000},
		{"LCK_M_X", "sales", 45000},
		{"WRITELOG", "inventory", 30000},
		{"SOS_SCHEDULER_YIELD", "sales", 12000},
	}
	sessions = []Session{
		{ID: 51, State: "running", Database: "sales"},
		{ID: 52, State: "blocked", Database: "sales", WaitType: "LCK_M_X"},
		{ID: 53, State: "sleeping", Database: "inventory"},
		{ID: 54, State: "blocked", Database: "inventory", WaitType: "PAGEIOLATCH_SH"},
	}
)

// newServer returns the waitstats server, its tools added through the
// guard, and the registry that records them. ran, when not nil, is told
// the name of each tool whose handler runs.
// readOnly annotates every tool: each reads the data and changes nothing.
var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true}

func newServer(ran func(tool string)) (*mcp.Server, *typereg.Registry, error) {
	if ran == nil {
		ran = func(string) {}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "waitstats", Version: "v0.1.0"}, nil)
	reg := typereg.New()
	err := errors.Join(
		gosdk.AddTool(s, reg, &mcp.Tool{
			Name:        "get_wait_stats",
			Annotations: readOnly,
			Description: "The database server's top waits over the last hours, as text.",
		}, func(_ context.Context, _ *mcp.CallToolRequest, in GetWaitStatsArgs) (*mcp.CallToolResult, any, error) {
			ran("get_wait_stats")
			text, err := getWaitStats(in)
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		}),
		gosdk.AddTool(s, reg, &mcp.Tool{
			Name:        "list_sessions",
			Annotations: readOnly,
			Description: "The sessions in one state.",
		}, func(_ context.Context, _ *mcp.CallToolRequest, in ListSessionsArgs) (*mcp.CallToolResult, SessionList, error) {
			ran("list_sessions")
			list, err := listSessions(in)
			return nil, list, err
		}),
		gosdk.AddTool(s, reg, &mcp.Tool{
			Name:        "get_query_plan",
			Annotations: readOnly,
			Description: "The cached execution plan of one query, as text.",
		}, func(_ context.Context, _ *mcp.CallToolRequest, in GetQueryPlanArgs) (*mcp.CallToolResult, any, error) {
			ran("get_query_plan")
			text := fmt.Sprintf("Plan of query %d:\n  Nested Loops (cost 0.42)\n    Index Seek on orders.ix_customer\n    Key Lookup on orders.pk", in.QueryID)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		}),
	)
	return s, reg, err
}

// getWaitStats reports. The tool's own bounds (hours_back from 1 to 168,
// limit from 1 to 100 or left out) are its validate tags: the guard refuses
// a call that breaks them before the handler runs, and the published
// schema states the same bounds.
func getWaitStats(in GetWaitStatsArgs) (string, error) {
	limit := in.Limit
	if limit == 0 {
		limit = 10
	}
	scope := "every database"
	if in.Database != nil {
		if !slices.Contains(databases, *in.Database) {
			return "", fmt.Errorf("argument 'database' takes one of %s; the call sent %s", strings.Join(databases, ", "), quoteCut(*in.Database))
		}
		scope = "database " + *in.Database
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Top waits on %s, last %d hours:", scope, in.HoursBack)
	n := int32(0)
	for _, w := range waitStats {
		if n == limit || in.Database != nil && w.database != *in.Database || len(in.Waits) > 0 && !slices.Contains(in.Waits, w.wait) {
			continue
		}
		fmt.Fprintf(&b, "\n%s %d ms", w.wait, w.msPerDay*int64(in.HoursBack)/24)
		n++
	}
	if n == 0 {
		b.WriteString("\nnone")
	}
	return b.String(), nil
}

func listSessions(in ListSessionsArgs) (SessionList, error) {
	limit := in.Limit
	if limit == 0 {
		limit = 10
	}
	list := SessionList{Sessions: []Session{}}
	for _, s := range sessions {
		if int32(len(list.Sessions)) == limit {
			break
		}
		if s.State == in.State && (in.Database == nil || s.Database == *in.Database) {
			list.Sessions = append(list.Sessions, s)
		}
	}
	return list, nil
}

// quoteCut quotes text a caller sent for an error message as the guard
// quotes a value in a refusal: at most 40 characters of it, cut on a
// character boundary, unprintable characters escaped, and the full length
// named when cut, as in "aaaa…" (5000000 characters). A handler that
// quoted a whole value would send a megabyte back for a megabyte sent.
func quoteCut(s string) string {
	const max = 40
	n, cut := 0, len(s)
	for i := range s {
		if n == max {
			cut = i
		}
		n++
	}
	if n <= max {
		return strconv.Quote(s)
	}
	q := strconv.Quote(s[:cut])
	return q[:len(q)-1] + `…" (` + strconv.Itoa(n) + " characters)"
}
