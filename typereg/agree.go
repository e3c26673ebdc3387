package typereg

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// maxProbeSize bounds the lengths agree builds values of: a bound past it
// is probed at the bound's neighbours only when they are this small.
const maxProbeSize = 4096

// maxProbeValues bounds the values of an enum (or of ne) agree probes, the
// first and the last among them: each probe costs the validator a pass
// over the list, so registration stays linear in the tag's length.
const maxProbeValues = 64

// thin returns at most maxProbeValues of vs, evenly spaced, the first and
// the last included.
func thin[T any](vs []T) []T {
	if len(vs) <= maxProbeValues {
		return vs
	}
	out := make([]T, 0, maxProbeValues)
	for i := range maxProbeValues {
		out = append(out, vs[i*(len(vs)-1)/(maxProbeValues-1)])
	}
	return out
}

// A probe is one value of a level's Go type, as the binder would read it
// from JSON, with that JSON as the schema sees it.
type probe struct {
	v    reflect.Value
	num  *big.Rat // a number
	str  *string  // text
	b    *bool    // true or false
	size int      // the elements or keys of a list or an object
	show string   // the JSON, for an error
}

// agree runs the validator, on level lv's own tag, on values of Go type t
// (pointers included) at and around every bound, length and value the
// schema fragment frag states, and fails on the first value the two judge
// differently: a tag the validator reads otherwise than the schema states
// it (one keyword where the validator holds the value to two rules, a
// bound it parses otherwise) is refused at registration, rather than
// published as a range the guard does not enforce.
func agree(lv level, t reflect.Type, kind string, frag *jsonschema.Schema) error {
	for _, p := range probes(t, kind, frag) {
		ok, err := safeVar(p.v.Interface(), lv.tag)
		if err != nil {
			return err
		}
		if schemaOK := holds(frag, p, false); ok != schemaOK {
			return fmt.Errorf("the validator %s %s and the published schema would %s it: the tag does not read as one range",
				verdict(ok)+"s", p.show, verdict(schemaOK))
		}
		if ok != holds(frag, p, true) {
			// Most JSON Schema validators (github.com/google/jsonschema-go
			// among them) compare numbers as float64.
			return fmt.Errorf("the validator %s %s and a schema validator comparing numbers as float64 would %s it: a bound past 2^53 cannot be told from its neighbours",
				verdict(ok)+"s", p.show, verdict(!ok))
		}
	}
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "accept"
	}
	return "refuse"
}

