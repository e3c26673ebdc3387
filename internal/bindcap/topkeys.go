package bindcap

import "github.com/bindguard/bindguard/internal/jsonlex"

// TopKeys are what a tool's policy says of top-level keys beyond its
// plan: the keys that are never unknown (Exempt) and the aliases, which
// the pass reads every top-level key against, so that the verdict counts
// the unknown keys and finds an alias (Members.Unknown, Members.Aliased)
// and no one reads the members again for them. Build them with
// NewTopKeys, which measures the keys once.
type TopKeys struct {
	Exempt  []string
	Aliases map[string]string
	// BindAliases: the pass binds each alias it meets to the alias's
	// parameter and reads its value as the call renamed to the
	// parameter's name would be read (Members.AliasBound, the member's
	// How Alias): a call that uses an alias is then read once. An alias
	// it cannot bind so, one whose key holds an escape or a byte past
	// ASCII, or whose parameter's name would be written otherwise than as
	// it is (quoted, with no escape), stops the pass, with Members.Aliased
	// and no verdict (the issues as passed in, the members read before
	// it, Object false): the call is to be renamed and read as renamed.
	// The members' spans are the call's as sent, not as renamed.
	BindAliases bool
	// longestExempt and longestAlias are the longest exempt key and
	// alias, in bytes: an escaped key whose text is longer is neither,
	// and is not unquoted.
	longestExempt, longestAlias int
}

// NewTopKeys returns the TopKeys of a policy's exempt keys and aliases.
func NewTopKeys(exempt []string, aliases map[string]string) TopKeys {
	k := TopKeys{Exempt: exempt, Aliases: aliases}
	for _, e := range exempt {
		k.longestExempt = max(k.longestExempt, len(e))
	}
	for a := range aliases {
		k.longestAlias = max(k.longestAlias, len(a))
	}
	return k
}

// IsExempt reports whether the key raw (as sent, quoted) is one of the
// exempt keys. It allocates nothing: an escaped key is unquoted on the
// stack, unless its text is longer than every exempt key.
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
	var buf [256]byte
	text, ok := keyText(buf[:0], raw, esc, k.longestExempt)
	if !ok {
		return false
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
	var buf [256]byte
	text, ok := keyText(buf[:0], raw, esc, k.longestAlias)
	if !ok {
		return false
	}
	_, ok = k.Aliases[string(text)] // a lookup of a converted slice allocates nothing
	return ok
}

// keyText returns the text of the key raw (quoted; esc: it holds an
// escape), unquoted into buf where escaped (raw itself, quoted, where it
// does not unquote), or false for an escaped key whose text is longer
// than limit bytes: an escape stands for one byte at least and is at most
// six, so a key of more than 6*limit bytes between its quotes is one.
func keyText(buf, raw []byte, esc bool, limit int) ([]byte, bool) {
	text := raw[1 : len(raw)-1]
	if !esc {
		return text, true
	}
	if len(text) > 6*limit {
		return nil, false
	}
	if t, ok := jsonlex.Unquote(buf, raw); ok {
		return t, true
	}
	return raw, true
}
