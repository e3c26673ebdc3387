package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// TestCheck_NullMapKeyAsTheBindersRead: the key "null" of a map with
// integer keys is read as each binder reads it (encoding/json under
// GOEXPERIMENT=jsonv2 reads it as 0, as it reads a quoted null; alone it
// fails), and when the binder makes one key of "null" and "0" the guard
// says the second repeats the first.
func TestCheck_NullMapKeyAsTheBindersRead(t *testing.T) {
	type args struct {
		I   map[int]string     `json:"i"`
		I8  map[int8]string    `json:"i8"`
		U   map[uint]string    `json:"u"`
		U16 map[uint16]string  `json:"u16"`
		P   map[uintptr]string `json:"p"`
	}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[args]())
		if err != nil {
			t.Fatalf("%s: %v", b.Name(), err)
		}
		for _, f := range []string{"i", "i8", "u", "u16", "p"} {
			for _, keys := range []string{`"null":"x"`, `"nu\u006cl":"x"`, `"Null":"x"`, `"null0":"x"`, `" null":"x"`, `"null":"x","7":"y"`} {
				checkAgainst(t, plan, []byte(`{"`+f+`":{`+keys+`}}`))
			}
			for _, keys := range []string{`"null":"a","0":"b"`, `"0":"a","null":"b"`, `"null":"a","nu\u006cl":"b"`} {
				in := []byte(`{"` + f + `":{` + keys + `}}`)
				checkAgainst(t, plan, in)
				v := reflect.New(plan.Type())
				if b.Unmarshal(in, v.Interface()) != nil {
					continue
				}
				if n := v.Elem().FieldByNameFunc(func(name string) bool {
					sf, _ := plan.Type().FieldByName(name)
					return sf.Tag.Get("json") == f
				}).Len(); n != 1 {
					continue // two keys
				}
				dup := false
				for _, is := range plan.Check(in, nil) {
					dup = dup || is.Kind == bind.DuplicateKey
				}
				if !dup {
					t.Errorf("%s %s: the binder makes one key of two, the guard says nothing", b.Name(), in)
				}
			}
		}
	}
}
