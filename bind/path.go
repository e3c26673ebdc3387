package bind

import (
	"strconv"
	"strings"
)

// pathTo describes where, inside the valid JSON value at data[at:], the
// value starting at target lies: "[2]", ".name", `["odd key"]`, chained.
// It reads only what lies before target's end, all of which the checker
// has already found valid.
func pathTo(data []byte, at, target int) string {
	var sb strings.Builder
	for at != target && at < len(data) {
		switch data[at] {
		case '[':
			i := at + 1
			for k := 0; ; k++ {
				i = skipSpace(data, i)
				end := skipValue(data, i)
				if target < end {
					sb.WriteString("[" + strconv.Itoa(k) + "]")
					at = i
					break
				}
				i = skipSpace(data, end) + 1 // past ','
			}
		case '{':
			i := at + 1
			for {
				i = skipSpace(data, i)
				ke := skipValue(data, i)
				key, _ := unquote(nil, data[i:ke])
				v := skipSpace(data, skipSpace(data, ke)+1) // past ':'
				end := skipValue(data, v)
				if target < end {
					if isIdent(key) {
						sb.WriteString("." + string(key))
					} else {
						sb.WriteString("[" + strconv.Quote(cutKey(key)) + "]")
					}
					if target < v {
						return sb.String() // the target is the member's key
					}
					at = v
					break
				}
				i = skipSpace(data, end) + 1 // past ','
			}
		default:
			return sb.String() // target is not the start of a value inside
		}
	}
	return sb.String()
}

// cutKey keeps the first 40 characters of a key, so a path never carries
// more of what the caller sent than a refusal quotes of a value.
func cutKey(key []byte) string {
	s := string(key)
	n := 0
	for i := range s {
		if n == 40 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

func isIdent(s []byte) bool {
	if len(s) == 0 || len(s) > 40 {
		return false
	}
	for _, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the valid JSON value starting at data[i].
func skipValue(data []byte, i int) int {
	depth := 0
	for i < len(data) {
		switch data[i] {
		case '"':
			i++
			for i < len(data) && data[i] != '"' {
				if data[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		case ',', ':', ' ', '\t', '\n', '\r':
			i++
		default: // a number or a literal
			for i < len(data) && !strings.ContainsRune(",:]} \t\n\r", rune(data[i])) {
				i++
			}
		}
		if depth == 0 {
			return i
		}
	}
	return len(data)
}

// pathSegment is the step to the member named key: ".name", or
// `["odd key"]`.
func pathSegment(key []byte) string {
	if isIdent(key) {
		return "." + string(key)
	}
	return "[" + strconv.Quote(cutKey(key)) + "]"
}
