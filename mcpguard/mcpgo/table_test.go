package mcpgo_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// Without the guard, every row of the project's table goes through a real
// tools/call frame to a raw mcp-go handler that decodes the arguments with
// the binder: the handler gets the row's bytes unchanged, and the binder
// fails exactly on the rows marked refused. A row whose frame mcp-go
// itself cannot decode (a number past float64's range: see
// TestMCPGo_NumberPastFloat64InArguments_FailsTheFrame) never reaches the
// handler; it is checked to fail the frame, and listed in the log.
func TestDefaultTable_WithoutGuard_BinderFailsExactlyOnRefusedRows(t *testing.T) {
	for _, tab := range tables() {
		t.Run(tab.binder.Name(), func(t *testing.T) {
			reg := probeRegistry(t, tab.binder)
			tl, _ := reg.Tool(probe.Tool)
			var rec seen
			s := unguardedServer(t, reg, &rec)
			var dropped []string
			for _, row := range tab.rows {
				p := paramFor(t, tl, row)
				args := rowCall(p, row)
				frame := callFrame(probe.Tool, args)
				t.Run(rowName(row), func(t *testing.T) {
					rec.reset()
					got := send(t, s, frame)
					if !frameDecodes(frame) {
						dropped = append(dropped, rowName(row))
						checkFrameFailed(t, got, &rec)
						return
					}
					if got.Result == nil || rec.calls() != 1 {
						t.Fatalf("the handler ran %d times, want once; reply %+v", rec.calls(), got)
					}
					if string(rec.raw) != args {
						t.Errorf("RawArguments = %s, want the bytes sent, %s", rec.raw, args)
					}
					if row.NoVerdict {
						return
					}
					if fails := rec.err != nil; fails != row.Refused {
						t.Errorf("%s <- %s (%s): binder fails = %v, the row says refused = %v (binder: %v)", p.Name, row.Value, row.Why, fails, row.Refused, rec.err)
					}
					if got.Result.IsError != row.Refused {
						t.Errorf("isError = %v, want %v: %s", got.Result.IsError, row.Refused, got.text(t))
					}
				})
			}
			t.Logf("rows whose frame mcp-go fails before any handler: %d: %s", len(dropped), strings.Join(dropped, ", "))
		})
	}
}

// With AddTool, exactly the rows the binder fails on come back as tool
// errors naming the parameter, and the handler never runs for them; every
// other row reaches the handler with the value the binder decodes from the
// row's bytes (9007199254740993 for an int64 included).
func TestDefaultTable_WithAddTool_RefusesExactlyTheRowsTheBinderFailsOn(t *testing.T) {
	for _, tab := range tables() {
		t.Run(tab.binder.Name(), func(t *testing.T) {
			reg := probeRegistry(t, tab.binder, typereg.WithMode(typereg.Warn)) // the binder's verdict alone refuses: see probeRegistry
			var rec seen
			runGuardedTable(t, reg, addToolServer(t, reg, &rec), &rec, tab.rows)
		})
	}
}

// With Middleware in front of a server.AddTool handler that decodes with
// the binder, the same holds.
func TestDefaultTable_WithMiddleware_RefusesExactlyTheRowsTheBinderFailsOn(t *testing.T) {
	for _, tab := range tables() {
		t.Run(tab.binder.Name(), func(t *testing.T) {
			reg := probeRegistry(t, tab.binder, typereg.WithMode(typereg.Warn))
			var rec seen
			runGuardedTable(t, reg, middlewareServer(t, reg, &rec), &rec, tab.rows)
		})
	}
}

