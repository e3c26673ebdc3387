package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/bindtest"
)

// serverOptions are the flags of bindprobe -server.
type serverOptions struct {
	command     string          // the server's command line, as -server gives it
	allowWrites bool            // probe tools whose names suggest writes
	timeout     time.Duration   // for each answer (the start and tools/list get at least minStartTimeout)
	values      int             // at most this many values per parameter
	fill        fills           // -fill and -fill-file: values for parameters not probed
	tools       map[string]bool // -tools: tools to probe though not annotated readOnlyHint: true
	skip        map[string]bool // -skip: tools never to call
	format      string          // text, json, markdown or junit
	minScore    *float64        // -min-score, nil when not given
}

// A plannedCall is one call bindprobe means to make.
type plannedCall struct {
	tool, argument string // argument as reported: limit, filter.min, rows[].id
	value          string // the value probed, JSON text
	arguments      string // the whole arguments object, JSON text
	probed         probed
}

// The server's start (initialize) and tools/list get at least this long,
// whatever -timeout says: a server may take a while to start.
const minStartTimeout = 10 * time.Second

// Give up on a tool after this many of its calls in a row go unanswered:
// it is slow, or stuck; the run goes on with the other tools.
const maxTimeoutsInARow = 2

// A ping after a timeout gets twice -timeout, and at least this long: the
// server may be busy finishing the call that timed out.
const minPingTimeout = 2 * time.Second

// pingFails pings the server after a call timed out, and says how it
// failed ("no longer answers a ping", "is gone"), or "" when it answered.
func pingFails(ctx context.Context, cs *mcp.ClientSession, timeout time.Duration) string {
	wait := max(2*timeout, minPingTimeout)
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	err := cs.Ping(ctx, nil)
	var wire *jsonrpc.Error
	switch {
	case err == nil || errors.As(err, &wire):
		return "" // a JSON-RPC error is an answer: the server is there
	case ctx.Err() != nil:
		return fmt.Sprintf("no longer answers a ping (none within %v)", wait)
	}
	return "is gone (" + err.Error() + ")"
}

