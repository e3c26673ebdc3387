package mcpgo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/mcpguard/mcpgo"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type dashArgs struct {
	UID   string   `json:"uid"`
	Limit int      `json:"limit,omitempty"`
	Tags  []string `json:"tags,omitempty"`
	ID    int64    `json:"id,omitempty"`
}

// jsonName is a field's JSON key.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// grafanaRead reads mcp-go's map of the arguments as grafana's tool
// wrapper does: numeric text for a number field becomes the number, a
// single value for a list field becomes a list of one, and the map is
// re-marshalled into the struct with encoding/json.
func grafanaRead(arguments any, v any) error {
	m, _ := arguments.(map[string]any)
	rt := reflect.TypeOf(v).Elem()
	for i := range rt.NumField() {
		f := rt.Field(i)
		x, ok := m[jsonName(f)]
		if !ok {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Int, reflect.Int64:
			if s, ok := x.(string); ok {
				if n, err := strconv.ParseFloat(s, 64); err == nil {
					m[jsonName(f)] = n
				}
			}
		case reflect.Slice:
			if _, ok := x.([]any); !ok && x != nil {
				m[jsonName(f)] = []any{x}
			}
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// githubRead reads mcp-go's map as github-mcp-server's parameter helpers
// do: each parameter by its exact name; an integer through toInt (a whole
// float64, 2.0 too, or numeric text); text must be text; a list of text, a
// list of text.
func githubRead(arguments any, v any) error {
	m, _ := arguments.(map[string]any)
	rv := reflect.ValueOf(v).Elem()
	for i := range rv.NumField() {
		name := jsonName(rv.Type().Field(i))
		x, ok := m[name]
		if !ok || x == nil {
			continue
		}
		f := rv.Field(i)
		switch f.Kind() {
		case reflect.Int, reflect.Int64:
			var n int64
			switch y := x.(type) {
			case float64:
				if y != math.Trunc(y) {
					return fmt.Errorf("parameter %s is not a whole number", name)
				}
				n = int64(y)
			case string:
				var err error
				if n, err = strconv.ParseInt(y, 10, 64); err != nil {
					return fmt.Errorf("parameter %s: %w", name, err)
				}
			default:
				return fmt.Errorf("parameter %s is not a number", name)
			}
			f.SetInt(n)
		case reflect.String:
			s, ok := x.(string)
			if !ok {
				return fmt.Errorf("parameter %s is not of type string", name)
			}
			f.SetString(s)
		case reflect.Slice:
			list, ok := x.([]any)
			if !ok {
				return fmt.Errorf("parameter %s is not an array", name)
			}
			for _, e := range list {
				s, ok := e.(string)
				if !ok {
					return fmt.Errorf("parameter %s holds a non-string", name)
				}
				f.Set(reflect.Append(f, reflect.ValueOf(s)))
			}
		}
	}
	return nil
}

// fromBytes is a server's map reader as a decode function for bind.Reader:
// the arguments decoded as mcp-go decodes them, then read by read.
func fromBytes(read func(any, any) error) func([]byte, any) error {
	return func(data []byte, v any) error {
		var a any
		if err := json.Unmarshal(data, &a); err != nil {
			return err
		}
		return read(a, v)
	}
}

type dashRecorder struct {
	mu  sync.Mutex
	ran int
	in  dashArgs
}

// readerServer is an mcp-go server whose "dash" handler reads the
// arguments with read, from mcp-go's map; guarded by Middleware when reg
// is not nil.
func readerServer(reg *typereg.Registry, read func(any, any) error, rec *dashRecorder) *server.MCPServer {
	var opts []server.ServerOption
	if reg != nil {
		opts = append(opts, server.WithToolHandlerMiddleware(mcpgo.Middleware(reg)))
	}
	s := server.NewMCPServer("dash", "1.0.0", opts...)
	s.AddTool(mcp.NewTool("dash"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in dashArgs
		if err := read(req.Params.Arguments, &in); err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		rec.mu.Lock()
		defer rec.mu.Unlock()
		rec.ran++
		rec.in = in
		return mcp.NewToolResultText("ok"), nil
	})
	return s
}

// TestMiddleware_ServersOwnReader_NeverRefusesWhatTheServerServes: servers
// built like grafana/mcp-grafana (the map re-marshalled, with coercions)
// and like github/github-mcp-server (toInt-style helpers), each guarded by
// Middleware with its own reader as the binder (bind.Reader), beside the
// same server bare. A call the bare server serves is never refused and its
// handler reads the same; a call it cannot read is refused, naming the
// argument. It failed before bind.Reader, with bind.Std as the binder:
// "42" and ["x"]-from-"x" (grafana), "2" and 2.0 (github) were refused.
func TestMiddleware_ServersOwnReader_NeverRefusesWhatTheServerServes(t *testing.T) {
	type call struct {
		args     string
		argument string // "" for a call the server serves
	}
	for _, srv := range []struct {
		name  string
		read  func(any, any) error
		calls []call
	}{
		{"grafana", grafanaRead, []call{
			{args: `{"uid":"a","limit":"42"}`},
			{args: `{"uid":"a","tags":"x"}`},
			{args: `{"uid":"a","limit":42.0}`},
			{args: `{"uid":"a","limit":"x","limit":7}`},
			{args: `{"UID":"a"}`},
			{args: `{"uid":"a","id":9007199254740993}`},
			{args: `{"uid":"a","limit":"x"}`, argument: "limit"},
			{args: `{"uid":"a","limit":0.5}`, argument: "limit"},
			{args: `{"uid":"a","tags":[1]}`, argument: "tags"},
			{args: `{"uid":5,"limit":1}`, argument: "uid"},
		}},
		{"github", githubRead, []call{
			{args: `{"uid":"a","limit":"2"}`},
			{args: `{"uid":"a","limit":2.0}`},
			{args: `{"uid":"a","id":"9007199254740993"}`},
			{args: `{"uid":"a","limit":"two"}`, argument: "limit"},
			{args: `{"uid":"a","limit":2.5}`, argument: "limit"},
			{args: `{"uid":"a","tags":"x"}`, argument: "tags"},
			{args: `{"uid":true}`, argument: "uid"},
		}},
	} {
		t.Run(srv.name, func(t *testing.T) {
			reg := typereg.New(typereg.WithBinder(bind.Reader(srv.name, fromBytes(srv.read))))
			if err := typereg.Register[dashArgs](reg, "dash"); err != nil {
				t.Fatal(err)
			}
			var bareRec, guardedRec dashRecorder
			bare, guarded := readerServer(nil, srv.read, &bareRec), readerServer(reg, srv.read, &guardedRec)
			for _, c := range srv.calls {
				b := send(t, bare, callFrame("dash", c.args))
				g := send(t, guarded, callFrame("dash", c.args))
				if c.argument == "" {
					if b.Result.IsError || g.Result.IsError {
						t.Errorf("%s: bare isError %v, guarded isError %v: %s", c.args, b.Result.IsError, g.Result.IsError, g.text(t))
						continue
					}
					if diff := cmp.Diff(bareRec.in, guardedRec.in); diff != "" {
						t.Errorf("%s: the handler read (-bare +guarded):\n%s", c.args, diff)
					}
					continue
				}
				if !b.Result.IsError {
					t.Fatalf("%s: the bare server serves it: the case is wrong", c.args)
				}
				r := refuse.Refuse(reg, "dash", json.RawMessage(c.args))
				if r == nil || g.text(t) != r.Error() {
					t.Errorf("%s: guarded result %q, want the refusal %v", c.args, g.text(t), r)
					continue
				}
				if r.Problems[0].Argument != c.argument {
					t.Errorf("%s: the refusal names %q, want %q", c.args, r.Problems[0].Argument, c.argument)
				}
			}
		})
	}
}

// TestMapArguments_IsTheMapPath pins mcpgo.MapArguments against a handler
// that re-marshals mcp-go's map (no coercions): what it serves passes, a
// number past 2^53 is a named loss, a value it cannot read is refused by
// name.
func TestMapArguments_IsTheMapPath(t *testing.T) {
	reg := typereg.New(typereg.WithBinder(mcpgo.MapArguments))
	if err := typereg.Register[dashArgs](reg, "dash"); err != nil {
		t.Fatal(err)
	}
	var rec dashRecorder
	s := readerServer(reg, remarshal, &rec)
	if r := send(t, s, callFrame("dash", `{"uid":"a","limit":1.0}`)); r.Result.IsError || rec.in.Limit != 1 {
		t.Errorf("1.0 for an int: %v, read %d", r.text(t), rec.in.Limit)
	}
	r := send(t, s, callFrame("dash", `{"uid":"a","id":9007199254740993}`))
	if r.Result.IsError || rec.in.ID != 9007199254740992 {
		t.Fatalf("past 2^53: %+v, read %d", r.Result, rec.in.ID)
	}
	if len(r.Result.Content) != 2 || !strings.Contains(r.Result.Content[1].Text, "Argument 'id'") {
		t.Errorf("past 2^53: want a warning naming id, got %+v", r.Result.Content)
	}
	r = send(t, s, callFrame("dash", `{"uid":"a","limit":"1"}`))
	if want := refuse.Refuse(reg, "dash", json.RawMessage(`{"uid":"a","limit":"1"}`)); want == nil || r.text(t) != want.Error() || want.Problems[0].Argument != "limit" {
		t.Errorf("text for an int: %q, want %v", r.text(t), want)
	}
}

// remarshal is a handler's read of mcp-go's map: re-marshalled into the
// struct with encoding/json.
func remarshal(arguments, v any) error {
	m, _ := arguments.(map[string]any)
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// FuzzMapArguments_RefusesIffTheHandlerFails: for any frame mcp-go reads,
// the guard with mcpgo.MapArguments (under Warn, so that only what the
// binder fails on refuses) refuses exactly when a bare server's handler,
// reading the map re-marshalled, fails, and a passed call reads the same.
func FuzzMapArguments_RefusesIffTheHandlerFails(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `[1]`, `{"uid":"a","limit":1.0}`, `{"uid":"a","limit":"1"}`, `{"uid":"a","id":9007199254740993}`,
		`{"uid":"a","tags":"x"}`, `{"UID":"a","uid":"b"}`, `{"uid":"a","limit":1e400}`, `{"uid":"\ud800"}`} {
		f.Add(s)
	}
	reg := typereg.New(typereg.WithBinder(mcpgo.MapArguments), typereg.WithMode(typereg.Warn))
	if err := typereg.Register[dashArgs](reg, "dash"); err != nil {
		f.Fatal(err)
	}
	var bareRec, guardedRec dashRecorder
	bare, guarded := readerServer(nil, remarshal, &bareRec), readerServer(reg, remarshal, &guardedRec)
	f.Fuzz(func(t *testing.T, args string) {
		frame := callFrame("dash", args)
		if !json.Valid([]byte(args)) || !frameDecodes(frame) {
			return // mcp-go fails the frame before any handler
		}
		b := send(t, bare, frame)
		if b.Result == nil {
			return // a protocol error: not the handler's
		}
		refused := refuse.Refuse(reg, "dash", json.RawMessage(args)) != nil
		if b.Result.IsError != refused {
			t.Fatalf("%s: the handler's isError %v, the guard refuses: %v", args, b.Result.IsError, refused)
		}
		if refused {
			return
		}
		if g := send(t, guarded, frame); g.Result == nil || g.Result.IsError {
			t.Fatalf("%s: the guarded server failed a call the guard passed: %+v", args, g)
		}
		bareRec.mu.Lock()
		guardedRec.mu.Lock()
		diff := cmp.Diff(bareRec.in, guardedRec.in)
		guardedRec.mu.Unlock()
		bareRec.mu.Unlock()
		if diff != "" {
			t.Fatalf("%s: the handler read (-bare +guarded):\n%s", args, diff)
		}
	})
}