func runGuardedTable(t *testing.T, reg *typereg.Registry, s *server.MCPServer, rec *seen, rows []bindtest.Row) {
	tl, _ := reg.Tool(probe.Tool)
	for _, row := range rows {
		p := paramFor(t, tl, row)
		args := rowCall(p, row)
		frame := callFrame(probe.Tool, args)
		t.Run(rowName(row), func(t *testing.T) {
			rec.reset()
			got := send(t, s, frame)
			if !frameDecodes(frame) {
				checkFrameFailed(t, got, rec)
				return
			}
			if got.Result == nil {
				t.Fatalf("want a tool result, got error %+v", got.Error)
			}
			var want probe.Args
			binderErr := reg.Binder().Unmarshal([]byte(args), &want)
			refused := row.Refused
			if row.NoVerdict {
				refused = binderErr != nil
			}
			if !refused {
				if got.Result.IsError {
					t.Fatalf("%s <- %s (%s): refused a value the row says the binder reads: %s", p.Name, row.Value, row.Why, got.text(t))
				}
				if rec.calls() != 1 {
					t.Fatalf("the handler ran %d times, want once", rec.calls())
				}
				if binderErr != nil {
					t.Fatalf("the row says the binder reads %s, but it fails: %v", args, binderErr)
				}
				if diff := cmp.Diff(want, rec.in); diff != "" {
					t.Errorf("the handler got a value other than the binder's (-binder +handler):\n%s", diff)
				}
				return
			}
			if rec.calls() != 0 {
				t.Errorf("the handler ran on a refused call")
			}
			if binderErr == nil {
				t.Errorf("the row says the binder fails on %s, but it reads it", args)
			}
			checkRefusal(t, reg, got, args, p.Name)
		})
	}
}

// checkRefusal checks that got is the refusal refuse.Refuse gives for
// args, as RefusalResult renders it, naming param and no other argument.
// (What a refusal says in words is the core's to pin: bindtest checks each
// row's Says against refuse.Refuse directly.)
func checkRefusal(t *testing.T, reg *typereg.Registry, got reply, args, param string) {
	t.Helper()
	if got.Result == nil || !got.Result.IsError {
		t.Fatalf("want a tool error result, got %+v", got)
	}
	want := refuse.Refuse(reg, probe.Tool, json.RawMessage(args))
	if want == nil {
		t.Fatalf("refuse.Refuse passes %s, yet the call was refused", args)
	}
	if text := got.text(t); text != want.Error() {
		t.Errorf("content text = %q, want the refusal's %q", text, want.Error())
	}
	var structured refuse.Refusal
	if err := json.Unmarshal(got.Result.StructuredContent, &structured); err != nil {
		t.Fatalf("structuredContent %s: %v", got.Result.StructuredContent, err)
	}
	if diff := cmp.Diff(*want, structured); diff != "" {
		t.Errorf("structuredContent differs from the refusal (-want +got):\n%s", diff)
	}
	if len(structured.Problems) == 0 {
		t.Fatal("a refusal without problems")
	}
	for _, pr := range structured.Problems {
		if pr.Argument != param {
			t.Errorf("problem %+v names %q, want %q", pr, pr.Argument, param)
		}
	}
}

// checkFrameFailed checks that mcp-go answered with a JSON-RPC invalid
// request error and ran no handler.
func checkFrameFailed(t *testing.T, got reply, rec *seen) {
	t.Helper()
	if got.Error == nil || got.Error.Code != mcp.INVALID_REQUEST {
		t.Errorf("want mcp-go's invalid request error (%d), got %+v", mcp.INVALID_REQUEST, got)
	}
	if rec.calls() != 0 {
		t.Errorf("the handler ran on a frame mcp-go cannot decode")
	}
}

// The project's table names every probe parameter (so the tests above
// reach each one), and every default row's value is one JSON value.
func TestDefaultTable_CoversEveryProbeParameter(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	tl, _ := reg.Tool(probe.Tool)
	covered := map[string]bool{}
	for _, row := range bindtest.ForBinder(bindtest.Default(), bind.Std.Name()) {
		covered[paramFor(t, tl, row).Name] = true
		if !json.Valid([]byte(row.Value)) {
			t.Errorf("row %s: not one JSON value", rowName(row))
		}
	}
	for _, p := range tl.Params() {
		if !covered[p.Name] {
			t.Errorf("no row sends parameter %q", p.Name)
		}
	}
}
