package typereg

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/go-playground/validator/v10"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/constraint"
	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// A source turns fuzz bytes into choices.
type source struct{ b []byte }

func (s *source) pick(n int) int {
	if len(s.b) == 0 || n <= 1 {
		return 0
	}
	c := int(s.b[0])
	s.b = s.b[1:]
	return c % n
}

func pickOf[T any](s *source, xs []T) T { return xs[s.pick(len(xs))] }

// The types a generated parameter has: the kinds the compiled checks read,
// through pointers, lists, maps and interfaces.
var fuzzTypes = []reflect.Type{
	reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[int64](), reflect.TypeFor[uint](),
	reflect.TypeFor[uint8](), reflect.TypeFor[uint16](), reflect.TypeFor[float32](), reflect.TypeFor[float64](),
	reflect.TypeFor[string](), reflect.TypeFor[bool](), reflect.TypeFor[*int](), reflect.TypeFor[*string](),
	reflect.TypeFor[**float64](), reflect.TypeFor[*bool](), reflect.TypeFor[[]int](), reflect.TypeFor[[]string](),
	reflect.TypeFor[[]*int](), reflect.TypeFor[*[]int](), reflect.TypeFor[[]float32](), reflect.TypeFor[[][]int](),
	reflect.TypeFor[map[string]int](), reflect.TypeFor[map[int]string](), reflect.TypeFor[map[uint8]*string](),
	reflect.TypeFor[map[string][]string](), reflect.TypeFor[any](), reflect.TypeFor[[]any](), reflect.TypeFor[*any](),
	reflect.TypeFor[[]byte](), reflect.TypeFor[fuzzInner](), reflect.TypeFor[*fuzzInner](), reflect.TypeFor[[]fuzzInner](),
	reflect.TypeFor[map[string]*fuzzInner](), reflect.TypeFor[fuzzOuter](), reflect.TypeFor[[]*fuzzOuter](),
	reflect.TypeFor[fuzzTree](), reflect.TypeFor[*fuzzTree](), reflect.TypeFor[[]fuzzTree](),
}

// fuzzInner and fuzzOuter are nested structs with tags of their own.
type fuzzInner struct {
	A int      `json:"a" validate:"min=1,max=5"`
	B string   `json:"b,omitempty" validate:"omitempty,oneof=x yy"`
	C []string `json:"c,omitempty" validate:"max=2,dive,len=1"`
	D *float32 `json:"d,omitempty" validate:"omitempty,lt=0.1"`
	E any      `json:"e,omitempty"`
}

type fuzzOuter struct {
	In  fuzzInner   `json:"in,omitempty"`
	Ins []fuzzInner `json:"ins,omitempty" validate:"dive"`
	P   *fuzzInner  `json:"p,omitempty" validate:"omitempty"`
	N   uint8       `json:"n,omitempty" validate:"ne=3"`
}

// fuzzTree is a recursive struct with tags of its own: its compiled
// nodes make a cycle.
type fuzzTree struct {
	V     int                  `json:"v,omitempty" validate:"omitempty,min=1,max=5"`
	S     string               `json:"s,omitempty" validate:"max=2"`
	Next  *fuzzTree            `json:"next,omitempty"`
	Kids  []fuzzTree           `json:"kids,omitempty" validate:"max=2,dive"`
	Named map[string]*fuzzTree `json:"named,omitempty" validate:"dive"`
}

var (
	numParams  = []string{"0", "1", "-1", "2", "5", "10", "127", "-128", "255", "256", "0x10", "1.5", "-2.5", "0.1", "3.4e38", "1e-45", "18446744073709551615", "9007199254740993", "1_0"}
	lenParams  = []string{"0", "1", "2", "3", "5"}
	textParams = []string{"a", "abc", "é", "日本", "true", "false", "0", "1", "x y"}
	oneofs     = []string{"a b", "1 2 3", "'x y' z", "é ab", "0 -1 255", "true false", "5"}
	ruleNames  = []string{"min", "max", "gte", "lte", "gt", "lt", "len", "eq", "ne", "oneof"}
)

// genTag writes a validate tag of levels for type t from the vocabulary
// the registry compiles.
func genTag(s *source, t reflect.Type, depth int) string {
	var toks []string
	if s.pick(3) == 0 {
		toks = append(toks, "omitempty")
	}
	if s.pick(3) == 0 {
		toks = append(toks, "required")
	}
	for range s.pick(3) {
		name := pickOf(s, ruleNames)
		var p string
		switch s.pick(4) {
		case 0:
			p = pickOf(s, lenParams)
		case 1:
			p = pickOf(s, textParams)
		case 2:
			p = pickOf(s, oneofs)
		default:
			p = pickOf(s, numParams)
		}
		if name != "oneof" {
			p = strings.ReplaceAll(p, " ", "")
		}
		toks = append(toks, name+"="+p)
	}
	e := t
	for e.Kind() == reflect.Pointer {
		e = e.Elem()
	}
	if (e.Kind() == reflect.Slice || e.Kind() == reflect.Map) && depth < 3 && s.pick(2) == 0 {
		toks = append(toks, "dive")
		if rest := genTag(s, e.Elem(), depth+1); rest != "" {
			toks = append(toks, rest)
		}
	}
	return strings.Join(toks, ",")
}

