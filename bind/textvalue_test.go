package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// textSeen keeps the text its UnmarshalText was handed.
type textSeen struct{ got string }

func (s *textSeen) UnmarshalText(b []byte) error { s.got = string(b); return nil }

// jsonAndText has both methods: encoding/json calls UnmarshalJSON, with
// the bytes as sent.
type jsonAndText struct{ got string }

func (s *jsonAndText) UnmarshalJSON(b []byte) error { s.got = string(b); return nil }
func (s *jsonAndText) UnmarshalText(b []byte) error { s.got = string(b); return nil }

type textValueArgs struct {
	T textSeen            `json:"t"`
	L []textSeen          `json:"l"`
	M map[string]textSeen `json:"m"`
	P *textSeen           `json:"p"`
	J jsonAndText         `json:"j"`
}

// TestCheck_TextMethodHandedReplacedText: a string read by a type's
// UnmarshalText holding invalid UTF-8 or a lone surrogate is handed to the
// method with U+FFFD in its place, by encoding/json as by segmentio: a
// ReplacedText loss at the value, under Std as under segmentio (Std said
// nothing; segmentio warned). A type whose UnmarshalJSON reads the value
// gets the bytes as sent: no loss.
func TestCheck_TextMethodHandedReplacedText(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[textValueArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			args, sent, path string
			param            int
		}{
			{`{"t":"a\ud800b"}`, `"a\ud800b"`, "", 0},
			{"{\"t\":\"\xff\"}", "\"\xff\"", "", 0},
			{`{"l":["ok","\udc00"]}`, `"\udc00"`, "[1]", 1},
			{`{"m":{"k":"\ud800\ud800"}}`, `"\ud800\ud800"`, ".k", 2},
			{`{"p":"\udfff"}`, `"\udfff"`, "", 3},
		} {
			var v textValueArgs
			if err := b.Unmarshal([]byte(tc.args), &v); err != nil {
				t.Fatalf("%s: %s: %v", b.Name(), tc.args, err)
			}
			var got []bind.Issue
			for _, is := range plan.Check([]byte(tc.args), nil) {
				if is.Kind == bind.ReplacedText {
					got = append(got, is)
				}
			}
			if len(got) != 1 || tc.args[got[0].Start:got[0].End] != tc.sent || got[0].Param != tc.param || got[0].Path.String() != tc.path {
				t.Errorf("%s: %s: ReplacedText issues %+v, want one at %s%s spanning %s", b.Name(), tc.args, got, plan.Params()[tc.param].Name, tc.path, tc.sent)
			}
		}
		// The method is handed U+FFFD (so the loss is real), and
		// UnmarshalJSON the bytes as sent (no loss).
		var v textValueArgs
		if err := b.Unmarshal([]byte(`{"t":"\ud800","j":"\ud800"}`), &v); err != nil {
			t.Fatal(err)
		}
		if v.T.got != "\ufffd" || v.J.got != `"\ud800"` {
			t.Errorf("%s: UnmarshalText got %q, UnmarshalJSON %q", b.Name(), v.T.got, v.J.got)
		}
		for _, is := range plan.Check([]byte(`{"j":"\ud800","t":"ok"}`), nil) {
			t.Errorf("%s: a value UnmarshalJSON reads as sent: %+v", b.Name(), is)
		}
	}
}
