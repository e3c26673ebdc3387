package bind

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// Reader returns a binder that reads a tool's arguments with decode, the
// server's own decoding: decode(data, v) is what the server does with the
// arguments data as they arrived, v a pointer to a fresh value of the
// tool's parameter struct, and an error is the server refusing the call.
// Use it when the server reads arguments some other way than one of this
// package's binders: through a map and back (mcp-go's
// CallToolRequest.GetArguments re-marshalled, go-sdk's input path with its
// schema validation), or with its own lenient coercions ("2" for an int).
//
// The verdict is decode's own: a call it decodes is never refused as one
// it cannot read, and a call it fails on always is. To name the argument a
// failure lies in, each top-level member is decoded again alone, in a base
// object decode takes (see below); an argument decode fails on alone is
// named, and when no single one fails, the problem is with the arguments
// as a whole. The parameters (their names, types and the keys that match
// them) are the struct's as encoding/json reads it: a key binds to a
// parameter by its exact name or by folding case, so the record's policies
// (unknown keys, required parameters, modes) apply as for Std.
//
// Where decode succeeds, the silent losses reported are the ones that can be
// told from the outside: a top-level key sent more than once
// (DuplicateKey), and a number decode reads as something else than
// encoding/json does (RoundedNumber: 9007199254740993 through a float64 map),
// found by decoding the call with encoding/json too, alone or argument by
// argument, and comparing the values. An argument encoding/json cannot read
// at all is decode's to coerce, and is not a loss.
//
// The base object is {} when decode takes it at Compile; else the struct's
// zero value as encoding/json writes it (every field not omitempty, at its
// zero value), when decode takes that and it is at most 1 KiB; else there
// is none, and a failure is always with the arguments as a whole. decode must give the same
// verdict on the same text every time, and is called concurrently, as the
// server's handlers are.
//
// decode is the server's code: a panic in it is recovered and is a failure
// carrying a *PanicError; its cost is its own, once per call for the
// verdict (encoding/json decodes the call once more, to compare), and once
// more per distinct top-level member when it fails. Unlike Std's check, a
// Reader's allocates: decode's own, and the values compared. Empty arguments are handed to decode as {}.
//
// name is the binder's Name, any text: nothing tells binders apart by
// name. Compile fails on a nil decode.
func Reader(name string, decode func(data []byte, v any) error) Binder {
	return &readerBinder{name: name, decode: decode}
}

type readerBinder struct {
	name   string
	decode func([]byte, any) error
}

func (b *readerBinder) Name() string { return b.name }
func (b *readerBinder) Unmarshal(data []byte, v any) error {
	if b.decode == nil {
		return fmt.Errorf("bind: reader %q has no decode function", b.name)
	}
	return b.decode(data, v)
}
func (*readerBinder) sealed() {}

func (b *readerBinder) Compile(t reflect.Type) (*Plan, error) {
	if b.decode == nil {
		return nil, fmt.Errorf("bind: reader %q has no decode function", b.name)
	}
	sp, err := compile(Std, t)
	if err != nil {
		return nil, err
	}
	rp := &readerPlan{binder: b, typ: t, params: sp.params, root: sp.root.fields}
	for _, p := range sp.params {
		tag := `json:"F"`
		if p.Quoted {
			tag = `json:"F,string"`
		}
		rp.trials = append(rp.trials, reflect.StructOf([]reflect.StructField{{Name: "F", Type: p.Type, Tag: reflect.StructTag(tag)}}))
	}
	rp.base = rp.findBase()
	return &Plan{binder: b, typ: t, params: sp.params, check: rp.check, match: rp.match}, nil
}

// A readerPlan checks arguments for a Reader binder.
type readerPlan struct {
	binder *readerBinder
	typ    reflect.Type
	params []Param
	root   *fieldSet      // the parameters' keys, as encoding/json matches them
	trials []reflect.Type // per param: the one-field struct encoding/json decodes its value into alone
	base   []byte         // the object an argument is decoded in alone, or nil (see Reader)
}

