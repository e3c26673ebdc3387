package bind

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// plainArgs has names plainMembers reads a key of as one word, as two,
// and not at all (longer than 15 bytes, or not a plain token's text),
// beside a nested struct, a pointer to one, a list of them and a map.
type plainArgs struct {
	Count  int            `json:"count"`
	Window plainWindow    `json:"window"`
	Long   string         `json:"a_rather_long_name"`
	Two    string         `json:"fifteen_bytes__"`
	Seven  int            `json:"seven77"`
	Eight  int            `json:"eight888"`
	Odd    string         `json:"a<b&c"`
	Accent string         `json:"café"`
	Ptr    *plainWindow   `json:"ptr,omitempty"`
	List   []plainWindow  `json:"list"`
	Map    map[string]int `json:"map"`
	Fold   string         `json:"Fold,omitempty,case:ignore"`
	// Maps whose keys plainMapMembers reads, and two whose keys it does
	// not (read as numbers, or by a method).
	Nested map[string]plainWindow `json:"nested"`
	Anys   map[string]any         `json:"anys"`
	Ints   map[int]string         `json:"ints"`
	Low    map[plainLowKey]int    `json:"low"`
}

// plainLowKey is a map key its UnmarshalText folds to lower case.
type plainLowKey string

func (k *plainLowKey) UnmarshalText(b []byte) error {
	*k = plainLowKey(strings.ToLower(string(b)))
	return nil
}

type plainWindow struct {
	From string `json:"from"`
	To   string `json:"to"`
	Tail int    `json:"tail,omitempty"`
}

