package bind_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

type nmSpan struct {
	From int `json:"from"`
	To   int `json:"to,omitempty"`
	Odd  int `json:"a.b"`
}

type nmArgs struct {
	Span  nmSpan            `json:"span"`
	Spans []nmSpan          `json:"spans"`
	ByKey map[string]nmSpan `json:"by_key"`
	Ptr   *nmSpan           `json:"ptr"`
}

// requiredOfSpan is what the published schema requires of nmSpan.
func requiredOfSpan(t reflect.Type) []string {
	if t == reflect.TypeFor[nmSpan]() {
		return []string{"from", "a.b", "no such field"}
	}
	return nil
}

// A required field a nested object leaves out is Missing, with the path
// to where it would be, under every binder; a key the binder binds to it
// (by its own matching) sends it.
func TestCheck_MissingFieldsOfNestedObjects(t *testing.T) {
	type want struct {
		param, path string
	}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		t.Run(b.Name(), func(t *testing.T) {
			plan, err := b.Compile(reflect.TypeFor[nmArgs]())
			if err != nil {
				t.Fatal(err)
			}
			plan = plan.WithRequired(nil, requiredOfSpan)
			for _, tc := range []struct {
				args string
				want []want
			}{
				{`{"span":{"from":1,"a.b":2}}`, nil},
				{`{"span":{}}`, []want{{"span", ".from"}, {"span", `["a.b"]`}}},
				{`{"span":{"to":1,"a.b":2}}`, []want{{"span", ".from"}}},
				{`{"spans":[{"from":1,"a.b":2},{"a.b":2}]}`, []want{{"spans", "[1].from"}}},
				{`{"by_key":{"k":{"from":1}}}`, []want{{"by_key", `.k["a.b"]`}}},
				{`{"ptr":{"a.b":1}}`, []want{{"ptr", ".from"}}},
				{`{"ptr":null,"spans":null,"by_key":{}}`, nil},
			} {
				var got []want
				for _, is := range plan.Check([]byte(tc.args), nil) {
					if is.Kind == bind.MissingField {
						got = append(got, want{plan.Params()[is.Param].Name, is.Path.String()})
					} else if is.Kind.Class() == bind.BinderFailure {
						t.Fatalf("%s: the binder fails: %+v", tc.args, is)
					}
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("%s: Missing at %v, want %v", tc.args, got, tc.want)
				}
			}
			// By the binder's own key matching: Std binds a folded key,
			// the others do not.
			got := 0
			for _, is := range plan.Check([]byte(`{"span":{"FROM":1,"a.b":2}}`), nil) {
				if is.Kind == bind.MissingField {
					got++
				}
			}
			if wantMissing := b != bind.Std; (got == 1) != wantMissing {
				t.Errorf(`{"span":{"FROM":1,...}}: %d Missing, want the binder's own matching (folds: %v)`, got, !wantMissing)
			}
		})
	}
}
