package bind

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
)

// A Param is one key a caller may send: a struct field as the binder binds it.
type Param struct {
	// Name is the JSON key the binder matches exactly: the tag name, or the
	// Go field name when the tag gives none.
	Name string
	// GoName is the Go field's name, with the embedded structs it is
	// promoted through in front ("Inner.Limit").
	GoName string
	// Type is the field's declared Go type.
	Type reflect.Type
	// Index is the field's index sequence, for reflect.Value.FieldByIndex.
	Index []int
	// Tag is the field's whole struct tag.
	Tag reflect.StructTag
	// Quoted reports that the ,string option is in effect: the value is
	// read from inside a JSON string.
	Quoted bool
	// OmitEmpty reports the omitempty option.
	OmitEmpty bool

	// unsettable: promoted through an embedded pointer to an unexported
	// struct type, which encoding/json cannot allocate (go.dev/issue/21357).
	unsettable string
}

// stdFields lists the fields of struct type t the way encoding/json's
// typeFields does (encode.go): exported fields and the fields of embedded
// structs, json:"-" left out, name conflicts settled by depth and tagging,
// in index order.
func stdFields(t reflect.Type) []Param {
	type cand struct {
		Param
		tagged     bool
		unsettable string
	}
	type pending struct {
		typ        reflect.Type
		index      []int
		goName     string
		unsettable string
	}
	current := []pending{}
	next := []pending{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []cand

	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}

		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true

			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					t := sf.Type
					if t.Kind() == reflect.Pointer {
						t = t.Elem()
					}
					if !sf.IsExported() && t.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts := stdTagName(sf)
				index := make([]int, len(f.index)+1)
				copy(index, f.index)
				index[len(f.index)] = i
				goName := sf.Name
				if f.goName != "" {
					goName = f.goName + "." + sf.Name
				}

				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				quoted := false
				if hasOption(opts, "string") {
					switch ft.Kind() {
					case reflect.Bool,
						reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64,
						reflect.String:
						quoted = true
					}
				}

				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					fields = append(fields, cand{
						Param: Param{
							Name:      name,
							GoName:    goName,
							Type:      sf.Type,
							Index:     index,
							Tag:       sf.Tag,
							Quoted:    quoted,
							OmitEmpty: hasOption(opts, "omitempty"),
						},
						tagged:     tagged,
						unsettable: f.unsettable,
					})
					if count[f.typ] > 1 {
						// Two embedded structs of one type at one depth
						// annihilate each other's fields: the copy makes the
						// conflict visible to the dominance rule below.
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}

				nextCount[ft]++
				if nextCount[ft] == 1 {
					unsettable := f.unsettable
					if unsettable == "" && sf.Type.Kind() == reflect.Pointer && !sf.IsExported() {
						unsettable = sf.Type.String()
					}
					next = append(next, pending{typ: ft, index: index, goName: goName, unsettable: unsettable})
				}
			}
		}
	}

	slices.SortFunc(fields, func(a, b cand) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.Index), len(b.Index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return +1
		}
		return slices.Compare(a.Index, b.Index)
	})

	// Keep, for each name, the dominant field; drop names whose fields tie.
	out := fields[:0]
	for advance, i := 0, 0; i < len(fields); i += advance {
		fi := fields[i]
		for advance = 1; i+advance < len(fields); advance++ {
			if fields[i+advance].Name != fi.Name {
				break
			}
		}
		if advance == 1 {
			out = append(out, fi)
			continue
		}
		if len(fields[i].Index) == len(fields[i+1].Index) && fields[i].tagged == fields[i+1].tagged {
			continue
		}
		out = append(out, fi)
	}
	slices.SortFunc(out, func(a, b cand) int { return slices.Compare(a.Index, b.Index) })

	params := make([]Param, len(out))
	for i, f := range out {
		params[i] = f.Param
		params[i].unsettable = f.unsettable
	}
	return params
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}