// plainCalls: members in the fields' order and out of it, repeated,
// folded, escaped, with a byte past ASCII, spaced, and cut.
var plainCalls = []string{
	`{"count":1,"window":{"from":"a","to":"b","tail":2},"a_rather_long_name":"x","fifteen_bytes__":"y","seven77":7,"eight888":8,"a<b&c":"o","café":"é","ptr":{"from":"p"},"list":[{"from":"l","to":"m"},{"tail":1}],"map":{"k":1},"Fold":"f"}`,
	`{"map":{"k":1},"list":[],"ptr":null,"café":"é","a<b&c":"o","eight888":8,"seven77":7,"fifteen_bytes__":"y","a_rather_long_name":"x","window":{"tail":2,"to":"b","from":"a"},"count":1}`,
	`{"count":1,"count":2,"window":{"from":"a","from":"b"}}`,
	`{"count":1,"window":{"from":"a"},"count":"x"}`,
	`{"COUNT":1,"Window":{"FROM":"a"},"fold":"x","FOLD":"y"}`,
	`{"co\u0075nt":1,"window":{"fr\u006fm":"a","to":"b"}}`,
	"{\"count\":1,\"window\":{\"from\":\"a\",\"to\xff\":\"b\"},\"caf\xc3\xa9\":1}",
	`{ "count" : 1 , "window" : { "from" : "a" , "to" : "b" } , "seven77" : 7 }`,
	`{"count":1,"zz":2,"window":{"zz":1,"from":"a"},"seven77":1}`,
	`{"count":"x","window":{"from":1,"to":null},"seven77":1.5,"eight888":1e400,"list":[{"from":2}]}`,
	`{"count":1,"window":[],"ptr":{"from":"a","to":{}},"fifteen_bytes__":"a\u00e9"}`,
	`{"count":1,"window":{"from":"a","to":"b"}}`,
	`{"to":1,"count":1,"tail":1}`,
	`{"count":1,"count":1}`,
	`{"":1,"count":1}`,
	`{"count":1,"window":{"from":"a","to":"b"},"seven77":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
	`{"map":{"a":1,"b":2,"a":3},"nested":{"x":{"from":"a"},"y":{"to":1},"x":{}},"anys":{"a":[1,{"b":2,"b":3}],"c":{"d":1e400}}}`,
	`{"map":{"\u0061":1,"a":2,"é":3,"é":4,"b":5},"nested":{"é":{"from":"a"},"x":null},"anys":{"é":1,"a":"\ud800"}}`,
	"{\"map\":{\"a\xff\":1,\"a\":2},\"ints\":{\"1\":\"a\",\"01\":\"b\",\"x\":\"c\"},\"low\":{\"a\":1,\"A\":2,\"b\":3}}",
	`{"map":{"a":1,"b":"x","c":1.5,"d":null,"e":99999999999999999999},"nested":{"a":[],"b":{"from":1,"zz":2}}}`,
	`{"map":{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k3":18}}`,
}

// plainPolicies are the top-level key policies plainMembers reads with:
// none, names taken, aliases (under which it reads nested members only).
var plainPolicies = []bindcap.TopKeys{
	{},
	bindcap.NewTopKeys([]string{"zz"}, nil),
	bindcap.NewTopKeys(nil, map[string]string{"cnt": "count", "c": "seven77"}),
	func() bindcap.TopKeys {
		k := bindcap.NewTopKeys([]string{"zz"}, map[string]string{"cnt": "count"})
		k.BindAliases = true
		return k
	}(),
}

// samePlain says how the verdicts of plan p on args differ with
// plainMembers and without (object's loop alone), or "": the check's
// issues and members under the policy top, the proving pass's verdict
// and, for a call the binder reads, the clean mode's.
func samePlain(p *Plan, args []byte, top bindcap.TopKeys) string {
	type verdict struct {
		issues, native, clean []Issue
		ms, nms, cms          bindcap.Members
		nok, cok              bool
	}
	read := func() (v verdict) {
		v.issues, v.ms = checkConstrainedV(p, args, nil, nil, top)
		if p.root != nil && p.check != nil {
			c := new(checker)
			c.record, c.members = true, &v.nms
			v.native, v.nok = p.native(c, args, nil)
			if p.Binder().Unmarshal(args, reflect.New(p.Type()).Interface()) == nil { // the clean mode reads only such a call
				c = new(checker)
				c.record, c.members = true, &v.cms
				v.clean, v.cok = p.cleanVerdict(c, args, nil)
			}
		}
		return v
	}
	fast := read()
	slowPlain = true
	slow := read()
	slowPlain = false
	if !reflect.DeepEqual(fast, slow) {
		return fmt.Sprintf("%s %q:\n%+v\nwithout plainMembers\n%+v", p.Binder().Name(), args, fast, slow)
	}
	return ""
}

// TestCheck_PlainMembersSameVerdict: the members plainMembers reads get,
// on every binder and under every top-level policy, the verdict object's
// loop gives them (issues, members, the pass's declines), whatever the
// members around them are: cut at every byte, and with a quote, a
// backslash, a colon or a letter put at every byte.
func TestCheck_PlainMembersSameVerdict(t *testing.T) {
	for _, b := range membersBinders {
		p, err := b.Compile(reflect.TypeFor[plainArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, call := range plainCalls {
			var variants []string
			for at := range len(call) + 1 {
				variants = append(variants, call[:at])
				if at < len(call) && len(call) < 400 {
					for _, put := range []string{`"`, `\`, `:`, `x`, ` `} {
						variants = append(variants, call[:at]+put+call[at+1:])
					}
				}
			}
			for _, top := range plainPolicies {
				for _, args := range variants {
					if err := samePlain(p, []byte(args), top); err != "" {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// TestCheck_PlainMembersReadTheCall: plainMembers, not object's loop,
// reads each member of a call sent in the fields' order, nested too, on
// every binder; sent in another order, the loop reads those it does not.
// plainMapMembers reads a map's members of plain keys.
func TestCheck_PlainMembersReadTheCall(t *testing.T) {
	plainRead = new(atomic.Int64)
	defer func() { plainRead = nil }()
	for _, r := range []struct {
		args string
		want int64
	}{
		// All but the keys longer than 15 bytes or past ASCII, and "tail"
		// where "from" is the guess: 10 at the top, 7 nested (the map's
		// key by plainMapMembers).
		{plainCalls[0], 17},
		// The map's keys but the one sent again, the one past ASCII and
		// the one after it (the loop reads the key after one it read).
		{`{"map":{"a":1,"b":2,"a":3,"é":4,"c":5,"d":6}}`, 3},
		{`{"count":1,"window":{"from":"a","to":"b"},"a_rather_long_name":"x","fifteen_bytes__":"y"}`, 5},
		{`{"window":{"to":"b","from":"a"},"count":1}`, 0},        // each key names a field other than the guess
		{`{"count":1,"count":2}`, 1},                             // the loop lists the second
		{`{"count":1,"zz":1,"window":{"from":"a","to":"b"}}`, 4}, // an unknown key moves no guess
	} {
		for _, b := range []Binder{Std, V2, SegmentIO} {
			p, err := b.Compile(reflect.TypeFor[plainArgs]())
			if err != nil {
				t.Fatal(err)
			}
			plainRead.Store(0)
			var ms bindcap.Members
			checkConstrained(p, []byte(r.args), nil, nil, bindcap.TopKeys{}, &ms)
			if got := plainRead.Load(); got != r.want {
				t.Errorf("%s %s: plainMembers read %d members, want %d", b.Name(), r.args, got, r.want)
			}
		}
	}
}

// TestNextSlot_QuotedAsTheToken: quoted is true only where the bytes from
// the key's quote are the plain name's token whole, and true there for
// every name of at most 15 plain bytes, whatever follows, where the
// arguments go on for 16 bytes past the quote.
func TestNextSlot_QuotedAsTheToken(t *testing.T) {
	names := []string{"", "a", "count", "seven77", "eight888", "nine99999", "fifteen_bytes__", "sixteen_bytes___",
		"a<b&c", "café", "a\"b", `a\`, "a\x00", "tab\t", "del\x7f", "~"}
	for _, name := range names {
		s := newNextSlot(name, 0)
		keys := []string{`"` + name + `"`, `"` + name, `"` + name + `\"`, `"` + name + `x"`, `"x` + name + `"`}
		if name != "" {
			keys = append(keys, `"`+name[:len(name)-1]+`"`, `"`+name[1:]+`"`, strings.ToUpper(`"`+name+`"`))
		}
		for _, key := range keys {
			for _, tail := range []string{"", ":", `:1}`, strings.Repeat(" ", 16), `":1}` + strings.Repeat("x", 20)} {
				for _, lead := range []string{"", `{`, `{"a":1,`} {
					data := []byte(lead + key + tail)
					ks := len(lead)
					token := `"` + name + `"`
					got := s.quoted(data, ks)
					if got && (!bytes.HasPrefix(data[ks:], []byte(token)) || !plainName(name) || strings.Contains(name, `"`)) {
						t.Errorf("name %q in %q: quoted, but the key is no plain token of it", name, data)
					}
					whole := bytes.HasPrefix(data[ks:], []byte(token)) && len(data)-ks >= 17
					if want := whole && plainName(name) && len(name) <= 15; want && !got {
						t.Errorf("name %q in %q: not quoted", name, data)
					}
				}
			}
		}
	}
}

// FuzzNextSlot_QuotedOnlyTheToken: for any name and bytes that hold a
// quote at ks (where plainMembers asks), quoted is true only where they
// hold the plain name's token from ks.
func FuzzNextSlot_QuotedOnlyTheToken(f *testing.F) {
	f.Add("count", []byte(`{"count":1}`), 1)
	f.Add("fifteen_bytes__", []byte(`{"fifteen_bytes__":1,"x":2}`), 1)
	f.Add("a\\", []byte(`{"a\":1}`), 1)
	f.Fuzz(func(t *testing.T, name string, data []byte, ks int) {
		if ks < 0 || ks >= len(data) || jsonlex.KindAt(data, ks) != jsonlex.KindString {
			return
		}
		s := newNextSlot(name, 0)
		if s.quoted(data, ks) && !(plainName(name) && bytes.HasPrefix(data[ks:], []byte(`"`+name+`"`))) {
			t.Fatalf("name %q in %q at %d: quoted, but the key is no plain token of it", name, data, ks)
		}
	})
}
