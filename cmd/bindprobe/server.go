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
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/bindtest"
)

// serverOptions are the flags of bindprobe -server.
type serverOptions struct {
	command     string        // the server's command line, as -server gives it
	allowWrites bool          // probe tools whose names suggest writes
	timeout     time.Duration // for each answer (the start and tools/list get at least minStartTimeout)
	values      int           // at most this many values per parameter
	json        bool          // one JSON document instead of the readable report
}

// A plannedCall is one call bindprobe means to make.
type plannedCall struct {
	tool, argument string
	value          string // the value probed, JSON text
	arguments      string // the whole arguments object, JSON text
}

// The server's start (initialize) and tools/list get at least this long,
// whatever -timeout says: a server may take a while to start.
const minStartTimeout = 10 * time.Second

// Stop after this many calls in a row go unanswered: the server is stuck.
const maxTimeoutsInARow = 3

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
	client := mcp.NewClient(&mcp.Implementation{Name: "bindprobe", Version: "v0"}, nil)
	ctx := context.Background()
	startTimeout := max(o.timeout, minStartTimeout)
	startCtx, cancel := context.WithTimeout(ctx, startTimeout)
	cs, err := client.Connect(startCtx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	cancel()
	if err != nil {
		if errors.Is(startCtx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no answer to initialize within %v", startTimeout)
		}
		fmt.Fprintf(stderr, "bindprobe: starting the server %s: %v%s\n", o.command, err, stderrTail(serverErr, cmd))
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
			fmt.Fprintf(stderr, "bindprobe: listing the tools of %s: %v%s\n", o.command, err, stderrTail(serverErr, cmd))
			return 2
		}
		tools = append(tools, t)
	}
	cancel()

	rep, plan := planCalls(o, tools, bindtest.Default())
	progress := progressFunc(stderr, len(plan))
	timeoutsInARow := 0
	for i, c := range plan {
		progress(i, c)
		callCtx, cancel := context.WithTimeout(ctx, o.timeout)
		start := time.Now()
		res, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.arguments)})
		rec := callRecord{Tool: c.tool, Argument: c.argument, Value: json.RawMessage(c.value), Arguments: json.RawMessage(c.arguments)}
		rec.DurationMS = float64(time.Since(start).Microseconds()) / 1000
		var timedOut bool
		if err != nil {
			rec.Grade = protocol
			rec.Text, timedOut = callFailure(err, callCtx, o.timeout)
		} else {
			rec.Grade, rec.NamedBy, rec.Text = gradeResult(res, c.argument)
		}
		cancel()
		rec.Text = cut(rec.Text, maxCallText)
		rep.add(rec)

		if timedOut {
			timeoutsInARow++
		} else {
			timeoutsInARow = 0
		}
		if err != nil && !timedOut && isClosing(err, gone) {
			closeSession()
			rep.Stopped = fmt.Sprintf("the server closed the connection at call %d of %d (%s, argument %s, value %s): %v%s",
				i+1, len(plan), c.tool, c.argument, cut(c.value, 40), err, stderrTail(serverErr, cmd))
			break
		}
		if timeoutsInARow == maxTimeoutsInARow {
			rep.Stopped = fmt.Sprintf("the server answered none of the last %d calls within %v (call %d of %d, %s); bindprobe stopped",
				maxTimeoutsInARow, o.timeout, i+1, len(plan), c.tool)
			break
		}
	}
	progress(len(plan), plannedCall{})

	if o.json {
		err = writeServerJSON(stdout, rep)
	} else {
		err = writeServerReport(stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bindprobe: %v\n", err)
		return 2
	}
	if rep.Stopped != "" {
		return 1
	}
	return 0
}

// isClosing reports whether the failure of a call comes from the
// connection closing: the error says so (go-sdk's ErrConnectionClosed, the
// end of the server's output, a broken pipe), or the session ends within a
// moment.
func isClosing(err error, gone <-chan struct{}) bool {
	for _, closing := range []error{mcp.ErrConnectionClosed, io.EOF, io.ErrUnexpectedEOF, io.ErrClosedPipe, os.ErrClosed, syscall.EPIPE} {
		if errors.Is(err, closing) {
			return true
		}
	}
	select {
	case <-gone:
		return true
	case <-time.After(2 * time.Second):
		return false
	}
}