// runServer is bindprobe -server: it starts the server, lists its tools,
// probes each parameter of each tool it may call, grades every answer and
// reports. It returns the exit status: 0 when every call was made, 1 when
// the server stopped answering before that, 2 when it could not be started
// or its tools could not be listed.
func runServer(o serverOptions, stdout, stderr io.Writer) int {
	words, err := splitCommand(o.command)
	if err == nil && len(words) == 0 {
		err = errors.New("the command is empty")
	}
	if err != nil {
		fmt.Fprintf(stderr, "bindprobe: -server %q: %v\n", o.command, err)
		return 2
	}

	cmd := exec.Command(words[0], words[1:]...)
	serverErr := &tailBuffer{max: 4 << 10}
	cmd.Stderr = serverErr
	transport := newStdioTransport(cmd)
	client := mcp.NewClient(&mcp.Implementation{Name: "bindprobe", Version: "v0"}, nil)
	ctx := context.Background()
	startTimeout := max(o.timeout, minStartTimeout)
	startCtx, cancel := context.WithTimeout(ctx, startTimeout)
	cs, err := client.Connect(startCtx, transport, nil)
	cancel()
	if err != nil {
		if errors.Is(startCtx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no answer to initialize within %v", startTimeout)
		}
		if cmd.Process != nil && !transport.hasExited() {
			_ = cmd.Process.Kill()
		}
		if cmd.Process != nil {
			<-transport.exited
		}
		fmt.Fprintf(stderr, "bindprobe: starting the server %s: %v%s\n", o.command, err, stderrTail(serverErr, transport))
		return 2
	}
	gone := make(chan struct{})
	go func() { _ = cs.Wait(); close(gone) }()
	closed := false
	closeSession := func() {
		if !closed {
			closed = true
			_ = cs.Close()
		}
	}
	defer closeSession()

	listCtx, cancel := context.WithTimeout(ctx, startTimeout)
	var tools []*mcp.Tool
	for t, err := range cs.Tools(listCtx, nil) {
		if err != nil {
			cancel()
			if errors.Is(listCtx.Err(), context.DeadlineExceeded) {
				err = fmt.Errorf("no answer within %v", startTimeout)
			}
			closeSession()
			fmt.Fprintf(stderr, "bindprobe: listing the tools of %s: %v%s\n", o.command, err, stderrTail(serverErr, transport))
			return 2
		}
		tools = append(tools, t)
	}
	cancel()

	if unknown := unknownTools(o.tools, tools); len(unknown) > 0 {
		closeSession()
		fmt.Fprintf(stderr, "bindprobe: -tools names %s, which the server does not list (its tools: %s)\n",
			strings.Join(unknown, ", "), strings.Join(toolNames(tools), ", "))
		return 2
	}
	rep, plan := planCalls(o, tools, transport.toolTaskSupport, bindtest.Default())
	progress := progressFunc(stderr, len(plan))
	timeouts := map[string]int{} // timeouts in a row, by tool
	for i, c := range plan {
		if tr := rep.tool(c.tool); tr.GaveUp != "" {
			tr.NotMade++
			continue
		}
		progress(i, c)
		callCtx, cancel := context.WithTimeout(ctx, o.timeout)
		start := time.Now()
		res, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.arguments)})
		rec := callRecord{Tool: c.tool, Argument: c.argument, Value: json.RawMessage(c.value), Arguments: json.RawMessage(c.arguments)}
		rec.DurationMS = float64(time.Since(start).Microseconds()) / 1000
		var failure callFailureKind
		if err != nil {
			rec.Text, failure = callFailure(err, callCtx, o.timeout)
			rec.Grade = protocol
			if failure == failTimeout {
				rec.Grade = timedOut
			}
		} else {
			rec.Grade, rec.NamedBy, rec.Text = gradeResult(res, transport.lastCallResult(), c.probed)
		}
		cancel()
		rec.Text = cut(rec.Text, maxCallText)
		rep.add(rec)

		switch {
		case failure == failTimeout:
			timeouts[c.tool]++
			if timeouts[c.tool] == maxTimeoutsInARow {
				rep.tool(c.tool).GaveUp = fmt.Sprintf("no answer within %v to %d calls in a row; bindprobe gave up on it", o.timeout, maxTimeoutsInARow)
			}
			if why := pingFails(ctx, cs, o.timeout); why != "" {
				rep.Stopped = fmt.Sprintf("the server %s after call %d of %d (%s, argument %s, no answer within %v); bindprobe stopped",
					why, i+1, len(plan), c.tool, c.argument, o.timeout)
			}
		case failure == failTransport && isClosing(err, gone, transport):
			select { // for its exit status
			case <-transport.exited:
			case <-time.After(2 * time.Second):
			}
			rep.Stopped = fmt.Sprintf("the server closed the connection at call %d of %d (%s, argument %s, value %s): %v%s",
				i+1, len(plan), c.tool, c.argument, cut(c.value, 40), err, stderrTail(serverErr, transport))
		default:
			timeouts[c.tool] = 0
		}
		if rep.Stopped == "" && transport.hasExited() {
			rep.Stopped = fmt.Sprintf("the server exited after call %d of %d (%s, argument %s)%s",
				i+1, len(plan), c.tool, c.argument, stderrTail(serverErr, transport))
		}
		if rep.Stopped != "" {
			closeSession()
			break
		}
	}
	progress(len(plan), plannedCall{})
	rep.SkippedLines, rep.FirstSkippedLine = transport.skippedLines()

	switch o.format {
	case "json":
		err = writeServerJSON(stdout, rep)
	case "markdown":
		err = writeServerMarkdown(stdout, rep)
	case "junit":
		bar := 1.0
		if o.minScore != nil {
			bar = *o.minScore
		}
		err = writeServerJUnit(stdout, rep, bar)
	default:
		err = writeServerReport(stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bindprobe: %v\n", err)
		return 2
	}
	if rep.Stopped != "" {
		return 1
	}
	if o.minScore != nil {
		if sc := rep.Summary.score(); sc == nil || *sc < *o.minScore {
			fmt.Fprintf(stderr, "bindprobe: the server's score is %s, below -min-score %s\n", percent(sc), percent(o.minScore))
			return 1
		}
	}
	return 0
}

