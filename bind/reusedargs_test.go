package bind_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

type reusedArgs struct {
	Limit int            `json:"limit"`
	Name  string         `json:"name"`
	Tags  map[string]int `json:"tags"`
}

// TestCheck_IssuePathsSurviveReusedArguments: the issues Check returns
// outlive the call, and the arguments' bytes are the caller's to reuse (a
// server reads each request into the same buffer). A path to an
// argument's own value reads the argument's key from those bytes, without
// a copy (bind.Path says so): written over, the path shows what they hold
// then, and must not panic. It did, under every binder, where the bytes
// began with a byte of the paths' own encoding: Pointer and String read
// them as encoded steps, a length past their end (slice bounds out of
// range).
func TestCheck_IssuePathsSurviveReusedArguments(t *testing.T) {
	calls := []string{
		`{"limit":"x","name":"ok"}`,
		`{"name":"ok","limit":1,"limit":2}`,
		`{"name":"ok","LIMIT":1}`,
		`{"name":"ok","tags":{"a":"x"},"limit":"x"}`,
		`{"\u006cimit":true}`,
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[reusedArgs]())
		if err != nil {
			t.Fatal(err)
		}
		led := 0
		for _, call := range calls {
			args := []byte(call)
			issues := plan.Check(args, nil)
			want := pathsOf(issues)
			if !strings.Contains(want, `"/`) {
				continue // no issue leads to an argument (V2 folds no key)
			}
			led++
			// The next request, read into the same bytes: each byte a tag
			// of the paths' encoding, the length after it past the text.
			for i := range args {
				args[i] = "aikKAe"[i%6]
			}
			args[2] = 0xff
			if got := pathsOf(issues); strings.Contains(got, "panic") {
				t.Errorf("%s %s: once the arguments are written over, rendering the paths: %s", b.Name(), call, got)
			}
			for range 200 { // and any bytes
				for i := range args {
					args[i] = byte(rng.UintN(256))
				}
				if got := pathsOf(issues); strings.Contains(got, "panic") {
					t.Fatalf("%s %s: once the arguments are written over with %q, rendering the paths: %s", b.Name(), call, args, got)
				}
			}
			copy(args, call)
			if got := pathsOf(issues); got != want {
				t.Errorf("%s %s: the arguments written back, the paths read\n%s\nwant\n%s", b.Name(), call, got, want)
			}
		}
		if led < 4 {
			t.Errorf("%s: %d calls of %d have an issue that leads to an argument", b.Name(), led, len(calls))
		}
	}
}

// pathsOf renders each issue's path, readable and as a pointer, or the
// panic rendering one.
func pathsOf(issues []bind.Issue) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprint("panic: ", r)
		}
	}()
	var b strings.Builder
	for _, is := range issues {
		fmt.Fprintf(&b, "%s %q %q\n", is.Kind, is.Path.String(), is.Path.Pointer())
	}
	return b.String()
}
