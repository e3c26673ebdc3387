package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/refuse"
)

// build compiles the server into a temporary directory, with -race when the
// test itself runs with it (so the build reuses the packages the test was
// built from), and returns the binary's path.
func build(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build the server with: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "waitstats")
	args := []string{"build", "-o", bin}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "-race" && s.Value == "true" {
				args = append(args, "-race")
			}
		}
	}
	out, err := exec.Command(goTool, append(args, ".")...).CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// lockedBuffer is the server's stderr, written by exec's copying goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The server, run as its own process and spoken to over stdio by the go-sdk
// client: tools/list shows the registry's closed schemas, good calls run,
// each bad call comes back as the guard's refusal naming the argument, and
// no handler runs for a refused call.
func TestServer_OverStdio(t *testing.T) {
	bin := build(t)
	_, reg, err := newServer(nil) // the same tools, in this process, for what the server should say
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "-log")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "waitstats-test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to the server: %v\n%s", err, stderr.String())
	}
	call := func(t *testing.T, tool, args string) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s %s: %v", tool, args, err)
		}
		return res
	}
	var wantRuns []string // the handlers that should have run, in order

	t.Run("tools/list shows the registry's closed schemas", func(t *testing.T) {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range res.Tools {
			names = append(names, tl.Name)
			rec, ok := reg.Tool(tl.Name)
			if !ok {
				t.Errorf("the server lists %q, which the registry does not record", tl.Name)
				continue
			}
			if diff := cmp.Diff(generic(t, rec.Schema()), generic(t, tl.InputSchema)); diff != "" {
				t.Errorf("%s: input schema (-registry +tools/list):\n%s", tl.Name, diff)
			}
			if s, _ := generic(t, tl.InputSchema).(map[string]any); s["additionalProperties"] != false {
				t.Errorf("%s: the input schema is not closed: %v", tl.Name, s)
			}
			// Every tool only reads, and says so: a client (bindprobe
			// among them) may call it without fear of a write.
			if tl.Annotations == nil || !tl.Annotations.ReadOnlyHint {
				t.Errorf("%s: not annotated readOnlyHint: true (annotations %+v)", tl.Name, tl.Annotations)
			}
		}
		if diff := cmp.Diff([]string{"get_query_plan", "get_wait_stats", "list_sessions"}, names); diff != "" {
			t.Errorf("tools (-want +got):\n%s", diff)
		}
	})

	t.Run("good calls run", func(t *testing.T) {
		res := call(t, "get_wait_stats", `{"hours_back": 48, "limit": 2, "database": "sales"}`)
		wantRuns = append(wantRuns, "get_wait_stats")
		if got, want := onlyText(t, res), "Top waits on database sales, last 48 hours:\nCXPACKET 240000 ms\nLCK_M_X 90000 ms"; res.IsError || got != want {
			t.Errorf("get_wait_stats: isError %v, text:\n%s\nwant:\n%s", res.IsError, got, want)
		}

		res = call(t, "list_sessions", `{"state": "blocked"}`)
		wantRuns = append(wantRuns, "list_sessions")
		want := `{"sessions":[{"id":52,"state":"blocked","database":"sales","wait_type":"LCK_M_X"},{"id":54,"state":"blocked","database":"inventory","wait_type":"PAGEIOLATCH_SH"}]}`
		if diff := cmp.Diff(generic(t, json.RawMessage(want)), generic(t, res.StructuredContent)); res.IsError || diff != "" {
			t.Errorf("list_sessions: isError %v, structuredContent (-want +got):\n%s", res.IsError, diff)
		}

		// The handler's own error quotes the value it refuses as the guard
		// quotes one: at most 40 characters, cut with an ellipsis and the
		// full length, never a megabyte back to the caller.
		huge := strings.Repeat("x", 1<<20)
		res = call(t, "get_wait_stats", `{"hours_back": 24, "database": "`+huge+`"}`)
		wantRuns = append(wantRuns, "get_wait_stats")
		if got, want := onlyText(t, res), `argument 'database' takes one of inventory, sales; the call sent "`+huge[:40]+`…" (1048576 characters)`; !res.IsError || got != want {
			t.Errorf("get_wait_stats with a 1 MB database: isError %v, %d bytes of text:\n%.300s\nwant:\n%s", res.IsError, len(got), got, want)
		}
		res = call(t, "get_wait_stats", `{"hours_back": 24, "database": "nope\u0007"}`)
		wantRuns = append(wantRuns, "get_wait_stats")
		if got, want := onlyText(t, res), `argument 'database' takes one of inventory, sales; the call sent "nope\a"`; !res.IsError || got != want {
			t.Errorf("get_wait_stats with a short bad database: isError %v, text:\n%s\nwant:\n%s", res.IsError, got, want)
		}

		res = call(t, "get_query_plan", `{"query_id": 9007199254740993}`)
		wantRuns = append(wantRuns, "get_query_plan")
		if got := onlyText(t, res); res.IsError || !strings.HasPrefix(got, "Plan of query 9007199254740993:\n") {
			t.Errorf("get_query_plan: the id did not arrive exact: isError %v, text:\n%s", res.IsError, got)
		}

	})

	t.Run("bad calls come back as named refusals", func(t *testing.T) {
		for _, tc := range []struct {
			tool, args string
			argument   string
			code       refuse.Code
			says       string // a phrase the refusal says, when not empty
		}{
			{"get_wait_stats", `{"hours_back": 0.5}`, "hours_back", refuse.NotWholeNumber, ""},
			{"get_wait_stats", `{"hours_back": 24, "limit": 3000000000}`, "limit", refuse.TooLarge, ""},
			// The tool's own bounds, its validate tags: refused by the
			// guard before the handler runs, in the words of the bound.
			{"get_wait_stats", `{"hours_back": 500}`, "hours_back", refuse.Constraint, "takes a whole number from 1 to 168, and the call sent 500."},
			{"list_sessions", `{"state": "running", "limit": 101}`, "limit", refuse.Constraint, "takes a whole number from 1 to 100 (or 0), and the call sent 101."},
			{"get_wait_stats", `{"hours_back": 24, "hours": 24}`, "hours", refuse.UnknownArgument, ""},
			{"get_wait_stats", `{"hours_back": 24, "waits": "CXPACKET"}`, "waits", refuse.WrongType, ""},
			{"list_sessions", `{"state": "idle"}`, "state", refuse.NotOneOf, ""},
			{"get_query_plan", `{"query_id": "42"}`, "query_id", refuse.WrongType, ""},
		} {
			res := call(t, tc.tool, tc.args)
			want := refuse.Refuse(reg, tc.tool, json.RawMessage(tc.args))
			if want == nil {
				t.Fatalf("%s %s: the guard passes it; the test wants a refusal", tc.tool, tc.args)
			}
			if len(want.Problems) != 1 || want.Problems[0].Argument != tc.argument || want.Problems[0].Code != tc.code {
				t.Errorf("%s %s: the guard's problems are %+v, want one %s for %q", tc.tool, tc.args, want.Problems, tc.code, tc.argument)
			}
			if !strings.Contains(want.Error(), tc.says) {
				t.Errorf("%s %s: the refusal does not say %q:\n%s", tc.tool, tc.args, tc.says, want.Error())
			}
			if got := onlyText(t, res); !res.IsError || got != want.Error() {
				t.Errorf("%s %s: isError %v, text:\n%s\nwant:\n%s", tc.tool, tc.args, res.IsError, got, want.Error())
			}
			// list_sessions has an output schema: its refusals are text
			// only (see package gosdk). The others carry the problems.
			var wantStructured any
			if tc.tool != "list_sessions" {
				wantStructured = generic(t, want)
			}
			if diff := cmp.Diff(wantStructured, generic(t, res.StructuredContent)); diff != "" {
				t.Errorf("%s %s: structuredContent (-want +got):\n%s", tc.tool, tc.args, diff)
			}
		}
	})

	// Closing the session closes the server's stdin; the server exits and
	// its stderr is complete.
	if err := cs.Close(); err != nil {
		t.Errorf("closing: %v", err)
	}
	var runs []string
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	// The first line tells a person who ran the server by hand what it is:
	// a server waiting for an MCP client, and how to try it.
	if lines[0] != banner {
		t.Errorf("server stderr starts with %q, want the banner %q", lines[0], banner)
	} else {
		lines = lines[1:]
	}
	for _, line := range lines {
		if tool, ok := strings.CutPrefix(line, "ran "); ok {
			runs = append(runs, tool)
		} else if line != "" {
			t.Errorf("server stderr: %s", line)
		}
	}
	if diff := cmp.Diff(wantRuns, runs); diff != "" {
		t.Errorf("handlers that ran (-good calls +server log): a handler ran on a refused call, or a good call did not run:\n%s", diff)
	}
}

// TestTools_ConstraintsAgree: the census of the server's own constraints:
// for every parameter with a validate tag, the published schema, the
// validator and the guard agree on every bound and its neighbours.
func TestTools_ConstraintsAgree(t *testing.T) {
	_, reg, err := newServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	bindtest.Constraints(t, reg)
}

// generic is v as generic JSON (maps, slices, float64), nil for nil.
func generic(t *testing.T, v any) any {
	t.Helper()
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var g any
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

func onlyText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%d content blocks, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	return tc.Text
}