// isClosing reports whether the failure of a call in the transport (not a
// JSON-RPC error answer, not a timeout) comes from the connection closing:
// the error says so (go-sdk's ErrConnectionClosed, the end of the server's
// output, a broken pipe), the server's process has exited, or the session
// ends within a moment. Only here does bindprobe wait.
func isClosing(err error, gone <-chan struct{}, tr *stdioTransport) bool {
	if tr.hasExited() {
		return true
	}
	for _, closing := range []error{mcp.ErrConnectionClosed, io.EOF, io.ErrUnexpectedEOF, io.ErrClosedPipe, os.ErrClosed, syscall.EPIPE} {
		if errors.Is(err, closing) {
			return true
		}
	}
	select {
	case <-gone:
		return true
	case <-tr.exited:
		return true
	case <-time.After(2 * time.Second):
		return false
	}
}

// planCalls returns the report to fill, with every tool in it (skipped ones
// saying why), and the calls to make, tool by tool, parameter by parameter,
// in the order of tools/list and of the parameters' names.
//
// taskSupport gives a tool's execution.taskSupport, as tools/list said it.
func planCalls(o serverOptions, tools []*mcp.Tool, taskSupport func(string) string, table []bindtest.Row) (*serverReport, []plannedCall) {
	rep := &serverReport{Server: o.command, Tools: []*toolReport{}, Calls: []callRecord{}}
	var plan []plannedCall
	for _, t := range tools {
		tr := &toolReport{Name: t.Name, Arguments: []*argReport{}}
		rep.Tools = append(rep.Tools, tr)
		if code, why := skipReason(o, t, taskSupport(t.Name)); code != "" {
			tr.SkipCode, tr.Skipped = code, why
			continue
		}
		root, err := readSchema(t.InputSchema)
		if err != nil {
			tr.SkipCode, tr.Skipped = skipSchema, "its input schema cannot be read: "+err.Error()
			continue
		}
		check := compileSchema(t.InputSchema)
		for _, name := range sortedKeys(root.Properties) {
			for _, tg := range root.targets(name, root.Properties[name], root, nil, name, slices.Contains(root.Required, name)) {
				tr.Arguments = append(tr.Arguments, &argReport{Name: tg.display, Type: root.kind(tg.s), Required: tg.required})
				var others []string
				for _, o := range sortedKeys(root.Properties) {
					if o != name {
						others = append(others, o)
					}
				}
				if len(tg.steps) > 0 {
					for _, f := range sortedKeys(root.resolve(tg.parent).Properties) {
						if f != tg.steps[len(tg.steps)-1].name {
							others = append(others, f)
						}
					}
				}
				var inner []string
				if rs := root.resolve(tg.s); root.kind(rs) == kindObject {
					inner = sortedKeys(rs.Properties)
				} else if root.kind(rs) == kindArray {
					inner = sortedKeys(root.resolve(rs.Items).Properties)
				}
				path := make([]string, len(tg.steps))
				for i, st := range tg.steps {
					path[i] = st.name
				}
				for _, v := range root.valuesFor(tg.s, table, o.values) {
					args := argumentsWith(root, t.Name, o.fill, tg, v)
					plan = append(plan, plannedCall{tool: t.Name, argument: tg.display, value: v, arguments: args,
						probed: probed{top: name, path: path, value: v, others: others, inner: inner, valid: check(args)}})
				}
			}
		}
	}
	rep.Summary.Planned = len(plan)
	return rep, plan
}

// A step leads from a value to a field inside it: the field name of an
// object, or (inArray) of the objects an array holds.
type step struct {
	name    string
	inArray bool
}

// maxProbeDepth bounds how deep bindprobe probes the fields of objects.
const maxProbeDepth = 2

// A target is a value bindprobe probes: a top-level argument, or a field
// within one.
type target struct {
	top      string
	steps    []step
	s        *schema // the schema of the value probed
	parent   *schema // the object schema it is a property of
	display  string  // limit, filter.min, rows[].id
	required bool
}

