package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/typereg"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// binders are the binders bindprobe can mirror, by name.
var binders = map[string]bind.Binder{
	bind.Std.Name():         bind.Std,
	jsonv2.Binder.Name():    jsonv2.Binder,
	segmentio.Binder.Name(): segmentio.Binder,
}

// run is bindprobe with its arguments and outputs; it returns the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bindprobe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: bindprobe [-table FILE] [-json] [-binder NAME]")
		fmt.Fprintln(fs.Output(), "       bindprobe -server 'CMD ARGS...' [-tools A,B] [-skip A,B] [-allow-writes] [-fill NAME=VALUE] [-fill-file FILE]\n"+
			"                 [-timeout D] [-values N] [-json | -format text|json|markdown|junit] [-min-score S]")
		fs.PrintDefaults()
	}
	tableFile := fs.String("table", "", "run the rows of `FILE` (a JSON array of rows) instead of the default table")
	asJSON := fs.Bool("json", false, "print one JSON document instead of the readable report")
	binderName := fs.String("binder", "std", "the binder to mirror: "+strings.Join(binderNames(), ", "))
	server := fs.String("server", "", "start the MCP server `CMD ARGS...` over stdio and probe its tools")
	allowWrites := fs.Bool("allow-writes", false, "with -server, probe tools whose names suggest writes too")
	timeout := fs.Duration("timeout", 10*time.Second, "with -server, how long to wait for each answer")
	values := fs.Int("values", 25, "with -server, send at most `N` values per parameter")
	toolsFlag, skipFlag := map[string]bool{}, map[string]bool{}
	fs.Func("tools", "with -server, probe the tools `A,B,...` too, though not annotated readOnlyHint: true (repeatable)", names(toolsFlag))
	fs.Func("skip", "with -server, never call the tools `A,B,...` (repeatable)", names(skipFlag))
	fill := fills{}
	fs.Func("fill", "with -server, send `NAME=VALUE` (JSON, else text) for parameter NAME (or TOOL.NAME) when not probing it (repeatable)", fill.set)
	format := fs.String("format", "", "with -server, the report's `FORMAT`: text (the default), json (as -json), markdown or junit")
	minScore := fs.String("min-score", "", "with -server, exit 1 when the server's score is below `S` (0.9 or 90%)")
	fillFile := fs.String("fill-file", "", "with -server, read -fill values from `FILE`, a JSON object of NAME (or TOOL.NAME) to value")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bindprobe: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["server"] {
		for _, name := range []string{"table", "binder"} {
			if set[name] {
				fmt.Fprintf(stderr, "bindprobe: -%s does not go with -server\n", name)
				return 2
			}
		}
		switch *format {
		case "":
			*format = "text"
			if *asJSON {
				*format = "json"
			}
		case "text", "json", "markdown", "junit":
			if *asJSON && *format != "json" {
				fmt.Fprintf(stderr, "bindprobe: -json does not go with -format %s\n", *format)
				return 2
			}
		default:
			fmt.Fprintf(stderr, "bindprobe: no -format %q (formats: text, json, markdown, junit)\n", *format)
			return 2
		}
		bar, err := parseScore(*minScore)
		if err != nil {
			fmt.Fprintf(stderr, "bindprobe: -min-score %q: %v\n", *minScore, err)
			return 2
		}
		if *fillFile != "" {
			if err := fill.readFile(*fillFile); err != nil {
				fmt.Fprintf(stderr, "bindprobe: -fill-file %s: %v\n", *fillFile, err)
				return 2
			}
		}
		if *timeout <= 0 || *values <= 0 {
			fmt.Fprintln(stderr, "bindprobe: -timeout and -values must be positive")
			return 2
		}
		return runServer(serverOptions{command: *server, allowWrites: *allowWrites, timeout: *timeout, values: *values, format: *format,
			minScore: bar, tools: toolsFlag, skip: skipFlag, fill: fill}, stdout, stderr)
	}
	for _, name := range []string{"allow-writes", "timeout", "values", "tools", "skip", "fill", "fill-file", "format", "min-score"} {
		if set[name] {
			fmt.Fprintf(stderr, "bindprobe: -%s goes only with -server\n", name)
			return 2
		}
	}
	binder, ok := binders[*binderName]
	if !ok {
		fmt.Fprintf(stderr, "bindprobe: no binder %q (binders: %s)\n", *binderName, strings.Join(binderNames(), ", "))
		return 2
	}

	reg := typereg.New(typereg.WithBinder(binder))
	if err := typereg.Register[probe.Args](reg, probe.Tool); err != nil {
		fmt.Fprintf(stderr, "bindprobe: %v\n", err)
		return 2
	}
	rows, source := bindtest.Default(), "the default table"
	if *tableFile != "" {
		var err error
		if rows, err = readTable(*tableFile); err != nil {
			fmt.Fprintf(stderr, "bindprobe: %s: %s\n", *tableFile, unprefix(err))
			return 2
		}
		source = *tableFile
	}
	results, err := bindtest.Check(reg, probe.Tool, rows)
	if err != nil {
		fmt.Fprintf(stderr, "bindprobe: %s: %s\n", source, ourName(unprefix(err)))
		return 2
	}
	for i := range results {
		results[i].Type = ourName(results[i].Type)
	}

	sum := summarize(results)
	if *asJSON {
		err = writeJSON(stdout, binder.Name(), results, sum)
	} else {
		err = writeTable(stdout, binder.Name(), source, results, sum)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bindprobe: %v\n", err)
		return 2
	}
	if sum.Disagree > 0 || sum.Unexpected > 0 {
		return 1
	}
	return 0
}

