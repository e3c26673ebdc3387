package bind_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// A place is where a JSON Pointer leads in a document: a member (its key
// at ks) or an element (ks < 0), and its value.
type place struct{ ks, vs, ve int }

// resolve walks the RFC 6901 pointer ptr through the JSON text d, read
// generically (a key matches by its decoded text, as any decoder reads it),
// and returns every place it leads to (more than one where an object
// repeats a key), and whether its tokens are well formed.
func resolve(d []byte, ptr string) ([]place, bool) {
	root := jsonlex.Space(d, 0)
	end, _ := jsonlex.Skip(d, root, 20000)
	at := []place{{-1, root, end}}
	if ptr == "" {
		return at, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(tok, "~0", ""), "~1", ""), "~") {
			return nil, false // a ~ not escaped
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		var next []place
		for _, p := range at {
			switch d[p.vs] {
			case '{':
				for m := range jsonlex.Members(d, p.vs) {
					if key, _ := jsonlex.Unquote(nil, d[m.Key.Start:m.Key.End]); string(key) == tok {
						next = append(next, place{m.Key.Start, m.Value.Start, m.Value.End})
					}
				}
			case '[':
				i, err := strconv.Atoi(tok)
				if err != nil || strconv.Itoa(i) != tok {
					continue
				}
				n := 0
				for e := range jsonlex.Elements(d, p.vs) {
					if n == i {
						next = append(next, place{-1, e.Start, e.End})
					}
					n++
				}
			}
		}
		at = next
	}
	return at, true
}

// leadsTo reports whether issue is's Pointer leads, in args, to the text
// the issue spans: its value, the member whose key it spans, or (Missing
// inside an argument) the object it spans, which lacks the field.
func leadsTo(args []byte, is bind.Issue) bool {
	ptr := is.Path.Pointer()
	if is.Kind == bind.MissingField {
		i := strings.LastIndexByte(ptr, '/')
		if i <= 0 {
			return false
		}
		objs, _ := resolve(args, ptr[:i])
		fields, _ := resolve(args, ptr)
		for _, o := range objs {
			if o.vs == is.Start && o.ve == is.End {
				return len(fields) == 0
			}
		}
		return false
	}
	found, ok := resolve(args, ptr)
	if !ok {
		return false
	}
	for _, p := range found {
		switch {
		case p.ks >= 0 && p.ks == is.Start && args[is.Start] == '"' && is.End == jsonEnd(args, is.Start):
			return true // the member whose key the issue spans
		case p.vs == is.Start && (p.ve == is.End || is.Kind == bind.TooDeep):
			return true
		}
	}
	return false
}

func jsonEnd(d []byte, i int) int {
	end, _, _ := jsonlex.String(d, i)
	return end
}

type ptrInner struct {
	N  int       `json:"n"`
	S  string    `json:"s"`
	Me *ptrInner `json:"me,omitempty"`
}

type ptrArgs struct {
	Slash  map[string]int      `json:"a/b"`
	Tilde  []int               `json:"m~n"`
	Accent *ptrInner           `json:"é"`
	Deep   any                 `json:"deep"`
	List   []ptrInner          `json:"list"`
	Hours  int                 `json:"hours_back"`
	Fixed  [2]int              `json:"fixed"`
	F      float64             `json:"f"`
	ByName map[string]ptrInner `json:"by_name"`
}

var ptrCases = []struct {
	name, args string
	// pointer is the first issue's Pointer; "" for one a bound cuts short.
	pointer string
	// trial, when set, is the pointer under V2 and SegmentIO, whose
	// verdict differs: "-" for no issue in an argument, "*" for any
	// pointer that leads to the issue.
	trial string
}{
	{"slash in the argument's key", `{"a/b":{"x":"1"}}`, "/a~1b/x", ""},
	{"tilde in the argument's key", `{"m~n":[1,"2"]}`, "/m~0n/1", ""},
	{"escaped key, decoded", `{"\u00e9":{"n":"x"}}`, "/é/n", ""},
	{"escapes inside", `{"by_name":{"a/b~c\"d":{"n":1.5}}}`, `/by_name/a~1b~0c"d/n`, ""},
	{"array index", `{"list":[{"n":1},{"n":true}]}`, "/list/1/n", ""},
	{"folded argument key, as sent", `{"HOURS_BACK":1}`, "/HOURS_BACK", "-"}, // an unknown key to them
	{"folded field key", `{"list":[{"N":1}]}`, "/list/0/N", ""},
	{"unknown field", `{"list":[{"zz":1}]}`, "/list/0/zz", ""},
	{"argument's own value", `{"hours_back":"x"}`, "/hours_back", ""},
	{"fixed array, too long", `{"fixed":[1,2,3]}`, "/fixed", ""},
	{"rounded", `{"f":9007199254740993}`, "/f", ""},
	{"null for a field", `{"list":[{"n":null}]}`, "/list/0/n", ""},
	{"repeated key", `{"by_name":{"k":{"n":1},"k":{"n":2}}}`, "/by_name/k", "*"},
	{"long key, cut", `{"by_name":{"` + strings.Repeat("k", 41) + `":{"n":"x"}}}`, "", ""},
	{"key of 40, whole", `{"by_name":{"` + strings.Repeat("k", 40) + `":{"n":"x"}}}`, "/by_name/" + strings.Repeat("k", 40) + "/n", ""},
	{"deep, elided", `{"é":` + strings.Repeat(`{"me":`, 20) + `{"n":"x"}` + strings.Repeat(`}`, 21), "", ""},
	{"deep, not elided", `{"é":` + strings.Repeat(`{"me":`, 10) + `{"n":"x"}` + strings.Repeat(`}`, 11), "/é" + strings.Repeat("/me", 10) + "/n", ""},
	{"repeated argument", `{"hours_back":1,"hours_back":2}`, "/hours_back", ""},
	{"deep any", `{"deep":[[[[[[[[[[[[[1e400]]]]]]]]]]]]]}`, "", ""},
}

