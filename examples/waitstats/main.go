// Command waitstats is a small MCP server over stdio whose tools are added
// through bindguard's go-sdk adapter, so that a call the binder cannot read
// is refused by name before any handler runs.
//
//	go run ./examples/waitstats
//
// It serves three tools over a fixed set of data:
//
//   - get_wait_stats: hours_back (int, 1 to 168), limit (int32, 1 to 100,
//     or left out), database (an optional *string) and waits (a []string);
//     answers as text.
//   - list_sessions: state (a text enum: running, sleeping, blocked),
//     database and limit; answers with structured output.
//
// The bounds are the tools' own, stated once, in validate tags: the guard
// refuses a call that breaks one before the handler runs, in the words of
// the bound ("takes a whole number from 1 to 168"), and the published
// schema carries the same bounds (a test holds the two to agreement with
// bindtest.Constraints).
//   - get_query_plan: query_id (int64, exact past 2^53); answers as text.
//
// It speaks MCP (JSON-RPC) on stdin and stdout and waits for a client, so
// run by hand it shows nothing but one line on stderr saying so. Try it
// with bindprobe, which starts it and grades every tool:
//
//	go run ./cmd/bindprobe -server 'go run ./examples/waitstats'
//
// or with the MCP Inspector (npx @modelcontextprotocol/inspector go run
// ./examples/waitstats).
//
// With -log, it writes the name of each tool whose handler runs to stderr.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// banner is the one line the server writes to stderr at start, for a
// person who runs it by hand: stdout is the protocol's.
const banner = "waitstats: an MCP server on stdin/stdout, waiting for an MCP client; " +
	"try it with: go run ./cmd/bindprobe -server 'go run ./examples/waitstats' " +
	"(or: npx @modelcontextprotocol/inspector go run ./examples/waitstats)"

func main() {
	logRuns := flag.Bool("log", false, "write the name of each tool whose handler runs to stderr")
	flag.Parse()
	log.SetFlags(0)
	var ran func(string)
	if *logRuns {
		ran = func(tool string) { log.Printf("ran %s", tool) }
	}
	log.Print(banner)
	server, _, err := newServer(ran)
	if err != nil {
		log.Fatal(err)
	}
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
