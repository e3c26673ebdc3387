package gosdk_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/typereg"
)

// A table is a value table and the binder whose verdicts it states.
type table struct {
	binder bind.Binder
	rows   []bindtest.Row
}

// tables lists the binders the adapter runs the table with, each with the
// default table's rows that speak for it (its own verdicts where they
// differ from encoding/json's).
func tables() []table {
	var tabs []table
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		tabs = append(tabs, table{b, bindtest.ForBinder(bindtest.Default(), b.Name())})
	}
	return tabs
}

// A probeCall is a row sent as the probe tool's only argument.
type probeCall struct {
	name    string // subtest name
	row     bindtest.Row
	param   string // the argument the value is sent as
	args    string // the call's arguments: {"<param>": <value>}
	refused bool   // the binder fails on args: the row's verdict
}

// probeCalls maps each row to the probe tool's parameter of the row's type,
// as bindtest does. A row that states no verdict takes the binder's own.
func probeCalls(t *testing.T, b bind.Binder, rows []bindtest.Row) []probeCall {
	t.Helper()
	reg := typereg.New(typereg.WithBinder(b))
	if err := typereg.Register[probe.Args](reg, probe.Tool); err != nil {
		t.Fatal(err)
	}
	tool, _ := reg.Tool(probe.Tool)
	var calls []probeCall
	for i, row := range rows {
		p, ok := paramFor(tool, row.Type)
		if !ok {
			t.Errorf("row %d: the probe tool has no parameter of type %s", i+1, row.Type)
			continue
		}
		c := probeCall{
			name:    row.Type + "=" + short(row.Value, 32),
			row:     row,
			param:   p.Name,
			args:    `{"` + p.Name + `":` + row.Value + `}`,
			refused: row.Refused,
		}
		if row.NoVerdict {
			var in probe.Args
			c.refused = b.Unmarshal([]byte(c.args), &in) != nil
		}
		calls = append(calls, c)
	}
	return calls
}

// Half one: the SDK server, with no guard, hands the arguments to a raw
// handler that decodes them with the binder. The binder must fail exactly on
// the rows the table marks refused, so the table states what the binder
// does with arguments that came through the SDK's transport.
func TestTable_WithoutGuard_BinderFailsExactlyOnRefusedRows(t *testing.T) {
	for _, tab := range tables() {
		t.Run(tab.binder.Name(), func(t *testing.T) {
			reg := typereg.New(typereg.WithBinder(tab.binder))
			if err := typereg.Register[probe.Args](reg, probe.Tool); err != nil {
				t.Fatal(err)
			}
			rec, _ := reg.Tool(probe.Tool)
			s := newServer()
			s.AddTool(&mcp.Tool{Name: probe.Tool, InputSchema: rec.Schema()}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var in probe.Args
				if err := reg.Binder().Unmarshal(req.Params.Arguments, &in); err != nil {
					res := &mcp.CallToolResult{}
					res.SetError(err)
					return res, nil
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "decoded"}}}, nil
			})
			cs := connect(t, s)
			for _, c := range probeCalls(t, tab.binder, tab.rows) {
				t.Run(c.name, func(t *testing.T) {
					res := callRaw(t, cs, probe.Tool, c.args)
					if res.IsError != c.refused {
						t.Errorf("%s (%s): binder fails %v, the row says %v: %s", c.args, c.row.Why, res.IsError, c.refused, text(t, res))
					}
				})
			}
		})
	}
}

// Half two: the same calls to a tool added with gosdk.AddTool. Exactly the
// refused rows come back as the guard's refusal, naming the row's argument
// and no other, and the handler never runs for them; every other row
// reaches the handler with the arguments as sent and the value the binder
// decodes from them.
func TestTable_WithGuard_RefusesExactlyTheRefusedRows_PassesTheRestAsTheBinderDecodes(t *testing.T) {
	for _, tab := range tables() {
		t.Run(tab.binder.Name(), func(t *testing.T) {
			// Warn: the table is about the binder's verdict; what the
			// policies add (an unknown field, a silent loss) travels as a
			// warning, and the handler runs.
			reg := typereg.New(typereg.WithBinder(tab.binder), typereg.WithMode(typereg.Warn))
			var rec recorder[probe.Args]
			s := newServer()
			if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: probe.Tool}, rec.handler); err != nil {
				t.Fatal(err)
			}
			cs := connect(t, s)
			for _, c := range probeCalls(t, tab.binder, tab.rows) {
				t.Run(c.name, func(t *testing.T) {
					before, _, _ := rec.last()
					res := callRaw(t, cs, probe.Tool, c.args)
					runs, args, in := rec.last()
					sent := wire(t, c.args)
					if c.refused {
						if runs != before {
							t.Errorf("%s: the handler ran on a refused call", c.args)
						}
						r := wantRefusal(t, reg, probe.Tool, sent, res, true)
						for _, p := range r.Problems {
							if p.Argument != c.param {
								t.Errorf("%s: a problem names %q, want %q: %+v", c.args, p.Argument, c.param, p)
							}
						}
						if !strings.Contains(text(t, res), c.row.Says) {
							t.Errorf("%s: the refusal does not say %q:\n%s", c.args, c.row.Says, text(t, res))
						}
						return
					}
					if res.IsError {
						t.Fatalf("%s (%s): a call the binder reads came back as an error:\n%s", c.args, c.row.Why, text(t, res))
					}
					if runs != before+1 {
						t.Fatalf("%s: the handler ran %d times, want once", c.args, runs-before)
					}
					if !bytes.Equal(args, sent) {
						t.Errorf("the handler's arguments are %s, want %s as sent", args, sent)
					}
					var want probe.Args
					if err := reg.Binder().Unmarshal(sent, &want); err != nil {
						t.Fatalf("%s: the binder fails on a row that says it reads: %v", sent, err)
					}
					if diff := cmp.Diff(want, in); diff != "" {
						t.Errorf("%s: the handler got (-binder +handler):\n%s", sent, diff)
					}
				})
			}
		})
	}
}

