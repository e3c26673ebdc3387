package refuse_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type lenientArgs struct {
	Owner string `json:"owner"`
	Page  int    `json:"page,omitempty"`
}

// closedReader reads owner and page from a map, page as a whole number or
// numeric text, and refuses a key it does not know (as a server with a
// closed schema does).
func closedReader(data []byte, v any) error {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	a := v.(*lenientArgs)
	for k, x := range m {
		switch k {
		case "owner":
			s, ok := x.(string)
			if !ok {
				return errors.New("owner is not text")
			}
			a.Owner = s
		case "page":
			switch p := x.(type) {
			case float64:
				a.Page = int(p)
			case string:
				if _, err := fmt.Sscan(p, &a.Page); err != nil {
					return err
				}
			default:
				return errors.New("page is not a number")
			}
		default:
			return fmt.Errorf("unknown parameter %q", k)
		}
	}
	if a.Owner != "" && a.Owner != "admin" && a.Page > 100 {
		return errors.New("only admin reads past page 100")
	}
	return nil
}

// TestDecide_Reader_RefusesWhatTheReaderRefuses_InItsArgument pins the
// words of a bind.Reader's failures: an argument it refuses alone, a key
// it refuses that the record does not know (an unknown argument, refused
// in Warn too), and the arguments as a whole. It failed before the refuse
// side was written: the key and the whole were dropped, and the call went
// on under Warn with nothing said.
func TestDecide_Reader_RefusesWhatTheReaderRefuses_InItsArgument(t *testing.T) {
	for _, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
		reg := typereg.New(typereg.WithBinder(bind.Reader("closed", closedReader)), typereg.WithMode(mode))
		if err := typereg.Register[lenientArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			args string
			want []refuse.Problem
			text string
		}{
			{args: `{"owner":"o","page":"2"}`},
			{args: `{"owner":"o","page":true}`, want: []refuse.Problem{{Argument: "page", Code: refuse.InvalidValue, Takes: "a whole number", Sent: "true"}}},
			{args: `{"owner":"o","pag":1}`, want: []refuse.Problem{{Argument: "pag", Code: refuse.UnknownArgument, Sent: `"pag"`, DidYouMean: "page"}},
				text: "Argument 'pag' is not a parameter of tool 't'; did you mean 'page'?"},
			{args: `{"owner":"o","page":500}`, want: []refuse.Problem{{Code: refuse.InvalidValue, Takes: "a JSON object", Sent: `{"owner":"o","page":500}`}},
				text: `The arguments for tool 't' are refused as a whole, though each argument alone is read: the call sent {"owner":"o","page":500}.`},
			{args: `{"page":1,"OWNER":"p"}`, want: []refuse.Problem{{Argument: "OWNER", Code: refuse.UnknownArgument, Sent: `"OWNER"`, DidYouMean: "owner"}}},
			// Sent as owner, 7 fails too: the value is the problem.
			{args: `{"page":1,"OWNER":7}`, want: []refuse.Problem{{Argument: "owner", Code: refuse.InvalidValue, Takes: "text", Sent: "7"}}},
		} {
			d := refuse.Decide(reg, "t", json.RawMessage(c.args))
			if c.want == nil {
				if d.Refusal != nil {
					t.Errorf("mode %v, %s: refused a call the reader reads: %v", mode, c.args, d.Refusal)
				}
				continue
			}
			if d.Refusal == nil {
				t.Errorf("mode %v, %s: not refused", mode, c.args)
				continue
			}
			got := d.Refusal.Problems
			if diff := cmp.Diff(c.want, got, noPointer); diff != "" {
				t.Errorf("mode %v, %s (-want +got):\n%s", mode, c.args, diff)
			}
			if c.text != "" && !strings.Contains(d.Refusal.Error(), c.text) {
				t.Errorf("mode %v, %s: text %s", mode, c.args, d.Refusal.Error())
			}
		}
	}
}

// readerRegistry records lenientArgs as "reader_tool", read by closedReader.
func readerRegistry(t *testing.T) *typereg.Registry {
	t.Helper()
	reg := typereg.New(typereg.WithBinder(bind.Reader("closed", closedReader)))
	if err := typereg.Register[lenientArgs](reg, "reader_tool"); err != nil {
		t.Fatal(err)
	}
	return reg
}

type clampedArgs struct {
	Limit int `json:"limit" validate:"min=1,max=100"`
}

// clampReader reads limit as a whole number and clamps it to 1..100, as a
// server's own reader may: whatever number is sent, the handler gets one
// its constraint takes.
func clampReader(data []byte, v any) error {
	var m map[string]float64
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	n := int(m["limit"])
	v.(*clampedArgs).Limit = min(max(n, 1), 100)
	return nil
}

// TestDecide_Reader_ConstraintsOnWhatTheReaderReads: a validate tag holds
// the value the handler gets, which a bind.Reader makes; the literal sent
// is not it. 500 reads as 100 here, within the tag's range, so the call is
// not refused (the reader's change is a silent loss, a warning).
func TestDecide_Reader_ConstraintsOnWhatTheReaderReads(t *testing.T) {
	reg := typereg.New(typereg.WithBinder(bind.Reader("clamp", clampReader)))
	if err := typereg.Register[clampedArgs](reg, "page"); err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"limit":500}`, `{"limit":0}`, `{"limit":50}`} {
		if d := refuse.Decide(reg, "page", json.RawMessage(args)); d.Refusal != nil {
			t.Errorf("%s: the reader reads a limit within 1..100, but the guard refused: %v", args, d.Refusal)
		}
	}
}

type trimmedArgs struct {
	Code string `json:"code" validate:"max=2"`
}

// trimReader reads code with its spaces trimmed, as a server's own reader
// may.
func trimReader(data []byte, v any) error {
	var m map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	v.(*trimmedArgs).Code = strings.TrimSpace(m["code"])
	return nil
}

// TestDecide_Reader_ConstraintsOnWhatTheReaderReads_Text: " ab " reads as
// "ab", two characters, within max=2.
func TestDecide_Reader_ConstraintsOnWhatTheReaderReads_Text(t *testing.T) {
	reg := typereg.New(typereg.WithBinder(bind.Reader("trim", trimReader)))
	if err := typereg.Register[trimmedArgs](reg, "lookup"); err != nil {
		t.Fatal(err)
	}
	if d := refuse.Decide(reg, "lookup", json.RawMessage(`{"code":" ab "}`)); d.Refusal != nil {
		t.Errorf("the reader reads \"ab\", within max=2, but the guard refused: %v", d.Refusal)
	}
	if d := refuse.Decide(reg, "lookup", json.RawMessage(`{"code":" abc "}`)); d.Refusal == nil {
		t.Errorf("the reader reads \"abc\", past max=2, but the guard passed it")
	}
}