// targets returns what to probe of the argument top of schema s: the
// argument, then the fields of an object (or of the objects of an array),
// depth permitting, in the order of their names.
func (root *schema) targets(top string, s, parent *schema, steps []step, display string, required bool) []target {
	out := []target{{top: top, steps: steps, s: s, parent: parent, display: display, required: required}}
	if len(steps) >= maxProbeDepth {
		return out
	}
	rs := root.resolve(s)
	obj, inArray := rs, false
	if root.kind(rs) == kindArray {
		obj, inArray = root.resolve(rs.Items), true
	}
	if k := root.kind(obj); k != kindObject && k != kindAny || len(obj.Properties) == 0 {
		return out
	}
	for _, f := range sortedKeys(obj.Properties) {
		sep := "."
		if inArray {
			sep = "[]."
		}
		next := append(slices.Clip(steps), step{f, inArray})
		out = append(out, root.targets(top, obj.Properties[f], obj, next, display+sep+f, slices.Contains(obj.Required, f))...)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// fills holds -fill's values, JSON text, by parameter name (name) or by
// tool and name (tool.name).
type fills map[string]string

func (f fills) lookup(tool, name string) (string, bool) {
	if v, ok := f[tool+"."+name]; ok {
		return v, true
	}
	v, ok := f[name]
	return v, ok
}

// argumentsWith returns the arguments object of a call of tool that sends
// value at target tg, and for each other parameter its -fill value, or, for
// a required one without, a valid value. Inside an object the value is
// sent in, the other required fields get valid values; an array holds one
// such object.
func argumentsWith(root *schema, tool string, fill fills, tg target, value string) string {
	var b strings.Builder
	key, _ := json.Marshal(tg.top)
	b.WriteString("{" + string(key) + ":" + root.buildAt(root.Properties[tg.top], tg.steps, value))
	var rest []string
	for _, r := range root.Required {
		if r != tg.top && !slices.Contains(rest, r) {
			rest = append(rest, r)
		}
	}
	for _, name := range sortedKeys(root.Properties) {
		if _, ok := fill.lookup(tool, name); ok && name != tg.top && !slices.Contains(rest, name) {
			rest = append(rest, name)
		}
	}
	for _, name := range rest {
		v, ok := fill.lookup(tool, name)
		if !ok {
			v = root.valid(root.Properties[name], 1)
		}
		key, _ := json.Marshal(name)
		b.WriteString("," + string(key) + ":" + v)
	}
	b.WriteString("}")
	return b.String()
}

// buildAt returns a value of schema s holding value at steps.
func (root *schema) buildAt(s *schema, steps []step, value string) string {
	if len(steps) == 0 {
		return value
	}
	s = root.resolve(s)
	st := steps[0]
	if st.inArray {
		item := root.resolve(s.Items)
		return "[" + root.objectWith(item, st.name, root.buildAt(item.Properties[st.name], steps[1:], value)) + "]"
	}
	return root.objectWith(s, st.name, root.buildAt(s.Properties[st.name], steps[1:], value))
}

// objectWith returns an object of schema s with value under field, and
// valid values for its other required fields.
func (root *schema) objectWith(s *schema, field, value string) string {
	var b strings.Builder
	key, _ := json.Marshal(field)
	b.WriteString("{" + string(key) + ":" + value)
	for _, r := range s.Required {
		if r != field {
			key, _ := json.Marshal(r)
			b.WriteString("," + string(key) + ":" + root.valid(s.Properties[r], 2))
		}
	}
	b.WriteString("}")
	return b.String()
}

// writeVerbs are the words that make a tool's name suggest it writes.
var writeVerbs = []string{
	"add", "append", "apply", "approve", "archive", "assign", "checkout", "clean", "clear", "clone", "close",
	"commit", "cp", "create", "delete", "deploy", "destroy", "disable", "drop", "edit", "enable", "exec",
	"execute", "import", "init", "insert", "install", "invite", "kill", "lock", "mark", "merge", "mkdir",
	"modify", "move", "mv", "patch", "post", "publish", "pull", "purge", "push", "put", "rebase", "remove",
	"rename", "replace", "reset", "restart", "restore", "revert", "rm", "run", "save", "send", "set",
	"shutdown", "start", "stash", "stop", "store", "terminate", "toggle", "trigger", "truncate", "uninstall",
	"unlock", "update", "upload", "upsert", "write",
}

// Why a tool is skipped, as -json's skip_code says it.
const (
	skipFlag     = "skip_flag"     // -skip names it
	skipTask     = "task_required" // it requires task-based execution
	skipName     = "write_name"    // its name suggests it writes; -allow-writes probes it
	skipReadOnly = "not_read_only" // not annotated readOnlyHint: true; -tools or -allow-writes probes it
	skipSchema   = "bad_schema"    // its input schema cannot be read
)

// skipReason says why tool t is not probed, and "" when it is: -skip names
// it; it requires task-based execution (taskSupport "required"), which
// bindprobe does not use; or, without -allow-writes, its name suggests it
// writes (see nameWrites), or it is neither annotated readOnlyHint: true
// nor named by -tools. The MCP specification's defaults make a tool with
// no annotations, or readOnlyHint false without destructiveHint, one that
// may write destructively.
func skipReason(o serverOptions, t *mcp.Tool, taskSupport string) (code, why string) {
	switch {
	case o.skip[t.Name]:
		return skipFlag, "-skip names it"
	case taskSupport == "required":
		return skipTask, `it requires task-based execution (execution.taskSupport "required"), which bindprobe does not use`
	case o.allowWrites:
		return "", ""
	}
	if w := nameWrites(t.Name); w != "" {
		return skipName, fmt.Sprintf("its name suggests it writes (%q); -allow-writes probes it", w)
	}
	a := t.Annotations
	if a != nil && a.ReadOnlyHint || o.tools[t.Name] {
		return "", ""
	}
	var said string
	switch {
	case a == nil:
		said = "it has no annotations, so by the MCP specification it may write"
	case a.DestructiveHint == nil:
		said = "it is annotated readOnlyHint: false (or not at all), and destructiveHint defaults to true"
	case *a.DestructiveHint:
		said = "it is annotated destructiveHint: true"
	default:
		said = "it is annotated readOnlyHint: false and destructiveHint: false: it may write, though not destructively"
	}
	return skipReadOnly, "not annotated readOnlyHint: true: " + said + "; -tools " + t.Name + " or -allow-writes probes it"
}

// nameWrites returns the word of a tool's name that suggests it writes
// (one of writeVerbs, in any case; the name is split at _ - . / and
// spaces, and where a lower-case letter meets an upper-case one), or "".
func nameWrites(name string) string {
	for _, w := range nameWords(name) {
		if slices.Contains(writeVerbs, w) {
			return w
		}
	}
	return ""
}

// nameWords splits a tool's name into lower-case words.
func nameWords(name string) []string {
	var words []string
	var w []rune
	prev := rune(0)
	flush := func() {
		if len(w) > 0 {
			words = append(words, strings.ToLower(string(w)))
			w = w[:0]
		}
	}
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '/' || unicode.IsSpace(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			w = append(w, r)
		default:
			w = append(w, r)
		}
		prev = r
	}
	flush()
	return words
}

// progressEvery is how often a run shows its progress on a stderr that is
// not a terminal (a CI log): a line each time this much has passed.
var progressEvery = 10 * time.Second

// progressFunc returns the function that shows the run's progress on
// stderr: on a terminal, one line rewritten at each call (and cleared when
// called with done == total); otherwise, a line whenever progressEvery has
// passed since the last, so that a short run prints nothing.
func progressFunc(stderr io.Writer, total int) func(done int, c plannedCall) {
	f, ok := stderr.(*os.File)
	terminal := false
	if ok {
		fi, err := f.Stat()
		terminal = err == nil && fi.Mode()&os.ModeCharDevice != 0
	}
	if terminal {
		return func(done int, c plannedCall) {
			if done >= total {
				fmt.Fprint(f, "\r\x1b[K")
				return
			}
			fmt.Fprintf(f, "\r\x1b[Kbindprobe: call %d of %d: %s %s %s", done+1, total, c.tool, c.argument, cell(c.value, 30))
		}
	}
	last := time.Now()
	return func(done int, c plannedCall) {
		if done >= total || time.Since(last) < progressEvery {
			return
		}
		last = time.Now()
		fmt.Fprintf(stderr, "bindprobe: call %d of %d (%s)\n", done+1, total, c.tool)
	}
}

// A tailBuffer keeps the last max bytes written to it: the server's
// stderr, shown when the server fails.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = slices.Delete(t.b, 0, over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// stderrTail says how the server's process ended, when it has, and how its
// stderr ends, for a message about its failure.
func stderrTail(t *tailBuffer, tr *stdioTransport) string {
	var s string
	if tr.hasExited() && tr.cmd.ProcessState != nil {
		s = "; the server's " + tr.cmd.ProcessState.String()
	}
	if text := strings.TrimSpace(t.String()); text != "" {
		lines := strings.Split(text, "\n")
		if len(lines) > 10 {
			lines = lines[len(lines)-10:]
		}
		s += "; its stderr ends:\n\t" + strings.Join(lines, "\n\t")
	}
	return s
}

// unknownTools returns the names of -tools that the server does not list,
// sorted.
func unknownTools(named map[string]bool, tools []*mcp.Tool) []string {
	var unknown []string
	for n := range named {
		if !slices.ContainsFunc(tools, func(t *mcp.Tool) bool { return t.Name == n }) {
			unknown = append(unknown, n)
		}
	}
	slices.Sort(unknown)
	return unknown
}

func toolNames(tools []*mcp.Tool) []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return names
}