// Integers travel as their digits: 9007199254740993 (2^53+1, which float64
// cannot hold) and the largest int64 and uint64 reach the handler exact,
// where mcp.AddTool alone would round or refuse them
// (TestMiddleware_GoSDKStillValidatesAndRoundsAfterTheGuard).
func TestAddTool_IntegersPastFloat64Precision_ArriveExact(t *testing.T) {
	reg := typereg.New()
	var rec recorder[probe.Args]
	s := newServer()
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: probe.Tool}, rec.handler); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	for _, tc := range []struct {
		args string
		want probe.Args
	}{
		{`{"int64": 9007199254740993}`, probe.Args{Int64: 9007199254740993}},
		{`{"int64": 9223372036854775807}`, probe.Args{Int64: 9223372036854775807}},
		{`{"uint64": 18446744073709551615}`, probe.Args{Uint64: 18446744073709551615}},
		{`{"int": -9007199254740993, "ints": [9007199254740993]}`, probe.Args{Int: -9007199254740993, Ints: []int{9007199254740993}}},
	} {
		if res := callRaw(t, cs, probe.Tool, tc.args); res.IsError {
			t.Fatalf("%s: %s", tc.args, text(t, res))
		}
		_, _, got := rec.last()
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: the handler got (-want +got):\n%s", tc.args, diff)
		}
	}
}

// The table through Middleware, for a server that registers with
// Server.AddTool and decodes with the binder itself: exactly the refused
// rows come back as the guard's refusal (text only) and the handler never
// runs for them; every other row reaches the handler with the value the
// binder decodes.
func TestTable_Middleware_RefusesExactlyTheRefusedRows_PassesTheRestAsTheBinderDecodes(t *testing.T) {
	for _, tab := range tables() {
		t.Run(tab.binder.Name(), func(t *testing.T) {
			reg := typereg.New(typereg.WithBinder(tab.binder), typereg.WithMode(typereg.Warn)) // as above
			if err := typereg.Register[probe.Args](reg, probe.Tool); err != nil {
				t.Fatal(err)
			}
			rec, _ := reg.Tool(probe.Tool)
			var got recorder[probe.Args]
			s := newServer()
			s.AddTool(&mcp.Tool{Name: probe.Tool, InputSchema: rec.Schema()}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var in probe.Args
				if err := reg.Binder().Unmarshal(req.Params.Arguments, &in); err != nil {
					res := &mcp.CallToolResult{}
					res.SetError(err)
					return res, nil
				}
				got.record(req, in)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "decoded"}}}, nil
			})
			s.AddReceivingMiddleware(gosdk.Middleware(reg))
			cs := connect(t, s)
			for _, c := range probeCalls(t, tab.binder, tab.rows) {
				t.Run(c.name, func(t *testing.T) {
					before, _, _ := got.last()
					res := callRaw(t, cs, probe.Tool, c.args)
					runs, _, in := got.last()
					sent := wire(t, c.args)
					if c.refused {
						if runs != before {
							t.Errorf("%s: the handler ran on a refused call", c.args)
						}
						wantRefusal(t, reg, probe.Tool, sent, res, false)
						return
					}
					if res.IsError || runs != before+1 {
						t.Fatalf("%s: a call the binder reads: isError %v, the handler ran %d times: %s", c.args, res.IsError, runs-before, text(t, res))
					}
					var want probe.Args
					if err := reg.Binder().Unmarshal(sent, &want); err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, in); diff != "" {
						t.Errorf("%s: the handler got (-binder +handler):\n%s", sent, diff)
					}
				})
			}
		})
	}
}