// TestCheck_PointerLeadsToTheIssue: for every binder, the first issue's
// Pointer is the RFC 6901 pointer expected (its first token the key as
// sent, "~" and "/" escaped, keys decoded), it leads in the sent document
// to the very text the issue spans, and it is empty exactly where a bound
// cut the path short.
func TestCheck_PointerLeadsToTheIssue(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[ptrArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range ptrCases {
			issues := plan.Check([]byte(tc.args), nil)
			if len(issues) == 0 {
				if b == bind.Std || !strings.HasPrefix(tc.name, "rounded") {
					t.Errorf("%s %s: no issue", b.Name(), tc.name)
				}
				continue
			}
			is := issues[0]
			want := tc.pointer
			if b != bind.Std && tc.trial != "" {
				want = tc.trial
			}
			if want == "-" {
				if is.Param >= 0 {
					t.Errorf("%s %s: %v in argument %d, want none", b.Name(), tc.name, is.Kind, is.Param)
				}
				continue
			}
			got := is.Path.Pointer()
			if got != want && want != "*" {
				t.Errorf("%s %s: %v at %q, pointer %q, want %q", b.Name(), tc.name, is.Kind, is.Path, got, want)
				continue
			}
			if got != "" && !leadsTo([]byte(tc.args), is) {
				t.Errorf("%s %s: pointer %q does not lead to %v at %d:%d", b.Name(), tc.name, got, is.Kind, is.Start, is.End)
			}
		}
	}
}

// FuzzCheck_PointersLeadToTheirIssues: on any call, for every binder,
// every issue in an argument (but a parameter left out) has a Pointer
// unless its path is bounded, and every Pointer leads to the issue's text.
func FuzzCheck_PointersLeadToTheirIssues(f *testing.F) {
	for _, tc := range ptrCases {
		f.Add([]byte(tc.args))
	}
	var plans []*bind.Plan
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[ptrArgs]())
		if err != nil {
			f.Fatal(err)
		}
		plans = append(plans, plan.WithRequired([]string{"hours_back"}, func(t reflect.Type) []string {
			if t == reflect.TypeFor[ptrInner]() {
				return []string{"s"}
			}
			return nil
		}))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		for _, plan := range plans {
			for _, is := range plan.Check(args, nil) {
				ptr, text := is.Path.Pointer(), is.Path.String()
				bounded := strings.Contains(text, "…")
				switch {
				case is.Param < 0 || is.Kind == bind.Omitted || is.Kind == bind.MissingArgument && is.End == 0:
					if ptr != "" {
						t.Errorf("%s: %v in no argument, pointer %q", plan.Binder().Name(), is.Kind, ptr)
					}
				case ptr == "" && !bounded && !longKey(args, is):
					t.Errorf("%s: %v at %q in argument %d: no pointer", plan.Binder().Name(), is.Kind, text, is.Param)
				case ptr != "" && !leadsTo(args, is):
					t.Errorf("%s: %v at %d:%d, pointer %q leads elsewhere", plan.Binder().Name(), is.Kind, is.Start, is.End, ptr)
				}
			}
		}
	})
}

// longKey reports whether the issue lies in an argument sent under a key
// past 40 characters, which a pointer does not cut.
func longKey(args []byte, is bind.Issue) bool {
	for m := range jsonlex.Members(args, jsonlex.Space(args, 0)) {
		if m.Value.Start <= is.Start && is.End <= m.Value.End || m.Key.Start == is.Start {
			key, _ := jsonlex.Unquote(nil, args[m.Key.Start:m.Key.End])
			return len([]rune(string(key))) > 40
		}
	}
	return false
}