// shellQuote quotes s for a POSIX shell, as splitCommand reads it back:
// as it is when it holds nothing a shell would read specially, else in
// single quotes.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:=@+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// compileSchema returns the function that says whether a tool's input
// schema accepts an arguments object (JSON text), by
// github.com/google/jsonschema-go, the validator go-sdk uses; the function
// returns nil when the schema cannot be compiled or the text not read.
func compileSchema(input any) (check func(args string) *bool) {
	none := func(string) *bool { return nil }
	defer func() {
		if recover() != nil {
			check = none // a schema the validator cannot take
		}
	}()
	b, err := json.Marshal(input)
	if err != nil {
		return none
	}
	var doc any
	if json.Unmarshal(b, &doc) != nil || refLoops(doc) {
		return none // jsonschema-go would recurse without end, a crash no recover stops
	}
	var s jsonschema.Schema
	if json.Unmarshal(b, &s) != nil {
		return none
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return none
	}
	return func(args string) (valid *bool) {
		defer func() {
			if recover() != nil {
				valid = nil
			}
		}()
		var v any
		if json.Unmarshal([]byte(args), &v) != nil {
			return nil
		}
		ok := rs.Validate(v) == nil
		return &ok
	}
}

// refLoops reports whether a schema document could send a validator round
// in circles without reading deeper into the instance: a $ref chain, through
// the keywords that apply in place (allOf, anyOf, oneOf, not, if, then,
// else, dependentSchemas, $ref), that comes back to where it started. A
// $ref bindprobe cannot follow (another document, an anchor, $dynamicRef)
// counts as one, to be safe.
func refLoops(doc any) bool {
	edges := map[string][]string{} // in place, from a schema's pointer to others'
	unsafe := false
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch v := v.(type) {
		case []any:
			for i, e := range v {
				walk(e, at+"/"+strconv.Itoa(i))
			}
		case map[string]any:
			for k, e := range v {
				child := at + "/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
				switch k {
				case "$ref":
					ref, _ := e.(string)
					target, ok := strings.CutPrefix(ref, "#")
					if !ok || target != "" && !strings.HasPrefix(target, "/") {
						unsafe = true
					}
					edges[at] = append(edges[at], target)
				case "$dynamicRef", "$recursiveRef":
					unsafe = true
				case "allOf", "anyOf", "oneOf":
					if list, ok := e.([]any); ok {
						for i := range list {
							edges[at] = append(edges[at], child+"/"+strconv.Itoa(i))
						}
					}
				case "not", "if", "then", "else":
					edges[at] = append(edges[at], child)
				case "dependentSchemas":
					if m, ok := e.(map[string]any); ok {
						for name := range m {
							edges[at] = append(edges[at], child+"/"+strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1"))
						}
					}
				}
				walk(e, child)
			}
		}
	}
	walk(doc, "")
	if unsafe {
		return true
	}
	const (
		seen = 1
		done = 2
	)
	state := map[string]int{}
	var loops func(at string) bool
	loops = func(at string) bool {
		switch state[at] {
		case seen:
			return true
		case done:
			return false
		}
		state[at] = seen
		for _, next := range edges[at] {
			if loops(next) {
				return true
			}
		}
		state[at] = done
		return false
	}
	for at := range edges {
		if loops(at) {
			return true
		}
	}
	return false
}
