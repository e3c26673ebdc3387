package bindtest_test

import (
	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"testing"

	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/typereg"
)

// probeRegistry registers the probe tool, whose parameters cover the
// default table's vocabulary.
func probeRegistry(t testing.TB) *typereg.Registry {
	t.Helper()
	reg := typereg.New()
	if err := typereg.Register[probe.Args](reg, probe.Tool); err != nil {
		t.Fatal(err)
	}
	return reg
}

// The project's own table holds on both halves: encoding/json fails on
// exactly the rows marked refused, and the guard refuses exactly those, by
// name, with the row's words and a quote of the value.
func TestDefaultTable_BothHalvesHold(t *testing.T) {
	bindtest.Run(t, probeRegistry(t), probe.Tool, bindtest.Default())
}

// Every type the probe tool declares has a row.
func TestDefaultTable_CoversEveryProbeType(t *testing.T) {
	bindtest.Census(t, probeRegistry(t), bindtest.Default())
}

// The table carries each other binder's verdict where it differs from
// encoding/json's: both halves hold for every binder bind has.
func TestDefaultTable_BothHalvesHold_EveryBinder(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		t.Run(b.Name(), func(t *testing.T) {
			reg := typereg.New(typereg.WithBinder(b))
			if err := typereg.Register[probe.Args](reg, probe.Tool); err != nil {
				t.Fatal(err)
			}
			bindtest.Run(t, reg, probe.Tool, bindtest.Default())
		})
	}
}