// probes makes the values agree judges.
func probes(t reflect.Type, kind string, frag *jsonschema.Schema) []probe {
	elem := t
	for elem.Kind() == reflect.Pointer {
		elem = elem.Elem()
	}
	var out []probe
	add := func(v reflect.Value, p probe) {
		for pt := elem; pt != t; {
			// Wrap in the pointers the parameter's type has.
			ptr := reflect.New(v.Type())
			ptr.Elem().Set(v)
			v = ptr
			pt = reflect.PointerTo(pt)
		}
		p.v = v
		out = append(out, p)
	}
	var nums []*big.Rat
	var texts []string
	var sizes []uint64
	gather(frag, &nums, &texts, &sizes)
	nums, texts = thin(nums), thin(texts)
	switch kind {
	case "int", "uint", "float":
		cands := []*big.Rat{new(big.Rat)}
		for _, n := range nums {
			cands = append(cands, n)
			if kind == "float" {
				f, _ := n.Float64()
				bits := 64
				if elem.Kind() == reflect.Float32 {
					bits = 32
				}
				for _, g := range neighbours(f, bits) {
					if r, ok := new(big.Rat).SetString(strconv.FormatFloat(g, 'g', -1, bits)); ok {
						cands = append(cands, r)
					}
				}
				continue
			}
			one := big.NewRat(1, 1)
			cands = append(cands, new(big.Rat).Sub(n, one), new(big.Rat).Add(n, one))
		}
		for _, c := range cands {
			v := reflect.New(elem).Elem()
			switch kind {
			case "int":
				if !c.IsInt() || !c.Num().IsInt64() || v.OverflowInt(c.Num().Int64()) {
					continue
				}
				v.SetInt(c.Num().Int64())
			case "uint":
				if !c.IsInt() || !c.Num().IsUint64() || v.OverflowUint(c.Num().Uint64()) {
					continue
				}
				v.SetUint(c.Num().Uint64())
			case "float":
				f, _ := c.Float64()
				if math.IsInf(f, 0) || v.OverflowFloat(f) {
					continue
				}
				v.SetFloat(f)
			}
			// The number as the binder reads it back, as the schema sees it.
			var text string
			switch kind {
			case "int":
				text = strconv.FormatInt(v.Int(), 10)
			case "uint":
				text = strconv.FormatUint(v.Uint(), 10)
			default:
				bits := 64
				if elem.Kind() == reflect.Float32 {
					bits = 32
				}
				text = strconv.FormatFloat(v.Float(), 'g', -1, bits)
			}
			r, _ := new(big.Rat).SetString(text)
			add(v, probe{num: r, show: text})
		}
	case "string":
		cands := append([]string{""}, texts...)
		for _, n := range sizes {
			for _, l := range []uint64{n - 1, n, n + 1} {
				if n == 0 && l > n+1 || l > maxProbeSize {
					continue
				}
				cands = append(cands, strings.Repeat("é", int(l)))
			}
		}
		for _, c := range cands {
			v := reflect.New(elem).Elem()
			v.SetString(c)
			show := strconv.Quote(c)
			if len(show) > 40 {
				show = "text of " + strconv.Itoa(len([]rune(c))) + " characters"
			}
			add(v, probe{str: &c, show: show})
		}
	case "bool":
		for _, c := range []bool{false, true} {
			v := reflect.New(elem).Elem()
			v.SetBool(c)
			add(v, probe{b: &c, show: strconv.FormatBool(c)})
		}
	case "slice", "map":
		cands := []int{0}
		for _, n := range sizes {
			for _, l := range []uint64{n - 1, n, n + 1} {
				if n == 0 && l > n+1 || l > maxProbeSize {
					continue
				}
				cands = append(cands, int(l))
			}
		}
		for _, n := range cands {
			var v reflect.Value
			if kind == "slice" {
				v = reflect.MakeSlice(elem, n, n)
			} else if v = sizedMap(elem, n); !v.IsValid() {
				continue
			}
			what, unit := "a list", "element"
			if kind == "map" {
				what, unit = "an object", "key"
			}
			if n != 1 {
				unit += "s"
			}
			add(v, probe{size: n, show: what + " of " + strconv.Itoa(n) + " " + unit})
		}
	}
	return out
}

// neighbours returns f and the floats of the given size next to it.
func neighbours(f float64, bits int) []float64 {
	if bits == 32 {
		g := float32(f)
		return []float64{float64(g), float64(math.Nextafter32(g, float32(math.Inf(-1)))), float64(math.Nextafter32(g, float32(math.Inf(1))))}
	}
	return []float64{f, math.Nextafter(f, math.Inf(-1)), math.Nextafter(f, math.Inf(1))}
}

// sizedMap returns a map of type t with n keys, or an invalid value when
// its keys cannot be made.
func sizedMap(t reflect.Type, n int) reflect.Value {
	m := reflect.MakeMapWithSize(t, n)
	for i := range n {
		k := reflect.New(t.Key()).Elem()
		switch t.Key().Kind() {
		case reflect.String:
			k.SetString("k" + strconv.Itoa(i))
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if k.OverflowInt(int64(i)) {
				return reflect.Value{}
			}
			k.SetInt(int64(i))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if k.OverflowUint(uint64(i)) {
				return reflect.Value{}
			}
			k.SetUint(uint64(i))
		default:
			return reflect.Value{}
		}
		m.SetMapIndex(k, reflect.Zero(t.Elem()))
	}
	return m
}