// planCalls returns the report to fill, with every tool in it (skipped ones
// saying why), and the calls to make, tool by tool, parameter by parameter,
// in the order of tools/list and of the parameters' names.
func planCalls(o serverOptions, tools []*mcp.Tool, table []bindtest.Row) (*serverReport, []plannedCall) {
	rep := &serverReport{Server: o.command, Tools: []*toolReport{}, Calls: []callRecord{}}
	var plan []plannedCall
	for _, t := range tools {
		tr := &toolReport{Name: t.Name, Arguments: []*argReport{}}
		rep.Tools = append(rep.Tools, tr)
		if why := writes(t); why != "" && !o.allowWrites {
			tr.Skipped = why + " (-allow-writes probes it)"
			continue
		}
		root, err := readSchema(t.InputSchema)
		if err != nil {
			tr.Skipped = "its input schema cannot be read: " + err.Error()
			continue
		}
		names := make([]string, 0, len(root.Properties))
		for name := range root.Properties {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			prop := root.Properties[name]
			tr.Arguments = append(tr.Arguments, &argReport{Name: name, Type: root.kind(prop), Required: slices.Contains(root.Required, name)})
			for _, v := range root.valuesFor(prop, table, o.values) {
				plan = append(plan, plannedCall{tool: t.Name, argument: name, value: v, arguments: argumentsWith(root, name, v)})
			}
		}
	}
	rep.Summary.Planned = len(plan)
	return rep, plan
}

// argumentsWith returns the arguments object of a call that sends value for
// the parameter name, and a valid value for each other required parameter.
func argumentsWith(root *schema, name, value string) string {
	var b strings.Builder
	key, _ := json.Marshal(name)
	b.WriteString("{" + string(key) + ":" + value)
	for _, r := range root.Required {
		if r == name {
			continue
		}
		key, _ := json.Marshal(r)
		b.WriteString("," + string(key) + ":" + root.valid(root.Properties[r], 1))
	}
	b.WriteString("}")
	return b.String()
}

// writeVerbs are the words that make a tool's name suggest it writes.
var writeVerbs = []string{"delete", "create", "update", "remove", "set"}

// writes says why tool t may write, or "" when nothing suggests it: a word
// of its name (split at _ - . / and spaces, and where a lower-case letter
// meets an upper-case one) is delete, create, update, remove or set, in any
// case; or its annotations say destructiveHint true and not readOnlyHint.
func writes(t *mcp.Tool) string {
	for _, w := range nameWords(t.Name) {
		if slices.Contains(writeVerbs, w) {
			return fmt.Sprintf("its name suggests it writes (%q)", w)
		}
	}
	if a := t.Annotations; a != nil && a.DestructiveHint != nil && *a.DestructiveHint && !a.ReadOnlyHint {
		return "its annotations say it is destructive"
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

// progressFunc returns the function that shows the run's progress on one
// line of stderr, when stderr is a terminal; otherwise it does nothing.
// Called with done == total, it clears the line.
func progressFunc(stderr io.Writer, total int) func(done int, c plannedCall) {
	f, ok := stderr.(*os.File)
	if !ok {
		return func(int, plannedCall) {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return func(int, plannedCall) {}
	}
	return func(done int, c plannedCall) {
		if done >= total {
			fmt.Fprint(f, "\r\x1b[K")
			return
		}
		fmt.Fprintf(f, "\r\x1b[Kbindprobe: call %d of %d: %s %s %s", done+1, total, c.tool, c.argument, cell(c.value, 30))
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
func stderrTail(t *tailBuffer, cmd *exec.Cmd) string {
	var s string
	if cmd.ProcessState != nil {
		s = "; the server's " + cmd.ProcessState.String()
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
