package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// TestSegmentIO_QuotedNullIsLostIffTheValueStays holds the pass's verdict
// on a ,string field sent the text null (with space after it, or not) to
// segmentio's own decode, not to the trial check: into a struct whose
// fields are all set, segmentio either fails (the guard must refuse), or
// sets a pointer nil (the null is read: no loss), or leaves the value as it
// was (the handler gets the zero value for the caller's null: a
// NullForValue loss, and only then).
func TestSegmentIO_QuotedNullIsLostIffTheValueStays(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[segQuotedArgs]())
	if err != nil {
		t.Fatal(err)
	}
	filled := func() segQuotedArgs {
		i, b, s, f := 7, true, "x", float32(1.5)
		return segQuotedArgs{I: 7, I8: 7, U8: 7, U: 7, I64: 7, F: 1.5, F32: 1.5, B: true, S: "x", PI: &i, PB: &b, PS: &s, PF: &f}
	}
	for _, name := range []string{"i", "i8", "u8", "u", "i64", "f", "f32", "b", "s", "pi", "pb", "ps", "pf"} {
		for _, text := range []string{`"null"`, `"null "`, `"null\t "`, `"null\n"`} {
			args := []byte(`{"` + name + `":` + text + `}`)
			before := filled()
			got := filled()
			decErr := segmentio.Binder.Unmarshal(args, &got)
			stays := reflect.DeepEqual(before, got)
			issues := plan.Check(args, nil)
			fails, lost := false, false
			for _, is := range issues {
				fails = fails || is.Kind.Class() == bind.BinderFailure
				lost = lost || is.Kind == bind.NullForValue
			}
			switch {
			case decErr != nil:
				if !fails {
					t.Errorf("%s: segmentio fails (%v), the guard says %s", args, decErr, brief(issues))
				}
			case fails:
				t.Errorf("%s: segmentio reads it, the guard says %s", args, brief(issues))
			case stays != lost:
				t.Errorf("%s: segmentio leaves the value as it was: %v; the guard lists a null lost: %v (%s)", args, stays, lost, brief(issues))
			}
		}
	}
}

// TestSegmentIO_SpacedIntKeys: segmentio reads an integer key with white
// space after it as the integer ("1 " is 1): two keys it reads as one
// integer are one key (the value read last is kept: DuplicateKey), two it
// reads apart are two, and a key it wraps is WrappedNumber with the space
// or without. Held to segmentio's own decode, not to the trial check.
func TestSegmentIO_SpacedIntKeys(t *testing.T) {
	type intMaps struct {
		M map[int]string   `json:"m"`
		U map[uint8]string `json:"u"`
	}
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[intMaps]())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args string
		want bind.Code // "" for no issue
	}{
		{`{"m":{"1":"a","1 ":"b"}}`, bind.DuplicateKey},
		{`{"m":{"1 ":"a","1\t":"b"}}`, bind.DuplicateKey},
		{`{"u":{"1 ":"a","1":"b"}}`, bind.DuplicateKey},
		{`{"m":{"0":"a","1 ":"b"}}`, ""},
		{`{"m":{"null":"a","0 ":"b"}}`, bind.DuplicateKey},
		{`{"m":{"21000000000000000000 ":"a"}}`, bind.WrappedNumber},
		{`{"m":{"21000000000000000000":"a"}}`, bind.WrappedNumber},
		{`{"m":{"2553255926290448384":"a","21000000000000000000 ":"b"}}`, bind.DuplicateKey},
	} {
		var v intMaps
		if err := segmentio.Binder.Unmarshal([]byte(tc.args), &v); err != nil {
			t.Fatalf("%s: segmentio fails: %v", tc.args, err)
		}
		keys := 0
		for _, m := range []int{len(v.M), len(v.U)} {
			keys += m
		}
		issues := plan.Check([]byte(tc.args), nil)
		var got []bind.Code
		for _, is := range issues {
			got = append(got, is.Kind)
		}
		if tc.want == "" && len(got) != 0 || tc.want != "" && (len(got) == 0 || !slicesContains(got, tc.want)) {
			t.Errorf("%s: segmentio reads %d keys; the guard says %v, want %q", tc.args, keys, got, tc.want)
		}
	}
}

func slicesContains(s []bind.Code, c bind.Code) bool {
	for _, x := range s {
		if x == c {
			return true
		}
	}
	return false
}
