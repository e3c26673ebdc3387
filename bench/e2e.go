package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	adapter "github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/typereg"
)

// This file holds the end-to-end pair: one tool, called by a go-sdk client
// session over in-memory transports, served three ways. The server-side
// cost of a route is its time less the noop route's, which carries the
// same call over the same session but never looks at the arguments: what
// is left is what the server does with them before and around the handler.

// Route names: the sub-benchmarks of each BenchmarkE2EPAYLOAD.
const (
	// RouteBind is json.Unmarshal of the arguments into the struct, with no
	// session: the 1.00x of cmd/ratio's columns.
	RouteBind = RivalBind
	// RouteAdapter is the tool added with gosdk.AddTool (bindguard's
	// adapter): refuse.Decide on the raw arguments, then the registry's
	// binder (encoding/json) straight into the struct.
	RouteAdapter = "adapter"
	// RouteAddTool is the same tool and handler added with go-sdk's own
	// mcp.AddTool: depth scan, decode into a map, defaults, schema
	// validation, re-marshal, decode into the struct.
	RouteAddTool = "addtool"
	// RouteNoop is the same tool name added with Server.AddTool and a
	// handler that ignores the arguments and returns an empty result: the
	// session's fixed cost (client marshal, JSON-RPC framing both ways,
	// net.Pipe and goroutine hops), subtracted from the other two.
	RouteNoop = "noop"
)

// E2ERoutes lists the routes in the order the benchmarks run them.
var E2ERoutes = []string{RouteBind, RouteAdapter, RouteAddTool, RouteNoop}

// E2EPayloads names the payloads the end-to-end pair is measured on
// (BenchmarkE2ETypical, ...): the typical call, and two larger
// ones that go-sdk's session can carry.
var E2EPayloads = []string{"Typical", "Strings200", "Ints10k"}

// An E2E is a go-sdk server serving one payload's tool by one route, and a
// client session connected to it over mcp.NewInMemoryTransports.
type E2E struct {
	Route  string
	p      *Payload
	cs     *gosdk.ClientSession
	ss     *gosdk.ServerSession
	params *gosdk.CallToolParams
	// last returns what the handler last received (nil for the noop route,
	// whose handler reads nothing) and how many times it ran.
	last func() (any, int)
}

// NewE2E connects a client to a server serving p's tool by route (adapter,
// addtool or noop).
func NewE2E(ctx context.Context, p *Payload, route string) (*E2E, error) {
	srv := gosdk.NewServer(&gosdk.Implementation{Name: "bench-e2e", Version: "v0"}, nil)
	e := &E2E{Route: route, p: p, params: &gosdk.CallToolParams{Name: p.Tool, Arguments: json.RawMessage(p.Args)}}
	var err error
	switch p.Type {
	case reflect.TypeFor[Typical]():
		e.last, err = addE2ETool[Typical](srv, p.Tool, route)
	case reflect.TypeFor[Strings]():
		e.last, err = addE2ETool[Strings](srv, p.Tool, route)
	case reflect.TypeFor[Ints]():
		e.last, err = addE2ETool[Ints](srv, p.Tool, route)
	default:
		return nil, fmt.Errorf("bench: no end-to-end tool for %v", p.Type)
	}
	if err != nil {
		return nil, err
	}
	ct, st := gosdk.NewInMemoryTransports()
	if e.ss, err = srv.Connect(ctx, st, nil); err != nil {
		return nil, err
	}
	client := gosdk.NewClient(&gosdk.Implementation{Name: "bench-e2e-client", Version: "v0"}, nil)
	if e.cs, err = client.Connect(ctx, ct, nil); err != nil {
		e.ss.Close()
		return nil, err
	}
	return e, nil
}

// addE2ETool adds the tool named name, of parameter struct T, to srv by
// route. The adapter and addtool routes install the same typed handler: it
// keeps what it received (a copy of the struct, no allocation) and returns
// a nil result, which both turn into an empty CallToolResult, the noop
// route's result.
func addE2ETool[T any](srv *gosdk.Server, name, route string) (last func() (any, int), err error) {
	var (
		got   T
		calls int
	)
	h := func(_ context.Context, _ *gosdk.CallToolRequest, in T) (*gosdk.CallToolResult, any, error) {
		got = in
		calls++
		return nil, nil, nil
	}
	last = func() (any, int) { return got, calls }
	switch route {
	case RouteAdapter:
		err = adapter.AddTool(srv, typereg.New(), &gosdk.Tool{Name: name}, h)
	case RouteAddTool:
		gosdk.AddTool(srv, &gosdk.Tool{Name: name}, h)
	case RouteNoop:
		reg := typereg.New()
		if err := typereg.Register[T](reg, name); err != nil {
			return nil, err
		}
		srv.AddTool(&gosdk.Tool{Name: name, InputSchema: json.RawMessage(SchemaJSON(reg, name))},
			func(context.Context, *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
				calls++
				return &gosdk.CallToolResult{}, nil
			})
		last = func() (any, int) { return nil, calls }
	default:
		err = fmt.Errorf("bench: no end-to-end route %q", route)
	}
	return last, err
}