// set reads one -fill: NAME=VALUE, where VALUE is kept as JSON when it is
// JSON, and sent as text otherwise (-fill path=/tmp/x sends "/tmp/x").
// A -fill given on the command line wins over -fill-file's.
func (f fills) set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return errors.New("want NAME=VALUE")
	}
	if !json.Valid([]byte(value)) {
		b, _ := json.Marshal(value)
		value = string(b)
	}
	f[name] = value
	return nil
}

// readFile reads -fill-file: a JSON object of names to values. Names the
// command line fills already are kept as it gives them.
func (f fills) readFile(name string) error {
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("not a JSON object of names to values: %v", err)
	}
	for k, v := range m {
		if _, ok := f[k]; !ok {
			f[k] = string(v)
		}
	}
	return nil
}

// parseScore reads -min-score: a share from 0 to 1, or a percentage; nil
// when not given.
func parseScore(v string) (*float64, error) {
	if v == "" {
		return nil, nil
	}
	pct := strings.HasSuffix(v, "%")
	f, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if err != nil {
		return nil, errors.New("want a share from 0 to 1, or a percentage")
	}
	if pct {
		f /= 100
	}
	if !(f >= 0 && f <= 1) {
		return nil, errors.New("want a share from 0 to 1, or a percentage")
	}
	return &f, nil
}

// names returns a flag's function that adds the comma-separated names of
// its value to set.
func names(set map[string]bool) func(string) error {
	return func(v string) error {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n == "" {
				return errors.New("an empty tool name")
			}
			set[n] = true
		}
		return nil
	}
}

// rawName is json.RawMessage's name as the registry gives it, from
// reflect: jsontext.Value under GOEXPERIMENT=jsonv2, where
// json.RawMessage is an alias of encoding/json/jsontext.Value.
var rawName = func() string {
	t := reflect.TypeFor[json.RawMessage]()
	return path.Base(t.PkgPath()) + "." + t.Name()
}()

// ourName names types in s as bindprobe's tables do: json.RawMessage,
// whatever the build.
func ourName(s string) string {
	if rawName == "json.RawMessage" {
		return s
	}
	return strings.ReplaceAll(s, rawName, "json.RawMessage")
}