var (
	numValues  = []string{"0", "1", "-1", "2", "4", "5", "6", "9", "10", "11", "127", "128", "-128", "-129", "255", "256", "1.5", "-2.5", "0.1", "1e2", "-0", "3.4e38", "3.5e38", "1e-45", "1e-46", "18446744073709551615", "9007199254740993", "16", "0.30000000000000004"}
	textValues = []string{`""`, `"a"`, `"ab"`, `"abc"`, `"abcd"`, `"é"`, `"日本"`, `"x y"`, `"true"`, `"0"`, `"1"`, `"\u00e9"`, `"a\nb"`, `"\ud800"`, "\"\xff\"", `"z"`, `"\u0061\u0062\u0063"`, `"x\u0020y"`, `"\ufffd"`, `"\ud83d\ude00"`, `"\ud83d\ude00\u00e9"`, `"\\"`, `"\u0031"`, `"y\u0079"`}
	keyValues  = []string{`"a"`, `"b"`, `"1"`, `"2"`, `"01"`, `"-1"`, `"300"`, `"é"`, `"\u0061"`}
)

// depthFor is how deep genValue nests values of type t: past
// constraint.MaxDepth for fuzzTree's (its own value, its list's, its
// map's), so that the bound of the levels a check holds is crossed.
func depthFor(t reflect.Type) int {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t == reflect.TypeFor[fuzzTree]() {
		return constraint.MaxDepth + 4
	}
	return 3
}

// genValue writes a JSON value for type t: mostly one the binder reads,
// sometimes null or another kind.
func genValue(s *source, t reflect.Type, depth int) string {
	switch s.pick(12) {
	case 0:
		return "null"
	case 1:
		return pickOf(s, []string{"true", `"5"`, "[]", "{}", "3"})
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Float32, reflect.Float64:
		return pickOf(s, numValues)
	case reflect.String:
		return pickOf(s, textValues)
	case reflect.Bool:
		return pickOf(s, []string{"true", "false"})
	case reflect.Interface:
		return pickOf(s, []string{"0", `""`, "false", "[]", "{}", "1"})
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return pickOf(s, []string{`""`, `"AQ=="`})
		}
		if depth > depthFor(t) {
			return "[]"
		}
		var elems []string
		for range s.pick(4) {
			elems = append(elems, genValue(s, t.Elem(), depth+1))
		}
		return "[" + strings.Join(elems, ",") + "]"
	case reflect.Struct:
		if depth > depthFor(t) {
			return "{}"
		}
		var ms []string
		for range s.pick(5) {
			k := s.pick(t.NumField() + 2)
			if k >= t.NumField() {
				ms = append(ms, pickOf(s, []string{`"A"`, `"zz"`, `"\u0061"`})+":"+pickOf(s, numValues))
				continue
			}
			f := t.Field(k)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			ms = append(ms, `"`+name+`":`+genValue(s, f.Type, depth+1))
		}
		return "{" + strings.Join(ms, ",") + "}"
	case reflect.Map:
		if depth > depthFor(t) {
			return "{}"
		}
		var ms []string
		for range s.pick(4) {
			ms = append(ms, pickOf(s, keyValues)+":"+genValue(s, t.Elem(), depth+1))
		}
		return "{" + strings.Join(ms, ",") + "}"
	}
	return "null"
}

var fuzzBinders = []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder}

// FuzzCompiledConstraints holds the compiled checks to validator/v10: for
// generated tags from the vocabulary the registry compiles, on generated
// values, each decoded by the real binder (Std, V2 and SegmentIO) and
// validated by the validator, a compiled check that answers (Pass or Fail)
// on a call the binder reads without an issue in the argument answers as
// the validator does, parameter by parameter; and so does the checker's
// walk, which holds the tags as it reads each value (walkedCheck), with
// its breach at the same value.
func FuzzCompiledConstraints(f *testing.F) {
	for _, seed := range []string{"\x00\x00\x01\x02\x03", "\x0e\x01\x00\x00\x05\x01", "\x08\x02\x00\x01\x03\x04\x05", "\x13\x00\x00\x09\x02\x03\x00\x04\x01\x02", "\x14\x00\x01\x00\x01\x00\x05\x00\x02\x02"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkCompiled(t, &source{data})
	})
}