func (p *readerPlan) match(raw []byte) int {
	i, _ := p.root.lookup(raw, keyEscaped(raw))
	return max(i, -1)
}

// decode runs the server's decode on data into a fresh value, contained.
func (p *readerPlan) decode(data []byte) (reflect.Value, error) {
	work(len(data))
	v := reflect.New(p.typ)
	return v, run(p.typ, func() error { return p.binder.decode(data, v.Interface()) })
}

// maxReaderBase bounds the zero-value base object: each argument of a
// failing call is decoded once in it, so its size is a cost per argument.
const maxReaderBase = 1024

// findBase returns the base object decode takes, or nil.
func (p *readerPlan) findBase() []byte {
	if _, err := p.decode([]byte("{}")); err == nil {
		return []byte("{}")
	}
	var zero []byte
	if run(p.typ, func() (err error) {
		zero, err = json.Marshal(reflect.New(p.typ).Interface())
		return err
	}) != nil || len(zero) < 2 || jsonlex.KindAt(zero, 0) != jsonlex.KindObject || len(zero) > maxReaderBase {
		return nil
	}
	if _, err := p.decode(zero); err != nil {
		return nil
	}
	return zero
}

func (p *readerPlan) check(args []byte, required []bool, _ map[reflect.Type][]string, issues []Issue, out *bindcap.Members) []Issue {
	if len(args) == 0 {
		args = []byte("{}")
	}
	got, err := p.decode(args)
	var buf [8]member
	sc := scanArgs(args, 0, buf[:0])
	n0 := len(issues)
	tl := tally{nparams: len(p.params)}
	add := func(is Issue) {
		if tl.admit(issues[n0:], is.Kind, is.Param) {
			issues = append(issues, is)
		}
	}
	if err != nil {
		switch sc.kind {
		case 0:
			return append(issues, Issue{Kind: InvalidJSON, Param: -1, Start: sc.start, End: sc.start, Err: err})
		case 'v':
			return append(issues, Issue{Kind: NotAnObject, Param: -1, Start: sc.start, End: sc.end, Err: err})
		case 'n':
			return append(issues, Issue{Kind: InvalidValue, Param: -1, Err: err})
		}
	} else if sc.kind != '{' {
		return issues // decode reads null, or another value, into the struct: nothing is named
	}
	ms := sc.members
	for i := range ms {
		ms[i].param = p.match(args[ms[i].ks:ms[i].ke])
	}
	addMembers(out, args, ms, func(raw []byte) bool { return readerFolded(p.root, raw) })
	if err != nil {
		if !p.blame(args, ms, add) {
			add(Issue{Kind: InvalidValue, Param: -1, Err: err})
		}
	} else {
		p.losses(args, ms, got, add)
	}
	for _, m := range ms {
		if m.param < 0 {
			add(Issue{Kind: UnknownArgument, Param: -1, Start: m.ks, End: m.ke})
		}
	}
	if len(required) > 0 {
		seen := make([]bool, len(p.params))
		for _, m := range ms {
			if m.param >= 0 {
				seen[m.param] = true
			}
		}
		for i, req := range required {
			if req && !seen[i] {
				add(Issue{Kind: MissingArgument, Param: i})
			}
		}
	}
	return tl.omitted(issues)
}