func binderNames() []string {
	var names []string
	for n := range binders {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func readTable(name string) ([]bindtest.Row, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return bindtest.ReadTable(f)
}

// unprefix drops the package prefix bindtest's errors carry, one per line,
// since bindprobe names its own.
func unprefix(err error) string {
	lines := strings.Split(err.Error(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "bindtest: ")
	}
	return strings.Join(lines, "\n")
}

type summary struct {
	Rows       int `json:"rows"`
	Agree      int `json:"agree"`
	Disagree   int `json:"disagree"`
	Unexpected int `json:"unexpected"`
}

func summarize(results []bindtest.Result) summary {
	s := summary{Rows: len(results)}
	for _, r := range results {
		if r.Agree {
			s.Agree++
		} else {
			s.Disagree++
		}
		if r.Unexpected {
			s.Unexpected++
		}
	}
	return s
}

func writeJSON(w io.Writer, binder string, results []bindtest.Result, sum summary) error {
	if results == nil {
		results = []bindtest.Result{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Binder  string            `json:"binder"`
		Rows    []bindtest.Result `json:"rows"`
		Summary summary           `json:"summary"`
	}{binder, results, sum})
}

// The readable table fits this many columns; cells are cut to fit.
const (
	tableWidth   = 100
	maxTypeCell  = 20
	maxValueCell = 24
)

// binderWords says, for the first line of the table, what each binder is.
var binderWords = map[string]string{
	"std":       "encoding/json (binder std)",
	"v2":        "go-json-experiment/json (binder v2)",
	"segmentio": "segmentio/encoding (binder segmentio)",
}

// writeTable writes the readable table: a first line saying what is
// compared, a row per line (type, value, the binder's verdict, the guard's,
// the row's standing, the refusal's sentences cut to fit), the faults of
// each row that does not hold, and the summary; every line at most
// tableWidth columns.
func writeTable(w io.Writer, binder, source string, results []bindtest.Result, sum summary) error {
	var b strings.Builder
	question := fmt.Sprintf(": does the guard refuse just what %s fails on?", binderWords[binder])
	b.WriteString(cutLeft(source, tableWidth-utf8.RuneCountInString(question)) + question + "\n\n")
	rows := [][]string{{"TYPE", "VALUE", "BINDER", "GUARD", "ROW"}}
	var refusals []string
	for _, r := range results {
		binderV, guardV, standing := "reads", "passes", "ok"
		if !r.BinderOK {
			binderV = "fails"
		}
		if r.Refused {
			guardV = "refuses"
		}
		switch {
		case !r.Agree:
			standing = "DISAGREE"
		case r.Unexpected:
			standing = "UNEXPECTED"
		}
		rows = append(rows, []string{cell(r.Type, maxTypeCell), cell(string(r.Value), maxValueCell), binderV, guardV, standing})
		refusals = append(refusals, strings.ReplaceAll(sentences(r.Message), " for tool '"+probe.Tool+"'", ""))
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	used := 0
	for _, wd := range widths {
		used += wd + 2
	}
	for i, row := range rows {
		var line strings.Builder
		for j, c := range row {
			line.WriteString(c + strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c)+2))
		}
		if i == 0 {
			line.WriteString("REFUSAL")
		} else {
			line.WriteString(cell(refusals[i-1], max(tableWidth-used, 10)))
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	for i, r := range results {
		if len(r.Faults) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\nrow %d (%s %s, argument %s):\n", i+1, cell(r.Type, maxTypeCell), cell(string(r.Value), maxValueCell), cell(r.Argument, maxTypeCell))
		for _, f := range r.Faults {
			b.WriteString(wrap(cell(f, 400), tableWidth, "  "))
		}
		if r.Refused {
			b.WriteString(wrap("refusal: "+cell(strings.ReplaceAll(r.Message, "\n", " | "), 400), tableWidth, "  "))
		}
	}
	tail := fmt.Sprintf(", binder %s: %d rows, %d agree, %d disagree, %d unexpected", binder, sum.Rows, sum.Agree, sum.Disagree, sum.Unexpected)
	fmt.Fprintf(&b, "\n%s%s\n", cutLeft(source, tableWidth-utf8.RuneCountInString(tail)), tail)
	_, err := io.WriteString(w, b.String())
	return err
}

// cutLeft cuts s to n characters from the left, keeping its end (a file
// name's base), marking a cut with "…".
func cutLeft(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 1 {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

// wrap writes s in lines of at most width columns, each starting with
// indent (and continued lines with two more spaces), breaking at spaces;
// a word longer than a line is cut.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	line := indent
	for _, word := range strings.Fields(s) {
		switch {
		case line == indent || line == indent+"  ":
			line += word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width:
			line += " " + word
		default:
			b.WriteString(cell(line, width) + "\n")
			line = indent + "  " + word
		}
	}
	b.WriteString(cell(line, width) + "\n")
	return b.String()
}

// sentences returns a refusal's problem sentences on one line, without the
// list of accepted parameters that ends every refusal.
func sentences(msg string) string {
	lines := strings.Split(msg, "\n")
	if n := len(lines); n > 1 && strings.HasPrefix(lines[n-1], "Accepted parameters: ") {
		lines = lines[:n-1]
	}
	return strings.Join(lines, " | ")
}

// cell makes s fit a table cell on one line: tabs, line breaks and other
// unprintable characters escaped, and cut to n characters with "…".
func cell(s string, n int) string {
	var b strings.Builder
	chars := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		var piece string
		switch {
		case r == utf8.RuneError && size == 1:
			piece = fmt.Sprintf(`\x%02x`, s[i])
		case r == ' ' || unicode.IsPrint(r):
			piece = s[i : i+size]
		default:
			piece = strings.Trim(strconv.QuoteRune(r), "'")
		}
		if chars+utf8.RuneCountInString(piece) > n-1 && i+size < len(s) {
			b.WriteString("…")
			return b.String()
		}
		b.WriteString(piece)
		chars += utf8.RuneCountInString(piece)
		i += size
	}
	return b.String()
}
