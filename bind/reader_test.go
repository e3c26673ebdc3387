package bind_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/bindcap"
)

// leniencyArgs is a tool's parameters as a lenient server reads them.
type leniencyArgs struct {
	Owner   string   `json:"owner"`
	Page    int      `json:"page"`
	PerPage int      `json:"per_page,omitempty"`
	Labels  []string `json:"labels,omitempty"`
	ID      int64    `json:"id,omitempty"`
}

// toIntReader reads the arguments as github-mcp-server's helpers do: into a
// map (encoding/json, so numbers are float64s), then each parameter by
// name; an integer is a whole float64 (2.0 too) or numeric text ("2"),
// text is text, and a list of text is a list of text.
func toIntReader(data []byte, v any) error {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	rv := reflect.ValueOf(v).Elem()
	rt := rv.Type()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		raw, ok := m[name]
		if !ok || raw == nil {
			continue
		}
		f := rv.Field(i)
		switch f.Kind() {
		case reflect.Int, reflect.Int64:
			n, err := toInt(raw)
			if err != nil {
				return fmt.Errorf("parameter %s: %w", name, err)
			}
			f.SetInt(int64(n))
		case reflect.String:
			s, ok := raw.(string)
			if !ok {
				return fmt.Errorf("parameter %s is not of type string, is %T", name, raw)
			}
			f.SetString(s)
		case reflect.Slice:
			list, ok := raw.([]any)
			if !ok {
				return fmt.Errorf("parameter %s is not an array", name)
			}
			for _, e := range list {
				s, ok := e.(string)
				if !ok {
					return fmt.Errorf("parameter %s holds a %T", name, e)
				}
				f.Set(reflect.Append(f, reflect.ValueOf(s)))
			}
		}
	}
	return nil
}

func toInt(v any) (int, error) {
	switch x := v.(type) {
	case float64:
		if x != math.Trunc(x) {
			return 0, fmt.Errorf("%v is not a whole number", x)
		}
		return int(x), nil
	case string:
		return strconv.Atoi(x)
	}
	return 0, fmt.Errorf("expected a number, got %T", v)
}

var toIntBinder = bind.Reader("toInt", toIntReader)

type readerCase struct {
	name, why string
	args      string
	want      []bind.Code // with the param each is in, below
	params    []string    // "" for none
}

