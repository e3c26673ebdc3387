package bench

import (
	"context"
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// ToolAliasKeys is Keys's tool with an alias: "tallies" stands for
// "counts".
const ToolAliasKeys = "alias_keys"

func aliasRegistry(b bind.Binder) *typereg.Registry {
	reg := typereg.New(typereg.WithBinder(b))
	must(typereg.Register[Keys](reg, ToolAliasKeys, typereg.WithAlias("tallies", "counts")))
	return reg
}

// AliasKeysArgs returns Keys10k's call with its map sent under the alias:
// {"tallies":{"k00000":0, ...}} with n keys.
func AliasKeysArgs(n int) []byte {
	b := make([]byte, 0, 12*n+16)
	b = append(b, `{"tallies":{`...)
	b = appendKeys(b, n)
	return append(b, `}}`...)
}

// aliasPayload is the call of 10,000 keys that uses an alias: Refuse
// renames the alias and reads the map as its parameter's (the binder, on
// the call as sent, drops the key; Decide's Args rename it, so the
// handler reads the map).
var aliasPayload = &Payload{
	Name: "AliasKeys10k", Tool: ToolAliasKeys, Type: reflect.TypeFor[Keys](),
	Args: AliasKeysArgs(10_000), BindOK: true,
}

// BenchmarkAliasKeys10k measures Refuse through every binder on a 10,000-key
// call that uses an alias, against each binder's own decode of the same
// bytes (guard=bind, guard=bind-NAME) and json.Valid (guard=valid), as
// cmd/ratio divides them. Each sub-benchmark checks its verdict (every one
// reads the call) before its timer starts.
func BenchmarkAliasKeys10k(b *testing.B) {
	benchRivals(b, aliasPayload, aliasRivals(), aliasCall)
}

// aliasCall sets up one of BenchmarkAliasKeys10k's sub-benchmarks.
func aliasCall(ctx context.Context, rival string) (call func() error, cleanup func()) {
	bd, ok := BinderOf(rival)
	if !ok {
		bd = bind.Std
	}
	return Setup(ctx, aliasRegistry(bd), aliasPayload, rival)
}

// aliasRivals lists BenchmarkAliasKeys10k's sub-benchmarks: each binder's
// decode and Refuse through it, and json.Valid.
func aliasRivals() []string {
	var rivals []string
	for _, bd := range Binders {
		rivals = append(rivals, BindRival(bd), RefuseRival(bd))
	}
	return append(rivals, RivalValid)
}

// TestAliasVerdicts checks, without timing anything, what each of
// BenchmarkAliasKeys10k's sub-benchmarks checks before its timer, and
// that Decide's arguments carry the map under the parameter's name, with
// every binder.
func TestAliasVerdicts(t *testing.T) {
	ctx := context.Background()
	for _, rival := range aliasRivals() {
		call, cleanup := aliasCall(ctx, rival)
		if err := CheckVerdict(aliasPayload, rival, call); err != nil {
			t.Error(err)
		}
		cleanup()
	}
	for _, bd := range Binders {
		d := refuse.Decide(aliasRegistry(bd), ToolAliasKeys, aliasPayload.Args)
		var k Keys
		if err := bd.Unmarshal(d.Args, &k); d.Refusal != nil || err != nil || len(k.Counts) != 10_000 {
			t.Errorf("%s: %v, %v: %d keys read", bd.Name(), d.Refusal, err, len(k.Counts))
		}
	}
}
