package bindcap

import "github.com/bindguard/bindguard/internal/jsonlex"

// TopKeys are what a tool's policy says of top-level keys beyond its
// plan: the keys that are never unknown (Exempt) and the aliases, which
// the pass reads every top-level key against, so that the verdict counts
// the unknown keys and finds an alias (Members.Unknown, Members.Aliased)
// and no one reads the members again for them.
type TopKeys struct {
	Exempt  []string
	Aliases map[string]string
}

// IsExempt reports whether the key raw (as sent, quoted) is one of the
// exempt keys. It allocates nothing: an escaped key is unquoted on the
// stack, unless its text is longer than every exempt key (an escape is at
// most 6 bytes for one).
func (k *TopKeys) IsExempt(raw []byte) bool {
	if len(k.Exempt) == 0 {
		return false
	}
	_, f, _ := jsonlex.String(raw, 0)
	return k.Exempted(raw, f&jsonlex.Escaped != 0)
}

// Exempted is IsExempt for a key the caller has lexed: esc, that it holds
// an escape.
func (k *TopKeys) Exempted(raw []byte, esc bool) bool {
	text := raw[1 : len(raw)-1]
	if esc {
		longest := 0
		for _, e := range k.Exempt {
			longest = max(longest, len(e))
		}
		if len(text) > 6*longest {
			return false
		}
		var buf [256]byte
		if t, ok := jsonlex.Unquote(buf[:0], raw); ok {
			text = t
		} else {
			text = raw
		}
	}
	for _, e := range k.Exempt {
		if e == string(text) {
			return true
		}
	}
	return false
}

// IsAlias reports whether the key raw (as sent, quoted) is one of the
// aliases: an escaped key by its text, as encoding/json reads it.
func (k *TopKeys) IsAlias(raw []byte) bool {
	if len(k.Aliases) == 0 {
		return false
	}
	_, f, _ := jsonlex.String(raw, 0)
	return k.Alias(raw, f&jsonlex.Escaped != 0)
}

// Alias is IsAlias for a key the caller has lexed: esc, that it holds an
// escape.
func (k *TopKeys) Alias(raw []byte, esc bool) bool {
	text := raw[1 : len(raw)-1]
	if esc {
		var buf [256]byte
		if t, ok := jsonlex.Unquote(buf[:0], raw); ok {
			text = t
		} else {
			text = raw
		}
	}
	_, ok := k.Aliases[string(text)]
	return ok
}
