package refuse_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// The room a check takes (the key table, the issue lists, V2's repeats,
// the members) and what refuse derives from a record (its words and
// rules) outlive the call that made them. TestDecide_FloodsShareNoRoom
// holds floods to their verdict alone under Reject; here every policy
// that changes what a verdict reads (Warn, Strict, aliases and exempt
// keys, Open, a tool recorded from its schema), under every binder, with
// calls small and wide (objects past the checker's own entries, merged
// objects, escaped and folded keys, invalid UTF-8): each call's decision
// is the one it gets first, kept after the others, made again after them
// in reverse order, and made at once with them.

type sharedInner struct {
	A    int          `json:"a"`
	B    string       `json:"b,omitempty" validate:"omitempty,max=4"`
	Deep *sharedInner `json:"deep,omitempty"`
}

type sharedArgs struct {
	Name  string         `json:"name" validate:"max=8"`
	Limit int            `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
	Hours int            `json:"hours,omitempty" bindguard:"alias=hours_back"`
	Inner sharedInner    `json:"inner,omitzero"`
	Map   map[string]int `json:"map,omitempty" validate:"dive,lte=10"`
	Arr   [3]int         `json:"arr,omitzero"`
	List  []sharedInner  `json:"list,omitempty"`
	Any   any            `json:"any,omitempty"`
	F32   float32        `json:"f32,omitempty"`
}

const sharedSchema = `{"type":"object","properties":{"name":{"type":"string","maxLength":8},` +
	`"limit":{"type":"integer","minimum":1},"inner":{"type":"object","properties":{"a":{"type":"integer"}},` +
	`"required":["a"],"additionalProperties":false},"map":{"type":"object","additionalProperties":{"type":"integer"}},` +
	`"any":{}},"required":["name"]}`

func sharedCalls(short bool) []string {
	keys := func(n int, f func(i int) string) string { return seq(n, f) }
	calls := []string{
		`{"name":"ok"}`,
		`{"name":"toolongname","limit":"x"}`,
		`{"name":"ok","u":1,"\u0075":2,"u":3,"cursor":1}`,
		`{"name":"ok","Name":"x","name":null}`,
		`{"name":"ok","inner":{"a":1},"inner":{"b":"xxxxxx"},"inner":{"zz":2}}`,
		`{"name":"ok","arr":[1,2,3,4],"f32":1.0000001}`,
		`{"hours":1,"hours_back":3,"hrs":2,"name":"ok"}`,
		`{"hours_\u0062ack":3,"name":"ok"}`,
		"{\"name\":\"\xff\",\"\xffk\":1}",
		`{"name":"ok","map":{"a":1,"a":2,"b":"x","c":11}}`,
		`{"name":"ok","list":[{"a":1,"a":2},{"a":"x"}],"list":[{"b":"xxxxxxx"}]}`,
		`{"name":`,
		`{"name":"ok","any":{` + keys(40, func(i int) string { return fmt.Sprintf(`"k%d":%d`, i%31, i) }) + `}}`,
		`{"name":"ok","map":{` + keys(40, func(i int) string { return fmt.Sprintf(`"\u006b%d":%d`, i%29, i%12) }) + `}}`,
		`{"name":"ok",` + keys(30, func(i int) string { return fmt.Sprintf(`"U%d":1,"u%d":2`, i%20, i%20) }) + `}`,
	}
	n := 3000
	if short {
		n = 1200
	}
	return append(calls,
		`{"name":"ok",`+keys(n, func(i int) string { return fmt.Sprintf(`"u%d":1,"\u0075%d":2`, i%(n/2), i%(n/2)) })+`}`,
		`{"name":"ok","any":{`+keys(4*n, func(i int) string { return fmt.Sprintf(`"k%d":1`, i%(3*n)) })+`}}`,
		`{"name":"ok",`+keys(n, func(i int) string { return fmt.Sprintf(`"inner":{"a":%d,"b":"%s"}`, i, strings.Repeat("x", i%7)) })+`}`,
		`{"name":"ok","list":[`+keys(n, func(int) string { return `{"a":"x","zz":1}` })+`]}`,
		`{`+keys(n, func(int) string { return `"limit":"x","Limit":2,"hrs":1` })+`,"name":"ok"}`,
	)
}

func TestDecide_VerdictIsTheCallsAloneUnderEveryPolicy(t *testing.T) {
	policies := []struct {
		name      string
		reg, tool []typereg.Option
	}{
		{"warn", []typereg.Option{typereg.WithMode(typereg.Warn)}, nil},
		{"strict", []typereg.Option{typereg.WithStrict(true)}, nil},
		{"aliases and exempt keys", []typereg.Option{typereg.WithExempt("cursor", "u3")}, []typereg.Option{typereg.WithAlias("hrs", "limit")}},
		{"open", nil, []typereg.Option{typereg.WithOpen()}},
	}
	type call struct {
		reg  *typereg.Registry
		name string
		tool string
		args json.RawMessage
	}
	var calls []call
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		for _, p := range policies {
			reg := typereg.New(append([]typereg.Option{typereg.WithBinder(b)}, p.reg...)...)
			if err := typereg.Register[sharedArgs](reg, "t", p.tool...); err != nil {
				t.Fatal(err)
			}
			stool := p.tool
			if p.name == "aliases and exempt keys" {
				stool = nil // a schema tool has no aliases
			}
			if err := reg.RegisterSchema("s", json.RawMessage(sharedSchema), stool...); err != nil {
				t.Fatal(err)
			}
			for _, tool := range []string{"t", "s"} {
				for _, args := range sharedCalls(testing.Short()) {
					calls = append(calls, call{reg, b.Name() + ", " + p.name, tool, json.RawMessage(args)})
				}
			}
		}
	}
	want := make([]string, len(calls))
	held := make([]refuse.Decision, len(calls))
	for i, c := range calls {
		held[i] = refuse.Decide(c.reg, c.tool, c.args)
		want[i] = decisionText(held[i])
	}
	bad := 0
	check := func(how string, i int, got string) {
		if got != want[i] && bad < 5 {
			bad++
			c := calls[i]
			t.Errorf("%s, tool %s, %s: %.120s\n got %.400s\nwant %.400s", c.name, c.tool, how, c.args, got, want[i])
		}
	}
	for i := range calls {
		check("kept after the others", i, decisionText(held[i]))
	}
	for i := len(calls) - 1; i >= 0; i-- {
		check("after the others, in reverse", i, decisionText(refuse.Decide(calls[i].reg, calls[i].tool, calls[i].args)))
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range calls {
				i := (k*7 + g*len(calls)/4) % len(calls)
				if got := decisionText(refuse.Decide(calls[i].reg, calls[i].tool, calls[i].args)); got != want[i] {
					mu.Lock()
					check("at once with others", i, got)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
}
