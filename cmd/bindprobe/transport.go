package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// maxLine bounds a line of the server's stdout, as go-sdk bounds a frame
// (mcp.DefaultMaxLineLength): a longer line is skipped, never buffered
// whole.
const maxLine = mcp.DefaultMaxLineLength

// A stdioTransport runs the server's command and speaks to it over its
// stdin and stdout, as mcp.CommandTransport does, with three differences:
// it skips the lines of stdout that are not JSON-RPC messages (a banner, a
// log line), counting them, as the TypeScript SDK's client does; it keeps
// the raw JSON go-sdk's client drops or rounds (each tool's
// execution.taskSupport from tools/list, each tools/call result as sent);
// and it says when the server's process has exited.
type stdioTransport struct {
	cmd       *exec.Cmd
	terminate time.Duration // how long Close waits for the process after closing stdin, before SIGTERM

	exited chan struct{} // closed when the process has exited (cmd.ProcessState is set)

	mu          sync.Mutex
	skipped     int               // lines of stdout skipped
	firstSkip   string            // the first of them, cut short
	taskSupport map[string]string // execution.taskSupport by tool name
	callID      json.RawMessage   // the id of the last tools/call request written
	callResult  json.RawMessage   // the result answering it, as sent
}

func newStdioTransport(cmd *exec.Cmd) *stdioTransport {
	return &stdioTransport{cmd: cmd, terminate: 2 * time.Second, exited: make(chan struct{}), taskSupport: map[string]string{}}
}

// Connect starts the command. Its stdout is a pipe of bindprobe's own, not
// exec's StdoutPipe, so that the process's exit never closes it before its
// last lines are read.
func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	t.cmd.Stdout = w
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	t.cmd.WaitDelay = time.Second // a child that keeps stderr open does not hold Wait
	if err := t.cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	w.Close()
	go func() {
		_ = t.cmd.Wait() // the exit status is in cmd.ProcessState
		close(t.exited)
	}()
	iot := &mcp.IOTransport{
		Reader: &lineFilter{t: t, r: r, br: bufio.NewReaderSize(r, 64<<10)},
		Writer: &stdinWriter{t: t, w: stdin},
	}
	return iot.Connect(ctx)
}

// hasExited reports whether the server's process has exited.
func (t *stdioTransport) hasExited() bool {
	select {
	case <-t.exited:
		return true
	default:
		return false
	}
}

// skippedLines returns how many lines of stdout were skipped, and the
// first.
func (t *stdioTransport) skippedLines() (int, string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.skipped, t.firstSkip
}

// toolTaskSupport returns the execution.taskSupport tools/list gave tool.
func (t *stdioTransport) toolTaskSupport(tool string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.taskSupport[tool]
}

// lastCallResult returns the raw result of the last tools/call, when it
// came.
func (t *stdioTransport) lastCallResult() json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.callResult
}

// wireMessage is what bindprobe reads of a JSON-RPC message.
type wireMessage struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  json.RawMessage `json:"result"`
}

// sawLine looks at a line of stdout and reports whether it is a JSON-RPC
// message (an object with "jsonrpc", or a batch); a message answering the
// last tools/call, or listing tools, is noted.
func (t *stdioTransport) sawLine(line []byte) bool {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return false
	}
	if jsonlex.KindAt(trimmed, 0) == jsonlex.KindArray {
		return json.Valid(trimmed)
	}
	var m wireMessage
	if jsonlex.KindAt(trimmed, 0) != jsonlex.KindObject || json.Unmarshal(trimmed, &m) != nil || m.JSONRPC == nil {
		return false
	}
	if m.ID == nil || m.Result == nil {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.callID != nil && bytes.Equal(compact(m.ID), t.callID) {
		t.callResult = m.Result
	}
	var list struct {
		Tools []struct {
			Name      string `json:"name"`
			Execution struct {
				TaskSupport string `json:"taskSupport"`
			} `json:"execution"`
		} `json:"tools"`
	}
	if bytes.Contains(m.Result, []byte(`"tools"`)) && json.Unmarshal(m.Result, &list) == nil {
		for _, tool := range list.Tools {
			t.taskSupport[tool.Name] = tool.Execution.TaskSupport
		}
	}
	return true
}

func (t *stdioTransport) skip(line []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.skipped == 0 {
		t.firstSkip = cut(string(bytes.TrimRight(line, "\r\n")), 120)
	}
	t.skipped++
}

// sawWrite notes the id of a tools/call request bindprobe writes.
func (t *stdioTransport) sawWrite(p []byte) {
	var m wireMessage
	if json.Unmarshal(p, &m) != nil || m.Method != "tools/call" || m.ID == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.callID, t.callResult = compact(m.ID), nil
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// A lineFilter is the server's stdout as go-sdk reads it: its JSON-RPC
// lines only.
type lineFilter struct {
	t       *stdioTransport
	r       *os.File
	br      *bufio.Reader
	pending []byte
	err     error
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		line, err := readLine(f.br)
		if line != nil && f.t.sawLine(line) {
			f.pending = line
		} else if len(bytes.TrimSpace(line)) > 0 || line == nil && err == errLongLine {
			f.t.skip(line)
		}
		if err != nil && err != errLongLine {
			f.err = err
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// Close closes the pipe, which unblocks a Read waiting on it.
func (f *lineFilter) Close() error { return f.r.Close() }

var errLongLine = errors.New("line too long")

// readLine returns the next line of br with its line break, or nil and
// errLongLine for a line longer than maxLine (read to its end and
// dropped).
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			line = nil
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
			if err != nil {
				return nil, err
			}
			return nil, errLongLine
		}
		line = append(line, chunk...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// A stdinWriter is the server's stdin; closing it ends the server as
// mcp.CommandTransport does: stdin closed, then SIGTERM, then SIGKILL.
type stdinWriter struct {
	t *stdioTransport
	w io.WriteCloser
}

func (s *stdinWriter) Write(p []byte) (int, error) {
	s.t.sawWrite(p)
	return s.w.Write(p)
}

func (s *stdinWriter) Close() error {
	s.w.Close()
	wait := func() bool {
		select {
		case <-s.t.exited:
			return true
		case <-time.After(s.t.terminate):
			return false
		}
	}
	if wait() {
		return nil
	}
	if s.t.cmd.Process.Signal(syscall.SIGTERM) == nil && wait() {
		return nil
	}
	_ = s.t.cmd.Process.Kill()
	<-s.t.exited
	return nil
}
