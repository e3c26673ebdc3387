package bind

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestFieldSetFind: the field table finds every field by its exact name,
// in field sets of 1 to 300 fields whose names agree in length and in most
// of their bytes, and finds nothing for the names' near misses, by either
// hash (quickSlot, slot); and for 1,000 fields named alike
// (param_0000...), no key probes more than a few slots.
func TestFieldSetFind(t *testing.T) {
	chose := map[bool]bool{} // the tables fillSlots built by slot (true) and by quickSlot
	for _, n := range []int{1, 2, 3, 7, 8, 9, 64, 65, 300} {
		fields := make([]reflect.StructField, n)
		for i := range fields {
			// aXa, aXXa...: one length, one first, middle and last byte
			// for many; and names of every length.
			name := "a" + strings.Repeat("b", i%5) + strconv.Itoa(i) + strings.Repeat("b", i%5) + "a"
			fields[i] = reflect.StructField{Name: "F" + strconv.Itoa(i), Type: reflect.TypeFor[int](), Tag: reflect.StructTag(`json:"` + name + `"`)}
		}
		for _, b := range []Binder{Std, V2, SegmentIO} {
			p, err := b.Compile(reflect.StructOf(fields))
			if err != nil {
				t.Fatal(err)
			}
			var fs *fieldSet
			if p.root != nil {
				fs = p.root.fields
			}
			if fs == nil {
				t.Fatalf("%s: no field set", b.Name())
			}
			chose[fs.full] = true
			for _, full := range []bool{fs.full, !fs.full} {
				fs.fillSlotsBy(full)
				for i, prm := range fs.params {
					if got := fs.find([]byte(prm.Name)); got != i {
						t.Errorf("%s, %d fields, full %v: find(%q) = %d, want %d", b.Name(), n, full, prm.Name, got, i)
					}
					for _, miss := range []string{prm.Name + "a", prm.Name[1:], strings.ToUpper(prm.Name), ""} {
						if got := fs.find([]byte(miss)); got >= 0 && fs.params[got].Name != miss {
							t.Errorf("%s, full %v: find(%q) = %d (%q)", b.Name(), full, miss, got, fs.params[got].Name)
						}
					}
				}
			}
		}
	}
	if !chose[false] || !chose[true] {
		t.Errorf("fillSlots chose only full=%v for these field sets: one hash is untried", chose[true])
	}
}

func TestFieldSetFind_ShortRuns(t *testing.T) {
	fields := make([]reflect.StructField, 1000)
	for i := range fields {
		fields[i] = reflect.StructField{Name: "F" + strconv.Itoa(i), Type: reflect.TypeFor[int](), Tag: reflect.StructTag(fmt.Sprintf(`json:"param_%04d"`, i))}
	}
	p, err := Std.Compile(reflect.StructOf(fields))
	if err != nil {
		t.Fatal(err)
	}
	fs := p.root.fields
	if !fs.full {
		t.Errorf("1,000 names alike in length and ends: the table is by quickSlot")
	}
	if longest := fs.longestRun(); longest > 16 {
		t.Errorf("a run of %d filled slots in %d: a key probes up to %d names", longest, len(fs.slots), longest)
	}
}
