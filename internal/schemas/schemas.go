// Package schemas reads the schemas invopop/jsonschema publishes, for the
// packages that translate, word and check them.
package schemas

import "github.com/invopop/jsonschema"

// MapValues returns the schema of the values of a map whose schema is s:
// its additionalProperties, or, for a map keyed by numbers, which invopop
// publishes with patternProperties (and additionalProperties false), the
// one pattern's schema; nil when s says neither.
func MapValues(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	if a := s.AdditionalProperties; a != nil && a != jsonschema.FalseSchema && a != jsonschema.TrueSchema {
		return a
	}
	if len(s.PatternProperties) == 1 {
		for _, v := range s.PatternProperties {
			return v
		}
	}
	return nil
}