// Call calls the tool with the payload's arguments and returns nil when
// the handler ran and succeeded, otherwise what stopped the call.
func (e *E2E) Call(ctx context.Context) error { return e.call(ctx, e.params) }

func (e *E2E) call(ctx context.Context, params *gosdk.CallToolParams) error {
	res, err := e.cs.CallTool(ctx, params)
	if err != nil {
		return fmt.Errorf("go-sdk: %s", cut(err.Error()))
	}
	if res.IsError {
		var text string
		for _, c := range res.Content {
			if t, ok := c.(*gosdk.TextContent); ok {
				text = t.Text
			}
		}
		return errors.New("go-sdk: tool error: " + cut(text))
	}
	return nil
}

// Close ends the session.
func (e *E2E) Close() {
	e.cs.Close()
	e.ss.Wait()
}

// Check runs the route's verdict checks, before any timing: the payload's
// call succeeds, and the handler runs once and receives exactly what
// json.Unmarshal reads from the arguments (the noop route's handler runs
// and reads nothing). Then two probes show which decoder each route runs:
//
//   - a call with a wrong type for the first argument is refused by the
//     adapter (in bindguard's words: "Argument '...") and by addtool, and
//     passed by noop, which validates nothing;
//   - for a payload with an int field, a call carrying 2^53+1 reaches the
//     adapter's handler exact and addtool's as 2^53: go-sdk decodes the
//     arguments into float64s and re-marshals them before decoding the
//     struct, and the adapter does not.
func (e *E2E) Check(ctx context.Context) error {
	name := e.p.Name + "/" + e.Route
	if err := e.Call(ctx); err != nil {
		return fmt.Errorf("%s: the call failed: %v", name, err)
	}
	got, calls := e.last()
	if calls != 1 {
		return fmt.Errorf("%s: the handler ran %d times, want 1", name, calls)
	}
	if e.Route != RouteNoop {
		want := e.p.New()
		must(json.Unmarshal(e.p.Args, want))
		if !reflect.DeepEqual(got, reflect.ValueOf(want).Elem().Interface()) {
			return fmt.Errorf("%s: the handler received %s, want what json.Unmarshal reads", name, cut(fmt.Sprintf("%+v", got)))
		}
	}

	probes := e2eProbes[e.p.Type]
	err := e.call(ctx, &gosdk.CallToolParams{Name: e.p.Tool, Arguments: json.RawMessage(probes.wrong)})
	switch {
	case e.Route == RouteNoop && err != nil:
		return fmt.Errorf("%s: refused %s: %v", name, probes.wrong, err)
	case e.Route != RouteNoop && err == nil:
		return fmt.Errorf("%s: passed %s", name, probes.wrong)
	case e.Route == RouteAdapter && !strings.Contains(err.Error(), "tool error: Argument '"):
		return fmt.Errorf("%s: refused %s, but not in bindguard's words: %v", name, probes.wrong, err)
	}

	if probes.big == "" || e.Route == RouteNoop {
		return nil
	}
	if err := e.call(ctx, &gosdk.CallToolParams{Name: e.p.Tool, Arguments: json.RawMessage(probes.big)}); err != nil {
		return fmt.Errorf("%s: refused %s: %v", name, probes.big, err)
	}
	got, _ = e.last()
	n := probes.int(got)
	want := int64(1<<53 + 1) // the adapter: exact
	if e.Route == RouteAddTool {
		want = 1 << 53 // go-sdk: through a float64
	}
	if n != want {
		return fmt.Errorf("%s: the handler received %d for %s, want %d", name, n, probes.big, want)
	}
	return nil
}

// e2eProbes are, per parameter struct, a call with a wrong type for an
// argument, and a call carrying 2^53+1 for an int with the function that
// reads it back from what the handler received.
var e2eProbes = map[reflect.Type]struct {
	wrong, big string
	int        func(any) int64
}{
	reflect.TypeFor[Typical](): {
		wrong: `{"count":"twelve"}`,
		// Every field: go-sdk's inferred schema requires them all.
		big: strings.Replace(TypicalArgs, `"limit":50,`, `"limit":9007199254740993,`, 1),
		int: func(v any) int64 { return int64(v.(Typical).Limit) },
	},
	reflect.TypeFor[Strings](): {
		wrong: `{"items":"item-0000"}`,
	},
	reflect.TypeFor[Ints](): {
		wrong: `{"values":["1"]}`,
		big:   `{"values":[9007199254740993]}`,
		int: func(v any) int64 {
			if vs := v.(Ints).Values; len(vs) == 1 {
				return int64(vs[0])
			}
			return -1
		},
	},
}
