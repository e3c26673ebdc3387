package contain_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/bindguard/bindguard/internal/contain"
)

type textM struct{ s string }

func (t *textM) UnmarshalText(b []byte) error {
	if string(b) == "bad" {
		return errors.New("bad text")
	}
	t.s = "text:" + string(b)
	return nil
}

type jsonM struct{ s string }

func (j *jsonM) UnmarshalJSON(b []byte) error {
	if string(b) == `"bad"` {
		return errors.New("bad json")
	}
	j.s = "json:" + string(b)
	return nil
}

// fromSkips says ErrUnsupported having read nothing: go-json-experiment
// falls back to its UnmarshalJSON, the standard library's v2 fails.
type fromSkips struct{ s string }

func (f *fromSkips) UnmarshalJSONFrom(*jsontext.Decoder) error { return errors.ErrUnsupported }
func (f *fromSkips) UnmarshalJSON(b []byte) error {
	f.s = "fallback:" + string(b)
	return nil
}

// fromReadsThenSkips says ErrUnsupported having read the value: V2 fails.
type fromReadsThenSkips struct{}

func (f *fromReadsThenSkips) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if _, err := dec.ReadValue(); err != nil {
		return err
	}
	return errors.ErrUnsupported
}

// TestV2Unmarshal_AsV2Itself: with its methods contained, V2 decodes every
// value as V2 on its own does, in either build: the same verdict, the same
// place for a failure, the same value decoded. time.Time, null for a type
// with UnmarshalText or UnmarshalJSON, and a method that says
// errors.ErrUnsupported are where the two builds' V2 differ.
func TestV2Unmarshal_AsV2Itself(t *testing.T) {
	type args struct {
		T  time.Time            `json:"t"`
		TP *time.Time           `json:"tp"`
		X  textM                `json:"x"`
		XP *textM               `json:"xp"`
		XS []textM              `json:"xs"`
		XM map[string]textM     `json:"xm"`
		J  jsonM                `json:"j"`
		JP *jsonM               `json:"jp"`
		S  fromSkips            `json:"s"`
		R  fromReadsThenSkips   `json:"r"`
		K  map[textM]int        `json:"k"`
		D  time.Duration        `json:"d"`
		N  map[string]*jsonM    `json:"n"`
		A  []fromReadsThenSkips `json:"a"`
	}
	values := []string{`null`, `"2024-01-02T03:04:05Z"`, `"2024-01-02T03:04:05+01:00"`, `"x"`, `"bad"`, `""`, `5`, `true`, `{}`, `[]`, `[null]`, `["a",null]`, `{"a":null}`, `{"a":"b"}`}
	for _, key := range []string{"t", "tp", "x", "xp", "xs", "xm", "j", "jp", "s", "r", "k", "d", "n", "a"} {
		for _, val := range values {
			in := []byte(`{"` + key + `":` + val + `}`)
			var want, got args
			werr := jsonv2.Unmarshal(in, &want)
			gerr := contain.V2Unmarshal(in, &got)
			if (werr == nil) != (gerr == nil) {
				t.Errorf("%s: V2 says %v, contained %v", in, werr, gerr)
				continue
			}
			if werr == nil {
				if !reflect.DeepEqual(want, got) {
					t.Errorf("%s: V2 decodes %+v, contained %+v", in, want, got)
				}
				continue
			}
			if w, g := where(werr), where(gerr); w != g {
				t.Errorf("%s: V2 fails at %s (%v), contained at %s (%v)", in, w, werr, g, gerr)
			}
		}
	}
}

func where(err error) string {
	if se, ok := contain.As[*jsontext.SyntacticError](err); ok {
		return "syntax " + string(se.JSONPointer)
	}
	if me, ok := contain.As[*jsonv2.SemanticError](err); ok {
		return "semantic " + string(me.JSONPointer)
	}
	return "elsewhere"
}