func TestReader_VerdictIsTheReadersOwn(t *testing.T) {
	plan, err := toIntBinder.Compile(reflect.TypeFor[leniencyArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []readerCase{
		{name: "numeric text", why: `toInt reads "2" as 2; encoding/json would fail`, args: `{"owner":"o","page":"2"}`},
		{name: "whole float", why: "toInt reads 2.0 as 2; encoding/json fails on a fraction for an int", args: `{"owner":"o","page":2.0}`},
		{name: "exponent", why: "2e1 is a whole float64", args: `{"page":2e1}`},
		{name: "empty", why: "empty arguments are {}", args: ``},
		{name: "null", why: "null unmarshals into a nil map", args: `null`},
		{name: "fraction", why: "toInt refuses 2.5", args: `{"owner":"o","page":2.5}`,
			want: []bind.Code{bind.InvalidValue}, params: []string{"page"}},
		{name: "bad text", why: `strconv.Atoi refuses "two"`, args: `{"page":"two","owner":"o"}`,
			want: []bind.Code{bind.InvalidValue}, params: []string{"page"}},
		{name: "two bad", why: "each argument the reader fails on alone is named", args: `{"page":"two","owner":7}`,
			want: []bind.Code{bind.InvalidValue, bind.InvalidValue}, params: []string{"page", "owner"}},
		{name: "not an object", why: "the reader fails on a list", args: `[1]`,
			want: []bind.Code{bind.NotAnObject}, params: []string{""}},
		{name: "syntax", why: "the reader fails on invalid JSON", args: `{"page":`,
			want: []bind.Code{bind.InvalidJSON}, params: []string{""}},
		{name: "unknown key", why: "a key the record does not know is reported as Std reports it", args: `{"pagee":1}`,
			want: []bind.Code{bind.UnknownArgument}, params: []string{""}},
		{name: "repeated key", why: "the map keeps the last value: a silent loss", args: `{"page":"x","page":3}`,
			want: []bind.Code{bind.DuplicateKey}, params: []string{"page"}},
		{name: "past 2^53", why: "the map holds a float64: the handler gets 9007199254740992", args: `{"id":9007199254740993}`,
			want: []bind.Code{bind.RoundedNumber}, params: []string{"id"}},
		{name: "past 2^53 as text", why: "numeric text is read exactly by strconv.Atoi", args: `{"id":"9007199254740993"}`},
		{name: "past 2^53, and coerced text", why: "the loss is found argument by argument when encoding/json fails on another", args: `{"page":"2","id":9007199254740993}`,
			want: []bind.Code{bind.RoundedNumber}, params: []string{"id"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			issues := plan.Check([]byte(c.args), nil)
			var kinds []bind.Code
			var params []string
			for _, is := range issues {
				kinds = append(kinds, is.Kind)
				if is.Param >= 0 {
					params = append(params, plan.Params()[is.Param].Name)
				} else {
					params = append(params, "")
				}
			}
			if !slices.Equal(kinds, c.want) || !slices.Equal(params, c.params) {
				t.Errorf("%s (%s): got %v in %q, want %v in %q", c.args, c.why, kinds, params, c.want, c.params)
			}
			// The verdict is the reader's own.
			fails := slices.ContainsFunc(issues, func(is bind.Issue) bool { return is.Kind.Class() == bind.BinderFailure })
			data := []byte(c.args)
			if len(data) == 0 {
				data = []byte("{}")
			}
			if rerr := toIntReader(data, new(leniencyArgs)); (rerr != nil) != fails {
				t.Errorf("%s: the reader's error is %v, but the check fails: %v", c.args, rerr, fails)
			}
		})
	}
}

// requiring fails unless owner is sent: a reader that checks a required
// parameter itself, so that {} fails and the base object is the struct's
// zero value.
func requiring(data []byte, v any) error {
	if err := toIntReader(data, v); err != nil {
		return err
	}
	if !strings.Contains(string(data), `"owner"`) {
		return errors.New("missing required parameter: owner")
	}
	return nil
}

func TestReader_RequiringReader_NamesTheArgumentInTheZeroValueBase(t *testing.T) {
	plan, err := bind.Reader("requiring", requiring).Compile(reflect.TypeFor[leniencyArgs]())
	if err != nil {
		t.Fatal(err)
	}
	issues := plan.Check([]byte(`{"owner":"o","page":"two"}`), nil)
	if len(issues) != 1 || issues[0].Kind != bind.InvalidValue || issues[0].Param != 1 {
		t.Fatalf("got %+v, want one Rejected issue in page", issues)
	}
	// Missing owner: no argument alone fails; the arguments as a whole do.
	issues = plan.Check([]byte(`{"page":2}`), nil)
	if len(issues) != 1 || issues[0].Kind != bind.InvalidValue || issues[0].Param != -1 || issues[0].Start != issues[0].End {
		t.Fatalf("got %+v, want one Rejected issue with the arguments as a whole", issues)
	}
}

func TestReader_NoBase_RefusesAsAWhole(t *testing.T) {
	never := func([]byte, any) error { return errors.New("no") }
	plan, err := bind.Reader("never", never).Compile(reflect.TypeFor[leniencyArgs]())
	if err != nil {
		t.Fatal(err)
	}
	issues := plan.Check([]byte(`{"owner":"o"}`), nil)
	if len(issues) != 1 || issues[0].Kind != bind.InvalidValue || issues[0].Param != -1 {
		t.Fatalf("got %+v, want the arguments refused as a whole", issues)
	}
}

func TestReader_PanicIsContained(t *testing.T) {
	boom := func(data []byte, v any) error {
		if strings.Contains(string(data), "boom") {
			panic("boom")
		}
		return toIntReader(data, v)
	}
	plan, err := bind.Reader("boom", boom).Compile(reflect.TypeFor[leniencyArgs]())
	if err != nil {
		t.Fatal(err)
	}
	issues := plan.Check([]byte(`{"owner":"boom","page":1}`), nil)
	if len(issues) != 1 || issues[0].Param != 0 {
		t.Fatalf("got %+v, want one issue in owner", issues)
	}
	var pe *bind.PanicError
	if !errors.As(issues[0].Err, &pe) {
		t.Errorf("the issue's error is %v, want a *bind.PanicError", issues[0].Err)
	}
}

func TestReader_Required(t *testing.T) {
	plan, err := toIntBinder.Compile(reflect.TypeFor[leniencyArgs]())
	if err != nil {
		t.Fatal(err)
	}
	plan = plan.WithRequired([]string{"owner"}, nil)
	issues := plan.Check([]byte(`{"OWNER":"o"}`), nil)
	if len(issues) != 0 {
		t.Errorf("a key encoding/json folds to owner names it: got %+v", issues)
	}
	issues = plan.Check([]byte(`{"page":1}`), nil)
	if len(issues) != 1 || issues[0].Kind != bind.MissingArgument || issues[0].Param != 0 {
		t.Errorf("got %+v, want owner Missing", issues)
	}
}

func TestReader_NilFunction_FailsCompile(t *testing.T) {
	if _, err := bind.Reader("nil", nil).Compile(reflect.TypeFor[leniencyArgs]()); err == nil {
		t.Error("Compile took a reader with no function")
	}
}

// TestReader_NamedLikeANativeBinder_IsAReader: nothing tells binders apart
// by name (their capabilities, package bindcap), so a Reader may carry a
// native binder's name and stays a Reader. It failed while words and
// containment asked the name: Compile refused these names.
func TestReader_NamedLikeANativeBinder_IsAReader(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		r := bind.Reader(b.Name(), toIntReader)
		if _, err := r.Compile(reflect.TypeFor[leniencyArgs]()); err != nil {
			t.Errorf("a reader named %q: %v", b.Name(), err)
		}
		if bindcap.ReadsLiteral(r) || bindcap.Of(r) != bindcap.Of(bind.Std) {
			t.Errorf("a reader named %q: reads literal %v, capabilities %+v, want a Reader's", b.Name(), bindcap.ReadsLiteral(r), bindcap.Of(r))
		}
	}
}

// TestReader_Growth pins the cost of a refused call: the reader runs once
// on the call, once per distinct member, and encoding/json not at all.
func TestReader_Growth(t *testing.T) {
	var calls, bytes int
	counting := func(data []byte, v any) error {
		calls++
		bytes += len(data)
		return toIntReader(data, v)
	}
	plan, err := bind.Reader("counting", counting).Compile(reflect.TypeFor[leniencyArgs]())
	if err != nil {
		t.Fatal(err)
	}
	work := func(n int) int {
		calls, bytes = 0, 0
		var b strings.Builder
		b.WriteString(`{"page":"two"`)
		for i := range n {
			fmt.Fprintf(&b, `,"k%d":%d`, i, i)
		}
		b.WriteString(`}`)
		plan.Check([]byte(b.String()), nil)
		return bytes
	}
	w1, w100 := work(100), work(10000)
	if r := float64(w100) / float64(w1); r > 150 {
		t.Errorf("100x the members cost %.0fx the reader's bytes", r)
	}
}

// remarshal reads the arguments as mcp-go's map re-marshalled does: into an
// any with encoding/json, written back, and decoded into the struct.
func remarshal(data []byte, v any) error {
	var m any
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// FuzzReader_FailsIffTheReaderFails: for each reader, Check reports an
// issue the binder fails on exactly when the reader fails on the text, and
// each issue lies inside the text.
func FuzzReader_FailsIffTheReaderFails(f *testing.F) {
	for _, s := range []string{``, `{}`, `null`, `[1]`, `{"page":"2"}`, `{"page":2.5}`, `{"owner":7}`, `{"page":"x","page":3}`,
		`{"id":9007199254740993}`, `{"labels":["a",1]}`, `{"labels":"x"}`, `{"Owner":"o","PAGE":1}`, `{"page":1e400}`, `{"owner":"\ud800"}`} {
		f.Add(s)
	}
	readers := map[string]func([]byte, any) error{"toInt": toIntReader, "remarshal": remarshal, "requiring": requiring}
	plans := map[string]*bind.Plan{}
	for name, r := range readers {
		p, err := bind.Reader(name, r).Compile(reflect.TypeFor[leniencyArgs]())
		if err != nil {
			f.Fatal(err)
		}
		plans[name] = p
	}
	f.Fuzz(func(t *testing.T, args string) {
		for name, r := range readers {
			data := []byte(args)
			if args == "" {
				data = []byte("{}")
			}
			rerr := r(data, new(leniencyArgs))
			issues := plans[name].Check([]byte(args), nil)
			fails := slices.ContainsFunc(issues, func(is bind.Issue) bool { return is.Kind.Class() == bind.BinderFailure })
			if fails != (rerr != nil) {
				t.Fatalf("%s on %q: reader error %v, issues %+v", name, args, rerr, issues)
			}
			for _, is := range issues {
				if is.Start < 0 || is.End < is.Start || is.End > max(len(args), 2) {
					t.Fatalf("%s on %q: issue outside the text: %+v", name, args, is)
				}
			}
		}
	})
}

type bigZero struct {
	Owner string    `json:"owner"`
	Grid  [600]int8 `json:"grid"`
}

// TestReader_LargeZeroValue_IsNoBase: a base object past 1 KiB would cost
// its size for every argument of a failing call, so a reader that fails on
// {} gets none, and its failures are with the arguments as a whole.
func TestReader_LargeZeroValue_IsNoBase(t *testing.T) {
	req := func(data []byte, v any) error {
		if err := json.Unmarshal(data, v); err != nil {
			return err
		}
		if !strings.Contains(string(data), `"owner"`) {
			return errors.New("owner is required")
		}
		return nil
	}
	plan, err := bind.Reader("req", req).Compile(reflect.TypeFor[bigZero]())
	if err != nil {
		t.Fatal(err)
	}
	issues := plan.Check([]byte(`{"owner":1}`), nil)
	if len(issues) != 1 || issues[0].Param != -1 || issues[0].Kind != bind.InvalidValue {
		t.Errorf("got %+v, want the arguments refused as a whole", issues)
	}
	small, err := bind.Reader("req", req).Compile(reflect.TypeFor[leniencyArgs]())
	if err != nil {
		t.Fatal(err)
	}
	if issues := small.Check([]byte(`{"owner":1}`), nil); len(issues) != 1 || issues[0].Param != 0 {
		t.Errorf("got %+v, want owner named (the zero value is small)", issues)
	}
}
