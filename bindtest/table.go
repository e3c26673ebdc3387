package bindtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// fileRow is a row as a table file writes it.
type fileRow struct {
	Type    *string         `json:"type"`
	Value   json.RawMessage `json:"value"`
	Refused *bool           `json:"refused"`
	Says    string          `json:"says"`
	Loss    string          `json:"loss"`
	Why     string          `json:"why"`
	Binder  string          `json:"binder"`
	Build   string          `json:"build"`
}

// ReadTable reads a table file: a JSON array of rows such as
//
//	{"type": "int32", "value": 3000000000, "refused": true, "says": "too large"}
//
// where value is any JSON value, kept as its raw text (so 3000000000 stays
// those digits, and "\ud800" stays that escape); refused, says, why and
// binder (Row.Binder), build (Row.Build) and loss (Row.Loss) are optional. A row without refused states no verdict (Row.NoVerdict). A row
// with a key other than these, without a type or a value, or with says
// where refused is false, is an error, as is text that is not such an
// array. Errors name the row, counting from 1, and the line it starts on.
//
// The file is read with encoding/json, whose limit of 10000 nested levels
// counts the table's array and the row's object: a value nested deeper
// than 9998 levels cannot be written in a table file (write such rows in
// Go).
func ReadTable(r io.Reader) ([]Row, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("bindtest: reading the table: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("bindtest: the table is not a JSON array of rows: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("bindtest: the table is not a JSON array of rows: it starts with %v", tok)
	}
	var rows []Row
	for n := 1; dec.More(); n++ {
		if jsonlex.Space(data, int(dec.InputOffset())) == len(data) {
			break // the input ended inside the array (More reports true there under GOEXPERIMENT=jsonv2)
		}
		line := lineAt(data, dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("bindtest: row %d (line %d): %v", n, line, err)
		}
		row, err := readRow(raw)
		if err != nil {
			return nil, fmt.Errorf("bindtest: row %d (line %d): %v", n, line, err)
		}
		rows = append(rows, row)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("bindtest: the table does not end after row %d: %v", len(rows), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("bindtest: text follows the table's closing ] (line %d)", lineAt(data, dec.InputOffset()))
	}
	return rows, nil
}

func readRow(raw json.RawMessage) (Row, error) {
	var fr fileRow
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fr); err != nil {
		return Row{}, fmt.Errorf("not a row (an object with type, value and optionally refused, says, loss, why, binder, build): %v", err)
	}
	switch {
	case fr.Type == nil || *fr.Type == "":
		return Row{}, errors.New("no type")
	case fr.Value == nil:
		return Row{}, errors.New("no value")
	case fr.Refused != nil && !*fr.Refused && fr.Says != "":
		return Row{}, fmt.Errorf("says %q, but refused is false", fr.Says)
	case fr.Build != "" && fr.Build != BuildJSONv2:
		return Row{}, fmt.Errorf("build %q: a row's build is %q or none", fr.Build, BuildJSONv2)
	case fr.Build != "" && fr.Binder == "":
		return Row{}, fmt.Errorf("build %q needs a binder: the experiment changes some binders, not all", fr.Build)
	case fr.Loss != "" && (fr.Refused == nil || *fr.Refused):
		return Row{}, fmt.Errorf("loss %q needs refused false: a loss is a value the binder reads", fr.Loss)
	}
	row := Row{Type: *fr.Type, Value: string(fr.Value), Says: fr.Says, Loss: fr.Loss, Why: fr.Why, Binder: fr.Binder, Build: fr.Build}
	if fr.Refused == nil {
		row.NoVerdict = true
	} else {
		row.Refused = *fr.Refused
	}
	return row, nil
}

// lineAt returns the line, counting from 1, of what starts at or after
// offset in the table's array, past white space and a comma: the next row.
func lineAt(data []byte, offset int64) int {
	i := jsonlex.Space(data, int(offset))
	if next, more, ok := jsonlex.Next(data, i, jsonlex.KindArray); ok && more {
		i = next
	}
	return 1 + bytes.Count(data[:min(i, len(data))], []byte{'\n'})
}