// blame decodes each member of ms alone in the base object and reports the
// ones decode fails on; it returns whether it found one. Each distinct
// member text is tried once.
func (p *readerPlan) blame(args []byte, ms []member, add func(Issue)) bool {
	if p.base == nil {
		return false
	}
	found := false
	tried := map[string]bool{}
	var obj []byte
	for _, m := range ms {
		text := args[m.ks:m.ve]
		if tried[string(text)] {
			continue
		}
		tried[string(text)] = true
		obj = append(obj[:0], p.base[:len(p.base)-1]...)
		if len(p.base) > 2 {
			obj = append(obj, ',')
		}
		obj = append(append(obj, text...), '}')
		_, err := p.decode(obj)
		if err == nil {
			continue
		}
		found = true
		if _, folded := p.root.lookup(args[m.ks:m.ke], keyEscaped(args[m.ks:m.ke])); folded && m.param >= 0 {
			// A key encoding/json folds to the parameter: when decode
			// reads the value under the parameter's own name, it is the key
			// decode refuses, not the value.
			obj = append(obj[:0], p.base[:len(p.base)-1]...)
			if len(p.base) > 2 {
				obj = append(obj, ',')
			}
			obj = strconv.AppendQuote(obj, p.params[m.param].Name)
			obj = append(append(append(obj, ':'), args[m.vs:m.ve]...), '}')
			if _, e := p.decode(obj); e == nil {
				m.param = -1
			}
		}
		if m.param < 0 {
			// A key the record does not know, which the server refuses.
			add(Issue{Kind: InvalidValue, Param: -1, Start: m.ks, End: m.ke, Err: err})
			continue
		}
		kind := InvalidValue
		if _, ok := contain.As[*json.UnmarshalTypeError](err); ok {
			kind = WrongType
		}
		add(Issue{Kind: kind, Param: m.param, Start: m.vs, End: m.ve, Path: argPath(args, m.ks, m.ke), Type: p.params[m.param].Type, Err: err})
	}
	return found
}

// losses reports, for a call decode read into got, the repeated top-level
// keys and the numbers decode reads otherwise than encoding/json does.
func (p *readerPlan) losses(args []byte, ms []member, got reflect.Value, add func(Issue)) {
	count := make([]int, len(p.params))
	for _, m := range ms {
		if m.param >= 0 {
			count[m.param]++
		}
	}
	last := make([]int, len(p.params)) // per param: its last member
	for i, m := range ms {
		if m.param < 0 {
			continue
		}
		if count[m.param] > 1 && last[m.param] > 0 {
			add(Issue{Kind: DuplicateKey, Param: m.param, Start: m.ks, End: m.ke, Path: argPath(args, m.ks, m.ke), Type: p.params[m.param].Type})
		}
		last[m.param] = i + 1
	}
	// encoding/json's reading of the whole call, or of each argument alone.
	var std reflect.Value
	work(len(args))
	if run(p.typ, func() error {
		v := reflect.New(p.typ)
		err := json.Unmarshal(args, v.Interface())
		std = v
		return err
	}) != nil {
		std = reflect.Value{}
	}
	for i, at := range last {
		if at == 0 {
			continue
		}
		m := ms[at-1]
		value := args[m.vs:m.ve]
		if !holdsNumber(value) {
			continue
		}
		gf, err := got.Elem().FieldByIndexErr(p.params[i].Index)
		if err != nil {
			continue
		}
		var sf reflect.Value
		if std.IsValid() {
			if sf, err = std.Elem().FieldByIndexErr(p.params[i].Index); err != nil {
				continue
			}
		} else {
			tv := reflect.New(p.trials[i])
			if trialDecode(Std, value, tv.Interface(), p.params[i].Type) != nil {
				continue // encoding/json does not read it: decode coerces it
			}
			sf = tv.Elem().Field(0)
		}
		var same bool
		if run(p.params[i].Type, func() error {
			same = reflect.DeepEqual(gf.Interface(), sf.Interface())
			return nil
		}) != nil || same {
			continue
		}
		add(Issue{Kind: RoundedNumber, Param: i, Start: m.vs, End: m.ve, Path: argPath(args, m.ks, m.ke)})
	}
}

// holdsNumber reports whether the valid JSON value v holds a number
// outside its strings. It reads v's tokens in one pass: a string is
// skipped whole, and every byte that starts no value (a bracket, a comma,
// a colon, white space, a literal's letters) is stepped over.
func holdsNumber(v []byte) bool {
	work(len(v))
	for i := 0; i < len(v); {
		switch jsonlex.KindAt(v, i) {
		case jsonlex.KindNumber:
			return true
		case jsonlex.KindString:
			i, _, _ = jsonlex.String(v, i)
		default:
			i++
		}
	}
	return false
}