// gather collects the numbers, texts and sizes s states, in its anyOf and
// not too.
func gather(s *jsonschema.Schema, nums *[]*big.Rat, texts *[]string, sizes *[]uint64) {
	if s == nil {
		return
	}
	for _, n := range []string{string(s.Minimum), string(s.Maximum), string(s.ExclusiveMinimum), string(s.ExclusiveMaximum)} {
		if r, ok := new(big.Rat).SetString(n); ok && n != "" {
			*nums = append(*nums, r)
		}
	}
	values := append([]any{s.Const}, s.Enum...)
	for _, v := range values {
		switch v := v.(type) {
		case string:
			*texts = append(*texts, v)
		case nil, bool:
		default:
			if r, ok := new(big.Rat).SetString(fmt.Sprint(v)); ok {
				*nums = append(*nums, r)
			}
		}
	}
	for _, n := range []*uint64{s.MinLength, s.MaxLength, s.MinItems, s.MaxItems, s.MinProperties, s.MaxProperties} {
		if n != nil {
			*sizes = append(*sizes, *n)
		}
	}
	gather(s.Not, nums, texts, sizes)
	for _, a := range s.AnyOf {
		gather(a, nums, texts, sizes)
	}
}

// holds evaluates the keywords a validate tag translates to (bounds,
// lengths, sizes, const, enum, not, anyOf) on p, as a JSON Schema
// validator does: exactly, or (asFloat) comparing numbers as float64.
func holds(s *jsonschema.Schema, p probe, asFloat bool) bool {
	if s == nil {
		return true
	}
	if len(s.AnyOf) > 0 {
		one := false
		for _, a := range s.AnyOf {
			one = one || holds(a, p, asFloat)
		}
		if !one {
			return false
		}
	}
	if s.Not != nil && holds(s.Not, p, asFloat) {
		return false
	}
	if s.Const != nil && !same(s.Const, p, asFloat) {
		return false
	}
	if len(s.Enum) > 0 {
		in := false
		for _, e := range s.Enum {
			in = in || same(e, p, asFloat)
		}
		if !in {
			return false
		}
	}
	switch {
	case p.num != nil:
		for _, b := range []struct {
			n  string
			ok func(c int) bool
		}{
			{string(s.Minimum), func(c int) bool { return c >= 0 }},
			{string(s.Maximum), func(c int) bool { return c <= 0 }},
			{string(s.ExclusiveMinimum), func(c int) bool { return c > 0 }},
			{string(s.ExclusiveMaximum), func(c int) bool { return c < 0 }},
		} {
			if r, ok := new(big.Rat).SetString(b.n); ok && b.n != "" && !b.ok(compare(p.num, r, asFloat)) {
				return false
			}
		}
	case p.str != nil:
		n := uint64(len([]rune(*p.str)))
		if s.MinLength != nil && n < *s.MinLength || s.MaxLength != nil && n > *s.MaxLength {
			return false
		}
	case p.b != nil:
	case p.v.Kind() == reflect.Map || p.v.Kind() == reflect.Pointer && reflect.Indirect(p.v).Kind() == reflect.Map:
		n := uint64(p.size)
		if s.MinProperties != nil && n < *s.MinProperties || s.MaxProperties != nil && n > *s.MaxProperties {
			return false
		}
	default:
		n := uint64(p.size)
		if s.MinItems != nil && n < *s.MinItems || s.MaxItems != nil && n > *s.MaxItems {
			return false
		}
	}
	return true
}

// compare compares x and y, exactly or as the float64 nearest each.
func compare(x, y *big.Rat, asFloat bool) int {
	if !asFloat {
		return x.Cmp(y)
	}
	fx, _ := x.Float64()
	fy, _ := y.Float64()
	switch {
	case fx < fy:
		return -1
	case fx > fy:
		return 1
	}
	return 0
}

// same reports whether the schema value v (from const or enum) is p.
func same(v any, p probe, asFloat bool) bool {
	switch v := v.(type) {
	case string:
		return p.str != nil && *p.str == v
	case bool:
		return p.b != nil && *p.b == v
	case nil:
		return false
	}
	r, ok := new(big.Rat).SetString(fmt.Sprint(v))
	return ok && p.num != nil && compare(p.num, r, asFloat) == 0
}
