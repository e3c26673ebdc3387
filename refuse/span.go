package refuse

// memberValue returns the value of the top-level member of the JSON object
// args that holds offset at, or nil. It reads only the object's structure,
// tolerantly: args are valid JSON whenever a value is refused.
func memberValue(args []byte, at int) []byte {
	i := space(args, 0)
	if i >= len(args) || args[i] != '{' {
		return nil
	}
	i++
	for {
		i = space(args, i)
		if i >= len(args) || args[i] != '"' {
			return nil
		}
		i = skip(args, i) // the key
		i = space(args, i)
		if i >= len(args) || args[i] != ':' {
			return nil
		}
		start := space(args, i+1)
		end := skip(args, start)
		if start <= at && at < end {
			return args[start:end]
		}
		i = space(args, end)
		if i >= len(args) || args[i] != ',' {
			return nil
		}
		i++
	}
}

func space(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

// skip returns the end of the JSON value at d[i].
func skip(d []byte, i int) int {
	depth := 0
	for i < len(d) {
		c := d[i]
		switch {
		case c == '"':
			i++
			for i < len(d) && d[i] != '"' {
				if d[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case c == '{' || c == '[':
			depth++
			i++
		case c == '}' || c == ']':
			if depth == 0 {
				return i
			}
			depth--
			i++
		case depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return i
		default:
			i++
		}
		if depth == 0 && (c == '"' || c == '}' || c == ']') {
			return min(i, len(d))
		}
	}
	return len(d)
}