func checkCompiled(t *testing.T, s *source) (judged int) {
	nf := 1 + s.pick(2)
	var fields []reflect.StructField
	for i := range nf {
		ft := pickOf(s, fuzzTypes)
		fields = append(fields, reflect.StructField{
			Name: "F" + strconv.Itoa(i), Type: ft,
			Tag: reflect.StructTag(`json:"f` + strconv.Itoa(i) + `" validate:"` + genTag(s, ft, 0) + `"`),
		})
	}
	st := reflect.StructOf(fields)
	var vals []string
	for i := range nf {
		vals = append(vals, genValue(s, fields[i].Type, 0))
	}
	var args strings.Builder
	args.WriteString("{")
	for i, v := range vals {
		if i > 0 {
			args.WriteString(",")
		}
		args.WriteString(`"f` + strconv.Itoa(i) + `":` + v)
	}
	args.WriteString("}")
	data := []byte(args.String())
	for _, b := range fuzzBinders {
		reg := New(WithBinder(b))
		if reg.register("t", st, nil) != nil {
			return judged // a tag the registry refuses
		}
		tool, _ := reg.Tool("t")
		if tool.checks == nil || tool.checks.Decode {
			continue
		}
		issues := tool.Plan().Check(data, nil)
		v := reflect.New(st)
		if contain.Decode(b, data, v.Interface()) != nil {
			continue
		}
		failed := make([]bool, nf)
		var errs validator.ValidationErrors
		if err := safeStruct(v.Interface()); err != nil {
			if !errors.As(err, &errs) {
				t.Fatalf("%s %v %s: the validator fails: %v", b.Name(), st, data, err)
			}
			for _, fe := range errs {
				failed[paramOf(st, tool.params, fe.StructNamespace())] = true
			}
		}
		clean := make([]bool, nf)
		for i := range clean {
			clean[i] = true
		}
		for _, is := range issues {
			if is.Param >= 0 && is.Param < nf {
				clean[is.Param] = false
			}
		}
		for m := range jsonlex.Members(data, 0) {
			j := tool.Plan().Match(data[m.Key.Start:m.Key.End])
			if j < 0 || !clean[j] || tool.checks.Params[j].Root == nil {
				continue
			}
			verdict, at := tool.checks.Params[j].Root.Check(data, m.Value)
			if verdict == constraint.Unknown {
				continue
			}
			judged++
			if (verdict == constraint.Fail) != failed[j] {
				t.Errorf("%s: type %v, args %s: parameter %s: compiled says fail=%v, the validator fail=%v (decoded %+v)",
					b.Name(), st, data, tool.params[j].Name, verdict == constraint.Fail, failed[j], v.Elem().Interface())
			}
			walkedCheck(t, b, tool, data, m.Value, j, verdict, at, failed[j])
		}
	}
	return judged
}

var checkConstrained = bindcap.CheckConstrained.(func(*bind.Plan, []byte, []bind.Issue, *constraint.Tool, bindcap.TopKeys, *bindcap.Members) []bind.Issue)

// walkedCheck holds the checker's walk, which checks the compiled tags as
// it reads each value (bindcap.CheckConstrained), to the validator and to
// Check: the member of parameter j, whose value is at value, that Check
// judges verdict (the breach at at) and the validator failed, is judged
// the same by the walk, its breach at the same value, when the walk judges
// it (a proving pass that declines leaves it to Check).
func walkedCheck(t *testing.T, b bind.Binder, tool *Tool, data []byte, value jsonlex.Span, j int, verdict constraint.Verdict, at jsonlex.Span, failed bool) {
	t.Helper()
	ms := bindcap.GetMembers()
	defer bindcap.PutMembers(ms)
	checkConstrained(tool.Plan(), data, nil, tool.checks, bindcap.TopKeys{}, ms)
	for k := range ms.Len() {
		m := ms.At(k)
		if m.Value != value {
			continue
		}
		var walked constraint.Verdict
		switch m.Judged {
		case bindcap.NotJudged:
			if m.Binds() == j && b == bind.Std {
				t.Errorf("std: args %s: parameter %d not judged in the walk", data, j)
			}
			return
		case bindcap.Holds:
			walked = constraint.Pass
		case bindcap.Breaks:
			walked = constraint.Fail
		case bindcap.Undecided:
			walked = constraint.Unknown
		}
		if walked != verdict || walked == constraint.Fail && failed != true {
			t.Errorf("%s: type %v, args %s: parameter %s: the walk says %v, Check %v, the validator fail=%v",
				b.Name(), tool.typ, data, tool.params[j].Name, walked, verdict, failed)
		}
		if walked != constraint.Fail {
			return
		}
		for _, br := range ms.Breaches {
			if br.Member == k {
				if br.At != at {
					t.Errorf("%s: args %s: parameter %s: the walk's breach at %v (%s), Check's at %v (%s)",
						b.Name(), data, tool.params[j].Name, br.At, data[br.At.Start:br.At.End], at, data[at.Start:at.End])
				}
				return
			}
		}
		t.Errorf("%s: args %s: parameter %s breaks its tags with no breach recorded", b.Name(), data, tool.params[j].Name)
		return
	}
}

// TestCompiledConstraints_Generated runs the fuzz target's generator over
// many seeds, so that the differential check runs in every test run.
func TestCompiledConstraints_Generated(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 3000
	}
	judged := 0
	for i := range n {
		b := make([]byte, 48)
		x := uint64(i)*0x9E3779B97F4A7C15 + 1
		for k := range b {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			b[k] = byte(x)
		}
		judged += checkCompiled(t, &source{b})
		if t.Failed() {
			return
		}
	}
	if judged < n/10 {
		t.Errorf("only %d parameters judged in %d cases: the generator misses the compiled checks", judged, n)
	}
	t.Logf("%d parameters judged", judged)
}
